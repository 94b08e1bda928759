import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  t,
  validateAmount,
  validateDate,
  validateMsisdn,
  validateNrc,
  validatePlate,
} from '../../src/conversation/index.js';

const digits = (length: number) =>
  fc
    .array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length })
    .map((d) => d.join(''));

describe('validateNrc', () => {
  it('accepts the slashed form and returns it unchanged', () => {
    expect(validateNrc('479974/11/1')).toEqual({ ok: true, value: '479974/11/1' });
  });

  it('inserts the slashes into 9 keypad digits', () => {
    fc.assert(
      fc.property(digits(6), digits(2), fc.constantFrom('1', '2', '3'), (serial, district, n) => {
        expect(validateNrc(`${serial}${district}${n}`)).toEqual({
          ok: true,
          value: `${serial}/${district}/${n}`,
        });
      }),
    );
  });

  it('rejects a nationality digit other than 1, 2 or 3', () => {
    fc.assert(
      fc.property(
        digits(6),
        digits(2),
        fc.constantFrom('0', '4', '5', '9'),
        (serial, district, n) => {
          expect(validateNrc(`${serial}/${district}/${n}`)).toEqual({
            ok: false,
            reason: 'validation.nrc.nationality',
          });
        },
      ),
    );
  });

  it('rejects anything that is not 9 digits with a format reason', () => {
    for (const input of ['', '12345/11/1', '1234567/11/1', '479974/111', 'abc', '47997411']) {
      expect(validateNrc(input)).toEqual({ ok: false, reason: 'validation.nrc.format' });
    }
  });

  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.string(), (input) => typeof validateNrc(input).ok === 'boolean'));
  });
});

describe('validateMsisdn', () => {
  it('normalises every usual form of a Zambian mobile number to 260XXXXXXXXX', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('95', '96', '97', '75', '76', '77'),
        digits(7),
        (prefix, rest) => {
          const expected = { ok: true, value: `260${prefix}${rest}` };
          for (const form of [`0${prefix}${rest}`, `260${prefix}${rest}`, `+260${prefix}${rest}`]) {
            expect(validateMsisdn(form)).toEqual(expected);
          }
        },
      ),
    );
  });

  it('accepts spaces in a typed number', () => {
    expect(validateMsisdn('+260 97 123 4567')).toEqual({ ok: true, value: '260971234567' });
  });

  it('rejects a landline as not a mobile number', () => {
    expect(validateMsisdn('0211234567')).toEqual({
      ok: false,
      reason: 'validation.phone.notMobile',
    });
  });

  it('rejects a foreign mobile number', () => {
    expect(validateMsisdn('+27821234567')).toEqual({
      ok: false,
      reason: 'validation.phone.notZambian',
    });
  });

  it('rejects a short or non-numeric entry with a format reason', () => {
    for (const input of ['', '097123', 'hello there', '0971234567890123']) {
      expect(validateMsisdn(input)).toEqual({ ok: false, reason: 'validation.phone.format' });
    }
  });

  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.string(), (input) => typeof validateMsisdn(input).ok === 'boolean'));
  });
});

describe('validatePlate', () => {
  it('upper-cases a standard plate and puts one space between letters and digits', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-zA-Z]{2,3}$/),
        fc.stringMatching(/^\d{1,4}$/),
        fc.constantFrom('', ' ', '   '),
        (letters, number, gap) => {
          expect(validatePlate(`${letters}${gap}${number}`)).toEqual({
            ok: true,
            value: `${letters.toUpperCase()} ${number}`,
          });
        },
      ),
    );
  });

  it('accepts a personalised plate of 2 to 10 letters and digits', () => {
    expect(validatePlate('  grz  king 1 ')).toEqual({ ok: true, value: 'GRZ KING 1' });
  });

  it('rejects punctuation, over-long plates and digits alone', () => {
    for (const input of ['AB-123', 'A', 'ABCDEFGHIJK', '', '!!', '12345678', '12 34']) {
      expect(validatePlate(input)).toEqual({ ok: false, reason: 'validation.plate.format' });
    }
  });
});

describe('validateDate', () => {
  const today = '2026-11-22';

  it('reads DD/MM/YYYY, DDMMYYYY and YYYY-MM-DD as the same ISO date', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }),
        (date) => {
          const iso = date.toISOString().slice(0, 10);
          const [y, m, d] = iso.split('-');
          for (const form of [`${d}/${m}/${y}`, `${d}${m}${y}`, iso]) {
            expect(validateDate(form)).toEqual({ ok: true, value: iso });
          }
        },
      ),
    );
  });

  it('rejects dates that do not exist', () => {
    expect(validateDate('31/02/2025')).toEqual({ ok: false, reason: 'validation.date.invalid' });
    expect(validateDate('29/02/2023')).toEqual({ ok: false, reason: 'validation.date.invalid' });
  });

  it('accepts 29 February in a leap year', () => {
    expect(validateDate('29/02/2024')).toEqual({ ok: true, value: '2024-02-29' });
  });

  it('applies past and future rules relative to today', () => {
    expect(validateDate('22/11/2026', { rule: 'past', today }).ok).toBe(false);
    expect(validateDate('21/11/2026', { rule: 'past', today }).ok).toBe(true);
    expect(validateDate('22/11/2026', { rule: 'todayOrFuture', today }).ok).toBe(true);
    expect(validateDate('21/11/2026', { rule: 'todayOrFuture', today })).toEqual({
      ok: false,
      reason: 'validation.date.notTodayOrFuture',
    });
    expect(validateDate('22/11/2026', { rule: 'future', today })).toEqual({
      ok: false,
      reason: 'validation.date.notFuture',
    });
  });

  it('explains a bound with the bound written DD/MM/YYYY, as the caller types dates', () => {
    const result = validateDate('01/01/2027', { max: '2026-12-31' });
    expect(result).toEqual({
      ok: false,
      reason: 'validation.date.tooLate',
      params: { max: '2026-12-31' },
    });
    if (result.ok) return;
    expect(t(result.reason, result.params)).toBe('The date must be on or before 31/12/2026.');
  });

  it('rejects other shapes with a format reason', () => {
    for (const input of ['', 'tomorrow', '2026/11/22', '1/1/26']) {
      expect(validateDate(input)).toEqual({ ok: false, reason: 'validation.date.format' });
    }
  });
});

describe('validateAmount', () => {
  it('accepts positive amounts with up to two decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), (cents) => {
        const typed = (cents / 100).toFixed(2);
        expect(validateAmount(typed)).toEqual({ ok: true, value: Number(typed) });
      }),
    );
  });

  it('accepts thousands separators and a currency prefix', () => {
    expect(validateAmount('K 1,500.50')).toEqual({ ok: true, value: 1500.5 });
  });

  it('rejects zero and negative amounts', () => {
    expect(validateAmount('0')).toEqual({ ok: false, reason: 'validation.amount.notPositive' });
    expect(validateAmount('-5')).toEqual({ ok: false, reason: 'validation.amount.notPositive' });
  });

  it('rejects more than two decimals', () => {
    expect(validateAmount('1.005')).toEqual({
      ok: false,
      reason: 'validation.amount.tooManyDecimals',
    });
  });

  it('rejects an amount above the bound, naming the bound', () => {
    expect(validateAmount('5001', { max: 5000 })).toEqual({
      ok: false,
      reason: 'validation.amount.tooLarge',
      params: { max: 5000 },
    });
  });

  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.string(), (input) => typeof validateAmount(input).ok === 'boolean'));
  });
});
