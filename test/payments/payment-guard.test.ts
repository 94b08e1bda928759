import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  createPaymentGuard,
  PaymentGuardError,
  paymentGuardKey,
} from '../../src/payments/index.js';
import type { RedisConnection } from '../../src/redis/index.js';
import { createMemoryStore, createRedisStore } from '../../src/storage/index.js';
import {
  connectMode,
  deleteKeys,
  type RedisMode,
  runnableModes,
  testPrefix,
} from '../support/redis-modes.js';
import { settleOnFakeTimers } from '../support/simulated-time.js';

const PaymentStarted = z.object({ reference: z.string(), status: z.string() });
type PaymentStarted = z.infer<typeof PaymentStarted>;

const modes = runnableModes();
const connections: RedisConnection[] = [];
const prefixes: Array<{ redis: RedisConnection; prefix: string }> = [];

// The starts' latency and the guard's polling run on simulated time; Redis answers for real.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

afterEach(async () => {
  vi.useRealTimers();
  for (const { redis, prefix } of prefixes.splice(0)) await deleteKeys(redis, prefix);
});

afterAll(() => {
  for (const connection of connections) connection.disconnect();
});

function connect(mode: RedisMode): RedisConnection {
  const connection = connectMode(mode);
  connections.push(connection);
  return connection;
}

/** A start function that counts its calls and takes a little (simulated) while, like the insurer. */
function countingStart(quoteId: string) {
  let calls = 0;
  const start = async (): Promise<PaymentStarted> => {
    calls += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { reference: `REF-${quoteId}`, status: `Pending#${calls}` };
  };
  return { start, calls: () => calls };
}

describe.each(modes)('payment guard over $name Redis', (mode) => {
  let redis: RedisConnection;
  beforeAll(() => {
    redis = connect(mode);
  });

  function prefix(): string {
    const keyPrefix = testPrefix();
    prefixes.push({ redis, prefix: keyPrefix });
    return keyPrefix;
  }

  it('starts one payment for 1,000 concurrent duplicates, each from its own guard', async () => {
    const keyPrefix = prefix();
    const sockets = Array.from({ length: 4 }, () => connect(mode));
    // One guard per call: no in-process sharing, every duplicate goes through SET NX.
    const { start, calls } = countingStart('Q-1');
    const results = await settleOnFakeTimers(
      Promise.all(
        Array.from({ length: 1000 }, (_, index) =>
          createPaymentGuard({
            store: createRedisStore(sockets[index % 4] ?? redis),
            keyPrefix,
            schema: PaymentStarted,
          }).once('Q-1', start),
        ),
      ),
    );
    expect(calls()).toBe(1);
    expect(new Set(results.map((result) => JSON.stringify(result))).size).toBe(1);
    expect(results[0]).toEqual({ reference: 'REF-Q-1', status: 'Pending#1' });
  });

  it('shares one start among duplicates inside one instance', async () => {
    const guard = createPaymentGuard({
      store: createRedisStore(redis),
      keyPrefix: prefix(),
      schema: PaymentStarted,
    });
    const { start, calls } = countingStart('Q-1');
    await settleOnFakeTimers(
      Promise.all(Array.from({ length: 100 }, () => guard.once('Q-1', start))),
    );
    expect(calls()).toBe(1);
  });

  it('returns the stored result to a later duplicate without starting again', async () => {
    const keyPrefix = prefix();
    const { start, calls } = countingStart('Q-1');
    const first = await settleOnFakeTimers(
      createPaymentGuard({
        store: createRedisStore(redis),
        keyPrefix,
        schema: PaymentStarted,
      }).once('Q-1', start),
    );
    const later = createPaymentGuard({
      store: createRedisStore(redis),
      keyPrefix,
      schema: PaymentStarted,
    });
    expect(await settleOnFakeTimers(later.once('Q-1', start))).toEqual(first);
    expect(calls()).toBe(1);
  });

  it('lets the user retry after a start that failed', async () => {
    const guard = createPaymentGuard({
      store: createRedisStore(redis),
      keyPrefix: prefix(),
      schema: PaymentStarted,
    });
    await expect(
      guard.once('Q-1', async () => {
        throw new Error('insurer unavailable');
      }),
    ).rejects.toThrow('insurer unavailable');
    const { start, calls } = countingStart('Q-1');
    await settleOnFakeTimers(guard.once('Q-1', start));
    expect(calls()).toBe(1);
  });

  it('keeps quotations apart', async () => {
    const guard = createPaymentGuard({
      store: createRedisStore(redis),
      keyPrefix: prefix(),
      schema: PaymentStarted,
    });
    const one = countingStart('Q-1');
    const two = countingStart('Q-2');
    await settleOnFakeTimers(
      Promise.all([guard.once('Q-1', one.start), guard.once('Q-2', two.start)]),
    );
    expect([one.calls(), two.calls()]).toEqual([1, 1]);
  });

  it('fails with a named error when the stored result is corrupt', async () => {
    const keyPrefix = prefix();
    await redis.set(paymentGuardKey(keyPrefix, 'Q-1'), 'not json');
    const guard = createPaymentGuard({
      store: createRedisStore(redis),
      keyPrefix,
      schema: PaymentStarted,
    });
    const error = await guard.once('Q-1', countingStart('Q-1').start).catch((caught) => caught);
    expect(error).toBeInstanceOf(PaymentGuardError);
    expect(error).toMatchObject({ code: 'PAYMENT_GUARD_CORRUPT', quoteId: 'Q-1' });
  });

  it('times out a duplicate whose first start never finishes', async () => {
    const keyPrefix = prefix();
    await redis.set(
      paymentGuardKey(keyPrefix, 'Q-1'),
      JSON.stringify({ state: 'starting', token: 't' }),
    );
    const guard = createPaymentGuard({
      store: createRedisStore(redis),
      keyPrefix,
      schema: PaymentStarted,
      waitMs: 50,
    });
    const { start, calls } = countingStart('Q-1');
    await expect(settleOnFakeTimers(guard.once('Q-1', start))).rejects.toMatchObject({
      code: 'PAYMENT_GUARD_TIMEOUT',
    });
    expect(calls()).toBe(0);
  });
});

describe('payment guard in memory', () => {
  it('starts one payment for 1,000 concurrent duplicates', async () => {
    const guard = createPaymentGuard({ store: createMemoryStore(), schema: PaymentStarted });
    const { start, calls } = countingStart('Q-1');
    const results = await settleOnFakeTimers(
      Promise.all(Array.from({ length: 1000 }, () => guard.once('Q-1', start))),
    );
    expect(calls()).toBe(1);
    expect(new Set(results.map((result) => JSON.stringify(result))).size).toBe(1);
  });

  it('returns the stored result to a later duplicate without starting again', async () => {
    const guard = createPaymentGuard({ store: createMemoryStore(), schema: PaymentStarted });
    const { start, calls } = countingStart('Q-1');
    const first = await settleOnFakeTimers(guard.once('Q-1', start));
    expect(await settleOnFakeTimers(guard.once('Q-1', start))).toEqual(first);
    expect(calls()).toBe(1);
  });
});

describe('payment guard in memory after a failed start', () => {
  it('lets the user retry at once', async () => {
    const guard = createPaymentGuard({ store: createMemoryStore(), schema: PaymentStarted });
    await expect(
      guard.once('Q-1', async () => {
        throw new Error('insurer unavailable');
      }),
    ).rejects.toThrow('insurer unavailable');
    const { start, calls } = countingStart('Q-1');
    await settleOnFakeTimers(guard.once('Q-1', start));
    expect(calls()).toBe(1);
  });
});
