import type { OperationName } from '../api/index.js';
import { getClient } from './clients.js';
import type { PaidPolicyRef, PaymentMethod, SandboxTransaction } from './payment-engine.js';
import {
  type FieldErrors,
  invalid,
  notFound,
  ruleBroken,
  SandboxHttpError,
} from './sandbox-error.js';
import type { Json, SandboxContext } from './state.js';

/** The payment part of a request, in any of the shapes the contract uses. */
export interface PaymentInput {
  readonly method?: string | undefined;
  readonly mobileMoneyAccountNumber?: string | undefined;
  readonly cardDetails?: unknown;
}

const ONE_METHOD =
  'Send mobileMoneyAccountNumber or cardDetails, not both: one payment takes one method';

function given(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/**
 * Field errors for a request body that gives both mobile money and card details, in its payment
 * object or at its top level (travel, renew-and-pay): the spec's selection table picks one method
 * per payment ("mobileMoneyAccountNumber or cardDetails"), so both is refused with 400 before
 * anything is written. Empty when the body is fine. Buy-cover is exempt: there the spec keeps
 * the cover when a payment cannot be started and gives the reason in `paymentError`.
 */
export function conflictingPaymentMethods(operation: OperationName, body: unknown): FieldErrors {
  if (operation === 'buyCreditLifeCover' || typeof body !== 'object' || body === null) return {};
  const errors: FieldErrors = {};
  const record = body as Record<string, unknown>;
  const payment = record.payment;
  for (const [field, part] of [
    ['payment', typeof payment === 'object' && payment !== null ? payment : {}],
    ['payment', record],
  ] as const) {
    const fields = part as Record<string, unknown>;
    if (given(fields.mobileMoneyAccountNumber) && given(fields.cardDetails)) {
      errors[field] = [ONE_METHOD];
    }
  }
  return errors;
}

/** Picks the method the spec's selection table implies; PayLater when nothing is sent. */
function paymentMethodOf(payment: PaymentInput | undefined): PaymentMethod {
  if (!payment) return 'PayLater';
  if (given(payment.mobileMoneyAccountNumber) && given(payment.cardDetails)) {
    throw invalid('Validation failed', { payment: [ONE_METHOD] });
  }
  if (payment.mobileMoneyAccountNumber !== undefined) return 'MobileMoney';
  if (payment.cardDetails !== undefined) return 'Card';
  if (payment.method === 'External') return 'External';
  if (payment.method === 'PayLater' || payment.method === undefined) return 'PayLater';
  throw invalid('Validation failed', {
    payment: [`Method ${payment.method} needs mobileMoneyAccountNumber or cardDetails`],
  });
}

/**
 * Normalises a Zambian number to the `260…` form the API uses; 400 when it is not one. The sandbox
 * plays the insurer, so this models the insurer's own rule (any nine national digits after `260`
 * or `0`, no check of mobile ranges), deliberately looser than our src/msisdn: what we send is
 * already checked there, and the sandbox must answer other partners' numbers as the insurer would.
 */
function normaliseSandboxMsisdn(raw: string): string {
  const digits = raw.replace(/[\s()+-]/g, '');
  const national = digits.startsWith('260')
    ? digits.slice(3)
    : digits.startsWith('0')
      ? digits.slice(1)
      : digits;
  if (!/^\d{9}$/.test(national)) {
    throw invalid('Validation failed', {
      mobileMoneyAccountNumber: ['Expected a Zambian mobile number such as 0971234567'],
    });
  }
  return `260${national}`;
}

/** What a domain operation asks to collect. */
interface CollectRequest {
  readonly reference?: string | undefined;
  readonly payment: PaymentInput | undefined;
  readonly amount: number;
  readonly currency: string;
  readonly description: string;
  readonly subjectId?: string | undefined;
  readonly origin: string;
  readonly onSuccess: (paidAt: Date) => void;
  readonly onFailure?: (reason: string) => void;
  readonly policyRef: () => PaidPolicyRef;
  /** Methods allowed here; others get 422 (batch premiums are mobile money or card only). */
  readonly allowed?: readonly PaymentMethod[];
  /**
   * Which earlier payments of the same subject refuse a new reference (409): `'pending-or-paid'`
   * for a quotation (paid once), `'pending'` for a renewal or schedule (one attempt at a time).
   */
  readonly onePerSubject?: 'pending' | 'pending-or-paid';
  /** What the subject is called in messages ("quotation", "policy", "schedule"). */
  readonly subjectName?: string;
}

function conflict(message: string, field: string): SandboxHttpError {
  return new SandboxHttpError(409, message, { [field]: [message] });
}

/**
 * Refuses a second payment of one subject under a new reference while an earlier one is Pending
 * (or, for a quotation, already Successful): only a Failed attempt frees the subject for another.
 */
function assertSubjectFree(ctx: SandboxContext, request: CollectRequest): void {
  if (!request.onePerSubject || request.subjectId === undefined) return;
  const what = request.subjectName ?? 'subject';
  for (const transaction of ctx.payments.all()) {
    if (transaction.subjectId !== request.subjectId) continue;
    if (transaction.status === 'Pending') {
      throw conflict(
        `A payment for this ${what} is already in progress under reference ${transaction.reference}; wait for its outcome or reuse that reference`,
        'reference',
      );
    }
    if (transaction.status === 'Success' && request.onePerSubject === 'pending-or-paid') {
      throw conflict(
        `This ${what} is already paid (reference ${transaction.reference})`,
        'reference',
      );
    }
  }
}

/** The payment result object for a transaction. */
function paymentResultView(transaction: SandboxTransaction, origin: string): Json {
  const message =
    transaction.status === 'Pending'
      ? transaction.method === 'Card'
        ? 'Complete 3-D Secure at redirectUrl'
        : 'Payment prompt sent to the customer; awaiting confirmation'
      : transaction.status === 'Success'
        ? 'Payment successful'
        : (transaction.failureReason ?? 'Payment failed');
  return {
    status: transaction.status,
    message,
    txnId: transaction.txnId,
    referenceId: transaction.reference,
    ...(transaction.method === 'Card'
      ? { redirectUrl: `${origin}/sandbox/3ds/${transaction.txnId}` }
      : {}),
    warnings: [],
  };
}

/**
 * Starts (or finds, by reference) a payment. The same reference sent twice returns the same
 * transaction and never charges again.
 */
export function collect(
  ctx: SandboxContext,
  request: CollectRequest,
): { transaction: SandboxTransaction; created: boolean; result: Json } {
  if (request.reference !== undefined) {
    const existing = ctx.payments.get(request.reference);
    if (existing && existing.subjectId !== (request.subjectId ?? null)) {
      throw conflict(
        `Reference ${request.reference} was already used for another payment; send a new reference`,
        'reference',
      );
    }
    if (existing) {
      return {
        transaction: existing,
        created: false,
        result: paymentResultView(existing, request.origin),
      };
    }
  }
  const method = paymentMethodOf(request.payment);
  if (request.allowed && !request.allowed.includes(method)) {
    throw ruleBroken(
      `Payment by ${method} is not accepted here; use ${request.allowed.join(' or ')}`,
      'payment',
    );
  }
  if (method === 'PayLater' && !ctx.deferredBilling) {
    throw ruleBroken(
      'PayLater (no payment details) needs a partner set up for deferred billing; send payment.mobileMoneyAccountNumber or payment.cardDetails',
      'payment',
    );
  }
  assertSubjectFree(ctx, request);
  const msisdn =
    method === 'MobileMoney'
      ? normaliseSandboxMsisdn(request.payment?.mobileMoneyAccountNumber ?? '')
      : undefined;
  const { transaction, created } = ctx.payments.start({
    reference: request.reference,
    method,
    amount: request.amount,
    currency: request.currency,
    msisdn,
    description: request.description,
    subjectId: request.subjectId,
    onSuccess: request.onSuccess,
    ...(request.onFailure ? { onFailure: request.onFailure } : {}),
    policyRef: request.policyRef,
  });
  return { transaction, created, result: paymentResultView(transaction, request.origin) };
}

/** The published transaction status `{reference, status, amount, currency}`. */
export function transactionStatus(ctx: SandboxContext, reference: string): Json {
  const transaction = ctx.payments.get(reference);
  if (!transaction) throw notFound('Transaction', reference);
  return {
    reference: transaction.reference,
    status: transaction.status,
    amount: transaction.amount,
    currency: transaction.currency,
  };
}

/** Transaction details: the status plus what it paid for and when. */
export function transactionDetails(ctx: SandboxContext, reference: string): Json {
  const transaction = ctx.payments.get(reference);
  if (!transaction) throw notFound('Transaction', reference);
  const ref = ctx.payments.policyRef(reference);
  return {
    reference: transaction.reference,
    status: transaction.status,
    amount: transaction.amount,
    currency: transaction.currency,
    txnId: transaction.txnId,
    method: transaction.method,
    quoteId: transaction.subjectId,
    policyId: ref.policyId,
    policyNumber: ref.policyNumber,
    createdAt: transaction.createdAt,
    paidAt: transaction.paidAt,
    message: transaction.failureReason ?? transaction.description,
  };
}

/** The callback delivery log of a transaction. */
export function callbackDeliveries(ctx: SandboxContext, reference: string): Json[] {
  if (!ctx.payments.get(reference)) throw notFound('Transaction', reference);
  return ctx.payments.callbackLog(reference).map((attempt) => ({
    id: `${reference}-${attempt.attempt}`,
    attempt: attempt.attempt,
    url: attempt.url,
    attemptedAt: attempt.attemptedAt,
    statusCode: attempt.statusCode,
    success: attempt.delivered,
    error: attempt.error,
  }));
}

/**
 * Initiates a farmer premium payment for a client (and one of its farms when `farmId` is sent).
 * When the money is collected the premium is receipted on the client (`premiumReceipts`), so the
 * payment has an effect a partner can read back; an unknown farm is refused.
 */
export function payFarmerPremium(
  ctx: SandboxContext,
  body: {
    reference: string;
    clientId: string;
    farmId?: string | number | undefined;
    amount: number;
    currency?: string | undefined;
    payment?: PaymentInput | undefined;
  },
  origin: string,
): Json {
  const client = getClient(ctx, body.clientId);
  const farms = Array.isArray(client.farms) ? (client.farms as Json[]) : [];
  if (body.farmId !== undefined && !farms.some((farm) => String(farm.id) === String(body.farmId))) {
    throw notFound('Farm of this client', body.farmId);
  }
  const currency = body.currency ?? 'ZMW';
  return collect(ctx, {
    reference: body.reference,
    payment: body.payment,
    amount: body.amount,
    currency,
    description: 'Farmer premium',
    subjectId: client.id,
    origin,
    onSuccess: (paidAt) => {
      const receipts = Array.isArray(client.premiumReceipts)
        ? (client.premiumReceipts as Json[])
        : [];
      receipts.push({
        reference: body.reference,
        farmId: body.farmId ?? null,
        amount: body.amount,
        currency,
        paidAt: paidAt.toISOString(),
      });
      client.premiumReceipts = receipts;
      client.updatedAt = paidAt.toISOString();
    },
    policyRef: () => ({ policyId: null, policyNumber: null, policyStatus: null }),
  }).result;
}
