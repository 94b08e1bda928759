import type { Logger } from '../log/index.js';
import type { Clock } from './clock.js';
import { outcomeForMsisdn } from './test-msisdns.js';

/** How a payment is settled. */
export type PaymentMethod = 'MobileMoney' | 'Card' | 'PayLater' | 'External';

/** Transaction status words of the published status operation. */
export type SandboxTransactionStatus = 'Pending' | 'Success' | 'Failed';

/** What a settled payment reports about the policy it paid for (webhook fields). */
export interface PaidPolicyRef {
  readonly policyId: string | null;
  readonly policyNumber: string | null;
  readonly policyStatus: string | null;
}

/** One payment the sandbox knows, keyed by its reference. */
export interface SandboxTransaction {
  readonly reference: string;
  readonly txnId: string;
  readonly method: PaymentMethod;
  status: SandboxTransactionStatus;
  readonly amount: number;
  readonly currency: string;
  /** The payer's number; kept in memory only, never logged. */
  readonly msisdn: string | null;
  readonly description: string;
  /** The quotation (or batch, or policy) the payment is for. */
  readonly subjectId: string | null;
  readonly createdAt: string;
  paidAt: string | null;
  failureReason: string | null;
}

/** One attempt to POST the payment webhook to the partner's callback URL. */
export interface CallbackAttempt {
  readonly attempt: number;
  readonly url: string;
  readonly attemptedAt: string;
  readonly statusCode: number | null;
  readonly delivered: boolean;
  readonly error: string | null;
}

/** What a caller asks the engine to collect, and what to do when it is collected. */
interface PaymentRequest {
  readonly reference?: string | undefined;
  readonly method: PaymentMethod;
  readonly amount: number;
  readonly currency: string;
  readonly msisdn?: string | undefined;
  readonly description: string;
  readonly subjectId?: string | undefined;
  /** Runs once, when the money is collected; returns the policy the payment paid for. */
  readonly onSuccess: (paidAt: Date) => void;
  /** Runs once, when the payment fails or expires. */
  readonly onFailure?: (reason: string) => void;
  /** The policy the payment is for, read when the webhook is built. */
  readonly policyRef: () => PaidPolicyRef;
}

/** Options of {@link createPaymentEngine}. */
interface PaymentEngineOptions {
  readonly clock: Clock;
  readonly logger?: Logger | undefined;
  /** Delay before a mobile-money payment settles; default 3000 ms. */
  readonly settleDelayMs: number;
  /** How long a never-answered prompt stays Pending before it expires; default 300 000 ms. */
  readonly expireAfterMs: number;
  /** First retry delay of a failed webhook delivery, doubled each attempt; default 1000 ms. */
  readonly callbackRetryBaseMs: number;
  /** Deliveries attempted per webhook before giving up; default 5. */
  readonly callbackMaxAttempts: number;
  readonly callbackUrl: () => string | null;
  readonly newId: (prefix: string) => string;
  /** Settle mobile-money payments within the call that starts them (never-answered ones aside). */
  readonly settleAtOnce?: boolean | undefined;
}

/** How {@link PaymentEngine.settleNow} ends a payment: as its payer's number chooses, or as told. */
export type SettleOutcome = 'as-msisdn' | 'success' | 'failed';

/** Payments with delayed settlement and webhook delivery with retries. */
export interface PaymentEngine {
  /** Starts a payment, or returns the existing one when `reference` was used before. */
  start(request: PaymentRequest): { transaction: SandboxTransaction; created: boolean };
  get(reference: string): SandboxTransaction | undefined;
  byTxnId(txnId: string): SandboxTransaction | undefined;
  /** Completes a card payment after its 3-D Secure page was visited. */
  completeCard(txnId: string): SandboxTransaction | undefined;
  /**
   * Settles a Pending payment now instead of after its delay (tests, demos); a settled or unknown
   * one is returned unchanged. Mobile money ends as its payer's number chooses (a never-answered
   * prompt expires), a card payment succeeds, unless `outcome` says otherwise.
   */
  settleNow(reference: string, outcome?: SettleOutcome): SandboxTransaction | undefined;
  callbackLog(reference: string): CallbackAttempt[];
  /** The policy a transaction paid (or is paying) for. */
  policyRef(reference: string): PaidPolicyRef;
  all(): SandboxTransaction[];
  /** Resolves once no settlement or delivery task is running; scheduled ones are not awaited. */
  idle(): Promise<void>;
  close(): void;
}

