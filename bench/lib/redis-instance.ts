import type { Redis } from 'ioredis';
import { startRedisProcess } from '../../test/reliability/redis-process.js';

/** The Redis server a bench run uses, and how to give it back. */
export interface RedisInstance {
  readonly url: string;
  /** `private` when the bench started its own redis-server, `shared` for REDIS_URL. */
  readonly kind: 'private' | 'shared';
  stop(): Promise<void>;
}

/**
 * The bench's Redis. With REDIS_URL set, that server (shared: other traffic on it blurs the
 * command counts). Otherwise a private `redis-server` on a free port (the reliability suite's
 * launcher), so INFO commandstats and memory deltas count only the bench's own traffic; falls back
 * to 127.0.0.1:6379 when the binary is missing.
 */
export async function openBenchRedis(): Promise<RedisInstance> {
  const configured = process.env.REDIS_URL;
  if (configured) return { url: configured, kind: 'shared', stop: async () => {} };
  try {
    const server = await startRedisProcess();
    return { url: server.url, kind: 'private', stop: () => server.stop() };
  } catch {
    return { url: 'redis://127.0.0.1:6379', kind: 'shared', stop: async () => {} };
  }
}

/** Calls per command name from INFO commandstats (`cmdstat_get:calls=3,...`). */
export async function commandStats(redis: Redis): Promise<Map<string, number>> {
  const info = await redis.info('commandstats');
  const calls = new Map<string, number>();
  for (const line of info.split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match) calls.set(match[1]!, Number(match[2]));
  }
  return calls;
}

/** Commands run between two commandstats readings, without the bench's own INFO calls. */
export function commandDelta(
  before: Map<string, number>,
  after: Map<string, number>,
): Map<string, number> {
  const delta = new Map<string, number>();
  for (const [name, count] of after) {
    if (name === 'info') continue;
    const diff = count - (before.get(name) ?? 0);
    if (diff > 0) delta.set(name, diff);
  }
  return delta;
}

/** `used_memory` in bytes from INFO memory. */
export async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  const match = /used_memory:(\d+)/.exec(info);
  return match ? Number(match[1]) : Number.NaN;
}

/** Deletes every key under a prefix with SCAN (never KEYS, which blocks a shared server). */
export async function deletePrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}
