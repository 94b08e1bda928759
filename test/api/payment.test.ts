import { describe, expect, it } from 'vitest';
import {
  cardPayment,
  contract,
  externalPayment,
  flatPayment,
  mobileMoneyPayment,
  payLaterPayment,
  ValidationError,
} from '../../src/api/index.js';

describe('mobileMoneyPayment', () => {
  it.each(['', 'abc', '097123456', '09712345678', '0211123456', '+255712345678'])(
    'rejects %j with a ValidationError on the phone field',
    (input) => {
      expect(() => mobileMoneyPayment(input, 'REF-1')).toThrow(ValidationError);
      try {
        mobileMoneyPayment(input, 'REF-1');
      } catch (error) {
        expect((error as ValidationError).field).toBe('phone');
      }
    },
  );

  it('sends the number in the API form, whatever form it was typed in', () => {
    expect(mobileMoneyPayment(' 097 123-4567 ', 'REF-1').payment?.mobileMoneyAccountNumber).toBe(
      '260971234567',
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
