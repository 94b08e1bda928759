import { afterEach, describe, expect, it } from 'vitest';
import { createPaymentKeys, type PaymentKeys } from '../../src/payments/payment-keys.js';
import { createMemoryStore, createRedisStore } from '../../src/storage/index.js';
import { type TestRedis, testRedis } from './support.js';

let store: TestRedis | undefined;

afterEach(async () => {
  await store?.cleanup();
  store = undefined;
});

function keysOver(backend: 'redis' | 'memory'): {
  keys: PaymentKeys;
  key: (name: string) => string;
} {
  if (backend === 'memory')
    return { keys: createPaymentKeys(createMemoryStore()), key: (name) => name };
  const redis = testRedis();
  store = redis;
  return {
    keys: createPaymentKeys(createRedisStore(redis.redis)),
    key: (name) => `${redis.prefix}${name}`,
  };
}

describe.each(['redis', 'memory'] as const)('payment keys over %s', (backend) => {
  it('lets only the first final outcome claim a reference', async () => {
    const { keys, key } = keysOver(backend);

    const results = await Promise.all([
      keys.claim(key('delivered'), 'paid', 60),
      keys.claim(key('delivered'), 'paid', 60),
      keys.claim(key('delivered'), 'failed', 60),
    ]);

    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await keys.claim(key('delivered'), 'pending', 60)).toBe(false);
  });

  it('lets a final outcome replace a still-pending notice, but not another pending one', async () => {
    const { keys, key } = keysOver(backend);

    expect(await keys.claim(key('delivered'), 'pending', 60)).toBe(true);
    expect(await keys.claim(key('delivered'), 'pending', 60)).toBe(false);
    expect(await keys.claim(key('delivered'), 'failed', 60)).toBe(true);
    expect(await keys.get(key('delivered'))).toBe('failed');
  });

  it('clears a failed marker on restart but keeps a paid one', async () => {
    const { keys, key } = keysOver(backend);
    await keys.claim(key('failed'), 'failed', 60);
    await keys.claim(key('paid'), 'paid', 60);

    await keys.restart(key('failed'));
    await keys.restart(key('paid'));

    expect(await keys.get(key('failed'))).toBeUndefined();
    expect(await keys.get(key('paid'))).toBe('paid');
  });

  it('counts up from one', async () => {
    const { keys, key } = keysOver(backend);

    expect(await keys.incr(key('generation'), 60)).toBe(1);
    expect(await keys.incr(key('generation'), 60)).toBe(2);
  });
});

describe('in-process payment keys', () => {
  it('forget a value once its TTL has passed', async () => {
    let now = 1_000_000;
    const keys = createPaymentKeys(createMemoryStore({ now: () => now }));
    await keys.set('route', 'r', 10);
    await keys.claim('delivered', 'paid', 10);

    now += 9_999;
    expect(await keys.get('route')).toBe('r');
    now += 1;
    expect(await keys.get('route')).toBeUndefined();
    expect(await keys.claim('delivered', 'paid', 10)).toBe(true);
  });
});
