import fc from 'fast-check';
import { parsePhoneNumberFromString as parseMobilePhone } from 'libphonenumber-js/mobile';
import { describe, expect, it } from 'vitest';
import {
  checkZambianMobile,
  compactZambianMobile,
  normaliseCaller,
  sameMsisdn,
  ZAMBIAN_MOBILES_IN_TEXT,
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

describe('checkZambianMobile, as the payment builders use it', () => {
  it.each([
    ['0971234567', '260971234567'],
    ['0771234567', '260771234567'],
    ['260971234567', '260971234567'],
    ['+260971234567', '260971234567'],
    [' 097 123-4567 ', '260971234567'],
    ['00260961234567', '260961234567'],
  ])('normalises %j to %s', (input, expected) => {
    expect(checkZambianMobile(input)).toEqual({ ok: true, msisdn: expected });
  });

  it.each(['', 'abc', '097123456', '09712345678', '0211123456', '+255712345678'])(
    'refuses %j',
    (input) => {
      expect(checkZambianMobile(input).ok).toBe(false);
    },
  );

  it('gives the same 260XXXXXXXXX for the local, international and API forms of a number', () => {
    fc.assert(
      fc.property(prefix, subscriber, (p, rest) => {
        const expected = { ok: true, msisdn: `260${p}${rest}` };
        expect(checkZambianMobile(`0${p}${rest}`)).toEqual(expected);
        expect(checkZambianMobile(`+260${p}${rest}`)).toEqual(expected);
        expect(checkZambianMobile(`260${p}${rest}`)).toEqual(expected);
        expect(checkZambianMobile(expected.msisdn)).toEqual(expected);
      }),
    );
  });
});

describe('ZAMBIAN_MOBILES_IN_TEXT', () => {
  it('finds numbers written inside text, not NRCs or longer numbers', () => {
    const found = (text: string) => text.match(ZAMBIAN_MOBILES_IN_TEXT) ?? [];
    expect(found('call +260 97 123 4567 or 0971234567')).toEqual([
      '+260 97 123 4567',
      '0971234567',
    ]);
    expect(found('NRC 479974/11/1, account 09712345678901')).toEqual([]);
    expect(found('typed 971234567 or 97 123 4567, NRC 123456101')).toEqual([
      '971234567',
      '97 123 4567',
    ]);
  });
});

describe('compactZambianMobile', () => {
  it('normalises every compact Zambian mobile exactly as libphonenumber does', () => {
    for (const prefix of [
      '55',
      '56',
      '57',
      '58',
      '75',
      '76',
      '77',
      '78',
      '79',
      '95',
      '96',
      '97',
      '98',
    ]) {
      for (const written of [`0${prefix}1234567`, `260${prefix}7654321`, `+260${prefix}0000001`]) {
        const national = written.replace(/^(\+?260|0)/, '');
        const parsed = parseMobilePhone(written, 'ZM');
        expect(parsed?.isValid()).toBe(true);
        expect(compactZambianMobile(written)).toBe(`260${national}`);
        expect(compactZambianMobile(written)).toBe(
          `${parsed?.countryCallingCode}${parsed?.nationalNumber}`,
        );
      }
    }
  });

  it('leaves anything else to the full parse', () => {
    for (const other of [
      '0211123456',
      '0941234567',
      '233244000111',
      '097 123 4567',
      '09712345678',
      '',
    ]) {
      expect(compactZambianMobile(other)).toBeUndefined();
    }
  });
});
