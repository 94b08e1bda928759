import { LUSAKA_TIME_ZONE } from '../clock/index.js';
import { createBullJobScheduler, createMemoryJobScheduler, type JobHooks } from '../jobs/index.js';
import type { Logger } from '../log/index.js';
import { hashTag, type RedisConnection } from '../redis/index.js';

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

/** Options of {@link createReminderScheduler}. */
export interface ReminderSchedulerOptions {
  /** Redis, where the schedule is shared by every instance; without it, a timer in this process. */
  readonly redis?: RedisConnection | undefined;
  /** Prefix of every key this server writes, e.g. `insurechat:`. */
  readonly prefix: string;
  readonly scan: () => Promise<unknown>;
  readonly logger: Logger;
  /** Whether this instance runs a worker (over Redis); default true. Every instance upserts the schedule. */
  readonly runWorker?: boolean;
  /** Cron pattern over Redis; default {@link SCAN_PATTERN}. */
  readonly pattern?: string;
  /** Time between scans in this process; default one hour (the scan itself skips quiet hours). */
  readonly everyMs?: number;
}

/**
 * The scan on the job-scheduler port. Over Redis a BullMQ job scheduler: one schedule however
 * many instances upsert it (its id is fixed), each firing runs on one worker, and the claims
 * inside the scan keep a reminder single even if two scans overlap. In this process an unref'd
 * timer. Either way one scan at a time: a slow one (a slow insurer) is not overtaken.
 */
export async function createReminderScheduler(
  options: ReminderSchedulerOptions,
): Promise<ReminderScheduler> {
  const { redis, logger: log } = options;
  const hooks: JobHooks = {
    handler:
      options.runWorker === false && redis
        ? undefined
        : async () => {
            await options.scan();
          },
    concurrency: 1,
    onFailed: ({ err }) => log.error({ err }, 'renewal reminder scan failed'),
  };
  const jobs = redis
    ? createBullJobScheduler(
        {
          redis,
          name: 'reminders',
          // One hash tag for the queue's keys: BullMQ's scripts touch several at once (Cluster).
          prefix: hashTag(`${options.prefix}bull`),
          keepFailed: { count: 50 },
          label: 'reminder',
          logger: log,
        },
        hooks,
      )
    : createMemoryJobScheduler(hooks);
  await jobs.repeat(
    SCHEDULER_ID,
    {
      everyMs: options.everyMs ?? 3_600_000,
      pattern: { cron: options.pattern ?? SCAN_PATTERN, tz: SCAN_TIME_ZONE },
    },
    'scan',
  );
  return { close: () => jobs.close() };
}
