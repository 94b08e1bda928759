import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLAIM_LISTS,
  type ClaimFact,
  claimFactOf,
  claimKeys,
  createMemoryHoldingsIndex,
  createRedisHoldingsIndex,
  HOLDINGS_TTL_SECONDS,
  type HoldingsIndex,
  LIST_STALE_AFTER_MS,
} from '../../src/holdings/index.js';
import type { RedisConnection } from '../../src/redis/index.js';
import { connectTestRedis } from '../support/redis.js';
import { deleteKeys, testPrefix } from '../support/redis-modes.js';

const NRC = '222222/22/2';
const REPORTER = '260977000222';

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

/** The index's fact of an insurer's claim record, as the sync writes it. */
function fact(line: 'credit-life' | 'group-life', claim: Record<string, unknown>) {
  const found = claimFactOf(line, claim) as ClaimFact;
  return { nrc: found.nrc, phone: found.reporter, claim: found };
}

const loanClaim = {
  id: 'clm_1',
  claimNumber: 'CLC-000001',
  status: 'Intimated',
  policyId: 'clp_1',
  loanId: 7,
  partnerLoanReference: 'kl-7',
};
const memberClaim = {
  id: 'clm_2',
  claimNumber: 'GLC-000002',
  status: 'Documented',
  policyId: 'glp_1',
  memberId: 'mem_9',
  nrcNumber: NRC,
  intimatedByPhone: '+260 977 000 222',
};

const kinds: ReadonlyArray<{ name: string; make: (now: () => number) => HoldingsIndex }> = [
  {
    name: 'in Redis',
    make: (now) => createRedisHoldingsIndex(redis, `${prefix}${Math.random()}:`, now),
  },
  { name: 'in memory', make: (now) => createMemoryHoldingsIndex(now) },
];

describe.each(kinds)('the claims kept in the holdings index $name', ({ make }) => {
  it('finds a claim by its loan (id or reference, any case), member, NRC, reporting phone and number', async () => {
    const index = make(Date.now);
    await index.record([fact('credit-life', loanClaim), fact('group-life', memberClaim)]);
    const loan = { line: 'credit-life' as const, policyId: 'clp_1' };
    const byLoan = await index.claimsOf({ subjects: [{ ...loan, field: 'loanId', value: '7' }] });
    expect(byLoan.map((ref) => ref.claimId)).toEqual(['clm_1']);
    const byReference = await index.claimsOf({
      subjects: [{ ...loan, field: 'partnerLoanReference', value: 'KL-7' }],
    });
    expect(byReference.map((ref) => ref.claimId)).toEqual(['clm_1']);
    // Another policy's loan 7 is another loan.
    expect(
      await index.claimsOf({
        subjects: [{ ...loan, policyId: 'clp_2', field: 'loanId', value: '7' }],
      }),
    ).toEqual([]);
    expect((await index.claimsOf({ nrcs: [NRC] })).map((ref) => ref.claimId)).toEqual(['clm_2']);
    expect((await index.claimsOf({ phone: REPORTER })).map((ref) => ref.claimId)).toEqual([
      'clm_2',
    ]);
    expect(await index.claimByNumber('clc-000001')).toEqual({
      line: 'credit-life',
      claimId: 'clm_1',
      number: 'CLC-000001',
      policyId: 'clp_1',
    });
    expect(await index.claimByNumber('CLC-999999')).toBeUndefined();
  });

  it('names each claim once, newest number first, wherever it is kept', async () => {
    const index = make(Date.now);
    const older = { ...memberClaim, id: 'clm_0', claimNumber: 'GLC-000001' };
    await index.record([fact('group-life', memberClaim), fact('group-life', older)]);
    const found = await index.claimsOf({
      phone: REPORTER,
      nrcs: [NRC],
      subjects: [{ line: 'group-life', policyId: 'glp_1', field: 'memberId', value: 'mem_9' }],
    });
    expect(found.map((ref) => ref.number)).toEqual(['GLC-000002', 'GLC-000001']);
  });

  it('links no phone to an NRC through a claim (a relative may report it)', async () => {
    const index = make(Date.now);
    await index.record([fact('group-life', memberClaim)]);
    expect(await index.ofPhone(REPORTER)).toEqual({ nrcs: [], refs: [] });
    expect(await index.ofNrcs([NRC])).toEqual([{ refs: [], phones: [] }]);
  });

  it('no longer names a claim last seen more than its lifetime ago', async () => {
    const time = clock();
    const index = make(time.now);
    await index.record([fact('group-life', memberClaim)]);
    time.advanceDays(HOLDINGS_TTL_SECONDS / 86_400 + 1);
    expect(await index.claimsOf({ nrcs: [NRC] })).toEqual([]);
    expect(await index.claimByNumber(memberClaim.claimNumber)).toBeUndefined();
  });

  it('says a claim book is fresh only while the run on record read it within the stated age', async () => {
    const time = clock();
    const index = make(time.now);
    expect(Object.values(await index.claimsCompleteness())).toEqual(CLAIM_LISTS.map(() => 'cold'));
    const older = await index.beginRun();
    const run = await index.beginRun();
    expect(await index.markComplete('group-life-claims', older)).toBe(false);
    expect(await index.markComplete('group-life-claims', run)).toBe(true);
    expect(await index.claimsCompleteness()).toEqual({
      'credit-life-claims': 'cold',
      'group-life-claims': 'fresh',
    });
    // Claim books are not among the lists a cover lookup needs.
    expect(Object.keys((await index.completeness()).lists)).not.toContain('group-life-claims');
    time.advanceDays((LIST_STALE_AFTER_MS + 1) / 86_400_000);
    expect((await index.claimsCompleteness())['group-life-claims']).toBe('stale');
  });

  it('forgets the claims kept for a phone and for its NRCs', async () => {
    const index = make(Date.now);
    await index.record([{ phone: REPORTER, nrc: NRC }, fact('group-life', memberClaim)]);
    await index.forget(REPORTER);
    expect(await index.claimsOf({ phone: REPORTER, nrcs: [NRC] })).toEqual([]);
  });
});

describe('the claims kept in Redis', () => {
  it('gives every key they write a lifetime', async () => {
    const own = `${prefix}claims-ttl:`;
    const index = createRedisHoldingsIndex(redis, own);
    await index.record([fact('group-life', memberClaim)]);
    const keys = await redis.keys(`${own}*`);
    expect(keys.sort()).toEqual(
      [
        claimKeys(own).number('GLC-000002'),
        claimKeys(own).nrc(NRC),
        claimKeys(own).phone(REPORTER),
        claimKeys(own).subject({
          line: 'group-life',
          policyId: 'glp_1',
          field: 'memberId',
          value: 'mem_9',
        }),
      ].sort(),
    );
    for (const key of keys) expect(await redis.ttl(key), key).toBeGreaterThan(0);
  });
});
