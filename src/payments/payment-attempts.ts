import { createHash } from 'node:crypto';
import { z } from 'zod';
import { createPaymentGuard, type Prompt } from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import type { RedisConnection } from '../session/index.js';
import { PaymentAttemptError } from './payment-errors.js';
import type { PaymentRoute } from './payment-routes.js';
import { classifyPaymentStatus, type PaymentOutcome } from './payment-status.js';

/** One attempt at paying for one purchase, as a flow asks for it. */
export interface PaymentAttempt {
  /**
   * What is paid for, unique per purchase: the quotation (or policy being renewed) and a key made
   * when it was priced, so a quote id the insurer hands out again after a restart never collides.
   */
  readonly purchase: string;
  /** 1 for the first attempt, one more for each "Pay again" after a confirmed failure. */
  readonly attempt: number;
  /** Where the outcome goes; without it the user only learns it by checking. */
  readonly route?: PaymentRoute | undefined;
  /** The amount asked on screen, for the card link sent by SMS to a USSD user. */
  readonly due?: { readonly amount: number; readonly currency: string } | undefined;
}

/** What the insurer answered when an attempt was started. */
export interface PaymentStart {
  readonly status: string;
  readonly redirectUrl?: string | null | undefined;
}

/** A started attempt: its reference and the insurer's first answer. */
export const StartedAttempt = z.object({
  reference: z.string(),
  status: z.string(),
  redirectUrl: z.string().optional(),
});
/** A started attempt. */
export type StartedAttempt = z.infer<typeof StartedAttempt>;

/** What {@link createPaymentAttempts} needs of the payment service; may be bound late. */
export interface AttemptTracker {
  /** Follows a pending payment so its outcome is pushed to `route`. */
  track(reference: string, route: PaymentRoute): Promise<void>;
  /** Records that the payer saw a final outcome in a turn; true when first. */
  acknowledge(reference: string, outcome: 'paid' | 'failed'): Promise<boolean>;
  /** Tells the user something out of turn through the route's channel (the card link by SMS). */
  tell(route: PaymentRoute, prompt: Prompt): Promise<void>;
}

/** Options of {@link createPaymentAttempts}. */
export interface PaymentAttemptsOptions {
  /** Shared Redis; without it attempts are guarded in this process only (embedded mode). */
  readonly redis?: RedisConnection | undefined;
  /** Prefix of every key, e.g. `insurechat:`. */
  readonly prefix: string;
  /** Reads a transaction's status from the insurer (`getTransactionStatus`). */
  readonly readStatus: (reference: string) => Promise<{ status: string }>;
  readonly tracker: AttemptTracker;
  readonly logger: Logger;
}

/** Payment attempts: each started once, in order, for one purchase. */
export interface PaymentAttempts {
  /**
   * Starts `attempt` with its own reference, once across duplicates, retries and instances;
   * `pay` sends the reference to the insurer. A later attempt starts only once the insurer
   * confirms the one before it Failed; when that one was paid its start is returned instead
   * (Success is final). Throws {@link PaymentAttemptError} while the previous one is pending.
   */
  start(
    attempt: PaymentAttempt,
    pay: (reference: string) => Promise<PaymentStart>,
  ): Promise<StartedAttempt>;
  /**
   * Reads a payment's status for the conversation that paid ("Check status"); a final outcome is
   * acknowledged for `route` so no callback or poll pushes it again.
   */
  check(reference: string, route?: PaymentRoute): Promise<PaymentOutcome>;
}

/** Message key of the SMS that carries the card payment page to a USSD user. */
export const CARD_LINK_PROMPT = 'pay.sms.cardLink';

/**
 * The reference of one attempt: derived from the purchase and the attempt number, so every
 * duplicate of an attempt carries the same one and every attempt a new one.
 */
export function attemptReference(purchase: string, attempt: number): string {
  const digest = createHash('sha256').update(`insurechat:pay:${purchase}#${attempt}`).digest('hex');
  return `IC${digest.slice(0, 20).toUpperCase()}`;
}

