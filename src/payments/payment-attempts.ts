import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ApiError, classifyApiError } from '../api/index.js';
import type { Prompt } from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import { formatMoney } from '../money/index.js';
import type { RedisConnection } from '../session/index.js';
import { createMemoryStore, createRedisStore, type KeyValueStore } from '../storage/index.js';
import {
  PaymentAttemptError,
  PaymentItemBusyError,
  PaymentNotTakenError,
  PaymentUnconfirmedError,
} from './payment-errors.js';
import { createPaymentGuard } from './payment-guard.js';
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
  /**
   * What is bought, in the user's words (a product and a car's plate, a trip): while a payment of
   * the route's holder for it is unsettled, no other purchase of it starts a charge.
   */
  readonly item?: string | undefined;
  /**
   * The car bought for, when it is one (its plate): while a payment of the route's holder for any
   * cover of it is unsettled, no purchase of another product for it starts a charge either.
   */
  readonly vehicle?: string | undefined;
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
  /**
   * Follows a pending payment so its outcome is pushed to `route`; `unconfirmed` when the answer
   * to its pay request was lost, so it is looked up on the longer schedule until the insurer has it.
   */
  track(reference: string, route: PaymentRoute, options?: TrackOptions): Promise<void>;
  /** Records that the payer saw a final outcome in a turn; true when first. */
  acknowledge(reference: string, outcome: 'paid' | 'failed'): Promise<boolean>;
  /** Tells the user something out of turn through the route's channel (the card link by SMS). */
  tell(route: PaymentRoute, prompt: Prompt): Promise<void>;
  /**
   * Stops following a reference tracked before its request left, once the insurer refused the
   * request outright (nothing exists under it, so no outcome will ever come).
   */
  untrack?(reference: string): Promise<void>;
}

