import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cardPayment,
  contract,
  externalPayment,
  flatPayment,
  mobileMoneyPayment,
  normaliseMsisdn,
  payLaterPayment,
  ValidationError,
} from '../../src/api/index.js';

/** Zambian mobile prefixes (Zamtel 95/75, MTN 96/76, Airtel 97/77, newer 55–57). */
const prefix = fc.constantFrom('95', '96', '97', '75', '76', '77', '55', '56', '57');
const subscriber = fc.stringMatching(/^\d{7}$/);

describe('normaliseMsisdn', () => {
  it.each([
    ['0971234567', '260971234567'],
    ['0771234567', '260771234567'],
    ['260971234567', '260971234567'],
    ['+260971234567', '260971234567'],
    [' 097 123-4567 ', '260971234567'],
    ['00260961234567', '260961234567'],
  ])('normalises %j to %s', (input, expected) => {
    expect(normaliseMsisdn(input)).toBe(expected);
  });

  it.each(['', 'abc', '097123456', '09712345678', '0211123456', '+255712345678'])(
    'rejects %j with a ValidationError on the phone field',
    (input) => {
      expect(() => normaliseMsisdn(input)).toThrow(ValidationError);
      try {
        normaliseMsisdn(input);
      } catch (error) {
        expect((error as ValidationError).field).toBe('phone');
      }
    },
  );

  it('gives the same 260XXXXXXXXX for the local, international and API forms of a number', () => {
    fc.assert(
      fc.property(prefix, subscriber, (p, rest) => {
        const expected = `260${p}${rest}`;
        expect(normaliseMsisdn(`0${p}${rest}`)).toBe(expected);
        expect(normaliseMsisdn(`+260${p}${rest}`)).toBe(expected);
        expect(normaliseMsisdn(`260${p}${rest}`)).toBe(expected);
        expect(normaliseMsisdn(expected)).toBe(expected);
      }),
    );
  });

  it('never throws anything but ValidationError, whatever is typed', () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        try {
          expect(normaliseMsisdn(input)).toMatch(/^260\d{9}$/);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
        }
      }),
    );
  });
});

describe('payment builders', () => {
  const payBody = contract.payQuotation.body;

  it('builds the published mobile-money pay body', () => {
    const body = mobileMoneyPayment('0971234567', 'ref-1');
    expect(body).toEqual({
      reference: 'ref-1',
      payment: { method: 'MobileMoney', mobileMoneyAccountNumber: '260971234567' },
    });
    expect(payBody.safeParse(body).success).toBe(true);
  });

  it('turns a billing address into cardDetails', () => {
    const billing = { city: 'Lusaka', country: 'ZM', address: 'Plot 1', zip: 10101 };
    expect(cardPayment(billing, 'ref-2')).toEqual({
      reference: 'ref-2',
      payment: { method: 'Card', cardDetails: billing },
    });
  });

  it('rejects a card billing address without a city, naming the field', () => {
    const billing = { city: '', country: 'ZM', address: 'Plot 1', zip: 10101 };
    expect(() => cardPayment(billing, 'ref')).toThrow(
      expect.objectContaining({ field: 'cardDetails.city' }),
    );
  });

  it('omits the payment object for PayLater', () => {
    expect(payLaterPayment('ref-3')).toEqual({ reference: 'ref-3' });
  });

  it('marks an external settlement', () => {
    expect(externalPayment('ref-4').payment).toEqual({ method: 'External' });
  });

  it('refuses a payment without a reference', () => {
    expect(() => mobileMoneyPayment('0971234567', ' ')).toThrow(
      expect.objectContaining({ field: 'reference' }),
    );
  });

  it('flattens a payment for bodies that carry its fields at the top level', () => {
    const flat = flatPayment(mobileMoneyPayment('0971234567', 'ref-5'));
    expect(flat).toEqual({ reference: 'ref-5', mobileMoneyAccountNumber: '260971234567' });
    expect(contract.payCreditLifeSchedule.body.safeParse(flat).success).toBe(true);
  });
});
