import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import { z } from 'zod';
import { normaliseCaller } from '../../../msisdn/index.js';
import type { UssdCore } from '../ussd-core.js';

/** The JSON Hubtel posts for every USSD step (fields we do not use are allowed through). */
const HubtelUssdBody = z.looseObject({
  SessionId: z.string().min(1).max(200),
  Mobile: z.string().min(3).max(30),
  /** Initiation on the dial, Response for each input, Release/Timeout when the call ends. */
  Type: z
    .string()
    .transform((type) => type.toLowerCase())
    .pipe(z.enum(['initiation', 'response', 'release', 'timeout'])),
  /** The dial string on initiation, then only the newest input. */
  Message: z.string().max(2000).default(''),
  /** 1 on the dial, one more with each request of the call: what tells a retry apart. */
  Sequence: z.coerce.number().int().nonnegative().optional(),
  ServiceCode: z.string().max(50).optional(),
  Operator: z.string().max(50).optional(),
});
/** Registers `POST <path>` (default `/ussd/hubtel`): Hubtel JSON in, `{Type, Message}` out. */
export function registerHubtelRoute(
  app: FastifyInstance,
  options: {
    readonly core: UssdCore;
    readonly guard: preHandlerHookHandler;
    readonly path?: string;
  },
): void {
  app.post(
    options.path ?? '/ussd/hubtel',
    { preHandler: options.guard },
    async (request, reply) => {
      const body = HubtelUssdBody.safeParse(request.body);
      const msisdn = body.success ? normaliseCaller(body.data.Mobile) : undefined;
      if (!body.success || msisdn === undefined) {
        return reply.code(400).send({ Type: 'Release', Message: 'Invalid USSD request.' });
      }
      const { Type, Message, SessionId, Sequence } = body.data;
      if (Type === 'release' || Type === 'timeout') {
        // The caller hung up; the conversation stays in the session for a later dial.
        return reply.send({ Type: 'Release', Message: '' });
      }
      const response = await options.core.handle({
        sessionId: SessionId,
        msisdn,
        input: Type === 'initiation' ? undefined : Message,
        history: Sequence === undefined ? undefined : `${Sequence}:${Message}`,
        step:
          Sequence === undefined
            ? undefined
            : { id: String(Sequence), follows: String(Sequence - 1) },
      });
      return reply.send({ Type: response.end ? 'Release' : 'Response', Message: response.text });
    },
  );
}