/** Why a sandbox payment fails, by outcome: the insurer's words a caller is shown as the reason. */
export const FAILURE_REASON = {
  declined: 'The customer declined the payment prompt',
  'insufficient-funds': 'Insufficient funds',
  expires: 'The payment prompt expired without an answer',
} as const;

/** What the engine's parts share: its records, its timers and whether it is closed. */
interface EngineState {
  readonly options: PaymentEngineOptions;
  readonly transactions: Map<string, SandboxTransaction>;
  readonly requests: Map<string, PaymentRequest>;
  readonly logs: Map<string, CallbackAttempt[]>;
  readonly timers: Set<NodeJS.Timeout>;
  readonly running: Set<Promise<void>>;
  closed: boolean;
}

/** Creates the engine; timers are unref'd and cleared on close. */
export function createPaymentEngine(options: PaymentEngineOptions): PaymentEngine {
  const state: EngineState = {
    options,
    transactions: new Map<string, SandboxTransaction>(),
    requests: new Map<string, PaymentRequest>(),
    logs: new Map<string, CallbackAttempt[]>(),
    timers: new Set<NodeJS.Timeout>(),
    running: new Set<Promise<void>>(),
    closed: false,
  };
  const { transactions, requests, logs, timers, running } = state;

  return {
    start: (request) => startPayment(state, request),
    get: (reference) => transactions.get(reference),
    byTxnId: (txnId) => [...transactions.values()].find((t) => t.txnId === txnId),
    completeCard(txnId) {
      const transaction = [...transactions.values()].find((t) => t.txnId === txnId);
      if (transaction?.method === 'Card') settle(state, transaction, true, null);
      return transaction;
    },
    settleNow(reference, outcome = 'as-msisdn') {
      const transaction = transactions.get(reference);
      if (transaction?.status !== 'Pending') return transaction;
      if (outcome !== 'as-msisdn') {
        settle(state, transaction, outcome === 'success', outcome === 'failed' ? 'Failed' : null);
        return transaction;
      }
      const chosen =
        transaction.method === 'MobileMoney'
          ? outcomeForMsisdn(transaction.msisdn ?? '')
          : ('success' as const);
      if (chosen === 'success') settle(state, transaction, true, null);
      else settle(state, transaction, false, FAILURE_REASON[chosen]);
      return transaction;
    },
    callbackLog: (reference) => [...(logs.get(reference) ?? [])],
    policyRef: (reference) =>
      requests.get(reference)?.policyRef() ?? {
        policyId: null,
        policyNumber: null,
        policyStatus: null,
      },
    all: () => [...transactions.values()],
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    close() {
      state.closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** Records a payment (once per reference) and settles it now or later, as its method does. */
function startPayment(
  state: EngineState,
  request: PaymentRequest,
): { transaction: SandboxTransaction; created: boolean } {
  const { options, transactions, requests } = state;
  const reference = request.reference ?? options.newId('REF');
  const existing = transactions.get(reference);
  if (existing) return { transaction: existing, created: false };
  const transaction: SandboxTransaction = {
    reference,
    txnId: options.newId('TXN'),
    method: request.method,
    status: 'Pending',
    amount: request.amount,
    currency: request.currency,
    msisdn: request.msisdn ?? null,
    description: request.description,
    subjectId: request.subjectId ?? null,
    createdAt: options.clock.now().toISOString(),
    paidAt: null,
    failureReason: null,
  };
  transactions.set(reference, transaction);
  requests.set(reference, request);
  if (request.method === 'PayLater' || request.method === 'External') {
    settle(state, transaction, true, null);
  } else if (request.method === 'MobileMoney') {
    const outcome = outcomeForMsisdn(request.msisdn ?? '');
    if (options.settleAtOnce && outcome !== 'expires') {
      if (outcome === 'success') settle(state, transaction, true, null);
      else settle(state, transaction, false, FAILURE_REASON[outcome]);
    } else if (outcome === 'expires') {
      later(state, options.expireAfterMs, () =>
        settle(state, transaction, false, FAILURE_REASON.expires),
      );
    } else {
      later(state, options.settleDelayMs, () =>
        outcome === 'success'
          ? settle(state, transaction, true, null)
          : settle(state, transaction, false, FAILURE_REASON[outcome]),
      );
    }
  }
  return { transaction, created: true };
}

function later(state: EngineState, ms: number, task: () => void | Promise<void>): void {
  if (state.closed) return;
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    if (state.closed) return;
    const run = Promise.resolve()
      .then(task)
      .catch((error: unknown) =>
        state.options.logger?.error({ err: error }, 'sandbox payment task failed'),
      );
    state.running.add(run);
    void run.finally(() => state.running.delete(run));
  }, ms);
  timer.unref();
  state.timers.add(timer);
}

function settle(
  state: EngineState,
  transaction: SandboxTransaction,
  success: boolean,
  reason: string | null,
): void {
  if (transaction.status !== 'Pending') return;
  const { options } = state;
  const request = state.requests.get(transaction.reference);
  const at = options.clock.now();
  if (success) {
    transaction.status = 'Success';
    transaction.paidAt = at.toISOString();
    request?.onSuccess(at);
  } else {
    transaction.status = 'Failed';
    transaction.failureReason = reason;
    request?.onFailure?.(reason ?? 'Failed');
  }
  options.logger?.info(
    { reference: transaction.reference, status: transaction.status },
    'sandbox payment settled',
  );
  if (transaction.method === 'MobileMoney' || transaction.method === 'Card')
    deliver(state, transaction, 1);
}

function deliver(state: EngineState, transaction: SandboxTransaction, attempt: number): void {
  const { options, logs } = state;
  const url = options.callbackUrl();
  if (!url) return;
  const ref = state.requests.get(transaction.reference)?.policyRef() ?? {
    policyId: null,
    policyNumber: null,
    policyStatus: null,
  };
  const body = {
    policyId: ref.policyId,
    paymentReference: transaction.reference,
    partnerReference: transaction.reference,
    status: transaction.status,
    amount: transaction.amount,
    currency: transaction.currency,
    policyNumber: ref.policyNumber,
    policyStatus: ref.policyStatus,
    paidAt: transaction.paidAt,
  };
  const task = async (): Promise<void> => {
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      });
      statusCode = response.status;
      await response.body?.cancel();
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
    }
    const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const log = logs.get(transaction.reference) ?? [];
    log.push({
      attempt,
      url,
      attemptedAt: options.clock.now().toISOString(),
      statusCode,
      delivered,
      error: delivered ? null : (error ?? `HTTP ${String(statusCode)}`),
    });
    logs.set(transaction.reference, log);
    if (!delivered && attempt < options.callbackMaxAttempts) {
      later(state, options.callbackRetryBaseMs * 2 ** (attempt - 1), () =>
        deliver(state, transaction, attempt + 1),
      );
    }
  };
  if (attempt === 1) later(state, 0, task);
  else void trackNow(state, task);
}

function trackNow(state: EngineState, task: () => Promise<void>): Promise<void> {
  const run = task().catch((error: unknown) =>
    state.options.logger?.error({ err: error }, 'sandbox callback delivery failed'),
  );
  state.running.add(run);
  void run.finally(() => state.running.delete(run));
  return run;
}
