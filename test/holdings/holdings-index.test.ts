import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryHoldingsIndex,
  createRedisHoldingsIndex,
  HOLDINGS_TTL_SECONDS,
  type HoldingsIndex,
  holdingsKeys,
  LIST_STALE_AFTER_MS,
  SYNCED_LISTS,
} from '../../src/holdings/index.js';
import type { RedisConnection } from '../../src/redis/index.js';
import { connectTestRedis } from '../support/redis.js';
import { deleteKeys, testPrefix } from '../support/redis-modes.js';

const PHONE = '260977000111';
const NRC = '111111/11/1';
const travel = { line: 'travel' as const, policyId: 'trv_1', number: 'TRV-1' };
const motor = { line: 'motor' as const, policyId: 'mtr_1', number: 'MTR-1' };

let redis: RedisConnection;
const prefix = testPrefix();
beforeAll(() => {
  redis = connectTestRedis();
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

/** A clock tests move by hand (epoch ms). */
function clock(start = Date.parse('2026-06-01T00:00:00Z')) {
  let at = start;
  return { now: () => at, advanceDays: (days: number) => (at += days * 86_400_000) };
}

const kinds: ReadonlyArray<{
  name: string;
  make: (now: () => number) => HoldingsIndex;
}> = [
  {
    name: 'in Redis',
    make: (now) => createRedisHoldingsIndex(redis, `${prefix}${Math.random()}:`, now),
  },
  { name: 'in memory', make: (now) => createMemoryHoldingsIndex(now) },
];

describe.each(kinds)('the holdings index $name', ({ make }) => {
  it('links a phone and an NRC both ways and names each record under both', async () => {
    const index = make(Date.now);
    await index.record([
      { phone: PHONE, nrc: NRC, ref: travel },
      { nrc: NRC, ref: motor },
    ]);
    expect(await index.ofPhone(PHONE)).toEqual({ nrcs: [NRC], refs: [travel] });
    expect(await index.ofNrcs([NRC, '999999/99/9'])).toEqual([
      // By line, then number: the same order from Redis (whatever its hash's encoding) and memory.
      { refs: [motor, travel], phones: [PHONE] },
      { refs: [], phones: [] },
    ]);
  });

  it('no longer shows a record last seen more than its lifetime ago', async () => {
    const time = clock();
    const index = make(time.now);
    await index.record([{ nrc: NRC, ref: travel }]);
    time.advanceDays(HOLDINGS_TTL_SECONDS / 86_400 - 1);
    await index.record([{ nrc: NRC, ref: motor }]);
    time.advanceDays(2);
    expect((await index.ofNrcs([NRC]))[0]?.refs).toEqual([motor]);
  });

  it('can say "none" only while every list was read to its end within the stated age', async () => {
    const time = clock();
    const index = make(time.now);
    // Cold: never read.
    expect(await index.completeness()).toMatchObject({ complete: false });
    const run = await index.beginRun();
    for (const list of SYNCED_LISTS.slice(1)) await index.markComplete(list, run);
    expect((await index.completeness()).lists.individuals).toBe('cold');
    await index.markComplete('individuals', run);
    expect((await index.completeness()).complete).toBe(true);
    // Older than the stated age (two sync intervals): stale, not "none".
    time.advanceDays((LIST_STALE_AFTER_MS + 1) / 86_400_000);
    const stale = await index.completeness();
    expect(stale.complete).toBe(false);
    expect(Object.values(stale.lists)).toEqual(SYNCED_LISTS.map(() => 'stale'));
  });

  it('stamps a list only for the run on record, not for one a newer run replaced', async () => {
    const index = make(Date.now);
    const older = await index.beginRun();
    const newer = await index.beginRun();
    expect(await index.markComplete('motor', older)).toBe(false);
    expect((await index.completeness()).lists.motor).toBe('cold');
    expect(await index.markComplete('motor', newer)).toBe(true);
    expect((await index.completeness()).lists.motor).toBe('fresh');
  });

  it('forgets a phone: its entry and the entries of its NRCs (the same person’s), naming them', async () => {
    const index = make(Date.now);
    await index.record([{ phone: PHONE, nrc: NRC, ref: travel }]);
    await index.record([{ nrc: '999999/99/1', ref: motor }]);
    expect(await index.forget(PHONE)).toEqual([NRC]);
    expect(await index.ofPhone(PHONE)).toEqual({ nrcs: [], refs: [] });
    expect(await index.ofNrcs([NRC, '999999/99/1'])).toEqual([
      { refs: [], phones: [] },
      { refs: [motor], phones: [] },
    ]);
  });
});

describe('the holdings index in Redis', () => {
  it('gives every key it writes a lifetime', async () => {
    const own = `${prefix}ttl:`;
    const index = createRedisHoldingsIndex(redis, own);
    await index.record([{ phone: PHONE, nrc: NRC, ref: travel }]);
    await index.saveCursor({ 'travel.since': '2026-06-01T00:00:00.000Z' });
    const keys = holdingsKeys(own);
    for (const key of [keys.phone(PHONE), keys.nrc(NRC), keys.cursor]) {
      expect(await redis.ttl(key), key).toBeGreaterThan(0);
    }
    expect((await redis.keys(`${own}*`)).sort()).toEqual(
      [keys.phone(PHONE), keys.nrc(NRC), keys.cursor].sort(),
    );
  });
});

describe('a sync run that outlives a Redis loss', () => {
  it('stamps no list complete after the flush: the facts it wrote before are gone', async () => {
    const own = `${prefix}flush:`;
    const index = createRedisHoldingsIndex(redis, own);
    const run = await index.beginRun();
    expect(await index.markComplete('individuals', run)).toBe(true);
    await deleteKeys(redis, own);
    // The run reads on to the end of its lists, but none may be stamped: "none" stays impossible.
    for (const list of SYNCED_LISTS) expect(await index.markComplete(list, run)).toBe(false);
    expect(await index.completeness()).toMatchObject({ complete: false });
    expect(Object.values((await index.completeness()).lists)).toEqual(
      SYNCED_LISTS.map(() => 'cold'),
    );
  });
});
