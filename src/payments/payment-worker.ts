import type { z } from 'zod';
import {
  createBullJobScheduler,
  createMemoryJobScheduler,
  type JobFailure,
  type JobHooks,
  type JobScheduler,
  type Job as PaymentJob,
} from '../jobs/index.js';
import type { PaymentContext } from './payment-context.js';
import { deliverOutcome } from './payment-delivery.js';
import {
  CheckJob,
  type DeliverJob,
  PollJob,
  parseJob,
  pollJobOptions,
  referenceOf,
} from './payment-jobs.js';
import { paymentQueuePrefix } from './payment-keys.js';
import { proceedWithPayment } from './payment-proceed.js';
import type { PaymentRoute } from './payment-routes.js';
import type { CallbackResult } from './payment-service.js';
import type { PaymentOutcome } from './payment-status.js';

/**
 * The payment jobs and their scheduler (BullMQ over Redis, timers otherwise): status polls,
 * checks, and outcomes claimed once and queued for delivery. Starts the worker unless
 * `queue.runWorker` is false (over Redis).
 */
export function createPaymentWorker(ctx: PaymentContext) {
  const { options, redis, log, ttlSeconds, backoffMs, lookupDelaysMs, keys, routes, prefix } = ctx;
  const { queueOptions, queueName, deliveryAttempts, deliveryBackoffMs } = ctx;
  const {
    deliveredKey,
    currentGeneration,
    readHint,
    failureReason,
    readOutcome,
    isFinalDelivered,
  } = ctx.ledger;

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
    // A payment whose pay answer was lost is looked up on its own, longer schedule: a lookup
    // that finds nothing yet may only lag behind the insurer's pay.
    const delay = (job.unconfirmed ? lookupDelaysMs : backoffMs)[next];
    if (delay !== undefined) {
      await scheduler.add(
        'poll',
        {
          reference,
          generation,
          attempt: next,
          ...(job.unconfirmed ? { unconfirmed: true } : {}),
        } satisfies z.infer<typeof PollJob>,
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

  const hooks: JobHooks = {
    handler: redis && queueOptions.runWorker === false ? undefined : runJob,
    concurrency: queueOptions.concurrency ?? 4,
    onFailed(failure: JobFailure) {
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
  const scheduler: JobScheduler = redis
    ? createBullJobScheduler(
        {
          redis,
          name: queueName,
          prefix: paymentQueuePrefix(prefix),
          keepFailed: { age: ttlSeconds },
          label: 'payment',
          logger: log,
        },
        hooks,
      )
    : createMemoryJobScheduler(hooks);

  async function runJob(job: PaymentJob): Promise<void> {
    switch (job.name) {
      case 'poll':
        return poll(parseJob(PollJob, job));
      case 'check':
        return runCheckJob(parseJob(CheckJob, job));
      case 'deliver':
        return deliverOutcome(ctx, job);
      case 'proceed':
        return proceedWithPayment(ctx, job);
      default:
        log.warn({ job: job.name }, 'unknown payment job ignored');
    }
  }

  return { scheduler, settle };
}
