import { describe, expect, it } from 'vitest';
import { maskCsv, maskPersonalData } from '../../../src/channels/slack/index.js';

describe('maskPersonalData', () => {
  it('hides every digit of an NRC', () => {
    expect(maskPersonalData('NRC 479974/11/1 found')).toBe('NRC ••••••/••/• found');
  });

  it.each([
    ['260971234567', '•••••••••567'],
    ['+260971234567', '•••••••••567'],
    ['0971234567', '•••••••567'],
    ['+260 97 123 4567', '•••••••••567'],
    ['097-123-4567', '•••••••567'],
  ])('keeps only the last three digits of the phone number %s', (phone, masked) => {
    expect(maskPersonalData(`call ${phone} now`)).toBe(`call ${masked} now`);
  });

  it.each([
    ['479974111', '•••••••••'],
    ['479974 11 1', '••••••/••/•'],
    ['479974-11-1', '••••••/••/•'],
    ['971234567', '••••••567'],
    ['0971 234 567', '•••••••567'],
    ['97 123 4567', '••••••567'],
  ])('masks %s as typed free-hand (issue 37)', (typed, masked) => {
    expect(maskPersonalData(`I am ${typed}, call me`)).toBe(`I am ${masked}, call me`);
  });

  it('leaves policy numbers, amounts and dates alone', () => {
    const text = 'Policy MTR-2024-000123, premium ZMW 1,250.00, due 2026-01-31, ref 12345';
    expect(maskPersonalData(text)).toBe(text);
  });

  it('masks every occurrence in a CSV', () => {
    const csv = 'nrc,phone\n479974/11/1,260971234567\n123456/78/2,0961234567\n';
    expect(maskPersonalData(csv)).toBe(
      'nrc,phone\n••••••/••/•,•••••••••567\n••••••/••/•,•••••••567\n',
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