/** How a payment is followed. */
export interface TrackOptions {
  /** The pay request's answer was lost: its fate is unknown until a lookup finds it. */
  readonly unconfirmed?: boolean;
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
   * (Success is final). Throws {@link PaymentAttemptError} while the previous one is pending, and
   * {@link PaymentUnconfirmedError} when the answer was lost and no lookup found it yet (it is
   * then followed and its outcome pushed to the route).
   */
  start(
    attempt: PaymentAttempt,
    pay: (reference: string) => Promise<PaymentStart>,
  ): Promise<StartedAttempt>;
  /**
   * Reads a payment's status for the conversation that paid ("Check status"); a final outcome is
   * acknowledged for `route` so no callback or poll pushes it again. Throws
   * {@link PaymentNotTakenError} when the insurer holds no transaction under `reference`.
   */
  check(reference: string, route?: PaymentRoute): Promise<PaymentOutcome>;
  /**
   * True while the route's holder has a payment for `item`, or for any cover of `vehicle` (a
   * plate), unsettled (pending or not readable): what {@link start} would refuse, asked before a
   * second purchase of it begins.
   */
  unsettled(route: PaymentRoute, item: string, vehicle?: string): Promise<boolean>;
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

/**
 * Whether the insurer may have taken a request whose answer we did not get: no answer at all
 * (timeout, network), a 5xx, 408 or 429, or an answer we could not read. Any other 4xx is the
 * insurer refusing it.
 */
function answerMayBeLost(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  // 408 is no class of its own (src/api leaves it `unknown`): the insurer gave up mid-request.
  return classifyApiError(error) === 'unavailable' || error.status === 408;
}

/** How long a holder's last payment for an item is remembered: a day, as its route is. */
const ITEM_TTL_SECONDS = 86_400;

/** The key of a holder's last payment for an item; hashed, so it names neither. */
function itemKey(prefix: string, route: PaymentRoute, item: string): string {
  const digest = createHash('sha256')
    .update(`${route.channel}\u0000${route.address}\u0000${item.trim().toUpperCase()}`)
    .digest('hex');
  return `${prefix}pay-item:${digest.slice(0, 32)}`;
}

/**
 * The key of a holder's last payment for any cover of a car: the plate as the insurer compares
 * it (upper-case, no spaces), so "alb 2020" and "ALB2020" are one car whatever the product.
 */
function vehicleKey(prefix: string, route: PaymentRoute, plate: string): string {
  return itemKey(prefix, route, `vehicle\u0000${plate.replace(/\s+/g, '')}`);
}

/** The keys under which a holder's payment for an attempt's item and car are remembered. */
function guardKeys(
  prefix: string,
  route: PaymentRoute,
  item: string | undefined,
  vehicle: string | undefined,
): string[] {
  const keys: string[] = [];
  if (item) keys.push(itemKey(prefix, route, item));
  if (vehicle?.trim()) keys.push(vehicleKey(prefix, route, vehicle));
  return keys;
}

/** What the attempt starter's parts share. */
interface AttemptsState {
  readonly readStatus: PaymentAttemptsOptions['readStatus'];
  readonly tracker: AttemptTracker;
  readonly log: Logger;
}

/**
 * The insurer's transaction under `reference` (`GET /payments/transactions/{reference}/status`);
 * `none` when it has none: nothing was charged under it.
 */
async function lookUp(
  { readStatus }: AttemptsState,
  reference: string,
): Promise<{ status: string } | 'none'> {
  try {
    return await readStatus(reference);
  } catch (error) {
    if (classifyApiError(error) === 'notFound') return 'none';
    throw error;
  }
}

/**
 * Sends the pay request only when the insurer has no transaction under `reference`: the spec
 * does not promise that `/pay` de-duplicates references, so a repeat (after a timeout or a lost
 * answer) is a lookup first. When the answer to the request is lost, the lookup tells whether
 * the insurer took it; only a "none" lets the next try send it again.
 */
async function payOnce(
  state: AttemptsState,
  reference: string,
  pay: (reference: string) => Promise<PaymentStart>,
): Promise<PaymentStart> {
  const existing = await lookUp(state, reference);
  if (existing !== 'none') {
    state.log.info({ reference }, 'payment already at the insurer; not sent again');
    return { status: existing.status };
  }
  try {
    return await pay(reference);
  } catch (error) {
    if (!answerMayBeLost(error)) throw error;
    let after: { status: string } | 'none';
    try {
      after = await lookUp(state, reference);
    } catch {
      // Unknown either way: it is followed, and any later try looks it up before sending.
      throw new PaymentUnconfirmedError(reference, { cause: error });
    }
    // The insurer's lookup may lag behind its pay: "none" right after a lost answer is no proof
    // that nothing was charged, so it is followed rather than sent again.
    if (after === 'none') throw new PaymentUnconfirmedError(reference, { cause: error });
    state.log.warn({ reference }, 'the answer to a payment was lost; the insurer has it');
    return { status: after.status };
  }
}

async function sendCardLink(
  { tracker, log }: AttemptsState,
  route: PaymentRoute,
  reference: string,
  url: string,
  due: PaymentAttempt['due'],
): Promise<void> {
  // A USSD screen cannot hold a link: the card page goes by SMS, with the amount it charges.
  const prompt: Prompt = {
    key: CARD_LINK_PROMPT,
    params: { amount: formatMoney(due?.amount ?? 0), currency: due?.currency ?? '', url },
    input: 'none',
    final: true,
  };
  try {
    await tracker.tell(route, prompt);
  } catch (err) {
    log.error({ err, reference }, 'card payment link could not be sent');
  }
}

/** Creates the attempt starter over the payment guard and the payment service's tracker. */
export function createPaymentAttempts(options: PaymentAttemptsOptions): PaymentAttempts {
  const { tracker, readStatus } = options;
  const log = options.logger.child({ module: 'payment-attempts' });
  const items: KeyValueStore = options.redis
    ? createRedisStore(options.redis)
    : createMemoryStore();
  const guard = createPaymentGuard({
    store: items,
    keyPrefix: options.prefix,
    schema: StartedAttempt,
  });

  const state: AttemptsState = { tracker, readStatus, log };

  /**
   * Refuses a second charge for the same holder's item while their last payment for it (another
   * purchase) is unsettled. One paid, failed, or never taken by the insurer lets it go.
   */
  async function guardItem(
    item: string,
    keys: readonly string[],
    reference: string,
  ): Promise<void> {
    for (const key of keys) {
      const previous = await items.get(key);
      if (previous === undefined || previous === reference) continue;
      const outcome = await settledness(previous);
      if (outcome === 'pending' || outcome === 'unknown') {
        log.info({ reference, previous, outcome }, 'payment refused: the item has one unsettled');
        throw new PaymentItemBusyError(previous, item);
      }
    }
    for (const key of keys) await items.set(key, reference, ITEM_TTL_SECONDS);
  }

  /** Where a holder's earlier payment stands; unknown is not settled (never a guess). */
  async function settledness(previous: string): Promise<PaymentOutcome | 'none' | 'unknown'> {
    try {
      const found = await lookUp(state, previous);
      return found === 'none' ? 'none' : classifyPaymentStatus(found.status);
    } catch {
      return 'unknown';
    }
  }

  /** Where the attempt before this one stands at the insurer; `none` when it never reached it. */
  async function previousOutcome(
    purchase: string,
    attempt: number,
  ): Promise<PaymentOutcome | 'none'> {
    const previous = await lookUp(state, attemptReference(purchase, attempt - 1));
    return previous === 'none' ? 'none' : classifyPaymentStatus(previous.status);
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
    const route = attempt.route;
    const keys = route ? guardKeys(options.prefix, route, attempt.item, attempt.vehicle) : [];
    if (keys.length > 0) {
      await guardItem(attempt.item ?? attempt.vehicle ?? '', keys, reference);
    }
    // Tracked before the request leaves: an attempt whose answer is lost still has its outcome
    // polled and pushed.
    if (route) {
      try {
        await tracker.track(reference, route);
      } catch (err) {
        // The flow's own "Check status" still sees the outcome; only the push is lost.
        log.error({ err, reference }, 'payment tracking failed');
      }
    }
    let result: PaymentStart;
    try {
      result = await payOnce(state, reference, pay);
    } catch (error) {
      if (route && error instanceof PaymentUnconfirmedError) {
        // Its fate is unknown: looked up with back-off until the insurer has it, then pushed.
        log.warn({ reference }, 'payment answer lost; followed until the insurer confirms it');
        await tracker.track(reference, route, { unconfirmed: true }).catch((err: unknown) => {
          log.error({ err, reference }, 'payment tracking failed');
        });
        throw error;
      }
      // Refused outright: nothing exists under the reference, so nothing is left to follow.
      if (route && !answerMayBeLost(error)) {
        await tracker.untrack?.(reference).catch((err: unknown) => {
          log.warn({ err, reference }, 'payment untracking failed');
        });
      }
      throw error;
    }
    const started: StartedAttempt = {
      reference,
      status: result.status,
      ...(result.redirectUrl ? { redirectUrl: result.redirectUrl } : {}),
    };
    const outcome = classifyPaymentStatus(started.status);
    if (route && outcome !== 'pending') {
      // The flow shows a final answer in this turn: the poller tracking it must not push it again.
      await tracker.acknowledge(reference, outcome).catch((err: unknown) => {
        log.warn({ err, reference }, 'payment acknowledgement failed');
      });
    }
    if (route && started.redirectUrl && route.channel === 'ussd') {
      await sendCardLink(state, route, reference, started.redirectUrl, attempt.due);
    }
    return started;
  }

  return {
    async unsettled(route, item, vehicle) {
      for (const key of guardKeys(options.prefix, route, item, vehicle)) {
        const previous = await items.get(key);
        if (previous === undefined) continue;
        const outcome = await settledness(previous);
        if (outcome === 'pending' || outcome === 'unknown') return true;
      }
      return false;
    },
    start(attempt, pay) {
      const reference = attemptReference(attempt.purchase, attempt.attempt);
      return guard.once(reference, () => begin(attempt, reference, pay));
    },

    async check(reference, route) {
      const found = await lookUp(state, reference);
      if (found === 'none') {
        // The insurer answers and holds nothing under it: never taken, nothing to follow, and
        // the same attempt may be paid again (its pay looks it up once more first).
        await tracker.untrack?.(reference).catch((err: unknown) => {
          log.warn({ err, reference }, 'payment untracking failed');
        });
        throw new PaymentNotTakenError(reference);
      }
      const outcome = classifyPaymentStatus(found.status);
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
