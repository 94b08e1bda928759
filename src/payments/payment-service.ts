import { z } from 'zod';
import type { PartnerClient, PaymentWebhook, TransactionStatus } from '../api/index.js';
import type { Notifier } from '../channels/index.js';
import {
  ENGINE_PROMPTS,
  type PaymentSettledEvent,
  Prompt,
  type TurnEngine,
} from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import type { RedisConnection } from '../redis/index.js';
import { createMemoryStore, createRedisStore, type KeyValueStore } from '../storage/index.js';
import { createBullPaymentScheduler } from './bullmq-payment-scheduler.js';
import { createMemoryPaymentScheduler } from './memory-payment-scheduler.js';
import { PaymentError, PaymentNotifyError } from './payment-errors.js';
import { createPaymentKeys, paymentKey, paymentQueuePrefix } from './payment-keys.js';
import { PaymentRoute, type PaymentRoutes, paymentRoutesOver } from './payment-routes.js';
import type {
  PaymentJob,
  PaymentJobFailure,
  PaymentScheduler,
  PaymentSchedulerHooks,
} from './payment-scheduler.js';
import { classifyPaymentStatus, type PaymentOutcome } from './payment-status.js';

/** Reads the truth about a payment (`GET /payments/transactions/{reference}/status`). */
export type PaymentStatusReader = (reference: string) => Promise<Pick<TransactionStatus, 'status'>>;

/** Default poller schedule: 15 s, 30 s, 1 min, 2 min, 5 min, 10 min (about 19 minutes in all). */
export const DEFAULT_BACKOFF_MS: readonly number[] = [
  15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
];

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
  /** How long routes, hints and delivery markers are kept; default 86 400 s (one day). */
  readonly ttlSeconds?: number;
  readonly queue?: PaymentQueueOptions;
  /** Turn deadline when the outcome goes into the flow; nobody waits, so it is long. Default 30 000. */
  readonly turnDeadlineMs?: number;
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
   * it was already paid.
   */
  track(reference: string, route: PaymentRoute): Promise<void>;
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

const PollJob = z.object({
  reference: z.string(),
  generation: z.number().int(),
  attempt: z.number().int().nonnegative(),
});
const CheckJob = z.object({ reference: z.string(), generation: z.number().int() });
const DeliverJob = z.object({
  reference: z.string(),
  outcome: z.enum(['paid', 'failed', 'pending']),
  route: PaymentRoute,
  policyNumber: z.string().optional(),
  policyId: z.string().optional(),
  /** Why the insurer says it failed, when it says. */
  reason: z.string().optional(),
  /** Set once the engine has taken the event, so a notifier retry does not move the flow twice. */
  prompt: Prompt.optional(),
});
type DeliverJob = z.infer<typeof DeliverJob>;

const PaymentHint = z.object({
  policyNumber: z.string().optional(),
  policyId: z.string().optional(),
});
type PaymentHint = z.infer<typeof PaymentHint>;

/** Our reference (sent as `reference` when paying) comes back as `partnerReference`. */
export function callbackReference(body: PaymentWebhook): string | undefined {
  return body.partnerReference || body.paymentReference || undefined;
}

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

