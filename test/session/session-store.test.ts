import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RedisConnection } from '../../src/redis/index.js';
import {
  MemorySessionStore,
  RedisSessionStore,
  type SessionStore,
  type SessionStoreOptions,
} from '../../src/session/index.js';
import { advanceRedisTtls, manualClock } from '../support/manual-clock.js';
import {
  connectMode,
  deleteKeys,
  type RedisMode,
  redisModes,
  testPrefix,
} from '../support/redis-modes.js';
import { settleOnFakeTimers } from '../support/simulated-time.js';

const modes = redisModes();
const connections = new Map<string, RedisConnection>();
const prefixes: Array<{ redis: RedisConnection; prefix: string }> = [];

beforeAll(() => {
  for (const mode of modes) if (!mode.unavailable) connections.set(mode.name, connectMode(mode));
});

afterEach(async () => {
  for (const { redis, prefix } of prefixes.splice(0)) await deleteKeys(redis, prefix);
});

afterAll(() => {
  for (const connection of connections.values()) connection.disconnect();
});

/** A store on `mode`'s Redis under a fresh prefix, deleted after the test. */
function redisStore(mode: RedisMode, options?: SessionStoreOptions): SessionStore {
  const redis = connections.get(mode.name);
  if (!redis) throw new Error(`no connection to ${mode.name} Redis`);
  const keyPrefix = testPrefix();
  prefixes.push({ redis, prefix: keyPrefix });
  return new RedisSessionStore({ redis, keyPrefix, ...options });
}

/** A store maker, and how a test moves that store's time forward without sleeping. */
type Implementation = [
  string,
  (options?: SessionStoreOptions) => SessionStore,
  (ms: number) => Promise<void>,
];

const memoryTime = manualClock();
const implementations: Implementation[] = [
  [
    'memory',
    (options) => new MemorySessionStore({ now: memoryTime.now, ...options }),
    async (ms) => memoryTime.advance(ms),
  ],
  ...modes
    .filter((mode) => mode.unavailable === undefined)
    .map(
      (mode): Implementation => [
        `redis ${mode.name}`,
        (options) => redisStore(mode, options),
        async (ms) => {
          for (const { redis, prefix } of prefixes) await advanceRedisTtls(redis, prefix, ms);
        },
      ],
    ),
];

