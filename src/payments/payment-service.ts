import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { PartnerClient, PaymentWebhook, TransactionStatus } from '../api/index.js';
import {
  ENGINE_PROMPTS,
  type PaymentSettledEvent,
  Prompt,
  type TurnEngine,
} from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import type { Notifier } from './notifier.js';
import { PaymentError, PaymentNotifyError } from './payment-errors.js';
import { createPaymentRoutes, PaymentRoute, type PaymentRoutes } from './payment-routes.js';
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
  /** Whether this instance runs a worker; default true. An instance without one only enqueues. */
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
  /** Shared connection for keys and the queue; the worker gets its own duplicate. */
  readonly redis: Redis;
  /** Prefix of every key and of the queue, e.g. `insurechat:`; tests use their own. */
  readonly prefix: string;
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

/** Payment outcomes pushed back into the chat, exactly once, from any instance. */
export interface PaymentService {
  /**
   * Records where `reference`'s outcome goes and starts polling its status. Call it when a payment
   * comes back pending. Tracking a reference again (a retry of the same quote) starts over, unless
   * it was already paid.
   */
  track(reference: string, route: PaymentRoute): Promise<void>;
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
  /** Resolves once every background callback accepted so far is handled (tests, shutdown). */
  idle(): Promise<void>;
  /** The route table the service writes. */
  readonly routes: PaymentRoutes;
  /** Stops the worker and the queue; the shared Redis connection stays open. */
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
  /** Set once the engine has taken the event, so a notifier retry does not move the flow twice. */
  prompt: Prompt.optional(),
});
type DeliverJob = z.infer<typeof DeliverJob>;

const PaymentHint = z.object({
  policyNumber: z.string().optional(),
  policyId: z.string().optional(),
});
type PaymentHint = z.infer<typeof PaymentHint>;

// Final outcomes may replace a "still pending" notice (the user may check again), never another
// final outcome: this is SET NX, except that `pending` counts as free for a final outcome.
const CLAIM_FINAL = `
local current = redis.call('GET', KEYS[1])
if current == false or (current == 'pending' and ARGV[1] ~= 'pending') then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
return 0`;

// Only a marker left by a failed or unanswered attempt is cleared when the same reference is
// tracked again; a paid reference stays paid.
const RESTART = `
local current = redis.call('GET', KEYS[1])
if current == 'paid' then return 0 end
redis.call('DEL', KEYS[1])
return 1`;

/** Our reference (sent as `reference` when paying) comes back as `partnerReference`. */
export function callbackReference(body: PaymentWebhook): string | undefined {
  return body.partnerReference || body.paymentReference || undefined;
}

/**
 * Message keys of the outcome notice sent when the flow cannot answer for itself (the session
 * expired, or the engine kept failing). Params: `reference`, and `policyNumber` when known.
 */
export const PAYMENT_PROMPTS = {
  paid: 'payment.outcome.paid',
  failed: 'payment.outcome.failed',
  pending: 'payment.outcome.pending',
} as const satisfies Record<PaymentOutcome, string>;

function outcomePrompt(outcome: PaymentOutcome, reference: string, policyNumber?: string): Prompt {
  return {
    key: PAYMENT_PROMPTS[outcome],
    params: { reference, ...(policyNumber === undefined ? {} : { policyNumber }) },
    input: 'none',
    final: true,
  };
}

/** BullMQ job ids may not contain `:`; escape it (and `%` first, to stay one-to-one). */
function jobIdPart(reference: string): string {
  return reference.replaceAll('%', '%25').replaceAll(':', '%3A');
}

