import { describe, expect, it } from 'vitest';
import { parseArgs, parseStaffCommand } from '../../flows/staff-desk.js';

/*
 * Issue 40: every number README or a customer screen prints is typed at the desk as printed; the
 * parser hands the lookups one form of each (an NRC with slashes, a phone as 260…).
 */

describe('a policy lookup', () => {
  it('takes an NRC typed without its slashes as the NRC', () => {
    expect(parseStaffCommand('policy 123456101')).toEqual({
      ok: true,
      value: { topic: 'policy', args: ['123456/10/1'] },
    });
  });

  it('takes an NRC with slashes or spaces as the NRC', () => {
    expect(parseArgs('policy', '234567/10/1')).toEqual({
      ok: true,
      value: { topic: 'policy', args: ['234567/10/1'] },
    });
  });

  it('takes a phone as dialled as the number the insurer stores', () => {
    expect(parseStaffCommand('policy 0966000444')).toEqual({
      ok: true,
      value: { topic: 'policy', args: ['260966000444'] },
    });
  });

  it('passes the insurer’s ids and a loan reference on as typed', () => {
    for (const typed of [
      'glp_3c9d1e5a7f20',
      'clp_1f4b8d2e6a93',
      'KL-DEMO-ACTIVE',
      'pol_5a0c3e71d2b4',
    ]) {
      expect(parseStaffCommand(`policy ${typed}`)).toEqual({
        ok: true,
        value: { topic: 'policy', args: [typed] },
      });
    }
  });

  it('keeps a plate with its space', () => {
    expect(parseStaffCommand('policy ajq 1909')).toEqual({
      ok: true,
      value: { topic: 'policy', args: ['AJQ 1909'] },
    });
  });
});

describe('a household lookup', () => {
  it('takes the principal’s NRC without slashes', () => {
    expect(parseStaffCommand('household 123456101')).toEqual({
      ok: true,
      value: { topic: 'household', args: ['123456/10/1'] },
    });
  });
});

describe('a batch lookup', () => {
  it('takes the policy and batch numbers as printed', () => {
    expect(parseStaffCommand('batch CL-DEMO-000001 SCH-000001')).toEqual({
      ok: true,
      value: { topic: 'batch', args: ['CL-DEMO-000001', 'SCH-000001'] },
    });
  });

  it('still takes the insurer’s ids', () => {
    expect(parseStaffCommand('batch glp_3c9d1e5a7f20 glb_1')).toEqual({
      ok: true,
      value: { topic: 'batch', args: ['glp_3c9d1e5a7f20', 'glb_1'] },
    });
  });

  it('asks for both numbers when one is missing', () => {
    expect(parseStaffCommand('batch CL-DEMO-000001')).toEqual({
      ok: false,
      reason: 'staff.note.usage.batch',
    });
  });
});
