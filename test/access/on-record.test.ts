import { describe, expect, it } from 'vitest';
import {
  accessTo,
  createRegistrations,
  NO_REGISTRATIONS,
  onRecordAmong,
  principalOf,
} from '../../src/access/index.js';
import { createMemoryStore } from '../../src/storage/index.js';

// The member the insurer holds, and the individual insurechat created when a stranger typed her
// NRC into a motor quote (unproven): same NRC, the stranger's phone.
const NRC = '234567/10/1';
const MEMBER = { id: 41, phoneNumber: '260971234567', idNumber: NRC };
const TYPED = { id: 90, phoneNumber: '260955000111', idNumber: NRC };
const STRANGER = '0955000111';

async function typedUnproven() {
  const registrations = createRegistrations(createMemoryStore(), 'test:');
  await registrations.recordCreated({ clientId: '90', proven: false });
  return registrations;
}

describe('who is on record among the individuals a lookup read', () => {
  it('gives a phone no NRC it reached only by typing it into a quote', async () => {
    const onRecord = await onRecordAmong([TYPED], await typedUnproven());
    expect(onRecord.nrcsOf(STRANGER)).toEqual([]);
  });

  it('gives the member her NRC, whatever form her number is asked in', async () => {
    const onRecord = await onRecordAmong([MEMBER, TYPED], await typedUnproven());
    expect(onRecord.nrcsOf('0971234567')).toEqual([NRC]);
    expect(onRecord.ofNrc(NRC)).toEqual(['260971234567']);
  });

  it('keeps the policies the typed individual bought as that phone own', async () => {
    const onRecord = await onRecordAmong([MEMBER, TYPED], await typedUnproven());
    expect(onRecord.clientsOf(STRANGER)).toEqual(['90']);
    const policy = { type: 'policy' as const, phones: onRecord.ofClient('90') };
    expect(accessTo(principalOf(STRANGER), policy).learns).toBe('everything');
    // The member learns only that it exists: it is not hers.
    expect(accessTo(principalOf('260971234567'), policy)).toEqual({
      learns: 'existence',
      mine: false,
    });
  });

  it('refuses the typed phone the loans and memberships of the NRC', async () => {
    const onRecord = await onRecordAmong([MEMBER, TYPED], await typedUnproven());
    const loan = { type: 'loan' as const, phones: onRecord.ofNrc(NRC) };
    expect(accessTo(principalOf(STRANGER), loan).mine).toBe(false);
    expect(accessTo(principalOf('260971234567'), loan).mine).toBe(true);
  });

  it('counts a registration once its NRC is proven', async () => {
    const registrations = await typedUnproven();
    await registrations.markProven('90');
    const onRecord = await onRecordAmong([MEMBER, TYPED], registrations);
    expect(onRecord.nrcsOf(STRANGER)).toEqual([NRC]);
    expect(onRecord.ofNrc(NRC)).toEqual(['260971234567', '260955000111']);
  });

  it('counts every individual when insurechat created nobody', async () => {
    const onRecord = await onRecordAmong([MEMBER, TYPED], NO_REGISTRATIONS);
    expect(onRecord.ofNrc(NRC)).toHaveLength(2);
    expect(onRecord.ofNrc('')).toEqual([]);
  });
});
