import { afterAll, describe, expect, it } from 'vitest';
import type { RedisConnection } from '../../src/redis/index.js';
import {
  createMemoryStore,
  createRedisStore,
  type KeyValueStore,
} from '../../src/storage/index.js';
import { connectTestRedis } from '../support/redis.js';
import { deleteKeys, testPrefix } from '../support/redis-modes.js';

const redis: RedisConnection = connectTestRedis();
const prefix = testPrefix();
afterAll(() => deleteKeys(redis, prefix).finally(() => redis.disconnect()));

// Both adapters answer the same contract: the parts written over the port behave alike.
const adapters: ReadonlyArray<{ name: string; make: () => KeyValueStore }> = [
  { name: 'over Redis', make: () => createRedisStore(redis) },
  { name: 'in memory', make: () => createMemoryStore() },
];

describe.each(adapters)('the key-value store $name', ({ make }) => {
  const key = (name: string) => `${prefix}${Math.random()}:${name}`;

  it('claims a key once, and lets a replaceable value be taken over', async () => {
    const store = make();
    const claim = key('claim');
    expect(await store.setIfAbsent(claim, 'pending', 60)).toBe(true);
    expect(await store.setIfAbsent(claim, 'pending', 60)).toBe(false);
    expect(await store.setIfAbsent(claim, 'paid', 60, ['pending'])).toBe(true);
    expect(await store.setIfAbsent(claim, 'failed', 60, ['pending'])).toBe(false);
    expect(await store.get(claim)).toBe('paid');
    await store.deleteUnless(claim, 'paid');
    expect(await store.get(claim)).toBe('paid');
    expect(await store.take(claim)).toBe('paid');
    expect(await store.get(claim)).toBeUndefined();
  });

  it('deletes a string only while it still holds the value the caller saw', async () => {
    const store = make();
    const held = key('held');
    await store.set(held, 'newer', 60);
    expect(await store.deleteIf(held, 'older')).toBe(false);
    expect(await store.get(held)).toBe('newer');
    expect(await store.deleteIf(held, 'newer')).toBe(true);
    expect(await store.get(held)).toBeUndefined();
    expect(await store.deleteIf(held, 'newer')).toBe(false);
  });

  it('keeps hash fields in the order first written and drops an emptied hash', async () => {
    const store = make();
    const hash = key('hash');
    await store.hashSet(hash, { b: '1', a: '2' }, 60);
    await store.hashSet(hash, { b: '3', c: '4' });
    expect(Object.keys(await store.hashGetAll(hash))).toEqual(['b', 'a', 'c']);
    expect(await store.hashHas(hash, 'a')).toBe(true);
    for (const field of ['a', 'b', 'c']) await store.hashDelete(hash, field);
    expect(await store.hashGetAll(hash)).toEqual({});
  });

  it('counts, collects set members and ranges a sorted set by score', async () => {
    const store = make();
    expect(await store.increment(key('n'), 60)).toBe(1);
    const set = key('set');
    await store.setAdd(set, 'x', 60);
    await store.setAdd(set, 'x', 60);
    expect(await store.setMembers(set)).toEqual(['x']);
    const sorted = key('due');
    await store.sortedAdd(sorted, 3, 'c');
    await store.sortedAdd(sorted, 1, 'a');
    await store.sortedAdd(sorted, 2, 'b');
    expect(await store.sortedUpTo(sorted, 2)).toEqual(['a', 'b']);
    await store.sortedRemoveBelow(sorted, 2);
    await store.sortedRemove(sorted, 'c');
    expect(await store.sortedUpTo(sorted, 10)).toEqual(['b']);
  });

  it('adds a hash field only within a count and a total, atomically under concurrency', async () => {
    const store = make();
    const quota = key('quota');
    const limits = { fields: 3, total: 100 };
    expect(await store.hashAddWithin(quota, 'a', 60, limits, 60)).toBe(true);
    // 60 + 41 is one over the total: refused, and nothing written.
    expect(await store.hashAddWithin(quota, 'b', 41, limits, 60)).toBe(false);
    expect(await store.hashAddWithin(quota, 'b', 40, limits, 60)).toBe(true);
    // A field already there is not written twice.
    expect(await store.hashAddWithin(quota, 'b', 0, limits, 60)).toBe(false);
    expect(await store.hashGetAll(quota)).toEqual({ a: '60', b: '40' });
    await store.hashDelete(quota, 'a');
    // Twenty callers at once for 30 each, with 60 and two fields left: exactly two get in.
    const racers = Array.from({ length: 20 }, (_, n) =>
      store.hashAddWithin(quota, `r${n}`, 30, limits, 60),
    );
    const won = (await Promise.all(racers)).filter(Boolean).length;
    expect(won).toBe(2);
    const held = Object.values(await store.hashGetAll(quota)).map(Number);
    expect(held).toHaveLength(3);
    expect(held.reduce((sum, n) => sum + n, 0)).toBe(100);
  });
});

