import { describe, expect, it } from 'vitest';
import {
  createManualClock,
  outcomeForMsisdn,
  SANDBOX_TEST_MSISDNS,
} from '../../src/sandbox/index.js';
import { calculatePremium } from '../../src/sandbox/premium.js';
import { renderPdf } from '../../src/sandbox/render-pdf.js';

describe('premium calculation', () => {
  it('is rate × sum insured plus the levy, returned as basic, levy and gross', () => {
    expect(calculatePremium({ levyRate: 0.05, rate: 0.05, sumInsured: 200_000 })).toEqual({
      basicPremium: 10_000,
      levyPremium: 500,
      grossPremium: 10_500,
    });
  });

  it('is flat for third party, scaled by duration', () => {
    expect(calculatePremium({ levyRate: 0.05, flatPremium: 165, scale: 4 })).toEqual({
      basicPremium: 660,
      levyPremium: 33,
      grossPremium: 693,
    });
  });
});

describe('test MSISDNs', () => {
  it.each([
    ['0971000001', 'declined'],
    ['260971000002', 'insufficient-funds'],
    ['+260971000003', 'expires'],
    ['0977123456', 'success'],
  ] as const)('%s gives %s', (msisdn, outcome) => {
    expect(outcomeForMsisdn(msisdn)).toBe(outcome);
  });

  it('documents an example for every outcome', () => {
    for (const entry of SANDBOX_TEST_MSISDNS)
      expect(outcomeForMsisdn(entry.example)).toBe(entry.outcome);
  });
});

describe('PDF documents', () => {
  it('are PDF 1.4 files whose cross-reference table points at each object', () => {
    const pdf = renderPdf('Certificate (sandbox)', ['Policy number: MTR-1', 'Ünicode ok']);
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    const startxref = Number(text.match(/startxref\n(\d+)\n%%EOF\n$/)?.[1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) =>
      Number(m[1]),
    );
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, index) => {
      expect(text.slice(offset).startsWith(`${index + 1} 0 obj`)).toBe(true);
    });
    expect(text).toContain('(Certificate \\(sandbox\\)) Tj');
  });
});

describe('manual clock', () => {
  it('moves only when told', () => {
    const clock = createManualClock(new Date('2026-01-01T00:00:00Z'));
    clock.advanceDays(2);
    expect(clock.now().toISOString()).toBe('2026-01-03T00:00:00.000Z');
  });
});
