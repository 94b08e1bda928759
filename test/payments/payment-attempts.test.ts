import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiErrorFromResponse } from '../../src/api/index.js';
import type { Prompt } from '../../src/conversation/index.js';
import {
  type AttemptTracker,
  attemptReference,
  createPaymentAttempts,
  PaymentAttemptError,
  type PaymentAttempts,
  PaymentItemBusyError,
  PaymentNotTakenError,
  type PaymentRoute,
  PaymentUnconfirmedError,
} from '../../src/payments/index.js';
import { connectTestRedis } from '../support/redis.js';
import { settleOnFakeTimers } from '../support/simulated-time.js';

const connections: Redis[] = [];
const prefixes: string[] = [];

function connect(): Redis {
  const redis = connectTestRedis();
  connections.push(redis);
  return redis;
}

// The stand-in insurer's latency and the guard's polling run on simulated time; Redis is real.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

afterEach(async () => {
  vi.useRealTimers();
  const redis = connections[0];
  for (const prefix of prefixes.splice(0)) {
    const keys = (await redis?.keys(`${prefix}*`)) ?? [];
    if (keys.length > 0) await redis?.del(...keys);
  }
});

afterAll(() => {
  for (const connection of connections) connection.disconnect();
});

/** A stand-in insurer: transactions by reference, and a count of payments started. */
function insurer() {
  const statuses = new Map<string, string>();
  const started: string[] = [];
  return {
    statuses,
    started,
    async pay(reference: string) {
      started.push(reference);
      await new Promise((resolve) => setTimeout(resolve, 10));
      statuses.set(reference, 'Pending');
      return { status: 'Pending', redirectUrl: 'https://insurer.test/3ds/1' };
    },
    async readStatus(reference: string) {
      const status = statuses.get(reference);
      if (!status) {
        throw apiErrorFromResponse({ status: 404, operation: 'getTransactionStatus', rawBody: '' });
      }
      return { status };
    },
  };
}

function recordingTracker() {
  const tracked: string[] = [];
  const told: Array<{ route: PaymentRoute; prompt: Prompt }> = [];
  const tracker: AttemptTracker = {
    async track(reference) {
      tracked.push(reference);
    },
    acknowledge: async () => true,
    async tell(route, prompt) {
      told.push({ route, prompt });
    },
  };
  return { tracker, tracked, told };
}

function attemptsOver(
  world: ReturnType<typeof insurer>,
  tracker: AttemptTracker,
  redis: Redis,
  prefix: string,
) {
  return createPaymentAttempts({
    redis,
    prefix,
    readStatus: (reference) => world.readStatus(reference),
    tracker,
    logger: pino({ level: 'silent' }),
  });
}

/** Starts an attempt and waits for it on simulated time. */
function startOn(
  attempts: PaymentAttempts,
  ...args: Parameters<PaymentAttempts['start']>
): ReturnType<PaymentAttempts['start']> {
  return settleOnFakeTimers(attempts.start(...args));
}

function newPrefix(): string {
  const prefix = `test:${randomUUID()}:`;
  prefixes.push(prefix);
  return prefix;
}

const ussd: PaymentRoute = {
  sessionKey: 'ussd:260971234567',
  channel: 'ussd',
  address: '260971234567',
  locale: 'en',
};

