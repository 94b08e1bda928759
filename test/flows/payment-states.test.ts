import { describe, expect, it } from 'vitest';
import {
  PAYMENT_FAILED,
  payFromContact,
  payFromText,
  paymentFailedState,
  paymentWaitPrompt,
  statusFailed,
  statusPaid,
  stillPending,
} from '../../flows/payment-states.js';
import { ask, type PaymentChoice } from '../../flows/support.js';

interface Held {
  answers: { plate: string; payment?: PaymentChoice };
}

describe('paymentWaitPrompt', () => {
  it('asks a mobile-money payer to approve on the phone, with a Check button', () => {
    const prompt = paymentWaitPrompt({
      payment: { method: 'mobileMoney', msisdn: '260971234567' },
      amount: 1500,
      currency: 'ZMW',
      redirectUrl: 'https://pay.example/x',
    });
    expect(prompt).toEqual({
      key: 'pay.waitPhone',
      input: 'choice',
      final: false,
      params: { amount: '1500.00', currency: 'ZMW' },
      choices: [{ id: 'check', label: 'pay.choice.check' }],
    });
  });

  it('links a card payer to the payment page when the insurer gave one', () => {
    const prompt = paymentWaitPrompt({
      payment: { method: 'card' },
      amount: 10,
      currency: 'ZMW',
      redirectUrl: 'https://pay.example/x',
    });
    expect(prompt.key).toBe('pay.waitCard');
    expect(prompt.attachments).toEqual([
      { kind: 'link', url: 'https://pay.example/x', label: 'pay.cardLink' },
    ]);
  });

  it('shows no link to a card payer when there is no payment page', () => {
    const prompt = paymentWaitPrompt({
      payment: { method: 'card' },
      amount: 10,
      currency: 'ZMW',
      redirectUrl: undefined,
    });
    expect(prompt.attachments).toBeUndefined();
  });
});

describe('payment state pieces', () => {
  it('shows the wait screen again with a still-pending note', () => {
    const wait = ask('pay.waitPhone', 'choice');
    expect(stillPending({ context: { prompt: wait } })).toEqual({
      ...wait,
      notes: [{ key: 'pay.note.stillPending' }],
    });
  });

  it('tells paid, failed and pending status results apart', () => {
    const at = (status: 'paid' | 'failed' | 'pending') => ({
      event: { output: { reference: 'R', status } },
    });
    expect([statusPaid(at('paid')), statusFailed(at('paid'))]).toEqual([true, false]);
    expect([statusPaid(at('failed')), statusFailed(at('failed'))]).toEqual([false, true]);
    expect([statusPaid(at('pending')), statusFailed(at('pending'))]).toEqual([false, false]);
  });

  it('offers Try again and End after a failed payment, Back going where Try again goes', () => {
    expect(PAYMENT_FAILED.choices?.map((c) => c.id)).toEqual(['retry', 'end']);
    const state = paymentFailedState('pickPayment');
    expect(state.on['user.back']).toBe('pickPayment');
    expect(state.on['user.choice'].map((t) => t.target)).toEqual(['pickPayment', 'cancelled']);
  });
});

describe('pay-from number answers', () => {
  it('keeps a valid typed or shared number as the mobile-money payment', () => {
    const context: Held = { answers: { plate: 'ABC 1234' } };
    const text = payFromText({ context, event: { type: 'user.text', text: '0971234567' } });
    const contact = payFromContact({
      context,
      event: { type: 'user.contact', phone: '0971234567' },
    });
    expect(text).toEqual(contact);
    expect(text).toMatchObject({ plate: 'ABC 1234', payment: { method: 'mobileMoney' } });
  });

  it('leaves the answers as they were for a number that is not valid', () => {
    const context: Held = { answers: { plate: 'ABC 1234' } };
    expect(payFromText({ context, event: { type: 'user.text', text: 'nope' } })).toBe(
      context.answers,
    );
  });
});
