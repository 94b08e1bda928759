import { describe, expect, it } from 'vitest';
import { createClaimReports } from '../../src/claim-documents/index.js';
import { createMemoryStore } from '../../src/storage/index.js';

/*
 * Who reported a claim, and the documents held until staff confirm one reported by someone not
 * on record (issue 35). Memory adapter: the Redis adapter runs the same port in test/storage.
 */

const CLAIM = { line: 'group-life', claimId: 'clm_1' } as const;
const RELATIVE = { number: 'GLC-000001', channel: 'ussd', phone: '260955444777' } as const;

describe('claim reports', () => {
  it('records a report once: a retried intimation learns it was recorded already', async () => {
    const reports = createClaimReports(createMemoryStore(), 'test:');
    expect(await reports.reported(CLAIM, { ...RELATIVE, onRecord: false })).toBe(true);
    expect(await reports.reported(CLAIM, { ...RELATIVE, onRecord: false })).toBe(false);
    expect(await reports.of(CLAIM)).toMatchObject({ ...RELATIVE, state: 'to-verify' });
  });

  it('holds files only while a claim reported by someone not on record is unconfirmed', async () => {
    const reports = createClaimReports(createMemoryStore(), 'test:');
    const own = { line: 'credit-life', claimId: 'clm_2' } as const;
    await reports.reported(own, { ...RELATIVE, onRecord: true });
    expect(await reports.hold(own, 'f0')).toBe(false);
    expect(await reports.hold({ line: 'group-life', claimId: 'unknown' }, 'f0')).toBe(false);

    await reports.reported(CLAIM, { ...RELATIVE, onRecord: false });
    expect(await reports.hold(CLAIM, 'f1')).toBe(true);
    expect(await reports.hold(CLAIM, 'f2')).toBe(true);
    expect(await reports.held(CLAIM)).toEqual(['f1', 'f2']);

    expect(await reports.confirm(CLAIM, 'U0STAFF')).toEqual({ files: ['f1', 'f2'] });
    expect(await reports.of(CLAIM)).toMatchObject({ state: 'confirmed', confirmedBy: 'U0STAFF' });
    expect(await reports.hold(CLAIM, 'f3')).toBe(false);
  });

  it('keeps a file held until it is posted, so a confirmation that failed half way posts the rest', async () => {
    const reports = createClaimReports(createMemoryStore(), 'test:');
    await reports.reported(CLAIM, { ...RELATIVE, onRecord: false });
    await reports.hold(CLAIM, 'f1');
    await reports.hold(CLAIM, 'f2');
    await reports.confirm(CLAIM, 'U0STAFF');
    await reports.posted(CLAIM, 'f1');
    expect(await reports.confirm(CLAIM, 'U0STAFF')).toEqual({ files: ['f2'] });
  });

  it("takes the reporter's phone out of their reports on My data, and the claim still holds files", async () => {
    const store = createMemoryStore();
    const reports = createClaimReports(store, 'test:');
    await reports.reported(CLAIM, { ...RELATIVE, onRecord: false });
    expect(await reports.forget('+260955444777')).toBe(1);
    expect(await reports.of(CLAIM)).toMatchObject({ phone: null, state: 'to-verify' });
    expect(await reports.hold(CLAIM, 'f1')).toBe(true);
    expect(await store.setMembers('test:claim-reporter:{260955444777}')).toEqual([]);
  });
});
