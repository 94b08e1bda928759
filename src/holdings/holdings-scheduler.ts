import { CodedError } from '../errors/index.js';
import {
  createBullJobScheduler,
  createMemoryJobScheduler,
  type JobHooks,
  type JobOutcome,
  type JobScheduler,
} from '../jobs/index.js';
import { createLogger, type Logger } from '../log/index.js';
import { hashTag, type RedisConnection } from '../redis/index.js';
import type { SyncSummary } from './holdings-sync.js';

/** Runs the holdings sync on its schedule until closed. */
export interface HoldingsScheduler {
  /**
   * Runs one sync now, as the schedule would (after any run in progress), and waits for it;
   * `full` makes it a full pass (every list and policyholder read again).
   */
  runNow(run?: SyncRun): Promise<void>;
  /**
   * Recreates the schedule if it is gone (Redis flushed or failed over empty); true when it
   * did. Called every {@link SCHEDULE_CHECK_MS} by the scheduler itself.
   */
  ensureScheduled(): Promise<boolean>;
  close(): Promise<void>;
}

/** How one run is asked for. */
export interface SyncRun {
  readonly full?: boolean;
}

/** How often the scheduler checks that its schedule still exists in Redis. */
export const SCHEDULE_CHECK_MS = 60_000;

/** Every 15 minutes: cover sold elsewhere shows in My cover within a quarter of an hour. */
export const SYNC_EVERY_MS = 15 * 60_000;

const QUEUE = 'holdings-sync';
const SCHEDULER_ID = 'holdings-sync';

/** Options of {@link createHoldingsScheduler}. */
export interface HoldingsSchedulerOptions {
  /** Redis, where the schedule is shared by every instance; without it, a timer in this process. */
  readonly redis?: RedisConnection | undefined;
  /** Prefix of every key this server writes, e.g. `insurechat:`. */
  readonly prefix: string;
  readonly sync: (run?: SyncRun) => Promise<SyncSummary>;
  readonly logger: Logger;
  /** Time between runs; default {@link SYNC_EVERY_MS}. */
  readonly everyMs?: number;
  /** Time between checks that the schedule exists (over Redis); default {@link SCHEDULE_CHECK_MS}. */
  readonly checkEveryMs?: number;
}

/** The sync's queue on the job-scheduler port; without `sync`, this instance only enqueues. */
function syncJobs(
  options: Pick<HoldingsSchedulerOptions, 'redis' | 'prefix' | 'logger'> & {
    readonly sync?: HoldingsSchedulerOptions['sync'];
  },
): JobScheduler {
  const { redis, sync, logger: log } = options;
  const hooks: JobHooks = {
    handler: sync
      ? async ({ data }) => {
          // A scheduled run carries no data; one asked for now says whether it is a full pass.
          const full = typeof data === 'object' && data !== null && 'full' in data && data.full;
          await sync({ full: full === true });
        }
      : undefined,
    concurrency: 1,
    onFailed: ({ err }) => log.error({ err }, 'holdings sync failed'),
  };
  return redis
    ? createBullJobScheduler(
        {
          redis,
          name: QUEUE,
          // One hash tag for the queue's keys, as the reminders' queue: BullMQ's scripts touch several.
          prefix: hashTag(`${options.prefix}bull`),
          keepFailed: { count: 20 },
          // One run at a time across every instance: a run that outlasts its interval is not
          // overtaken, the next waits for it.
          globalConcurrency: 1,
          label: 'holdings sync',
          logger: log,
        },
        hooks,
      )
    : createMemoryJobScheduler(hooks);
}

/**
 * The sync on the job-scheduler port: over Redis a BullMQ job scheduler, one schedule however
 * many instances upsert it and one run at a time across them; in this process an unref'd timer.
 */
export async function createHoldingsScheduler(
  options: HoldingsSchedulerOptions,
): Promise<HoldingsScheduler> {
  const { redis, logger: log } = options;
  const jobs = syncJobs(options);
  const schedule = () =>
    jobs.repeat(SCHEDULER_ID, { everyMs: options.everyMs ?? SYNC_EVERY_MS }, 'sync');
  await schedule();
  // The schedule lives in Redis: a flush (or a failover to an empty replica) takes it, and no
  // sync would run again until a restart. Checked every minute, recreated when gone; BullMQ
  // runs a new `every` schedule at once, so the emptied index is filled again without waiting.
  const ensureScheduled = async (): Promise<boolean> => {
    if (await jobs.hasRepeat(SCHEDULER_ID)) return false;
    await schedule();
    log.warn({ event: 'holdings.schedule.recreated' }, 'holdings sync schedule recreated');
    return true;
  };
  let check: NodeJS.Timeout | undefined;
  if (redis) {
    check = setInterval(() => {
      ensureScheduled().catch((err: unknown) =>
        log.error({ err }, 'holdings sync schedule check failed'),
      );
    }, options.checkEveryMs ?? SCHEDULE_CHECK_MS);
    check.unref();
  }
  return {
    async runNow(run = {}) {
      const outcome = await jobs.addAndWait('sync', { full: run.full === true });
      // In this process a failed run asked for now was always logged only (the job's failure
      // log), never thrown: the embedded `/insure sync` answers with the index's completeness.
      if (outcome !== 'completed' && redis) throw syncFailed(outcome);
    },
    ensureScheduled,
    async close() {
      clearInterval(check);
      await jobs.close();
    },
  };
}

/** Raised when a sync asked for now failed, or was not run within the time allowed. */
export class HoldingsSyncFailedError extends CodedError<'HOLDINGS_SYNC_FAILED'> {
  override readonly name = 'HoldingsSyncFailedError';
  constructor(message: string) {
    super('HOLDINGS_SYNC_FAILED', message);
  }
}

function syncFailed(outcome: Exclude<JobOutcome, 'completed'>): HoldingsSyncFailedError {
  return new HoldingsSyncFailedError(
    outcome === 'failed' ? 'holdings sync failed' : 'no server ran the holdings sync in time',
  );
}

/** Options of {@link requestHoldingsSync}. */
export interface RequestHoldingsSyncOptions {
  readonly redis: RedisConnection;
  /** Prefix of every key the servers write, e.g. `insurechat:`. */
  readonly prefix: string;
  readonly full?: boolean;
  /** How long to wait for a server to run it; default 30 minutes. */
  readonly timeoutMs?: number;
}

/**
 * Asks the running servers for a sync now (`npm run sync-now`): the run goes on their queue and
 * one of their workers runs it, one at a time with the schedule's; resolves when it is done.
 */
export async function requestHoldingsSync(options: RequestHoldingsSyncOptions): Promise<void> {
  // Enqueues only: the servers' workers run it. The queue's own errors go nowhere, as ever.
  const jobs = syncJobs({ ...options, logger: createLogger({ level: 'silent' }) });
  try {
    const outcome = await jobs.addAndWait(
      'sync',
      { full: options.full === true },
      options.timeoutMs ?? 30 * 60_000,
    );
    if (outcome !== 'completed') throw syncFailed(outcome);
  } finally {
    await jobs.close();
  }
}
