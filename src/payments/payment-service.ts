import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { PartnerClient, PaymentWebhook, TransactionStatus } from '../api/index.js';
import type { Notifier } from '../channels/index.js';
import type { Prompt, TurnEngine } from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import type { RedisConnection } from '../redis/index.js';
import type { KeyValueStore } from '../storage/index.js';
import type { TrackOptions } from './payment-attempts.js';
import { createPaymentContext, type LookupBackoff } from './payment-context.js';
import { PaymentError } from './payment-errors.js';
import {
  type CheckJob,
  type PaymentHint,
  type PollJob,
  type ProceedJob,
  pollJobOptions,
} from './payment-jobs.js';
import type { PaymentRoute, PaymentRoutes } from './payment-routes.js';
import type { PaymentOutcome } from './payment-status.js';
import { createPaymentWorker } from './payment-worker.js';

/** Reads the truth about a payment (`GET /payments/transactions/{reference}/status`). */
export type PaymentStatusReader = (reference: string) => Promise<Pick<TransactionStatus, 'status'>>;

/** Default poller schedule (about 19 minutes in all); see payment-context.ts. */
export {
  DEFAULT_BACKOFF_MS,
  DEFAULT_LOOKUP_BACKOFF,
  type LookupBackoff,
} from './payment-context.js';

/** Queue and worker settings of {@link createPaymentService}. */
export interface PaymentQueueOptions {
  /** BullMQ queue name (no `:`); default `payments`. Its keys live under the service prefix. */
  readonly name?: string;
  /** Jobs one worker runs at once; default 4. */
  readonly concurrency?: number;
  /** Tries to deliver one outcome (engine + notifier) before giving up; default 6. */
  readonly deliveryAttempts?: number;
  /** First retry delay of a failed delivery, doubled each time; default 5000 ms. */
  readonly deliveryBackoffMs?: number;
  /**
   * Whether this instance runs a worker; default true. An instance without one only enqueues.
   * Without Redis jobs never leave the process, so this is ignored and jobs always run.
   */
  readonly runWorker?: boolean;
}

/** Where the truth about a payment is read: the Partner API client, or a reader function. */
export type PaymentStatusSource =
  | { readonly client: Pick<PartnerClient, 'call'>; readonly getStatus?: never }
  | { readonly getStatus: PaymentStatusReader; readonly client?: never };

/** Options of {@link createPaymentService}. */
export type PaymentServiceOptions = PaymentServiceSettings & PaymentStatusSource;

/** Options of {@link createPaymentService} besides its {@link PaymentStatusSource}. */
export interface PaymentServiceSettings {
  /**
   * Shared connection for keys and the queue; the worker gets its own duplicate. When omitted,
   * everything stays in this process (a Map with TTLs and unref'd timers): the same behaviour and
   * exactly-once guarantee within one instance, lost on restart, not shared between instances.
   */
  readonly redis?: RedisConnection;
  /**
   * Where the keys live, when the caller already has the server's store; otherwise one over
   * `redis`, or this process without it.
   */
  readonly store?: KeyValueStore;
  /** Prefix of every key and of the queue, e.g. `insurechat:`; tests use their own. Default ''. */
  readonly prefix?: string;
  readonly engine: TurnEngine;
  /** One per channel; the outcome goes out through the one whose `channel` matches the route. */
  readonly notifiers: readonly Notifier[];
  readonly logger: Logger;
  /** Delays before each status poll; after the last one the user hears "still pending". */
  readonly backoffMs?: readonly number[];
  /**
   * How a payment whose pay answer was lost is looked up until the insurer has it; default 2 s,
   * doubling, capped at 5 min, for 24 h. Tests make it instant.
   */
  readonly lookupBackoff?: LookupBackoff;
  /** How long routes, hints and delivery markers are kept; default 86 400 s (one day). */
  readonly ttlSeconds?: number;
  readonly queue?: PaymentQueueOptions;
  /** Turn deadline when the outcome goes into the flow; nobody waits, so it is long. Default 30 000. */
  readonly turnDeadlineMs?: number;
  /**
   * How long after a handset's call is let go (the USSD answer `END` sent) the payment chosen in
   * it starts, so the network's PIN prompt finds the handset free. Default 2 000 ms.
   */
  readonly proceedDelayMs?: number;
  /** Called once per outcome told to a user (metrics). Must not throw. */
  readonly onOutcome?: (outcome: PaymentOutcome) => void;
}