describe.each(implementations)('%s session store', (_name, makeStore, advance) => {
  it('acquires a fresh session with no record and no interruption', async () => {
    const store = makeStore();
    const result = await store.acquire('ussd:1');
    expect(result).toMatchObject({ status: 'acquired', record: undefined, interrupted: false });
  });

  it('reads back what a commit wrote, one version higher each write', async () => {
    const store = makeStore();
    for (const [index, data] of ['a', 'b', 'c'].entries()) {
      const acquired = await store.acquire('ussd:1');
      if (acquired.status !== 'acquired') throw new Error('expected the lock');
      expect(await store.commit(acquired.lease, data)).toEqual({
        status: 'committed',
        version: index + 1,
      });
    }
    const last = await store.acquire('ussd:1');
    expect(last).toMatchObject({ status: 'acquired', record: { version: 3, data: 'c' } });
  });

  it('leaves the data out when the caller already holds the current version', async () => {
    const store = makeStore();
    const first = await store.acquire('ussd:1');
    if (first.status !== 'acquired') throw new Error('expected the lock');
    await store.commit(first.lease, 'a');
    const known = await store.acquire('ussd:1', { knownVersion: 1 });
    expect(known).toMatchObject({ status: 'acquired', record: undefined, unchanged: true });
    if (known.status !== 'acquired') throw new Error('expected the lock');
    // The lease still carries the version, so the compare-and-set write goes over it.
    expect(await store.commit(known.lease, 'b')).toEqual({ status: 'committed', version: 2 });
  });

  it('sends the data when the version the caller holds is stale', async () => {
    const store = makeStore();
    for (const data of ['a', 'b']) {
      const acquired = await store.acquire('ussd:1');
      if (acquired.status !== 'acquired') throw new Error('expected the lock');
      await store.commit(acquired.lease, data);
    }
    const stale = await store.acquire('ussd:1', { knownVersion: 1 });
    expect(stale).toMatchObject({ status: 'acquired', record: { version: 2, data: 'b' } });
    expect(stale).not.toHaveProperty('unchanged');
  });

  it('answers busy when the lock stays taken past the wait', async () => {
    const store = makeStore();
    const first = await store.acquire('ussd:1');
    expect(first.status).toBe('acquired');
    expect(await store.acquire('ussd:1', { waitMs: 30 })).toEqual({ status: 'busy' });
  });

  it('hands the lock to a waiting turn once the holder releases it', async () => {
    const store = makeStore();
    const first = await store.acquire('ussd:1');
    if (first.status !== 'acquired') throw new Error('expected the lock');
    // The waiter's back-off runs on simulated time; its lock attempts go to the real store.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const waiting = store.acquire('ussd:1', { waitMs: 10_000 });
      // Released only once the waiter has met the taken lock and is backing off (its timer).
      while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
      await store.release(first.lease);
      expect((await settleOnFakeTimers(waiting)).status).toBe('acquired');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps sessions apart: a lock on one key does not block another', async () => {
    const store = makeStore();
    await store.acquire('ussd:1');
    expect((await store.acquire('ussd:2', { waitMs: 0 })).status).toBe('acquired');
  });

  it('refuses a commit from a turn whose lock expired and was taken over', async () => {
    const store = makeStore();
    const stale = await store.acquire('ussd:1', { lockTtlMs: 20 });
    if (stale.status !== 'acquired') throw new Error('expected the lock');
    await advance(60);
    const fresh = await store.acquire('ussd:1', { waitMs: 0 });
    if (fresh.status !== 'acquired') throw new Error('expected the lock');
    expect(await store.commit(stale.lease, 'stale')).toEqual({ status: 'lock-lost' });
    expect(await store.commit(fresh.lease, 'fresh')).toEqual({ status: 'committed', version: 1 });
    expect(await store.read('ussd:1')).toEqual({ version: 1, data: 'fresh' });
  });

  it('refuses a compare-and-set write over a version that moved', async () => {
    const store = makeStore();
    const acquired = await store.acquire('ussd:1');
    if (acquired.status !== 'acquired') throw new Error('expected the lock');
    expect(await store.commit({ ...acquired.lease, version: 7 }, 'x')).toEqual({
      status: 'conflict',
    });
    expect(await store.read('ussd:1')).toBeUndefined();
    expect((await store.acquire('ussd:1', { waitMs: 0 })).status).toBe('acquired');
  });

  it('deletes the record on remove and frees the lock', async () => {
    const store = makeStore();
    const first = await store.acquire('ussd:1');
    if (first.status !== 'acquired') throw new Error('expected the lock');
    await store.commit(first.lease, 'a');
    const second = await store.acquire('ussd:1');
    if (second.status !== 'acquired') throw new Error('expected the lock');
    expect(await store.remove(second.lease)).toEqual({ status: 'deleted' });
    expect(await store.acquire('ussd:1', { waitMs: 0 })).toMatchObject({
      status: 'acquired',
      record: undefined,
    });
  });

  it('leaves the record as it was on release', async () => {
    const store = makeStore();
    const first = await store.acquire('ussd:1');
    if (first.status !== 'acquired') throw new Error('expected the lock');
    await store.commit(first.lease, 'a');
    const second = await store.acquire('ussd:1');
    if (second.status !== 'acquired') throw new Error('expected the lock');
    await store.release(second.lease);
    expect(await store.acquire('ussd:1', { waitMs: 0 })).toMatchObject({
      status: 'acquired',
      record: { version: 1, data: 'a' },
      interrupted: false,
    });
  });

  it('reports an interrupted turn when the previous holder never finished', async () => {
    const store = makeStore();
    const first = await store.acquire('ussd:1');
    if (first.status !== 'acquired') throw new Error('expected the lock');
    await store.commit(first.lease, 'a');
    const dying = await store.acquire('ussd:1', { lockTtlMs: 20 });
    expect(dying).toMatchObject({ status: 'acquired', interrupted: false });
    await advance(60);
    const next = await store.acquire('ussd:1', { waitMs: 0 });
    if (next.status !== 'acquired') throw new Error('expected the lock');
    expect(next).toMatchObject({ interrupted: true, record: { version: 1, data: 'a' } });
    await store.commit(next.lease, 'b');
    expect(await store.acquire('ussd:1', { waitMs: 0 })).toMatchObject({ interrupted: false });
  });

  it('extends the lock for its holder only', async () => {
    const store = makeStore();
    const stale = await store.acquire('ussd:1', { lockTtlMs: 20 });
    if (stale.status !== 'acquired') throw new Error('expected the lock');
    await advance(60);
    const fresh = await store.acquire('ussd:1', { waitMs: 0 });
    if (fresh.status !== 'acquired') throw new Error('expected the lock');
    expect(await store.extend(stale.lease)).toBe(false);
    expect(await store.extend(fresh.lease)).toBe(true);
  });

  it('forgets a session once its TTL passes', async () => {
    const store = makeStore({ ttlSeconds: 0.2 });
    const acquired = await store.acquire('ussd:1');
    if (acquired.status !== 'acquired') throw new Error('expected the lock');
    await store.commit(acquired.lease, 'a');
    expect(await store.read('ussd:1')).toBeDefined();
    await advance(500);
    expect(await store.read('ussd:1')).toBeUndefined();
  });

  it('refreshes the TTL on each write', async () => {
    const store = makeStore({ ttlSeconds: 1 });
    for (const data of ['a', 'b', 'c']) {
      const acquired = await store.acquire('ussd:1');
      if (acquired.status !== 'acquired') throw new Error('expected the lock');
      expect((await store.commit(acquired.lease, data)).status).toBe('committed');
      await advance(600);
    }
    expect(await store.read('ussd:1')).toMatchObject({ data: 'c' });
  });

  it('keeps a held session past its idle lifetime, through writes, until the hold is ended', async () => {
    const store = makeStore({ ttlSeconds: 60 });
    const write = async (data: string) => {
      const acquired = await store.acquire('telegram:1');
      if (acquired.status !== 'acquired') throw new Error('expected the lock');
      expect((await store.commit(acquired.lease, data)).status).toBe('committed');
    };
    await write('a');
    await store.hold('telegram:1', 3_600_000);
    await advance(30 * 60_000);
    // A write while held does not bring the expiry back to the idle lifetime.
    await write('b');
    await advance(20 * 60_000);
    expect(await store.read('telegram:1')).toMatchObject({ version: 2, data: 'b' });

    await store.unhold('telegram:1');
    await advance(30_000);
    expect(await store.read('telegram:1')).toMatchObject({ data: 'b' });
    await advance(31_000);
    expect(await store.read('telegram:1')).toBeUndefined();
  });

  it('holds a session that has no record yet, and lets a held session go when its hold runs out', async () => {
    const store = makeStore({ ttlSeconds: 60 });
    await store.hold('ussd:2', 600_000);
    const acquired = await store.acquire('ussd:2');
    expect(acquired).toMatchObject({ status: 'acquired', record: undefined, interrupted: false });
    if (acquired.status !== 'acquired') throw new Error('expected the lock');
    await store.commit(acquired.lease, 'first');
    await advance(300_000);
    expect(await store.read('ussd:2')).toMatchObject({ version: 1, data: 'first' });
    await advance(301_000);
    expect(await store.read('ussd:2')).toBeUndefined();
  });

  it('leaves the expiry of a session that is not held alone when a hold is ended', async () => {
    const store = makeStore({ ttlSeconds: 60 });
    const acquired = await store.acquire('ussd:3');
    if (acquired.status !== 'acquired') throw new Error('expected the lock');
    await store.commit(acquired.lease, 'a');
    await advance(50_000);
    await store.unhold('ussd:3');
    await advance(11_000);
    expect(await store.read('ussd:3')).toBeUndefined();
  });

  it('serialises concurrent read-modify-write turns so none is lost', async () => {
    const store = makeStore();
    const turn = async () => {
      const acquired = await store.acquire('ussd:1', { waitMs: 20_000 });
      if (acquired.status !== 'acquired') throw new Error('expected the lock');
      const count = Number(acquired.record?.data ?? '0');
      // One turn of the event loop between read and write: the other turns' attempts get in.
      await new Promise((resolve) => setImmediate(resolve));
      return store.commit(acquired.lease, String(count + 1));
    };
    const results = await Promise.all(Array.from({ length: 50 }, turn));
    expect(results.every((result) => result.status === 'committed')).toBe(true);
    expect(await store.read('ussd:1')).toEqual({ version: 50, data: '50' });
  });
});