function outcomePrompt(outcome: PaymentOutcome, reference: string, policyNumber?: string): Prompt {
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

function referenceOf(data: unknown): string | undefined {
  const reference = (data as { reference?: unknown } | null | undefined)?.reference;
  return typeof reference === 'string' ? reference : undefined;
}

/** Creates the service and, unless `queue.runWorker` is false, starts its worker. */
export function createPaymentService(options: PaymentServiceOptions): PaymentService {
  const { redis, engine } = options;
  const prefix = options.prefix ?? '';
  const client = options.client;
  const getStatus: PaymentStatusReader =
    options.getStatus ??
    ((reference) => {
      if (!client) throw new TypeError('createPaymentService needs a client or getStatus');
      return client.call('getTransactionStatus', { path: { reference } });
    });
  const log = options.logger.child({ module: 'payments' });
  const ttlSeconds = options.ttlSeconds ?? 86_400;
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  if (backoffMs.length === 0) throw new RangeError('backoffMs needs at least one delay');
  const queueOptions = options.queue ?? {};
  const queueName = queueOptions.name ?? 'payments';
  const deliveryAttempts = queueOptions.deliveryAttempts ?? 6;
  const deliveryBackoffMs = queueOptions.deliveryBackoffMs ?? 5_000;
  const notifiers = new Map(options.notifiers.map((notifier) => [notifier.channel, notifier]));
  const keys = createPaymentKeys(
    options.store ?? (redis ? createRedisStore(redis) : createMemoryStore()),
  );
  const routes = paymentRoutesOver(keys, { prefix, ttlSeconds });
  const turnDeadlineMs = options.turnDeadlineMs ?? 30_000;

  const deliveredKey = (reference: string): string => paymentKey(prefix, 'delivered', reference);
  const hintKey = (reference: string): string => paymentKey(prefix, 'hint', reference);
  const generationKey = (reference: string): string => paymentKey(prefix, 'generation', reference);
  const holderKey = (holder: PaymentHolder): string =>
    paymentKey(prefix, 'holder', `${holder.channel}:${holder.address}`);

  /** The holder's references: those told (`settled`) and those still in flight. */
  async function referencesOf(holder: PaymentHolder) {
    const settled: string[] = [];
    const inFlight: string[] = [];
    for (const reference of await keys.members(holderKey(holder))) {
      const told = await keys.get(deliveredKey(reference));
      (told === 'paid' || told === 'failed' ? settled : inFlight).push(reference);
    }
    return { settled, inFlight };
  }

  // A poll that failed on its store (not on the insurer: that counts as "still pending") is
  // retried, so one blip does not end the schedule without anyone being told.
  const pollJobOptions = { attempts: 3, backoff: { type: 'fixed', delay: 1_000 } } as const;

  async function currentGeneration(reference: string): Promise<number> {
    return Number((await keys.get(generationKey(reference))) ?? '0');
  }

  async function readHint(reference: string): Promise<PaymentHint> {
    const raw = await keys.get(hintKey(reference));
    if (raw === undefined) return {};
    try {
      return PaymentHint.parse(JSON.parse(raw));
    } catch {
      // The hint only adds the policy number; an unreadable one is worth less than the outcome.
      return {};
    }
  }

  /** The insurer's word on why a payment failed (transaction details); undefined when none. */
  async function failureReason(reference: string): Promise<string | undefined> {
    if (!client) return undefined;
    try {
      const details = await client.call('getTransaction', { path: { reference } });
      return details.message ?? undefined;
    } catch (err) {
      log.warn({ err, reference }, 'transaction details could not be read');
      return undefined;
    }
  }

  async function readOutcome(reference: string): Promise<PaymentOutcome | 'unknown'> {
    try {
      return classifyPaymentStatus((await getStatus(reference)).status);
    } catch (err) {
      log.warn({ err, reference }, 'transaction status could not be read');
      return 'unknown';
    }
  }

  /** Claims the right to tell `outcome` and queues the delivery; false when someone else did. */
  async function claim(
    reference: string,
    outcome: PaymentOutcome,
    route: PaymentRoute,
  ): Promise<boolean> {
    if (!(await keys.claim(deliveredKey(reference), outcome, ttlSeconds))) return false;
    const hint = await readHint(reference);
    const generation = await currentGeneration(reference);
    const reason = outcome === 'failed' ? await failureReason(reference) : undefined;
    const job: DeliverJob = { reference, outcome, route, ...hint, ...(reason ? { reason } : {}) };
    try {
      await scheduler.add('deliver', job, {
        // The claim above is the guard; the id only makes a stray second add a no-op.
        jobId: `deliver-${reference}-${generation}-${outcome}`,
        attempts: deliveryAttempts,
        backoff: { type: 'exponential', delay: deliveryBackoffMs },
      });
    } catch (err) {
      // Give the claim back so the poller or the next callback can deliver instead.
      await keys.del(deliveredKey(reference)).catch(() => undefined);
      throw err;
    }
    log.info({ reference, outcome }, 'payment outcome claimed for delivery');
    try {
      options.onOutcome?.(outcome);
    } catch (err) {
      log.warn({ err }, 'onOutcome hook threw');
    }
    return true;
  }

  /** Delivers a final outcome if this caller sees it first. */
  async function settle(reference: string, outcome: 'paid' | 'failed'): Promise<CallbackResult> {
    const route = await routes.get(reference);
    if (!route) return 'parked';
    return (await claim(reference, outcome, route)) ? 'delivered' : 'duplicate';
  }

  async function isFinalDelivered(reference: string): Promise<boolean> {
    const current = await keys.get(deliveredKey(reference));
    return current === 'paid' || current === 'failed';
  }

  async function poll(job: z.infer<typeof PollJob>): Promise<void> {
    const { reference, generation, attempt } = job;
    // A newer track() of the same reference runs its own schedule.
    if (generation !== (await currentGeneration(reference))) return;
    if (await isFinalDelivered(reference)) return;
    const outcome = await readOutcome(reference);
    if (outcome === 'paid' || outcome === 'failed') {
      const result = await settle(reference, outcome);
      if (result === 'parked') log.warn({ reference }, 'payment final but its route expired');
      return;
    }
    const next = attempt + 1;
    const delay = backoffMs[next];
    if (delay !== undefined) {
      await scheduler.add(
        'poll',
        { reference, generation, attempt: next } satisfies z.infer<typeof PollJob>,
        { jobId: `poll-${reference}-${generation}-${next}`, delay, ...pollJobOptions },
      );
      return;
    }
    const route = await routes.get(reference);
    if (!route) return;
    await claim(reference, 'pending', route);
  }

  async function runCheckJob(job: z.infer<typeof CheckJob>): Promise<void> {
    if (job.generation !== (await currentGeneration(job.reference))) return;
    if (await isFinalDelivered(job.reference)) return;
    const outcome = await readOutcome(job.reference);
    if (outcome === 'paid' || outcome === 'failed') await settle(job.reference, outcome);
  }

  async function deliver(job: PaymentJob): Promise<void> {
    const data = parseJob(DeliverJob, job);
    const { reference, outcome, route } = data;
    const address = { channel: route.channel, address: route.address, locale: route.locale };
    let prompt = data.prompt;
    if (!prompt) {
      const event: PaymentSettledEvent = {
        type: 'payment.settled',
        reference,
        outcome,
        ...(data.policyNumber === undefined ? {} : { policyNumber: data.policyNumber }),
        ...(data.policyId === undefined ? {} : { policyId: data.policyId }),
        ...(data.reason === undefined ? {} : { reason: data.reason }),
      };
      prompt = await engine.turn(route.sessionKey, event, {
        address,
        deadlineMs: turnDeadlineMs,
      });
      const lastTry = job.attemptsMade + 1 >= job.attempts;
      if (prompt.key === ENGINE_PROMPTS.busy || prompt.key === ENGINE_PROMPTS.error) {
        // The flow did not take the event (locked past the deadline, or a failed turn): try
        // again later; on the last try the user still hears the outcome, without the flow.
        if (!lastTry) {
          throw new PaymentError(
            'PAYMENT_FLOW_UNAVAILABLE',
            reference,
            `The engine answered ${prompt.key}`,
          );
        }
        log.error({ reference, outcome }, 'the flow never took the payment outcome');
        prompt = outcomePrompt(outcome, reference, data.policyNumber);
      } else if (prompt.key === ENGINE_PROMPTS.sessionEnded) {
        // The conversation expired while the payer approved: there is no flow to show it.
        prompt = outcomePrompt(outcome, reference, data.policyNumber);
      }
      await job.updateData({ ...data, prompt } satisfies DeliverJob);
    }
    const notifier = notifiers.get(route.channel);
    if (!notifier) {
      log.warn(
        { reference, channel: route.channel },
        'no notifier for the channel; only the flow was told',
      );
      return;
    }
    try {
      await notifier.notify(address, prompt);
    } catch (cause) {
      throw new PaymentNotifyError(reference, route.channel, { cause });
    }
    log.info({ reference, outcome, channel: route.channel }, 'payment outcome told to the user');
  }

  function parseJob<T>(schema: z.ZodType<T>, job: PaymentJob): T {
    const parsed = schema.safeParse(job.data);
    if (!parsed.success) {
      const reference = referenceOf(job.data) ?? 'unknown';
      throw new PaymentError(
        'PAYMENT_JOB_INVALID',
        reference,
        `Job ${job.name} has unreadable data`,
        {
          cause: parsed.error,
        },
      );
    }
    return parsed.data;
  }

  const hooks: PaymentSchedulerHooks = {
    handler: redis && queueOptions.runWorker === false ? undefined : runJob,
    concurrency: queueOptions.concurrency ?? 4,
    onFailed(failure: PaymentJobFailure) {
      const fields = {
        err: failure.err,
        reference: referenceOf(failure.data),
        job: failure.name,
        attemptsMade: failure.attemptsMade,
      };
      if (failure.last) log.error(fields, 'payment job gave up');
      else log.warn(fields, 'payment job failed; it will be retried');
    },
  };
  const scheduler: PaymentScheduler = redis
    ? createBullPaymentScheduler(
        { redis, name: queueName, prefix: paymentQueuePrefix(prefix), ttlSeconds, logger: log },
        hooks,
      )
    : createMemoryPaymentScheduler(hooks);

  async function runJob(job: PaymentJob): Promise<void> {
    switch (job.name) {
      case 'poll':
        return poll(parseJob(PollJob, job));
      case 'check':
        return runCheckJob(parseJob(CheckJob, job));
      case 'deliver':
        return deliver(job);
      default:
        log.warn({ job: job.name }, 'unknown payment job ignored');
    }
  }

  const inFlight = new Set<Promise<unknown>>();

  const service: PaymentService = {
    routes,

    async untrack(reference) {
      // A newer generation makes every scheduled poll and check of the old one a no-op.
      await keys.incr(generationKey(reference), ttlSeconds);
    },
    async track(reference, route) {
      await routes.save(reference, route);
      // Lets "Delete my data" find the routes that name this holder.
      await keys.addMember(holderKey(route), reference, ttlSeconds);
      await keys.restart(deliveredKey(reference));
      const generation = await keys.incr(generationKey(reference), ttlSeconds);
      await scheduler.add(
        'poll',
        { reference, generation, attempt: 0 } satisfies z.infer<typeof PollJob>,
        { jobId: `poll-${reference}-${generation}-0`, delay: backoffMs[0] ?? 0, ...pollJobOptions },
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
