import { type JobType, Queue, Worker } from 'bullmq';
import type { Logger } from '../log/index.js';
import { duplicateForBlocking, type RedisConnection } from '../redis/index.js';
import type { PaymentScheduler, PaymentSchedulerHooks } from './payment-scheduler.js';
import { until } from './payment-scheduler.js';

/** Settings of {@link createBullPaymentScheduler}. */
export interface BullPaymentSchedulerOptions {
  /** Shared connection of the queue; the worker gets its own duplicate. */
  readonly redis: RedisConnection;
  /** BullMQ queue name (no `:`). */
  readonly name: string;
  /**
   * BullMQ key prefix. On a Redis Cluster it must be a hash tag (`{insurechat:bull}`, see
   * {@link paymentQueuePrefix}): BullMQ's scripts touch several keys of a queue at once.
   */
  readonly prefix: string;
  /** How long failed jobs are kept for inspection. */
  readonly ttlSeconds: number;
  readonly logger: Logger;
}

/** BullMQ job ids may not contain `:`; escape it (and `%` first, to stay one-to-one). */
function bullJobId(id: string): string {
  return id.replaceAll('%', '%25').replaceAll(':', '%3A');
}

/**
 * A scheduler on a BullMQ queue in Redis: jobs survive restarts and any instance's worker may
 * run them. Without `hooks.handler` this instance only enqueues.
 */
export function createBullPaymentScheduler(
  options: BullPaymentSchedulerOptions,
  hooks: PaymentSchedulerHooks,
): PaymentScheduler {
  const { redis, name, prefix, ttlSeconds, logger: log } = options;
  const queue = new Queue(name, { connection: redis, prefix });
  queue.on('error', (err) => log.error({ err }, 'payment queue error'));

  let worker: Worker | undefined;
  let workerConnection: RedisConnection | undefined;
  const handler = hooks.handler;
  if (handler) {
    // BullMQ's blocking connection must not give up on commands; the shared one keeps its limits.
    const blocking = duplicateForBlocking(redis);
    workerConnection = blocking;
    worker = new Worker(
      name,
      (job) =>
        handler({
          name: job.name,
          data: job.data,
          attemptsMade: job.attemptsMade,
          attempts: job.opts.attempts ?? 1,
          updateData: (data) => job.updateData(data),
        }),
      { connection: blocking, prefix, concurrency: hooks.concurrency },
    );
    worker.on('error', (err) => log.error({ err }, 'payment worker error'));
    worker.on('failed', (job, err) =>
      hooks.onFailed({
        err,
        name: job?.name,
        data: job?.data,
        attemptsMade: job?.attemptsMade,
        last: job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1),
      }),
    );
  }

  return {
    async add(jobName, data, jobOptions) {
      await queue.add(jobName, data, {
        jobId: bullJobId(jobOptions.jobId),
        delay: jobOptions.delay ?? 0,
        attempts: jobOptions.attempts,
        backoff: jobOptions.backoff,
        removeOnComplete: true,
        removeOnFail: { age: ttlSeconds },
      });
    },
    async drained(includeDelayed) {
      const states: JobType[] = ['waiting', 'active', 'prioritized'];
      if (includeDelayed) states.push('delayed');
      await until(async () => {
        const counts = await queue.getJobCounts(...states);
        return Object.values(counts).every((count) => count === 0);
      });
    },
    async close() {
      await worker?.close();
      await queue.close();
      await workerConnection?.quit().catch(() => undefined);
    },
  };
}
