import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/index.js';
import {
  createMemoryStaffAuditLog,
  createStaffLookups,
  type StaffAuditLog,
} from '../../src/privacy/index.js';

// The staff desk's side of the audit, apart from any channel: a look-up is recorded before it
// runs (and not run when it cannot be), a refusal is recorded without failing, and only an admin
// reads the audit, the reading recorded too.

const log = createLogger({ level: 'silent' });
/** Message keys as text, their parameters after them, so a test reads what was asked for. */
const text = (key: string, params?: Record<string, string | number>) =>
  params ? `${key} ${JSON.stringify(params)}` : key;
const shown = { who: (who: string) => `<${who}>`, what: (what: string) => `[${what}]` };
const ADMIN = { who: 'T1:UADMIN', member: 'UADMIN' };

function lookups(audit: StaffAuditLog | undefined) {
  return createStaffLookups({
    audit: audit && { log: audit, admins: [ADMIN.member] },
    text,
    shown,
    log,
  });
}

/** An audit log whose appends fail, as Redis does when it is down. */
function failingLog(): StaffAuditLog {
  const inner = createMemoryStaffAuditLog();
  return { ...inner, append: () => Promise.reject(new Error('down')) };
}

describe('createStaffLookups', () => {
  it('records a look-up and a refusal, and shows them to an admin newest first', async () => {
    const audit = createMemoryStaffAuditLog();
    const desk = lookups(audit);
    expect(await desk.record({ who: 'T1:U1', route: 'modal', what: 'policy P1' })).toBe(true);
    await desk.refused({ who: 'T1:U2', route: 'button', what: 'today' });

    const answer = await desk.answer(ADMIN, '');
    const lines = answer.split('\n');
    expect(lines[0]).toBe('slack.audit.header');
    // The reading itself is the newest look-up.
    expect(lines[1]).toContain('"who":"<T1:UADMIN>"');
    expect(lines[1]).toContain('"what":"[audit]"');
    expect(lines[2]).toMatch(/^slack\.audit\.entry\.refused .*"who":"<T1:U2>".*"what":"\[today\]"/);
    expect(lines[3]).toMatch(/^slack\.audit\.entry .*"via":"slack\.audit\.via\.modal"/);
  });

  it('refuses the audit to a non-admin and records the attempt as refused', async () => {
    const audit = createMemoryStaffAuditLog();
    const desk = lookups(audit);
    expect(await desk.answer({ who: 'T1:U1', member: 'U1' }, '')).toBe('slack.audit.refused');
    expect(await audit.latest(5)).toEqual([
      expect.objectContaining({ who: 'T1:U1', outcome: 'refused', what: 'audit' }),
    ]);
  });

  it('gives the verdict of the chain to an admin, recorded as `audit verify`', async () => {
    const audit = createMemoryStaffAuditLog();
    const desk = lookups(audit);
    await desk.record({ who: 'T1:U1', route: 'command', what: 'claims' });
    // Recorded once the chain is walked: the verdict is about the chain as it was when asked.
    expect(await desk.answer(ADMIN, ' verify')).toBe('slack.audit.verify.intact {"entries":1}');
    expect(await audit.latest(1)).toEqual([expect.objectContaining({ what: 'audit verify' })]);
  });

  it('says a look-up cannot be made when it cannot be recorded; a refusal never throws', async () => {
    const desk = lookups(failingLog());
    expect(await desk.record({ who: 'T1:U1', route: 'command', what: 'today' })).toBe(false);
    await expect(
      desk.refused({ who: 'T1:U1', route: 'command', what: 'today' }),
    ).resolves.toBeUndefined();
    expect(await desk.answer(ADMIN, '')).toBe('slack.audit.unavailable');
  });

  it('lets every look-up run, and nobody read the audit, without an audit log', async () => {
    const desk = lookups(undefined);
    expect(await desk.record({ who: 'T1:U1', route: 'home', what: 'today' })).toBe(true);
    expect(await desk.answer(ADMIN, '')).toBe('slack.audit.refused');
  });
});