describe('the key-value store in memory', () => {
  it('forgets a key once its lifetime has passed, and EXPIRE NX keeps a lifetime set', async () => {
    let now = 1_000_000;
    const store = createMemoryStore({ now: () => now });
    await store.set('a', '1', 10);
    await store.hashSet('h', { f: '1' });
    await store.expire('h', 5, { onlyIfNone: true });
    await store.expire('h', 50, { onlyIfNone: true });
    now += 5_000;
    expect(await store.hashGetAll('h')).toEqual({});
    expect(await store.getAndTouch('a', 10)).toBe('1');
    now += 9_999;
    expect(await store.get('a')).toBe('1');
    now += 1;
    expect(await store.get('a')).toBeUndefined();
  });
});

describe.each(adapters)('a stream in the key-value store $name', ({ make }) => {
  const keys = () => {
    const tag = `{${Math.random()}}`;
    return { stream: `${prefix}${tag}:stream`, head: `${prefix}${tag}:head` };
  };
  const append = (n: string, expected: string, atMs: number, trimBeforeMs?: number) => ({
    fields: { n },
    head: { last: n },
    expect: { field: 'last', value: expected },
    atMs,
    trimBeforeMs,
  });

  it('appends only while the head holds what the caller read, head and entry at once', async () => {
    const store = make();
    const { stream, head } = keys();
    const first = await store.streamAppendLinked(stream, head, append('1', '', 1_000));
    expect(first).toBe('1000-0');
    // A second writer that read the head before the first append loses, and writes nothing.
    expect(await store.streamAppendLinked(stream, head, append('x', '', 1_000))).toBeUndefined();
    expect(await store.streamAppendLinked(stream, head, append('2', '1', 1_000))).toBe('1000-1');
    // A clock behind the stream's last id does not send the id back.
    expect(await store.streamAppendLinked(stream, head, append('3', '2', 500))).toBe('1000-2');
    expect(await store.hashGetAll(head)).toEqual({ lastId: '1000-2', last: '3' });
    expect(await store.streamLatest(stream, 2)).toEqual([{ n: '3' }, { n: '2' }]);
    const all = await store.streamRange(stream, undefined, 10);
    expect(all.map((entry) => [entry.id, entry.fields.n])).toEqual([
      ['1000-0', '1'],
      ['1000-1', '2'],
      ['1000-2', '3'],
    ]);
    expect((await store.streamRange(stream, '1000-0', 1)).map((entry) => entry.id)).toEqual([
      '1000-1',
    ]);
  });

  it('trims the entries older than asked in the same step, and finds the newest before a time', async () => {
    const store = make();
    const { stream, head } = keys();
    await store.streamAppendLinked(stream, head, append('1', '', 1_000));
    await store.streamAppendLinked(stream, head, append('2', '1', 2_000));
    await store.streamAppendLinked(stream, head, append('3', '2', 3_000));
    expect((await store.streamNewestBefore(stream, 3_000))?.id).toBe('2000-0');
    expect(await store.streamNewestBefore(stream, 1_000)).toBeUndefined();
    await store.streamAppendLinked(stream, head, append('4', '3', 4_000, 3_000));
    const left = await store.streamRange(stream, undefined, 10);
    expect(left.map((entry) => entry.fields.n)).toEqual(['3', '4']);
  });
});
