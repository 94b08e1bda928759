import { expect, it } from 'vitest';
import { formatMoney } from '../../src/money/index.js';
import { digestText, type StaffDigest } from '../../src/reminders/index.js';

const digest: StaffDigest = {
  date: '2026-11-28',
  expiringThisWeek: [],
  inGrace: [],
  batchesOutstanding: [
    { policyNumber: 'CLP-DEMO-0001', batch: 'SCH-000001', outstanding: 13_125, currency: 'ZMW' },
  ],
  claimsAwaitingDocuments: [],
  unavailable: [],
};

// Issue 40: staff read `13125.00` where customers read `13,125.00`; one formatter for both.
it('shows an outstanding premium as customers see amounts, through src/money', () => {
  const text = digestText(digest);
  expect(text).toContain(`CLP-DEMO-0001 batch SCH-000001: ZMW ${formatMoney(13_125)}`);
  expect(text).toContain('ZMW 13,125.00');
  expect(text).not.toContain('13125.00');
});
