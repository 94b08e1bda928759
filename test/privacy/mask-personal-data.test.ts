import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskCsv, maskPersonalData } from '../../src/privacy/index.js';

describe('maskPersonalData', () => {
  it.each([
    ['479974/11/1', '••••••/••/•'],
    ['123456 10 1', '••••••/••/•'],
    ['123456-10-1', '••••••/••/•'],
    ['123456101', '••••••/••/•'],
  ])('hides every digit of the NRC %s', (nrc, masked) => {
    expect(maskPersonalData(`NRC ${nrc} found`)).toBe(`NRC ${masked} found`);
  });

  it.each([
    ['260971234567', '•••••••••567'],
    ['+260971234567', '•••••••••567'],
    ['0971234567', '•••••••567'],
    ['971234567', '••••••567'],
    ['+260 97 123 4567', '•••••••••567'],
    ['097-123-4567', '•••••••567'],
    ['97 123 4567', '••••••567'],
    ['0971 234 567', '•••••••567'],
    ['+260 971 234 567', '•••••••••567'],
  ])('keeps only the last three digits of the phone number %s', (phone, masked) => {
    expect(maskPersonalData(`call ${phone} now`)).toBe(`call ${masked} now`);
  });

  it.each([
    ['AJQ 1909', 'A•• ••••'],
    ['ABC1234', 'A••••••'],
    ['ajq1909', 'a••••••'],
  ])('keeps only the first letter of the plate %s', (plate, masked) => {
    expect(maskPersonalData(`policy ${plate}`)).toBe(`policy ${masked}`);
  });

  it('leaves policy, claim and payment numbers, amounts, dates and plain words alone', () => {
    const text =
      'Policy MTR-2024-000123, MTR-DEMO-000001 2026, claim GLC-DEMO-0001 (clm_7b1d5f3a9c42), pol_5a0c3e71d2b4, GL-DEMO-000001, premium ZMW 1,250.00 (USD 300), due 2026-01-31, ref 12345, meet at 10';
    expect(maskPersonalData(text)).toBe(text);
  });

  it('masks every occurrence in a CSV', () => {
    const csv = 'nrc,phone\n479974/11/1,260971234567\n123456/78/2,0961234567\n';
    expect(maskPersonalData(csv)).toBe(
      'nrc,phone\n••••••/••/•,•••••••••567\n••••••/••/•,•••••••567\n',
    );
  });

  it('lets no run of nine digits or more survive, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789 /-+abcAB') }), (text) => {
        expect(maskPersonalData(text)).not.toMatch(/\d{9,}/);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves no NRC serial and no phone in clear in any accepted form, wherever it stands', () => {
    const separator = fc.constantFrom('/', ' ', '-', '');
    const nrc = fc
      .tuple(
        fc.stringMatching(/^\d{6}$/),
        fc.stringMatching(/^\d{2}$/),
        fc.constantFrom('1', '2', '3'),
        separator,
      )
      .map(([serial, district, kind, sep]) => ({
        written: `${serial}${sep}${district}${sep}${kind}`,
        secret: serial,
      }));
    const phone = fc
      .tuple(
        fc.constantFrom('+260', '260', '0', ''),
        fc.constantFrom('97', '96', '95', '77', '76', '75'),
        fc.stringMatching(/^\d{7}$/),
        fc.constantFrom('', ' ', '-'),
        fc.boolean(),
      )
      .map(([prefix, operator, rest, sep, asTyped]) => ({
        // Grouped as the operator writes it (97 123 4567) or as people type it (0971 234 567).
        written: asTyped
          ? `${prefix}${operator}${rest[0]}${sep}${rest.slice(1, 4)}${sep}${rest.slice(4)}`
          : `${prefix}${operator}${sep}${rest.slice(0, 3)}${sep}${rest.slice(3)}`,
        secret: `${operator}${rest.slice(0, 4)}`,
      }));
    const words = fc.constantFrom('policy', 'household', 'call', 'NRC:', '(', 'x');
    fc.assert(
      fc.property(words, fc.oneof(nrc, phone), words, (before, found, after) => {
        const masked = maskPersonalData(`${before} ${found.written} ${after}`);
        expect(masked.replace(/\D/g, '')).not.toContain(found.secret);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('maskCsv', () => {
  it('reduces every name column of a register to initials and masks NRCs and phones', () => {
    const csv =
      'policyNumber,clientName,nrcNumber,phone\r\nCL-1,Natasha Phiri,345678/10/1,260966345678\r\nCL-1,"Banda, Mwila",479974/11/1,\r\n';
    expect(maskCsv(csv)).toBe(
      'policyNumber,clientName,nrcNumber,phone\r\nCL-1,N. P.,••••••/••/•,•••••••••678\r\nCL-1,B. M.,••••••/••/•,\r\n',
    );
  });

  it('leaves a file without name columns to the NRC and phone masking alone', () => {
    const csv = 'policyNumber,amount\r\nCL-1,1200\r\n';
    expect(maskCsv(csv)).toBe(csv);
  });
});
