import { Queue, Worker } from 'bullmq';
import { LUSAKA_TIME_ZONE } from '../clock/index.js';
import type { Logger } from '../log/index.js';
import { duplicateForBlocking, hashTag, type RedisConnection } from '../redis/index.js';

/** Runs the reminder scan on its schedule until closed. */
export interface ReminderScheduler {
  close(): Promise<void>;
}

/**
 * When the scan runs: on the hour from 07:00 to 19:00, Lusaka time. Quiet hours hold nothing
 * back for long: what falls due overnight goes out at 07:00, and a failed send is tried again
 * the next hour.
 */
export const SCAN_PATTERN = '0 7-19 * * *';
export const SCAN_TIME_ZONE = LUSAKA_TIME_ZONE;

const SCHEDULER_ID = 'renewal-reminder-scan';

/** Options of {@link createBullReminderScheduler}. */
export interface BullReminderSchedulerOptions {
  readonly redis: RedisConnection;
  /** Prefix of every key this server writes, e.g. `insurechat:`. */
  readonly prefix: string;
  readonly scan: () => Promise<unknown>;
  readonly logger: Logger;
  /** Whether this instance runs a worker; default true. Every instance upserts the schedule. */
  readonly runWorker?: boolean;
  /** Cron pattern; default {@link SCAN_PATTERN}. */
  readonly pattern?: string;
}

/**
 * The scan as a BullMQ job scheduler: one schedule however many instances upsert it (its id is
 * fixed), each firing runs on one worker, and the claims inside the scan keep a reminder single
 * even if two scans overlap.
 */
export async function createBullReminderScheduler(
  options: BullReminderSchedulerOptions,
): Promise<ReminderScheduler> {
  const { redis, logger: log } = options;
  // One hash tag for the queue's keys: BullMQ's scripts touch several at once (Redis Cluster).
  const prefix = hashTag(`${options.prefix}bull`);
  const queue = new Queue('reminders', { connection: redis, prefix });
  queue.on('error', (err) => log.error({ err }, 'reminder queue error'));
  await queue.upsertJobScheduler(
    SCHEDULER_ID,
    { pattern: options.pattern ?? SCAN_PATTERN, tz: SCAN_TIME_ZONE },
    { name: 'scan', opts: { removeOnComplete: true, removeOnFail: { count: 50 } } },
  );
  let worker: Worker | undefined;
  let blocking: RedisConnection | undefined;
  if (options.runWorker !== false) {
    blocking = duplicateForBlocking(redis);
    worker = new Worker('reminders', async () => options.scan(), {
      connection: blocking,
      prefix,
      concurrency: 1,
    });
    worker.on('error', (err) => log.error({ err }, 'reminder worker error'));
    worker.on('failed', (_job, err) => log.error({ err }, 'renewal reminder scan failed'));
  }
  return {
    async close() {
      await worker?.close();
      await queue.close();
      await blocking?.quit().catch(() => undefined);
    },
  };
}

/** Options of {@link createMemoryReminderScheduler}. */
export interface MemoryReminderSchedulerOptions {
  readonly scan: () => Promise<unknown>;
  readonly logger: Logger;
  /** Time between scans; default one hour (the scan itself skips quiet hours). */
  readonly everyMs?: number;
}

/** The scan on an unref'd timer in this process (the embedded default, no Redis). */
export function createMemoryReminderScheduler(
  options: MemoryReminderSchedulerOptions,
): ReminderScheduler {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    // One scan at a time: a slow one (a slow insurer) is not overtaken by the next.
    if (running) return;
    running = options
      .scan()
      .catch((err: unknown) => options.logger.error({ err }, 'renewal reminder scan failed'))
      .finally(() => {
        running = undefined;
      });
  }, options.everyMs ?? 3_600_000);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