/** What handling one authenticated callback led to. */
export type CallbackResult =
  /** This callback saw the final state first: the outcome is on its way to the user. */
  | 'delivered'
  /** Someone (a callback or the poller, on any instance) already delivered it. */
  | 'duplicate'
  /** The status operation still says pending: nothing is told. */
  | 'pending'
  /** Final, but no route yet: kept until the payment is tracked, then delivered. */
  | 'parked'
  /** The status operation could not be read; the poller (or tracking) will try again. */
  | 'unconfirmed';

/** Whose payments: the channel and address their outcomes go to (a route's). */
export interface PaymentHolder {
  readonly channel: string;
  readonly address: string;
}

/** Payment outcomes pushed back into the chat, exactly once, from any instance. */
export interface PaymentService {
  /**
   * Records where `reference`'s outcome goes and starts polling its status. Call it when a payment
   * comes back pending. Tracking a reference again (a retry of the same quote) starts over, unless
   * it was already paid. With `unconfirmed` (the pay answer was lost) it is looked up on the
   * lookup schedule instead, for as long as it lasts.
   */
  track(reference: string, route: PaymentRoute, options?: TrackOptions): Promise<void>;
  /**
   * Sends the conversation on `route` a `payment.proceed` event after the proceed delay, as a
   * job (BullMQ over Redis: a restart in between keeps it), once; resolves the event's id. What
   * the conversation shows after it is told through the route's notifier, unless it only says
   * the payment waits on the phone (what the caller was just told).
   */
  proceedLater(route: PaymentRoute): Promise<string>;
  /** Stops polling `reference` (its request was refused, so no outcome will come). */
  untrack(reference: string): Promise<void>;
  /**
   * Handles an authenticated webhook body: confirms with the status operation, then delivers.
   * Throws PaymentError (`PAYMENT_CALLBACK_UNROUTABLE`) when the body names no reference.
   */
  handleCallback(body: PaymentWebhook): Promise<CallbackResult>;
  /** Runs {@link handleCallback} in the background (after the HTTP answer); errors are logged. */
  accept(body: PaymentWebhook): void;
  /** Asks the status now and delivers a final outcome not yet told ("check again"). */
  check(reference: string): Promise<PaymentOutcome>;
  /**
   * Records that the user already saw a final outcome inside a turn (the flow read the status
   * itself), so neither a callback nor the poller pushes it again. True when this call was first.
   */
  acknowledge(reference: string, outcome: 'paid' | 'failed'): Promise<boolean>;
  /**
   * Tells the user on `route` something out of turn through its channel's notifier (the card
   * payment link by SMS). Throws when the notifier refused; does nothing without a notifier.
   */
  tell(route: PaymentRoute, prompt: Prompt): Promise<void>;
  /** Resolves once every background callback accepted so far is handled (tests, shutdown). */
  idle(): Promise<void>;
  /**
   * Resolves once callbacks are handled and no job is waiting or running; with
   * `includeDelayed` (the default) also none waiting for its time. Over Redis this counts the
   * queue's jobs from every instance (tests).
   */
  settled(options?: { readonly includeDelayed?: boolean }): Promise<void>;
  /** The route table the service writes. */
  readonly routes: PaymentRoutes;
  /** How many of the holder's payments are still in flight (their outcome not yet told). */
  inFlightFor(holder: PaymentHolder): Promise<number>;
  /**
   * Erases the holder's payment routes ("Delete my data") except those of payments in flight,
   * which exactly-once delivery needs until their outcome is told or they expire (a day).
   * Resolves how many were kept. The markers that say an outcome was told name no one and stay.
   */
  forgetHolder(holder: PaymentHolder): Promise<number>;
  /** Stops the worker and the queue (in-process: clears the timers); Redis itself stays open. */
  close(): Promise<void>;
}

/** Our reference (sent as `reference` when paying) comes back as `partnerReference`. */
export function callbackReference(body: PaymentWebhook): string | undefined {
  return body.partnerReference || body.paymentReference || undefined;
}

/**
 * Message keys of the outcome notice sent when the flow cannot answer for itself; see
 * payment-prompts.ts.
 */
export { PAYMENT_PROMPTS } from './payment-prompts.js';

