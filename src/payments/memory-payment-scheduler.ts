import {
  type PaymentJob,
  type PaymentJobOptions,
  type PaymentScheduler,
  type PaymentSchedulerHooks,
  retryDelay,
  until,
} from './payment-scheduler.js';

interface Entry {
  readonly id: string;
  readonly name: string;
  data: unknown;
  attemptsMade: number;
  readonly options: PaymentJobOptions;
}

/**
 * A scheduler on timers in this process, for running without Redis: same delays, retries and
 * job-id deduplication as the BullMQ one, but jobs die with the process. Timers are unref'd so
 * they never keep it alive, and cleared on close().
 */
export function createMemoryPaymentScheduler(hooks: PaymentSchedulerHooks): PaymentScheduler {
  const ids = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const ready: Entry[] = [];
  const active = new Set<Promise<void>>();
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
    while (!closed && active.size < hooks.concurrency) {
      const entry = ready.shift();
      if (!entry) return;
      const run = runOnce(handler, entry);
      active.add(run);
      void run.finally(() => {
        active.delete(run);
        pump();
      });
    }
  }

  async function runOnce(handler: (job: PaymentJob) => Promise<void>, entry: Entry): Promise<void> {
    const job: PaymentJob = {
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
      if (last || closed) ids.delete(entry.id);
      else later(entry, retryDelay(entry.options.backoff, entry.attemptsMade));
    }
  }

  return {
    async add(name, data, options) {
      if (closed || ids.has(options.jobId)) return;
      ids.add(options.jobId);
      const entry = {
        id: options.jobId,
        name,
        data: structuredClone(data),
        attemptsMade: 0,
        options,
      };
      later(entry, options.delay ?? 0);
    },
    async drained(includeDelayed) {
      await until(
        () => ready.length === 0 && active.size === 0 && (!includeDelayed || timers.size === 0),
      );
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      ready.length = 0;
      ids.clear();
      await Promise.allSettled([...active]);
    },
  };
}
