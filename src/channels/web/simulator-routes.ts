import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { normaliseCaller } from '../../msisdn/index.js';
import type { UssdCore } from '../ussd/index.js';
import { renderSimulatorPage, type SimulatorTestNumber } from './simulator-page.js';

/** One SMS shown in the simulator's inbox. */
export const SimulatorSms = z.object({
  messageId: z.string(),
  to: z.string(),
  from: z.string().nullable(),
  message: z.string(),
  sentAt: z.string(),
});
/** One SMS shown in the simulator's inbox. */
export type SimulatorSms = z.infer<typeof SimulatorSms>;

/** What the page posts for each step: a fresh `sessionId` per call, `input` null on the dial. */
export const SimulatorUssdBody = z.object({
  sessionId: z.string().min(1).max(100),
  phoneNumber: z.string().min(3).max(30),
  input: z.string().max(200).nullable(),
});
/** What the page posts for each step. */
export type SimulatorUssdBody = z.infer<typeof SimulatorUssdBody>;

/** Options of {@link registerSimulatorRoutes}. */
export interface SimulatorOptions {
  /** The same USSD core the gateways reach; calling it in-process is the local gateway. */
  readonly core: UssdCore;
  readonly serviceCode: string;
  readonly testNumbers: readonly SimulatorTestNumber[];
  readonly defaultNumber: string;
  /** Messages sent to `to`, oldest first (the sandbox's SMS outbox). */
  readonly smsFor: (to: string) => Promise<readonly SimulatorSms[]>;
  /** Inbox poll interval for the page. Default 1500 ms. */
  readonly smsPollMs?: number;
}

/**
 * Registers the web USSD simulator: `GET /` (the page), `POST /simulator/ussd` (one USSD step
 * through the real core) and `GET /simulator/sms?to=` (the SMS inbox). Only for local and test
 * use: anyone who can reach it can speak as any phone number.
 */
export function registerSimulatorRoutes(app: FastifyInstance, options: SimulatorOptions): void {
  const page = renderSimulatorPage({
    serviceCode: options.serviceCode,
    testNumbers: options.testNumbers,
    defaultNumber: options.defaultNumber,
    smsPollMs: options.smsPollMs ?? 1500,
  });

  app.get('/', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header(
        'content-security-policy',
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:",
      )
      .send(page),
  );

  app.post('/simulator/ussd', async (request, reply) => {
    const body = SimulatorUssdBody.safeParse(request.body);
    const msisdn = body.success ? normaliseCaller(body.data.phoneNumber) : undefined;
    if (!body.success || msisdn === undefined) {
      return reply
        .code(400)
        .send({ error: 'bad_request', message: 'Enter a phone number such as 0971234567.' });
    }
    const response = await options.core.handle({
      sessionId: body.data.sessionId,
      msisdn,
      input: body.data.input ?? undefined,
    });
    return reply.send(response);
  });

  app.get('/simulator/sms', async (request, reply) => {
    const query = z.object({ to: z.string().min(3).max(30) }).safeParse(request.query);
    const msisdn = query.success ? normaliseCaller(query.data.to) : undefined;
    if (msisdn === undefined) {
      return reply
        .code(400)
        .send({ error: 'bad_request', message: 'Give a phone number as ?to=.' });
    }
    return reply
      .header('cache-control', 'no-store')
      .send({ messages: await options.smsFor(msisdn) });
  });
}
