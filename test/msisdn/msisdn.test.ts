import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkZambianMobile,
  compactZambianMobile,
  normaliseCaller,
  sameMsisdn,
} from '../../src/msisdn/index.js';

const prefix = fc.constantFrom(
  '95',
  '96',
  '97',
  '98',
  '75',
  '76',
  '77',
  '78',
  '79',
  '55',
  '56',
  '57',
);
const subscriber = fc.stringMatching(/^\d{7}$/);

describe('checkZambianMobile', () => {
  it('normalises every usual form of a Zambian mobile to 260XXXXXXXXX', () => {
    for (const form of [
      '0971234567',
      '260971234567',
      '+260971234567',
      '+260 97 123 4567',
      '00260971234567',
      '097-123-4567',
    ]) {
      expect(checkZambianMobile(form)).toEqual({ ok: true, msisdn: '260971234567' });
    }
  });

  it('gives the fast path and the full parse the same answer for every compact mobile', () => {
    fc.assert(
      fc.property(prefix, subscriber, (p, rest) => {
        const expected = `260${p}${rest}`;
        expect(compactZambianMobile(`0${p}${rest}`)).toBe(expected);
        // A spaced form takes the full parse.
        expect(checkZambianMobile(`0${p} ${rest}`)).toEqual({ ok: true, msisdn: expected });
      }),
    );
  });

  it('says why a number is refused: format, landline or foreign', () => {
    expect(checkZambianMobile('hello')).toEqual({ ok: false, problem: 'format' });
    expect(checkZambianMobile('097123456')).toEqual({ ok: false, problem: 'format' });
    expect(checkZambianMobile('0211234567')).toEqual({ ok: false, problem: 'notMobile' });
    expect(checkZambianMobile('+255712345678')).toEqual({ ok: false, problem: 'notZambian' });
  });

  it('never throws, whatever is typed', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const checked = checkZambianMobile(input);
        if (checked.ok) expect(checked.msisdn).toMatch(/^260\d{9}$/);
      }),
    );
  });
});

describe('normaliseCaller', () => {
  it('reads gateway numbers of any country, with or without the plus', () => {
    expect(normaliseCaller('260971234567')).toBe('260971234567');
    expect(normaliseCaller('+260971234567')).toBe('260971234567');
    expect(normaliseCaller('0971234567')).toBe('260971234567');
    expect(normaliseCaller('233244000111')).toBe('233244000111');
    expect(normaliseCaller('not a number')).toBeUndefined();
  });
});

describe('sameMsisdn', () => {
  it('matches one phone written two ways and tells two phones apart', () => {
    expect(sameMsisdn('0966345678', '+260966345678')).toBe(true);
    expect(sameMsisdn('0966345678', '0966345679')).toBe(false);
    expect(sameMsisdn(undefined, '0966345678')).toBe(false);
  });
});
