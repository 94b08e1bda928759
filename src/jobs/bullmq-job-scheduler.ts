import { randomUUID } from 'node:crypto';
import { type JobType, type KeepJobs, Queue, Worker } from 'bullmq';
import type { Logger } from '../log/index.js';
import { duplicateForBlocking, type RedisConnection } from '../redis/index.js';
import { type JobHooks, type JobOutcome, type JobScheduler, until } from './job-scheduler.js';

/** Settings of {@link createBullJobScheduler}. */
export interface BullJobSchedulerOptions {
  /** Shared connection of the queue; the worker gets its own duplicate. */
  readonly redis: RedisConnection;
  /** BullMQ queue name (no `:`). */
  readonly name: string;
  /**
   * BullMQ key prefix. On a Redis Cluster it must be a hash tag (`{insurechat:bull}`): BullMQ's
   * scripts touch several keys of a queue at once.
   */
  readonly prefix: string;
  /** Which failed jobs are kept for inspection. */
  readonly keepFailed: KeepJobs;
  /** Runs at once across every instance (BullMQ's global concurrency), set with each schedule. */
  readonly globalConcurrency?: number;
  /** What the queue's own errors are logged as: `<label> queue error`, `<label> worker error`. */
  readonly label: string;
  readonly logger: Logger;
}

/** BullMQ job ids may not contain `:`; escape it (and `%` first, to stay one-to-one). */
function bullJobId(id: string): string {
  return id.replaceAll('%', '%25').replaceAll(':', '%3A');
}

/** How often {@link JobScheduler.addAndWait} looks at its job's state. */
const WAIT_POLL_MS = 50;

/**
 * The job-scheduler port on a BullMQ queue in Redis: jobs survive restarts and any instance's
 * worker may run them. Without `hooks.handler` this instance only enqueues.
 */
export function createBullJobScheduler(
  options: BullJobSchedulerOptions,
  hooks: JobHooks,
): JobScheduler {
  const { redis, name, prefix, keepFailed, label, logger: log } = options;
  const queue = new Queue(name, { connection: redis, prefix });
  queue.on('error', (err) => log.error({ err }, `${label} queue error`));

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
    worker.on('error', (err) => log.error({ err }, `${label} worker error`));
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
        removeOnFail: keepFailed,
      });
    },
    async repeat(id, repeat, jobName) {
      // Set with the schedule, not once: a flushed Redis loses both.
      if (options.globalConcurrency !== undefined) {
        await queue.setGlobalConcurrency(options.globalConcurrency);
      }
      await queue.upsertJobScheduler(
        id,
        repeat.pattern
          ? { pattern: repeat.pattern.cron, tz: repeat.pattern.tz }
          : { every: repeat.everyMs },
        { name: jobName, opts: { removeOnComplete: true, removeOnFail: keepFailed } },
      );
    },
    async hasRepeat(id) {
      return (await queue.getJobScheduler(id)) !== undefined;
    },
    async addAndWait(jobName, data, timeoutMs = Infinity): Promise<JobOutcome> {
      // Kept once completed, so its state can still be read when it is done.
      const job = await queue.add(jobName, data, {
        jobId: `now-${randomUUID()}`,
        removeOnComplete: 20,
      });
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const state = await job.getState();
        if (state === 'completed' || state === 'failed') return state;
        if (Date.now() > deadline) return 'timed-out';
        await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      }
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