describe.each(modes.filter((mode) => mode.unavailable === undefined))(
  'redis $name session store, reading a peek key with the session',
  (mode) => {
    /** A store and its connection and prefix, for writing the hash a test peeks at. */
    function setUp() {
      const redis = connections.get(mode.name);
      if (!redis) throw new Error(`no connection to ${mode.name} Redis`);
      const keyPrefix = testPrefix();
      prefixes.push({ redis, prefix: keyPrefix });
      return { redis, keyPrefix, store: new RedisSessionStore({ redis, keyPrefix }) };
    }

    it('returns the fields of a hash in the session key’s slot with the lock and the record', async () => {
      const { redis, keyPrefix, store } = setUp();
      const card = `${keyPrefix}card:{ussd:260971000001}`;
      await redis.hset(card, 'p:42', '{"n":"MTR-1"}', 'stop', '1');
      const first = await store.acquire('ussd:260971000001', { peek: card });
      if (first.status !== 'acquired') throw new Error('expected the lock');
      expect(first.peeked).toEqual({ 'p:42': '{"n":"MTR-1"}', stop: '1' });
      await store.commit(first.lease, 'a');
      // With a record, and with the record left out because the caller's copy is current.
      const again = await store.acquire('ussd:260971000001', { peek: card, knownVersion: 1 });
      if (again.status !== 'acquired') throw new Error('expected the lock');
      expect(again.unchanged).toBe(true);
      expect(again.peeked).toEqual({ 'p:42': '{"n":"MTR-1"}', stop: '1' });
    });

    it('returns no fields for a hash that does not exist, and nothing when not asked', async () => {
      const { keyPrefix, store } = setUp();
      const asked = await store.acquire('ussd:260971000002', {
        peek: `${keyPrefix}card:{ussd:260971000002}`,
      });
      if (asked.status !== 'acquired') throw new Error('expected the lock');
      expect(asked.peeked).toEqual({});
      await store.release(asked.lease);
      const plain = await store.acquire('ussd:260971000002');
      if (plain.status !== 'acquired') throw new Error('expected the lock');
      expect(plain.peeked).toBeUndefined();
    });

    it('leaves out a key in another slot instead of failing the turn', async () => {
      const { redis, keyPrefix, store } = setUp();
      const elsewhere = `${keyPrefix}card:{telegram:55}`;
      await redis.hset(elsewhere, 'stop', '1');
      const acquired = await store.acquire('tg:55', { peek: elsewhere });
      if (acquired.status !== 'acquired') throw new Error('expected the lock');
      expect(acquired.peeked).toBeUndefined();
      expect(acquired.record).toBeUndefined();
    });
  },
);

describe('memory session store, asked to peek', () => {
  it('leaves the peek out, so the caller reads it itself', async () => {
    const store = new MemorySessionStore();
    const acquired = await store.acquire('ussd:1', { peek: 'card:{ussd:1}' });
    if (acquired.status !== 'acquired') throw new Error('expected the lock');
    expect(acquired.peeked).toBeUndefined();
  });
});