describe('payment attempts', () => {
  it('gives each attempt of a purchase its own reference, and the same one to its duplicates', () => {
    expect(attemptReference('quote:q1.k', 1)).toBe(attemptReference('quote:q1.k', 1));
    expect(attemptReference('quote:q1.k', 2)).not.toBe(attemptReference('quote:q1.k', 1));
    // The same quote id priced again (a restarted insurer) is another purchase.
    expect(attemptReference('quote:q1.k2', 1)).not.toBe(attemptReference('quote:q1.k', 1));
  });

  it('starts one payment for 1,000 concurrent duplicates of one attempt, across instances', async () => {
    const world = insurer();
    const { tracker, tracked } = recordingTracker();
    const prefix = newPrefix();
    const sockets = Array.from({ length: 4 }, connect);
    const results = await settleOnFakeTimers(
      Promise.all(
        Array.from({ length: 1000 }, (_, index) =>
          // One starter per call: nothing shared in-process, every duplicate meets SET NX.
          attemptsOver(world, tracker, sockets[index % 4] as Redis, prefix).start(
            { purchase: 'quote:q1.k', attempt: 1, route: ussd },
            (reference) => world.pay(reference),
          ),
        ),
      ),
    );
    expect(world.started).toEqual([attemptReference('quote:q1.k', 1)]);
    expect(tracked).toHaveLength(1);
    expect(new Set(results.map((result) => result.reference)).size).toBe(1);
  });

  it('refuses a new attempt while the insurer still has the previous one pending', async () => {
    const world = insurer();
    const attempts = attemptsOver(world, recordingTracker().tracker, connect(), newPrefix());
    await startOn(attempts, { purchase: 'quote:q2.k', attempt: 1 }, (r) => world.pay(r));
    await expect(
      startOn(attempts, { purchase: 'quote:q2.k', attempt: 2 }, (r) => world.pay(r)),
    ).rejects.toBeInstanceOf(PaymentAttemptError);
    expect(world.started).toHaveLength(1);
  });

  it('starts the next attempt under a new reference once the previous one failed', async () => {
    const world = insurer();
    const attempts = attemptsOver(world, recordingTracker().tracker, connect(), newPrefix());
    const first = await startOn(attempts, { purchase: 'quote:q3.k', attempt: 1 }, (r) =>
      world.pay(r),
    );
    world.statuses.set(first.reference, 'Failed');
    const second = await startOn(attempts, { purchase: 'quote:q3.k', attempt: 2 }, (r) =>
      world.pay(r),
    );
    expect(second.reference).toBe(attemptReference('quote:q3.k', 2));
    expect(world.started).toEqual([first.reference, second.reference]);
  });

  it('never charges again once the previous attempt was paid after all', async () => {
    const world = insurer();
    const attempts = attemptsOver(world, recordingTracker().tracker, connect(), newPrefix());
    const first = await startOn(attempts, { purchase: 'quote:q4.k', attempt: 1 }, (r) =>
      world.pay(r),
    );
    world.statuses.set(first.reference, 'Success');
    const again = await startOn(attempts, { purchase: 'quote:q4.k', attempt: 2 }, (r) =>
      world.pay(r),
    );
    expect(again).toEqual({ reference: first.reference, status: 'Success' });
    expect(world.started).toEqual([first.reference]);
  });

  it('sends a USSD caller the card page by SMS with the amount it charges', async () => {
    const world = insurer();
    const { tracker, told } = recordingTracker();
    const attempts = attemptsOver(world, tracker, connect(), newPrefix());
    await startOn(
      attempts,
      { purchase: 'quote:q5.k', attempt: 1, route: ussd, due: { amount: 13125, currency: 'ZMW' } },
      (r) => world.pay(r),
    );
    expect(told).toEqual([
      {
        route: ussd,
        prompt: expect.objectContaining({
          key: 'pay.sms.cardLink',
          params: { amount: '13,125.00', currency: 'ZMW', url: 'https://insurer.test/3ds/1' },
        }),
      },
    ]);
  });

  it('sends no SMS link to a chat user, whose screen carries the link', async () => {
    const world = insurer();
    const { tracker, told } = recordingTracker();
    const attempts = attemptsOver(world, tracker, connect(), newPrefix());
    await startOn(
      attempts,
      {
        purchase: 'quote:q6.k',
        attempt: 1,
        route: { ...ussd, sessionKey: 'tg:42', channel: 'telegram', address: '42' },
      },
      (r) => world.pay(r),
    );
    expect(told).toEqual([]);
  });

  it('looks a reference up before sending it: an attempt the insurer already holds is never sent again', async () => {
    const world = insurer();
    const reference = attemptReference('quote:q7.k', 1);
    // Sent before (a timed-out try whose claim was dropped): the insurer has it.
    world.statuses.set(reference, 'Pending');
    const attempts = attemptsOver(world, recordingTracker().tracker, connect(), newPrefix());
    const started = await startOn(attempts, { purchase: 'quote:q7.k', attempt: 1 }, (r) =>
      world.pay(r),
    );
    expect(started).toEqual({ reference, status: 'Pending' });
    expect(world.started).toEqual([]);
  });

  it('takes a pay request whose answer was lost: tracked before it left, looked up, never sent twice, and the next attempt only once the first failed', async () => {
    const world = insurer();
    const { tracker, tracked } = recordingTracker();
    const attempts = attemptsOver(world, tracker, connect(), newPrefix());
    const lostAnswer = async (reference: string) => {
      await world.pay(reference);
      throw Object.assign(new Error('socket hang up'), { code: 'API_NETWORK' });
    };
    const first = await startOn(
      attempts,
      { purchase: 'quote:q8.k', attempt: 1, route: ussd },
      lostAnswer,
    );
    expect(first).toEqual({ reference: attemptReference('quote:q8.k', 1), status: 'Pending' });
    expect(tracked).toEqual([first.reference]);
    expect(world.started).toEqual([first.reference]);
    await expect(
      startOn(attempts, { purchase: 'quote:q8.k', attempt: 2, route: ussd }, (r) => world.pay(r)),
    ).rejects.toBeInstanceOf(PaymentAttemptError);
    expect(world.started).toHaveLength(1);
    world.statuses.set(first.reference, 'Failed');
    const second = await startOn(
      attempts,
      { purchase: 'quote:q8.k', attempt: 2, route: ussd },
      (r) => world.pay(r),
    );
    expect(world.started).toEqual([first.reference, second.reference]);
  });

  it('sends again a request whose answer was lost only when the lookup says the insurer has none', async () => {
    const world = insurer();
    const attempts = attemptsOver(world, recordingTracker().tracker, connect(), newPrefix());
    const neverArrived = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'API_NETWORK' });
    };
    // Unknown to the caller until looked up: followed, never told "cannot be reached".
    await expect(
      startOn(attempts, { purchase: 'quote:q9.k', attempt: 1 }, neverArrived),
    ).rejects.toBeInstanceOf(PaymentUnconfirmedError);
    const retried = await startOn(attempts, { purchase: 'quote:q9.k', attempt: 1 }, (r) =>
      world.pay(r),
    );
    expect(world.started).toEqual([retried.reference]);
  });

  it('follows a pay whose answer was lost while the lookup lags: unconfirmed, tracked for lookups, not sent twice', async () => {
    const world = insurer();
    const tracked: Array<{ reference: string; unconfirmed: boolean }> = [];
    const tracker: AttemptTracker = {
      async track(reference, _route, options) {
        tracked.push({ reference, unconfirmed: options?.unconfirmed === true });
      },
      acknowledge: async () => true,
      tell: async () => undefined,
    };
    const attempts = attemptsOver(world, tracker, connect(), newPrefix());
    const reference = attemptReference('quote:q10.k', 1);
    // The insurer takes it, but its lookup does not show it yet and the answer is a 503.
    const lagging = async (r: string) => {
      world.started.push(r);
      throw apiErrorFromResponse({ status: 503, operation: 'payQuotation', rawBody: '' });
    };
    const error = await startOn(
      attempts,
      { purchase: 'quote:q10.k', attempt: 1, route: ussd },
      lagging,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentUnconfirmedError);
    expect((error as PaymentUnconfirmedError).reference).toBe(reference);
    expect(world.started).toEqual([reference]);
    expect(tracked).toEqual([
      { reference, unconfirmed: false },
      { reference, unconfirmed: true },
    ]);
  });

  it('says a reference the insurer holds nothing under was never taken, and stops following it', async () => {
    const world = insurer();
    const untracked: string[] = [];
    const tracker: AttemptTracker = {
      ...recordingTracker().tracker,
      async untrack(reference) {
        untracked.push(reference);
      },
    };
    const attempts = attemptsOver(world, tracker, connect(), newPrefix());
    const reference = attemptReference('quote:q11.k', 1);
    await expect(attempts.check(reference, ussd)).rejects.toBeInstanceOf(PaymentNotTakenError);
    expect(untracked).toEqual([reference]);
    world.statuses.set(reference, 'Success');
    await expect(attempts.check(reference, ussd)).resolves.toBe('paid');
  });

  it('refuses a second purchase of the same item by the same holder while the first payment is unsettled, and lets it go once that one failed', async () => {
    const world = insurer();
    const attempts = attemptsOver(world, recordingTracker().tracker, connect(), newPrefix());
    const item = 'Motor Third Party for BCD 4321';
    const first = await startOn(
      attempts,
      { purchase: 'quote:q12.a', attempt: 1, route: ussd, item },
      (r) => world.pay(r),
    );
    const second = startOn(
      attempts,
      { purchase: 'quote:q13.b', attempt: 1, route: ussd, item },
      (r) => world.pay(r),
    );
    await expect(second).rejects.toBeInstanceOf(PaymentItemBusyError);
    await expect(second).rejects.toMatchObject({ item, reference: first.reference });
    expect(world.started).toEqual([first.reference]);
    // Another holder, or another item, is not held up.
    const other = { ...ussd, address: '260970000001', sessionKey: 'ussd:260970000001' };
    await startOn(attempts, { purchase: 'quote:q14.c', attempt: 1, route: other, item }, (r) =>
      world.pay(r),
    );
    expect(world.started).toHaveLength(2);
    world.statuses.set(first.reference, 'Failed');
    const third = await startOn(
      attempts,
      { purchase: 'quote:q13.b', attempt: 1, route: ussd, item },
      (r) => world.pay(r),
    );
    expect(world.started).toEqual([first.reference, expect.any(String), third.reference]);
  });

  it('tells before a second purchase starts whether the holder has a payment for the item unsettled', async () => {
    const world = insurer();
    const attempts = attemptsOver(world, recordingTracker().tracker, connect(), newPrefix());
    const item = 'Motor Third Party for BCD 4322';
    expect(await attempts.unsettled(ussd, item)).toBe(false);
    const first = await startOn(
      attempts,
      { purchase: 'quote:q15.a', attempt: 1, route: ussd, item },
      (r) => world.pay(r),
    );
    expect(await attempts.unsettled(ussd, item)).toBe(true);
    // Another holder, and another car, are not held up.
    const other = { ...ussd, address: '260970000002', sessionKey: 'ussd:260970000002' };
    expect(await attempts.unsettled(other, item)).toBe(false);
    expect(await attempts.unsettled(ussd, 'Motor Third Party for BCD 4323')).toBe(false);
    world.statuses.set(first.reference, 'Success');
    expect(await attempts.unsettled(ussd, item)).toBe(false);
  });

  it('holds up a purchase of another product for the same car, its plate typed either way, while the first payment is unsettled', async () => {
    const world = insurer();
    const attempts = attemptsOver(world, recordingTracker().tracker, connect(), newPrefix());
    const first = await startOn(
      attempts,
      {
        purchase: 'quote:q16.a',
        attempt: 1,
        route: ussd,
        item: 'Motor Third Party for BCD 4324',
        vehicle: 'BCD 4324',
      },
      (r) => world.pay(r),
    );
    const comprehensive = 'Motor Comprehensive for bcd4324';
    expect(await attempts.unsettled(ussd, comprehensive, 'bcd4324')).toBe(true);
    expect(await attempts.unsettled(ussd, comprehensive, 'BCD 4325')).toBe(false);
    const second = startOn(
      attempts,
      { purchase: 'quote:q17.b', attempt: 1, route: ussd, item: comprehensive, vehicle: 'bcd4324' },
      (r) => world.pay(r),
    );
    await expect(second).rejects.toMatchObject({ reference: first.reference });
    expect(world.started).toEqual([first.reference]);
    world.statuses.set(first.reference, 'Failed');
    expect(await attempts.unsettled(ussd, comprehensive, 'bcd4324')).toBe(false);
  });
});
