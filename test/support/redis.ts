import { Redis, type RedisOptions } from 'ioredis';

/**
 * The Redis every test talks to: `REDIS_URL`, which the suite's global setup sets to a throwaway
 * server when nothing answers at the configured one.
 */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A connection to the test Redis; the caller disconnects it. */
export function connectTestRedis(
  options: Pick<RedisOptions, 'lazyConnect' | 'maxRetriesPerRequest'> = {},
): Redis {
  return new Redis(TEST_REDIS_URL, options);
}
