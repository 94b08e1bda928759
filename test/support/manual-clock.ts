import { Cluster } from 'ioredis';
import type { RedisConnection } from '../../src/redis/index.js';

/** A clock that moves only when the test says so; `now` fits any `() => number` clock option. */
export interface ManualClock {
  readonly now: () => number;
  advance(ms: number): void;
}

/** A {@link ManualClock} starting at the real time, so dates it makes look ordinary. */
export function manualClock(start = Date.now()): ManualClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
  };
}

/**
 * Moves time forward for every key under `prefix` by shortening its TTL: Redis keeps its own
 * clock, so this is how a test makes a lock or a session expire without sleeping. Keys whose
 * time runs out are deleted, as Redis would have expired them.
 */
export async function advanceRedisTtls(
  redis: RedisConnection,
  prefix: string,
  ms: number,
): Promise<void> {
  // A Cluster's keys are spread over its masters: each is scanned on the node that holds it.
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const left = await node.pttl(key);
        if (left < 0) continue; // no TTL (-1) or already gone (-2)
        if (left <= ms) await node.del(key);
        else await node.pexpire(key, left - ms);
      }
    } while (cursor !== '0');
  }
}
