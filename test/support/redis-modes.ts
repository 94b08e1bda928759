import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import { describe, inject, it } from 'vitest';
import { connectRedis, type RedisConnection, type RedisTarget } from '../../src/redis/index.js';
import { TEST_REDIS_URL } from './redis.js';

/** The standalone Redis every test uses (see test/support/redis.ts). */
export const STANDALONE_URL = TEST_REDIS_URL;

/** A Redis mode a test runs against, connected through the application's own factory. */
export interface RedisMode {
  /** `standalone` or `cluster`, for test names. */
  readonly name: 'standalone' | 'cluster';
  /** Where this mode's Redis is. */
  readonly target: RedisTarget;
  /** Why this mode cannot run here (the cluster's binaries are missing), or undefined. */
  readonly unavailable: string | undefined;
}

/** The standalone server and the run's shared Cluster (started by global-redis-cluster.ts). */
export function redisModes(): readonly RedisMode[] {
  const cluster = inject('redisCluster');
  return [
    { name: 'standalone', target: { kind: 'url', url: STANDALONE_URL }, unavailable: undefined },
    'nodes' in cluster
      ? {
          name: 'cluster',
          target: { kind: 'cluster', nodes: [...cluster.nodes] },
          unavailable: undefined,
        }
      : {
          name: 'cluster',
          target: { kind: 'cluster', nodes: [{ host: '127.0.0.1', port: 1 }] },
          unavailable: cluster.unavailable,
        },
  ];
}

/**
 * The modes that can run here. A mode that cannot (the cluster's binaries are missing, never on
 * CI: global setup fails there instead) shows up as a skipped test that says why.
 */
export function runnableModes(): readonly RedisMode[] {
  const modes = redisModes();
  for (const mode of modes) {
    const reason = mode.unavailable;
    if (reason !== undefined) {
      describe.skip(`on ${mode.name} Redis`, () => {
        it(reason, () => {});
      });
    }
  }
  return modes.filter((mode) => mode.unavailable === undefined);
}

/** Connects to `mode` with the application's connection factory. */
export function connectMode(mode: RedisMode): RedisConnection {
  return connectRedis(mode.target);
}

/** A fresh `test:<uuid>:` key prefix. */
export function testPrefix(): string {
  return `test:${randomUUID()}:`;
}

/**
 * Deletes every key containing `prefix` (hash-tagged BullMQ keys start with `{`), on every
 * master of a Cluster; keys are deleted one by one since they live in different slots.
 */
export async function deleteKeys(redis: RedisConnection, prefix: string): Promise<void> {
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 500);
      cursor = next;
      await Promise.all(keys.map((key) => node.del(key)));
    } while (cursor !== '0');
  }
}
