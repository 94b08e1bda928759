import { CodedError } from '../errors/index.js';

/** Stable codes of {@link PaymentError}; callers branch on these, never on messages. */
export type PaymentErrorCode =
  | 'PAYMENT_ROUTE_INVALID'
  | 'PAYMENT_JOB_INVALID'
  | 'PAYMENT_NOTIFY_FAILED'
  | 'PAYMENT_CALLBACK_UNROUTABLE'
  | 'PAYMENT_FLOW_UNAVAILABLE'
  | 'PAYMENT_ATTEMPT_IN_FLIGHT'
  | 'PAYMENT_UNCONFIRMED'
  | 'PAYMENT_NOT_TAKEN'
  | 'PAYMENT_ITEM_IN_FLIGHT';

/** Raised by src/payments when a stored record or a delivery cannot be used as it is. */
export class PaymentError extends CodedError<PaymentErrorCode> {
  override readonly name: string = 'PaymentError';
  /** The payment reference concerned; references are not personal data. */
  readonly reference: string;

  constructor(
    code: PaymentErrorCode,
    reference: string,
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(code, message, options);
    this.reference = reference;
  }
}

/** Raised when a stored payment route does not match its schema (written by another version). */
export class PaymentRouteError extends PaymentError {
  override readonly name = 'PaymentRouteError';

  constructor(reference: string, options?: { readonly cause?: unknown }) {
    super('PAYMENT_ROUTE_INVALID', reference, 'The stored payment route is not readable', options);
  }
}

/** Raised when the channel's notifier refused an outcome message; the queue retries it. */
export class PaymentNotifyError extends PaymentError {
  override readonly name = 'PaymentNotifyError';
  readonly channel: string;

  constructor(reference: string, channel: string, options?: { readonly cause?: unknown }) {
    super(
      'PAYMENT_NOTIFY_FAILED',
      reference,
      `The ${channel} notifier did not accept the message`,
      options,
    );
    this.channel = channel;
  }
}

/**
 * Raised when a new payment attempt is asked for while the insurer still has the previous one
 * pending: at most one attempt per purchase is in flight. Carries HTTP-like status 409 so flows
 * read it as a refusal, not an outage.
 */
export class PaymentAttemptError extends PaymentError {
  override readonly name = 'PaymentAttemptError';
  readonly status = 409;

  constructor(reference: string, message: string) {
    super('PAYMENT_ATTEMPT_IN_FLIGHT', reference, message);
  }
}

/**
 * Raised when a pay request's answer was lost (timeout, 5xx, dropped connection, unreadable body)
 * and the lookup by its reference could not tell yet whether the insurer took it. The payment is
 * followed (looked up with back-off) and its outcome pushed; nothing is sent again meanwhile.
 */
export class PaymentUnconfirmedError extends PaymentError {
  override readonly name = 'PaymentUnconfirmedError';

  constructor(reference: string, options?: { readonly cause?: unknown }) {
    super(
      'PAYMENT_UNCONFIRMED',
      reference,
      'The payment is being confirmed with the insurer',
      options,
    );
  }
}

/**
 * Raised when the insurer, answering, holds no transaction under a reference we sent: it never
 * took that request, so nothing was charged and the same attempt (same reference) may be paid.
 */
export class PaymentNotTakenError extends PaymentError {
  override readonly name = 'PaymentNotTakenError';

  constructor(reference: string, options?: { readonly cause?: unknown }) {
    super(
      'PAYMENT_NOT_TAKEN',
      reference,
      'The insurer holds no transaction under this reference',
      options,
    );
  }
}

/**
 * Raised when the same holder starts paying for an item (a product for a car, a trip) while a
 * payment of theirs for it is still unsettled: a second charge is never started.
 */
export class PaymentItemBusyError extends PaymentError {
  override readonly name = 'PaymentItemBusyError';
  /** What is paid for, in the user's words; shown back to its holder. */
  readonly item: string;

  constructor(reference: string, item: string) {
    super('PAYMENT_ITEM_IN_FLIGHT', reference, 'A payment for the item is unsettled');
    this.item = item;
  }
}
