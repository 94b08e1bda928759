import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryOnceSet, type OnceSet, RedisOnceSet } from '../../../src/channels/shared/index.js';
import { connectTestRedis } from '../../support/redis.js';

const redis = connectTestRedis({ lazyConnect: true, maxRetriesPerRequest: 1 });
const prefix = `test:${randomUUID()}:seen:`;

beforeAll(async () => {
  await redis.connect();
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe.each([
  ['memory', () => new MemoryOnceSet()],
  ['Redis', () => new RedisOnceSet(redis, prefix)],
] as const)('OnceSet in %s', (_name, make: () => OnceSet) => {
  it('lets the first claim of an id through and refuses the rest', async () => {
    const seen = make();
    const id = randomUUID();
    expect(await seen.claim(id)).toBe(true);
    expect(await seen.claim(id)).toBe(false);
    expect(await seen.claim(randomUUID())).toBe(true);
  });

  it('gives exactly one of many simultaneous claims of one id', async () => {
    const seen = make();
    const id = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => seen.claim(id)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});

it('a Redis claim is seen by another instance sharing the prefix', async () => {
  const id = randomUUID();
  expect(await new RedisOnceSet(redis, prefix).claim(id)).toBe(true);
  expect(await new RedisOnceSet(redis, prefix).claim(id)).toBe(false);
});

it('a Redis claim expires after its TTL', async () => {
  const id = randomUUID();
  await new RedisOnceSet(redis, prefix, { ttlSeconds: 30 }).claim(id);
  const ttl = await redis.ttl(`${prefix}${id}`);
  expect(ttl).toBeGreaterThan(0);
  expect(ttl).toBeLessThanOrEqual(30);
});
