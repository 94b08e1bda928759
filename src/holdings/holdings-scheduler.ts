import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { CodedError } from '../errors/index.js';
import type { Logger } from '../log/index.js';
import { duplicateForBlocking, hashTag, type RedisConnection } from '../redis/index.js';
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
const POLL_MS = 50;

/** Options of {@link createBullHoldingsScheduler}. */
export interface BullHoldingsSchedulerOptions {
  readonly redis: RedisConnection;
  /** Prefix of every key this server writes, e.g. `insurechat:`. */
  readonly prefix: string;
  readonly sync: (run?: SyncRun) => Promise<SyncSummary>;
  readonly logger: Logger;
  /** Time between runs; default {@link SYNC_EVERY_MS}. */
  readonly everyMs?: number;
  /** Time between checks that the schedule exists; default {@link SCHEDULE_CHECK_MS}. */
  readonly checkEveryMs?: number;
}

/**
 * The sync as a BullMQ job scheduler: one schedule however many instances upsert it, and a
 * global concurrency of one, so one run at a time across every instance (a run that outlasts its
 * interval is not overtaken: the next waits for it).
 */
export async function createBullHoldingsScheduler(
  options: BullHoldingsSchedulerOptions,
): Promise<HoldingsScheduler> {
  const { redis, logger: log } = options;
  // One hash tag for the queue's keys, as the reminders' queue: BullMQ's scripts touch several.
  const prefix = hashTag(`${options.prefix}bull`);
  const queue = new Queue(QUEUE, { connection: redis, prefix });
  queue.on('error', (err) => log.error({ err }, 'holdings sync queue error'));
  const schedule = async () => {
    await queue.setGlobalConcurrency(1);
    await queue.upsertJobScheduler(
      SCHEDULER_ID,
      { every: options.everyMs ?? SYNC_EVERY_MS },
      { name: 'sync', opts: { removeOnComplete: true, removeOnFail: { count: 20 } } },
    );
  };
  await schedule();
  // The schedule lives in Redis: a flush (or a failover to an empty replica) takes it, and no
  // sync would run again until a restart. Checked every minute, recreated when gone; BullMQ
  // runs a new `every` schedule at once, so the emptied index is filled again without waiting.
  const ensureScheduled = async (): Promise<boolean> => {
    if (await queue.getJobScheduler(SCHEDULER_ID)) return false;
    await schedule();
    log.warn({ event: 'holdings.schedule.recreated' }, 'holdings sync schedule recreated');
    return true;
  };
  const check = setInterval(() => {
    ensureScheduled().catch((err: unknown) =>
      log.error({ err }, 'holdings sync schedule check failed'),
    );
  }, options.checkEveryMs ?? SCHEDULE_CHECK_MS);
  check.unref();
  const blocking = duplicateForBlocking(redis);
  const worker = new Worker(QUEUE, async (job) => options.sync({ full: job.data?.full === true }), {
    connection: blocking,
    prefix,
    concurrency: 1,
  });
  worker.on('error', (err) => log.error({ err }, 'holdings sync worker error'));
  worker.on('failed', (_job, err) => log.error({ err }, 'holdings sync failed'));
  return {
    runNow: (run = {}) => addAndWait(queue, run),
    ensureScheduled,
    async close() {
      clearInterval(check);
      await worker.close();
      await queue.close();
      await blocking.quit().catch(() => undefined);
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

/** Adds a run to the queue and waits until a worker (this or any instance) has run it. */
async function addAndWait(queue: Queue, run: SyncRun, timeoutMs = Infinity): Promise<void> {
  const job = await queue.add(
    'sync',
    { full: run.full === true },
    { jobId: `now-${randomUUID()}`, removeOnComplete: 20 },
  );
  const until = Date.now() + timeoutMs;
  for (;;) {
    const state = await job.getState();
    if (state === 'completed') return;
    if (state === 'failed') throw new HoldingsSyncFailedError('holdings sync failed');
    if (Date.now() > until) {
      throw new HoldingsSyncFailedError('no server ran the holdings sync in time');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
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
  const queue = new Queue(QUEUE, {
    connection: options.redis,
    prefix: hashTag(`${options.prefix}bull`),
  });
  try {
    await addAndWait(queue, { full: options.full === true }, options.timeoutMs ?? 30 * 60_000);
  } finally {
    await queue.close();
  }
}

/** Options of {@link createMemoryHoldingsScheduler}. */
export interface MemoryHoldingsSchedulerOptions {
  readonly sync: (run?: SyncRun) => Promise<SyncSummary>;
  readonly logger: Logger;
  /** Time between runs; default {@link SYNC_EVERY_MS}. */
  readonly everyMs?: number;
}

/** The sync on an unref'd timer in this process (the embedded default, no Redis). */
export function createMemoryHoldingsScheduler(
  options: MemoryHoldingsSchedulerOptions,
): HoldingsScheduler {
  // One run at a time: a slow one is not overtaken by the next; "now" waits for it, then runs.
  let chain: Promise<void> = Promise.resolve();
  let busy = false;
  const run = (asked: SyncRun = {}): Promise<void> => {
    chain = chain.then(async () => {
      busy = true;
      try {
        await options.sync(asked);
      } catch (err) {
        options.logger.error({ err }, 'holdings sync failed');
      } finally {
        busy = false;
      }
    });
    return chain;
  };
  const timer = setInterval(() => {
    if (!busy) void run();
  }, options.everyMs ?? SYNC_EVERY_MS);
  timer.unref();
  return {
    async runNow(asked) {
      await run(asked);
    },
    // The timer lives in this process: nothing to lose.
    ensureScheduled: async () => false,
    async close() {
      clearInterval(timer);
      await chain;
    },
  };
}
