import { randomUUID } from 'node:crypto';
import {
  type Job,
  type JobHooks,
  type JobOptions,
  type JobOutcome,
  type JobScheduler,
  retryDelay,
  until,
} from './job-scheduler.js';

interface Entry {
  readonly id: string;
  readonly name: string;
  data: unknown;
  attemptsMade: number;
  readonly options: JobOptions;
  /** Told how the job ended, for {@link JobScheduler.addAndWait}. */
  readonly ended?: (outcome: JobOutcome) => void;
}

/** A job run now and waited for: one try. */
const ONE_TRY: Omit<JobOptions, 'jobId'> = { attempts: 1, backoff: { type: 'fixed', delay: 0 } };

/**
 * The job-scheduler port on timers in this process, for running without Redis: same delays,
 * retries and job-id deduplication as the BullMQ one, but jobs die with the process. Timers are
 * unref'd so they never keep it alive, and cleared on close().
 */
export function createMemoryJobScheduler(hooks: JobHooks): JobScheduler {
  const ids = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const repeats = new Map<string, NodeJS.Timeout>();
  const ready: Entry[] = [];
  const running = new Map<Promise<void>, Entry>();
  let closed = false;

  function later(entry: Entry, delay: number): void {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      ready.push(entry);
      pump();
    }, delay);
    timer.unref();
    timers.add(timer);
  }

  function pump(): void {
    const handler = hooks.handler;
    if (!handler) return;
    while (!closed && running.size < hooks.concurrency) {
      const entry = ready.shift();
      if (!entry) return;
      const run = runOnce(handler, entry);
      running.set(run, entry);
      void run.finally(() => {
        running.delete(run);
        pump();
      });
    }
  }

  async function runOnce(handler: (job: Job) => Promise<void>, entry: Entry): Promise<void> {
    const job: Job = {
      name: entry.name,
      data: entry.data,
      attemptsMade: entry.attemptsMade,
      attempts: entry.options.attempts,
      async updateData(data) {
        // Copied, as BullMQ would store it, so later edits by the caller do not leak in.
        entry.data = structuredClone(data);
      },
    };
    try {
      await handler(job);
      ids.delete(entry.id);
      entry.ended?.('completed');
    } catch (error) {
      entry.attemptsMade += 1;
      const last = entry.attemptsMade >= entry.options.attempts;
      const err = error instanceof Error ? error : new Error(String(error));
      hooks.onFailed({
        err,
        name: entry.name,
        data: entry.data,
        attemptsMade: entry.attemptsMade,
        last,
      });
      if (last || closed) {
        ids.delete(entry.id);
        entry.ended?.('failed');
      } else later(entry, retryDelay(entry.options.backoff, entry.attemptsMade));
    }
  }

  function enqueue(entry: Omit<Entry, 'attemptsMade'>): void {
    ids.add(entry.id);
    later(
      { ...entry, data: structuredClone(entry.data), attemptsMade: 0 },
      entry.options.delay ?? 0,
    );
  }

  /** A job of this name waits or runs: a repeat's firing is skipped rather than queued behind. */
  const busyWith = (name: string) =>
    ready.some((entry) => entry.name === name) ||
    [...running.values()].some((entry) => entry.name === name);

  return {
    async add(name, data, options) {
      if (closed || ids.has(options.jobId)) return;
      enqueue({ id: options.jobId, name, data, options });
    },
    async repeat(id, repeat, name) {
      if (closed) return;
      clearInterval(repeats.get(id));
      const jobId = `repeat-${id}`;
      const timer = setInterval(() => {
        if (ids.has(jobId) || busyWith(name)) return;
        enqueue({ id: jobId, name, data: undefined, options: { jobId, ...ONE_TRY } });
      }, repeat.everyMs);
      timer.unref();
      repeats.set(id, timer);
    },
    // The timers live in this process: nothing can take them but close().
    hasRepeat: async (id) => repeats.has(id),
    addAndWait(name, data, timeoutMs = Infinity) {
      if (closed) return Promise.resolve('failed');
      return new Promise<JobOutcome>((resolve) => {
        const id = `now-${randomUUID()}`;
        let timeout: NodeJS.Timeout | undefined;
        if (Number.isFinite(timeoutMs)) {
          timeout = setTimeout(() => resolve('timed-out'), timeoutMs);
          timeout.unref();
        }
        enqueue({
          id,
          name,
          data,
          options: { jobId: id, ...ONE_TRY },
          ended: (outcome) => {
            clearTimeout(timeout);
            resolve(outcome);
          },
        });
      });
    },
    async drained(includeDelayed) {
      await until(
        () => ready.length === 0 && running.size === 0 && (!includeDelayed || timers.size === 0),
      );
    },
    async close() {
      closed = true;
      for (const timer of [...timers, ...repeats.values()]) clearTimeout(timer);
      timers.clear();
      repeats.clear();
      // A job waited for and never run ends as failed, so nobody waits for ever.
      for (const entry of ready.splice(0)) entry.ended?.('failed');
      ids.clear();
      await Promise.allSettled([...running.keys()]);
    },
  };
}
