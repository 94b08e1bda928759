import type { PaymentSettledEvent } from '../conversation/index.js';

/** What a payment ended as, from the user's point of view; `pending` means "not yet known". */
export type PaymentOutcome = PaymentSettledEvent['outcome'];

// Rails word their statuses differently (DOMAIN.md "Mobile money"); anything unknown stays pending
// so an unexpected word never tells a user they paid.
const PAID = new Set(['success', 'successful', 'succeeded', 'completed', 'paid']);
const FAILED = new Set([
  'failed',
  'failure',
  'cancelled',
  'canceled',
  'expired',
  'rejected',
  'declined',
]);

/**
 * Maps a transaction status word to an outcome, case-insensitively:
 * success/successful/completed → paid; failed/cancelled/expired/rejected → failed; else pending.
 */
export function classifyPaymentStatus(status: string | null | undefined): PaymentOutcome {
  const word = (status ?? '').trim().toLowerCase();
  if (PAID.has(word)) return 'paid';
  if (FAILED.has(word)) return 'failed';
  return 'pending';
}
