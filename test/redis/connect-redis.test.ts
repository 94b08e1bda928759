import { Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  connectRedis,
  duplicateForBatching,
  duplicateForBlocking,
  hashTag,
  type RedisConnection,
} from '../../src/redis/index.js';
import { connectMode, redisModes } from '../support/redis-modes.js';

const opened: RedisConnection[] = [];
afterAll(() => {
  for (const connection of opened) connection.disconnect();
});

function keep<T extends RedisConnection>(connection: T): T {
  opened.push(connection);
  return connection;
}

describe('connectRedis', () => {
  it('builds an ioredis Sentinel connection from the configuration', () => {
    const redis = keep(
      connectRedis(
        {
          kind: 'sentinel',
          sentinels: [{ host: 'sentinel-a', port: 26379 }],
          name: 'insurechat',
          sentinelPassword: 'sentinel-secret',
        },
        { lazyConnect: true },
      ),
    );
    if (!(redis instanceof Redis)) throw new Error('expected a Redis connection');
    expect(redis.options.sentinels).toEqual([{ host: 'sentinel-a', port: 26379 }]);
    expect(redis.options.name).toBe('insurechat');
    expect(redis.options.sentinelPassword).toBe('sentinel-secret');
    expect(redis.status).toBe('wait');
  });

  it('builds a Cluster connection that reads from masters and gives each command 3 retries', () => {
    const redis = keep(
      connectRedis(
        { kind: 'cluster', nodes: [{ host: 'redis-a', port: 7000 }], password: 'node-secret' },
        { lazyConnect: true },
      ),
    );
    if (!(redis instanceof Cluster)) throw new Error('expected a Cluster connection');
    expect(redis.options.scaleReads).toBe('master');
    expect(redis.options.redisOptions).toMatchObject({
      password: 'node-secret',
      maxRetriesPerRequest: 3,
    });
  });

  it('duplicates a Cluster connection for blocking commands that never give up', () => {
    const redis = keep(
      connectRedis(
        { kind: 'cluster', nodes: [{ host: 'redis-a', port: 7000 }], password: 'node-secret' },
        { lazyConnect: true },
      ),
    );
    const blocking = keep(duplicateForBlocking(redis));
    if (!(blocking instanceof Cluster)) throw new Error('expected a Cluster connection');
    expect(blocking.options.redisOptions).toMatchObject({
      password: 'node-secret',
      maxRetriesPerRequest: null,
    });
  });

  it('wraps an id in a hash tag', () => {
    expect(hashTag('ussd:260971234567')).toBe('{ussd:260971234567}');
  });
});

describe.each(redisModes())('connectRedis on $name Redis', (mode) => {
  it.skipIf(mode.unavailable !== undefined)(
    'runs a script over keys that share a hash tag',
    async () => {
      const redis = keep(connectMode(mode));
      const tag = hashTag(`test:${Math.random()}`);
      const reply = await redis.eval(
        "redis.call('SET', KEYS[1], 'a', 'PX', 5000) redis.call('SET', KEYS[2], 'b', 'PX', 5000) return redis.call('MGET', KEYS[1], KEYS[2])",
        2,
        `one:${tag}`,
        `two:${tag}`,
      );
      expect(reply).toEqual(['a', 'b']);
    },
  );
});

describe('duplicateForBatching', () => {
  it('sends the commands of one event-loop turn in one socket write, each answered on its own', async () => {
    const shared = keep(connectRedis({ kind: 'url', url: 'redis://127.0.0.1:6379' }));
    const batching = duplicateForBatching(shared);
    if (!batching) throw new Error('a standalone connection batches');
    keep(batching);
    await batching.ping();
    const socket = batching.stream as unknown as {
      _write: (...args: unknown[]) => unknown;
      _writev: (...args: unknown[]) => unknown;
    };
    let writes = 0;
    for (const method of ['_write', '_writev'] as const) {
      const original = socket[method].bind(socket);
      socket[method] = (...args: unknown[]) => {
        writes += 1;
        return original(...args);
      };
    }
    const key = `test:batching:${process.pid}:${Date.now()}`;
    const replies = await Promise.all([
      batching.set(key, '1', 'EX', 60),
      batching.incr(key),
      batching.get(key),
    ]);
    expect(replies).toEqual(['OK', 2, '2']);
    expect(writes).toBe(1);
    await batching.del(key);
  });

  it('leaves a Cluster to its own node connections', () => {
    const cluster = keep(
      connectRedis(
        { kind: 'cluster', nodes: [{ host: 'node-a', port: 7000 }] },
        { lazyConnect: true },
      ),
    );
    expect(duplicateForBatching(cluster)).toBeUndefined();
  });
});
