import { afterEach, describe, expect, it } from 'vitest';
import { createPaymentRoutes, PaymentRouteError } from '../../src/payments/index.js';
import { createRedisStore } from '../../src/storage/index.js';
import { type TestRedis, testRedis } from './support.js';

let store: TestRedis;

afterEach(async () => {
  await store.cleanup();
});

describe('payment routes', () => {
  it('reads back the route recorded for a reference, with its TTL', async () => {
    store = testRedis();
    const routes = createPaymentRoutes(createRedisStore(store.redis), {
      prefix: store.prefix,
      ttlSeconds: 120,
    });
    const route = {
      sessionKey: 'ussd:260971234567',
      channel: 'ussd',
      address: '260971234567',
      locale: 'en',
      quoteId: 'Q1',
    } as const;

    await routes.save('REF-1', route);

    expect(await routes.get('REF-1')).toEqual(route);
    const ttl = await store.redis.ttl(routes.key('REF-1'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(120);
  });

  it('answers undefined for a reference nobody recorded', async () => {
    store = testRedis();
    const routes = createPaymentRoutes(createRedisStore(store.redis), {
      prefix: store.prefix,
      ttlSeconds: 60,
    });

    expect(await routes.get('REF-NONE')).toBeUndefined();
  });

  it('refuses to record a route without a session key', async () => {
    store = testRedis();
    const routes = createPaymentRoutes(createRedisStore(store.redis), {
      prefix: store.prefix,
      ttlSeconds: 60,
    });

    await expect(
      routes.save('REF-2', { sessionKey: '', channel: 'telegram', address: '1', locale: 'en' }),
    ).rejects.toThrow();
    expect(await store.redis.exists(routes.key('REF-2'))).toBe(0);
  });

  it('raises PaymentRouteError for a stored route it cannot read', async () => {
    store = testRedis();
    const routes = createPaymentRoutes(createRedisStore(store.redis), {
      prefix: store.prefix,
      ttlSeconds: 60,
    });
    await store.redis.set(routes.key('REF-3'), '{"sessionKey":');

    const error = await routes.get('REF-3').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PaymentRouteError);
    expect(error).toMatchObject({ code: 'PAYMENT_ROUTE_INVALID', reference: 'REF-3' });
  });
});
