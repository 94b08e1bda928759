import { describe, expect, it } from 'vitest';
import { classifyPaymentStatus } from '../../src/payments/index.js';

describe('classifyPaymentStatus', () => {
  it.each(['Success', 'SUCCESSFUL', 'completed', ' success '])('reads %j as paid', (word) => {
    expect(classifyPaymentStatus(word)).toBe('paid');
  });

  it.each(['Failed', 'cancelled', 'EXPIRED', 'Rejected'])('reads %j as failed', (word) => {
    expect(classifyPaymentStatus(word)).toBe('failed');
  });

  it.each(['Pending', 'processing', '', 'successish', null, undefined])(
    'reads %j as still pending',
    (word) => {
      expect(classifyPaymentStatus(word)).toBe('pending');
    },
  );
});