/** Creates the service and, unless `queue.runWorker` is false, starts its worker. */
export function createPaymentService(options: PaymentServiceOptions): PaymentService {
  const { redis, prefix, engine } = options;
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
  const bullPrefix = `${prefix}bull`;
  const deliveryAttempts = queueOptions.deliveryAttempts ?? 6;
  const deliveryBackoffMs = queueOptions.deliveryBackoffMs ?? 5_000;
  const notifiers = new Map(options.notifiers.map((notifier) => [notifier.channel, notifier]));
  const routes = createPaymentRoutes(redis, { prefix, ttlSeconds });
  const turnDeadlineMs = options.turnDeadlineMs ?? 30_000;

  const deliveredKey = (reference: string): string => `${prefix}payment-delivered:${reference}`;
  const hintKey = (reference: string): string => `${prefix}payment-hint:${reference}`;
  const generationKey = (reference: string): string => `${prefix}payment-generation:${reference}`;

  const queue = new Queue(queueName, { connection: redis, prefix: bullPrefix });
  // A poll that failed on Redis (not on the insurer: that counts as "still pending") is retried,
  // so one blip does not end the schedule without anyone being told.
  const pollJobOptions = {
    attempts: 3,
    backoff: { type: 'fixed', delay: 1_000 },
    removeOnComplete: true,
    removeOnFail: { age: ttlSeconds },
  } as const;
  queue.on('error', (err) => log.error({ err }, 'payment queue error'));

  async function currentGeneration(reference: string): Promise<number> {
    return Number((await redis.get(generationKey(reference))) ?? '0');
  }

  async function readHint(reference: string): Promise<PaymentHint> {
    const raw = await redis.get(hintKey(reference));
    if (raw === null) return {};
    try {
      return PaymentHint.parse(JSON.parse(raw));
    } catch {
      // The hint only adds the policy number; an unreadable one is worth less than the outcome.
      return {};
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
    const won = await redis.eval(CLAIM_FINAL, 1, deliveredKey(reference), outcome, ttlSeconds);
    if (won !== 1) return false;
    const hint = await readHint(reference);
    const generation = await currentGeneration(reference);
    const job: DeliverJob = { reference, outcome, route, ...hint };
    try {
      await queue.add('deliver', job, {
        // The claim above is the guard; the id only makes a stray second add a no-op.
        jobId: `deliver-${jobIdPart(reference)}-${generation}-${outcome}`,
        attempts: deliveryAttempts,
        backoff: { type: 'exponential', delay: deliveryBackoffMs },
        removeOnComplete: true,
        removeOnFail: { age: ttlSeconds },
      });
    } catch (err) {
      // Give the claim back so the poller or the next callback can deliver instead.
      await redis.del(deliveredKey(reference)).catch(() => undefined);
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
    const current = await redis.get(deliveredKey(reference));
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
      await queue.add(
        'poll',
        { reference, generation, attempt: next } satisfies z.infer<typeof PollJob>,
        {
          jobId: `poll-${jobIdPart(reference)}-${generation}-${next}`,
          delay,
          ...pollJobOptions,
        },
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

  async function deliver(job: Job): Promise<void> {
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
      };
      prompt = await engine.handle(route.sessionKey, event, {
        address,
        deadlineMs: turnDeadlineMs,
      });
      const lastTry = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
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

  function parseJob<T>(schema: z.ZodType<T>, job: Job): T {
    const parsed = schema.safeParse(job.data);
    if (!parsed.success) {
      const reference = typeof job.data?.reference === 'string' ? job.data.reference : 'unknown';
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

  let worker: Worker | undefined;
  let workerConnection: Redis | undefined;
  if (queueOptions.runWorker !== false) {
    // BullMQ's blocking connection must not give up on commands; the shared one keeps its limits.
    workerConnection = redis.duplicate({ maxRetriesPerRequest: null });
    worker = new Worker(
      queueName,
      async (job) => {
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
      },
      {
        connection: workerConnection,
        prefix: bullPrefix,
        concurrency: queueOptions.concurrency ?? 4,
      },
    );
    worker.on('error', (err) => log.error({ err }, 'payment worker error'));
    worker.on('failed', (job, err) => {
      const reference = typeof job?.data?.reference === 'string' ? job.data.reference : undefined;
      const last = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
      const fields = { err, reference, job: job?.name, attemptsMade: job?.attemptsMade };
      if (last) log.error(fields, 'payment job gave up');
      else log.warn(fields, 'payment job failed; it will be retried');
    });
  }

  const inFlight = new Set<Promise<unknown>>();

  const service: PaymentService = {
    routes,

    async track(reference, route) {
      await routes.save(reference, route);
      await redis.eval(RESTART, 1, deliveredKey(reference));
      const generation = await redis.incr(generationKey(reference));
      await redis.expire(generationKey(reference), ttlSeconds);
      await queue.add(
        'poll',
        { reference, generation, attempt: 0 } satisfies z.infer<typeof PollJob>,
        {
          jobId: `poll-${jobIdPart(reference)}-${generation}-0`,
          delay: backoffMs[0] ?? 0,
          ...pollJobOptions,
        },
      );
      // A callback that came before the route was written parked its hint: check at once.
      // Route first, hint second (the callback does the opposite), so one of the two sees the other.
      if ((await redis.exists(hintKey(reference))) === 1) {
        await queue.add('check', { reference, generation } satisfies z.infer<typeof CheckJob>, {
          jobId: `check-${jobIdPart(reference)}-${generation}`,
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
      await redis.set(hintKey(reference), JSON.stringify(hint), 'EX', ttlSeconds);
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
      const won = await redis.eval(CLAIM_FINAL, 1, deliveredKey(reference), outcome, ttlSeconds);
      if (won === 1) log.info({ reference, outcome }, 'payment outcome seen in a turn');
      return won === 1;
    },

    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },

    async close() {
      await service.idle();
      await worker?.close();
      await queue.close();
      await workerConnection?.quit().catch(() => undefined);
    },
  };
  return service;
}
