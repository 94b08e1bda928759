import type { Prompt } from '../conversation/index.js';
import type { PaymentOutcome } from './payment-status.js';

/**
 * Message keys of the outcome notice sent when the flow cannot answer for itself (the session
 * expired, or the engine kept failing). Params: `reference`, and `policyNumber` with `paid`;
 * `paidWithoutPolicy` is used when the policy number is not known (the callback was lost).
 */
export const PAYMENT_PROMPTS = {
  paid: 'payment.outcome.paid',
  paidWithoutPolicy: 'payment.outcome.paidWithoutPolicy',
  failed: 'payment.outcome.failed',
  pending: 'payment.outcome.pending',
} as const satisfies Record<PaymentOutcome | 'paidWithoutPolicy', string>;

/** The outcome notice of {@link PAYMENT_PROMPTS} for `reference`. */
export function outcomePrompt(
  outcome: PaymentOutcome,
  reference: string,
  policyNumber?: string,
): Prompt {
  return {
    key:
      outcome === 'paid' && policyNumber === undefined
        ? PAYMENT_PROMPTS.paidWithoutPolicy
        : PAYMENT_PROMPTS[outcome],
    params: { reference, ...(policyNumber === undefined ? {} : { policyNumber }) },
    input: 'none',
    final: true,
  };
}
