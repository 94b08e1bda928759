import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import { z } from 'zod';
import { normaliseCaller } from '../../../msisdn/index.js';
import type { UssdCore } from '../ussd-core.js';
import type { UssdResponse } from './ussd-wire.js';

/** The form Africa's Talking posts for every USSD step. */
export const AfricasTalkingUssdBody = z.object({
  sessionId: z.string().min(1).max(200),
  serviceCode: z.string().max(50),
  phoneNumber: z.string().min(3).max(30),
  networkCode: z.string().max(20).optional(),
  /** Empty on the dial; then every input so far joined by `*`. */
  text: z.string().max(2000).default(''),
});
/** The form Africa's Talking posts for every USSD step. */
export type AfricasTalkingUssdBody = z.infer<typeof AfricasTalkingUssdBody>;
/**
 * The same form check with a generated fast path for valid forms: a form that fails it goes
 * through zod's own parser, so what is accepted and rejected is the schema's own.
 */
const checkForm = z.compile(AfricasTalkingUssdBody);

/** The newest input in Africa's Talking's `*`-joined history; undefined on the dial. */
export function newestSegment(text: string): string | undefined {
  if (text === '') return undefined;
  return text.slice(text.lastIndexOf('*') + 1);
}

/** The history before its newest input (the dial's, `''`, before the first). */
function historyBefore(text: string): string {
  const star = text.lastIndexOf('*');
  return star === -1 ? '' : text.slice(0, star);
}

/** The text/plain body Africa's Talking expects. */
function toAfricasTalkingText(response: UssdResponse): string {
  return `${response.end ? 'END' : 'CON'} ${response.text}`;
}

/** Registers `POST <path>` (default `/ussd/africastalking`): form in, `CON …`/`END …` out. */
export function registerAfricasTalkingRoute(
  app: FastifyInstance,
  options: {
    readonly core: UssdCore;
    readonly guard: preHandlerHookHandler;
    readonly path?: string;
  },
): void {
  app.post(
    options.path ?? '/ussd/africastalking',
    { preHandler: options.guard },
    async (request, reply) => {
      const body = checkForm.safeParse(request.body);
      const msisdn = body.success ? normaliseCaller(body.data.phoneNumber) : undefined;
      if (!body.success || msisdn === undefined) {
        return reply.code(400).type('text/plain').send('END Invalid USSD request.');
      }
      const response = await options.core.handle({
        sessionId: body.data.sessionId,
        msisdn,
        input: newestSegment(body.data.text),
        history: body.data.text,
        step: { id: body.data.text, follows: historyBefore(body.data.text) },
      });
      return reply.type('text/plain; charset=utf-8').send(toAfricasTalkingText(response));
    },
  );
}
