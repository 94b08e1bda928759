import { afterEach, describe, expect, it } from 'vitest';
import type { Prompt, Reply } from '../../src/conversation/index.js';
import { ENGINE_PROMPTS } from '../../src/conversation/index.js';
import type { Job as PaymentJob } from '../../src/jobs/index.js';
import { createPaymentService, type PaymentService } from '../../src/payments/index.js';
import { createPaymentContext } from '../../src/payments/payment-context.js';
import { proceedWithPayment } from '../../src/payments/payment-proceed.js';
import { engineOf } from '../support/turn-engine-double.js';
import { quietLogger, RecordingNotifier } from './support.js';

// Issue 38: a USSD caller's mobile-money payment starts after their call ended, from a job that
// sends the conversation `payment.proceed`; what the conversation then shows is told once.

const route = {
  sessionKey: 'ussd:260971234567',
  channel: 'ussd' as const,
  address: '260971234567',
  locale: 'en',
};

const screen = (key: string, final = false): Prompt => ({ key, input: 'none', final });

/** The screen that let the call go: the conversation waits for the pay request. */
const RELEASED: Prompt = { ...screen('pay.released'), endsCall: true };

/**
 * A conversation that waits on `waiting` and answers every event with `answer`, recording what it
 * was sent (a peek sends nothing).
 */
function conversation(answer: (reply: Reply) => Prompt, waiting: Prompt = RELEASED) {
  const sent: Reply[] = [];
  const engine = engineOf({
    turn: async (_key, reply) => {
      sent.push(reply);
      return answer(reply);
    },
  });
  engine.peek = async () => waiting;
  return { engine, sent };
}

/** One run of a proceed job, as the scheduler hands it over (its data kept across runs). */
function jobOf(data: unknown, attemptsMade = 0): PaymentJob {
  const job = {
    name: 'proceed',
    data,
    attemptsMade,
    attempts: 6,
    async updateData(next: unknown) {
      job.data = next;
    },
  };
  return job;
}

/** What a proceed job runs with: the SMS it tells by, and an insurer whose payment waits. */
function proceedContext(engine: ReturnType<typeof conversation>['engine']) {
  const sms = new RecordingNotifier('ussd');
  const ctx = createPaymentContext({
    engine,
    notifiers: [sms],
    logger: quietLogger,
    getStatus: async () => ({ status: 'Pending' }),
  });
  return { ctx, sms };
}

const services: PaymentService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
});

describe('a payment started after the call', () => {
  it('sends payment.proceed to the conversation once its delay is over, and tells nothing while the payment only waits on the phone', async () => {
    const { engine, sent } = conversation(() => screen('pay.waitHandset'));
    const sms = new RecordingNotifier('ussd');
    const service = createPaymentService({
      engine,
      notifiers: [sms],
      logger: quietLogger,
      getStatus: async () => ({ status: 'Pending' }),
      proceedDelayMs: 0,
    });
    services.push(service);
    const id = await service.proceedLater(route);
    await service.settled();
    expect(sent).toEqual([{ type: 'payment.proceed', id }]);
    expect(sms.sent).toEqual([]);
  });

  it('tells what followed (a refusal, a new price) once, however often the job runs', async () => {
    const { engine, sent } = conversation(() => screen('flow.failed.refused'));
    const { ctx, sms } = proceedContext(engine);
    const data = { id: 'go-1', route };
    const job = jobOf(data);
    await proceedWithPayment(ctx, job);
    // Delivered again (a worker that died before acknowledging it): the same job, run again.
    await proceedWithPayment(ctx, job);
    await proceedWithPayment(ctx, jobOf(data));
    expect(sms.sent.map((told) => told.prompt.key)).toEqual(['flow.failed.refused']);
    // The conversation itself ignores an id it took already (flows/payment-machine.ts).
    expect(sent.every((reply) => reply.type === 'payment.proceed')).toBe(true);
  });

  it('starts nothing and tells nothing once the caller dialled again and started something else', async () => {
    const { engine, sent } = conversation(
      () => screen('flow.failed.refused'),
      screen('travel.askDestination'),
    );
    const { ctx, sms } = proceedContext(engine);
    await proceedWithPayment(ctx, jobOf({ id: 'go-3', route }));
    expect(sent).toEqual([]);
    expect(sms.sent).toEqual([]);
  });

  it('is retried while the conversation is busy, and gives up quietly once it is gone', async () => {
    let answer = screen(ENGINE_PROMPTS.busy);
    const { engine } = conversation(() => answer);
    const { ctx, sms } = proceedContext(engine);
    await expect(proceedWithPayment(ctx, jobOf({ id: 'go-2', route }))).rejects.toMatchObject({
      code: 'PAYMENT_FLOW_UNAVAILABLE',
    });
    answer = screen(ENGINE_PROMPTS.sessionEnded, true);
    await proceedWithPayment(ctx, jobOf({ id: 'go-2', route }, 1));
    expect(sms.sent).toEqual([]);
  });
});