/** Creates the service and, unless `queue.runWorker` is false, starts its worker. */
export function createPaymentService(options: PaymentServiceOptions): PaymentService {
  const ctx = createPaymentContext(options);
  const { log, keys, routes, ttlSeconds, backoffMs, notifiers } = ctx;
  const { deliveredKey, hintKey, generationKey, holderKey, referencesOf } = ctx.ledger;
  const { readOutcome, isFinalDelivered } = ctx.ledger;
  const { scheduler, settle } = createPaymentWorker(ctx);

  const inFlight = new Set<Promise<unknown>>();

  const service: PaymentService = {
    routes,

    async proceedLater(route) {
      const id = randomUUID();
      await scheduler.add('proceed', { id, route } satisfies ProceedJob, {
        jobId: `proceed-${id}`,
        delay: ctx.proceedDelayMs,
        attempts: ctx.deliveryAttempts,
        backoff: { type: 'exponential', delay: ctx.deliveryBackoffMs },
      });
      return id;
    },

    async untrack(reference) {
      // A newer generation makes every scheduled poll and check of the old one a no-op.
      await keys.incr(generationKey(reference), ttlSeconds);
    },
    async track(reference, route, options) {
      const unconfirmed = options?.unconfirmed === true;
      await routes.save(reference, route);
      // Lets "Delete my data" find the routes that name this holder.
      await keys.addMember(holderKey(route), reference, ttlSeconds);
      await keys.restart(deliveredKey(reference));
      const generation = await keys.incr(generationKey(reference), ttlSeconds);
      const first = unconfirmed ? ctx.lookupDelaysMs[0] : backoffMs[0];
      await scheduler.add(
        'poll',
        {
          reference,
          generation,
          attempt: 0,
          ...(unconfirmed ? { unconfirmed } : {}),
        } satisfies z.infer<typeof PollJob>,
        { jobId: `poll-${reference}-${generation}-0`, delay: first ?? 0, ...pollJobOptions },
      );
      // A callback that came before the route was written parked its hint: check at once.
      // Route first, hint second (the callback does the opposite), so one of the two sees the other.
      if ((await keys.get(hintKey(reference))) !== undefined) {
        await scheduler.add('check', { reference, generation } satisfies z.infer<typeof CheckJob>, {
          jobId: `check-${reference}-${generation}`,
          ...pollJobOptions,
        });
      }
    },

    async handleCallback(body) {
      const reference = callbackReference(body);
      if (reference === undefined) {
        throw new PaymentError(
          'PAYMENT_CALLBACK_UNROUTABLE',
          'unknown',
          'The callback names no payment reference',
        );
      }
      const hint: PaymentHint = {
        ...(body.policyNumber ? { policyNumber: body.policyNumber } : {}),
        ...(body.policyId ? { policyId: body.policyId } : {}),
      };
      await keys.set(hintKey(reference), JSON.stringify(hint), ttlSeconds);
      if (await isFinalDelivered(reference)) return 'duplicate';
      const outcome = await readOutcome(reference);
      if (outcome === 'unknown') return 'unconfirmed';
      if (outcome === 'pending') return 'pending';
      const result = await settle(reference, outcome);
      log.info({ reference, result }, 'payment callback handled');
      return result;
    },

    accept(body) {
      const run = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => service.handleCallback(body))
        .catch((err: unknown) => log.error({ err }, 'payment callback processing failed'));
      inFlight.add(run);
      void run.finally(() => inFlight.delete(run));
    },

    async check(reference) {
      const outcome = await readOutcome(reference);
      if (outcome === 'unknown') return 'pending';
      if (outcome !== 'pending') await settle(reference, outcome);
      return outcome;
    },

    async acknowledge(reference, outcome) {
      const won = await keys.claim(deliveredKey(reference), outcome, ttlSeconds);
      if (won) log.info({ reference, outcome }, 'payment outcome seen in a turn');
      return won;
    },

    async tell(route, prompt) {
      const notifier = notifiers.get(route.channel);
      if (!notifier) return;
      await notifier.notify(
        { channel: route.channel, address: route.address, locale: route.locale },
        prompt,
      );
    },

    async inFlightFor(holder) {
      return (await referencesOf(holder)).inFlight.length;
    },

    async forgetHolder(holder) {
      const { settled, inFlight: pending } = await referencesOf(holder);
      for (const reference of settled) {
        await keys.del(routes.key(reference));
        await keys.del(hintKey(reference));
      }
      if (pending.length === 0) await keys.del(holderKey(holder));
      return pending.length;
    },

    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },

    async settled({ includeDelayed = true } = {}) {
      await service.idle();
      await scheduler.drained(includeDelayed);
    },

    async close() {
      await service.idle();
      await scheduler.close();
    },
  };
  return service;
}
