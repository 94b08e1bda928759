import { createHash } from 'node:crypto';
import type { RedisConnection } from '../redis/index.js';

/** A Redis connection a store can run scripts on: standalone, Sentinel or Cluster. */
export type { RedisConnection };

/**
 * A Lua script run by SHA (one round trip), loaded with EVAL only when the server does not
 * know it yet (after a restart or failover).
 */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /**
   * Runs the script; all keys must share a hash slot on a Cluster. Not an async function: it is
   * on every turn's path twice, and the fallback needs only a rejection handler.
   */
  run(
    redis: RedisConnection,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<unknown> {
    return redis.evalsha(this.sha, keys.length, ...keys, ...args).catch((error: unknown) => {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
        return redis.eval(this.source, keys.length, ...keys, ...args);
      }
      throw error;
    });
  }
}