const AMOUNT = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount as users read it: `13,125.00`. */
export function formatAmount(amount: number): string {
  return AMOUNT.format(amount);
}

function status(error: unknown): number | undefined {
  const value = (error as { status?: unknown } | null | undefined)?.status;
  return typeof value === 'number' ? value : undefined;
}

/** Creates the attempt starter over the payment guard and the payment service's tracker. */
export function createPaymentAttempts(options: PaymentAttemptsOptions): PaymentAttempts {
  const { tracker, readStatus } = options;
  const log = options.logger.child({ module: 'payment-attempts' });
  const guard = createPaymentGuard({
    ...(options.redis ? { redis: options.redis } : {}),
    keyPrefix: options.prefix,
    schema: StartedAttempt,
  });

  /** Where the attempt before this one stands at the insurer; `none` when it never reached it. */
  async function previousOutcome(
    purchase: string,
    attempt: number,
  ): Promise<PaymentOutcome | 'none'> {
    try {
      return classifyPaymentStatus(
        (await readStatus(attemptReference(purchase, attempt - 1))).status,
      );
    } catch (error) {
      // The insurer never saw that reference: nothing was charged under it.
      if (status(error) === 404) return 'none';
      throw error;
    }
  }

  async function begin(
    attempt: PaymentAttempt,
    reference: string,
    pay: (reference: string) => Promise<PaymentStart>,
  ): Promise<StartedAttempt> {
    if (attempt.attempt > 1) {
      const previous = await previousOutcome(attempt.purchase, attempt.attempt);
      if (previous === 'paid') {
        // Paid after all (a late success): the purchase is done, never charged again.
        return {
          reference: attemptReference(attempt.purchase, attempt.attempt - 1),
          status: 'Success',
        };
      }
      if (previous === 'pending') {
        throw new PaymentAttemptError(reference, 'The previous attempt is still pending');
      }
    }
    const result = await pay(reference);
    const started: StartedAttempt = {
      reference,
      status: result.status,
      ...(result.redirectUrl ? { redirectUrl: result.redirectUrl } : {}),
    };
    const route = attempt.route;
    if (route && classifyPaymentStatus(result.status) === 'pending') {
      try {
        await tracker.track(reference, route);
      } catch (err) {
        // The flow's own "Check status" still sees the outcome; only the push is lost.
        log.error({ err, reference }, 'payment tracking failed');
      }
      if (started.redirectUrl && route.channel === 'ussd') {
        await sendCardLink(route, reference, started.redirectUrl, attempt.due);
      }
    }
    return started;
  }

  async function sendCardLink(
    route: PaymentRoute,
    reference: string,
    url: string,
    due: PaymentAttempt['due'],
  ): Promise<void> {
    // A USSD screen cannot hold a link: the card page goes by SMS, with the amount it charges.
    const prompt: Prompt = {
      key: CARD_LINK_PROMPT,
      params: { amount: formatAmount(due?.amount ?? 0), currency: due?.currency ?? '', url },
      input: 'none',
      final: true,
    };
    try {
      await tracker.tell(route, prompt);
    } catch (err) {
      log.error({ err, reference }, 'card payment link could not be sent');
    }
  }

  return {
    start(attempt, pay) {
      const reference = attemptReference(attempt.purchase, attempt.attempt);
      return guard.once(reference, () => begin(attempt, reference, pay));
    },

    async check(reference, route) {
      const outcome = classifyPaymentStatus((await readStatus(reference)).status);
      if (outcome !== 'pending' && route) {
        try {
          await tracker.acknowledge(reference, outcome);
        } catch (err) {
          // Worst case the user hears the outcome twice; never fail the turn that showed it.
          log.warn({ err, reference }, 'payment acknowledgement failed');
        }
      }
      return outcome;
    },
  };
}
