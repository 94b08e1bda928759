import { describe, expect, it } from 'vitest';
import { accessTo, NOBODY, type Principal, type RecordType } from '../../src/access/index.js';

const OWNER: Principal = { kind: 'phone', phone: '260971234567' };
const STRANGER: Principal = { kind: 'phone', phone: '260955111222' };
const STAFF: Principal = { kind: 'staff', member: 'U1' };
const TYPES: RecordType[] = [
  'policy',
  'vehicle',
  'claim',
  'loan',
  'membership',
  'household',
  'transaction',
  'person',
];
// The phone on record as the insurer writes it: any form of the same number counts.
const onRecord = (type: RecordType) => ({ type, phones: ['0971234567'] });

describe('the access rule', () => {
  it.each(TYPES)('gives the phone on record for a %s everything, as its own', (type) => {
    expect(accessTo(OWNER, onRecord(type))).toEqual({ learns: 'everything', mine: true });
  });

  it.each(TYPES)('gives staff everything of a %s, never as theirs', (type) => {
    expect(accessTo(STAFF, onRecord(type))).toEqual({ learns: 'everything', mine: false });
  });

  it.each([
    ['policy', 'existence'],
    ['vehicle', 'existence'],
    ['claim', 'existence'],
    ['loan', 'existence'],
    ['membership', 'existence'],
    ['household', 'existence'],
    ['transaction', 'nothing'],
    ['person', 'nothing'],
  ] as const)('tells any other phone, and nobody, of a %s: %s', (type, learns) => {
    expect(accessTo(STRANGER, onRecord(type))).toEqual({ learns, mine: false });
    expect(accessTo(NOBODY, onRecord(type))).toEqual({ learns, mine: false });
  });

  it('lets the phone that reported a claim follow it without learning what it pays', () => {
    const claim = { type: 'claim' as const, phones: ['260977234567'], intimatedBy: '0955111222' };
    expect(accessTo(STRANGER, claim)).toEqual({ learns: 'existence', mine: true });
    expect(accessTo(STRANGER, { ...claim, type: 'policy' })).toEqual({
      learns: 'existence',
      mine: false,
    });
  });

  it('refuses a record type it does not know, even to staff and the phone on record', () => {
    const unknown = { type: 'pension' as RecordType, phones: ['260971234567'] };
    expect(accessTo(STAFF, unknown)).toEqual({ learns: 'nothing', mine: false });
    expect(accessTo(OWNER, unknown)).toEqual({ learns: 'nothing', mine: false });
  });

  it('never matches a record with no phone on record to a caller', () => {
    expect(accessTo(OWNER, { type: 'claim', phones: [null, undefined, ''] })).toEqual({
      learns: 'existence',
      mine: false,
    });
  });
});
