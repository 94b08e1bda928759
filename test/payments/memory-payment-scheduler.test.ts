import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPaymentScheduler } from '../../src/payments/memory-payment-scheduler.js';
import type {
  PaymentJob,
  PaymentJobFailure,
  PaymentScheduler,
} from '../../src/payments/payment-scheduler.js';
import { retryDelay } from '../../src/payments/payment-scheduler.js';
import { eventually } from '../support/eventually.js';

const open: PaymentScheduler[] = [];

afterEach(async () => {
  for (const scheduler of open.splice(0)) await scheduler.close();
});

function scheduler(handler: (job: PaymentJob) => Promise<void>): {
  scheduler: PaymentScheduler;
  failures: PaymentJobFailure[];
} {
  const failures: PaymentJobFailure[] = [];
  const created = createMemoryPaymentScheduler({
    handler,
    concurrency: 2,
    onFailed: (failure) => failures.push(failure),
  });
  open.push(created);
  return { scheduler: created, failures };
}

const once = { attempts: 1, backoff: { type: 'fixed', delay: 10 } } as const;

describe('in-process payment scheduler', () => {
  it('retries a failing job with the data it saved, until it succeeds', async () => {
    const seen: unknown[] = [];
    const { scheduler: s, failures } = scheduler(async (job) => {
      seen.push(job.data);
      if (job.attemptsMade < 2) {
        await job.updateData({ try: job.attemptsMade + 1 });
        throw new Error('not yet');
      }
    });

    await s.add(
      'deliver',
      { try: 0 },
      {
        jobId: 'a',
        attempts: 5,
        backoff: { type: 'exponential', delay: 5 },
      },
    );
    await s.drained(true);

    expect(seen).toEqual([{ try: 0 }, { try: 1 }, { try: 2 }]);
    expect(failures.map((f) => [f.attemptsMade, f.last])).toEqual([
      [1, false],
      [2, false],
    ]);
  });

  it('gives up after the last attempt and says so', async () => {
    const { scheduler: s, failures } = scheduler(async () => {
      throw new Error('never');
    });

    await s.add('poll', { reference: 'R' }, { ...once, jobId: 'b', attempts: 2 });
    await s.drained(true);

    expect(failures.map((f) => f.last)).toEqual([false, true]);
  });

  it('ignores a second job with an id still waiting', async () => {
    const runs: string[] = [];
    const { scheduler: s } = scheduler(async (job) => {
      runs.push(job.name);
    });

    await s.add('first', {}, { ...once, jobId: 'same', delay: 20 });
    await s.add('second', {}, { ...once, jobId: 'same' });
    await s.drained(true);

    expect(runs).toEqual(['first']);
  });

  it('runs no job still waiting for its time once closed', async () => {
    const runs: string[] = [];
    const { scheduler: s } = scheduler(async (job) => {
      runs.push(job.name);
    });
    await s.add('due', {}, { ...once, jobId: 'due' });
    await eventually('the due job ran', () => runs.length === 1);
    vi.useFakeTimers();
    try {
      await s.add('later', {}, { ...once, jobId: 'later', delay: 30 });

      await s.close();
      await s.add('after', {}, { ...once, jobId: 'after' });
      await vi.advanceTimersByTimeAsync(60);
    } finally {
      vi.useRealTimers();
    }

    expect(runs).toEqual(['due']);
  });
});

describe('retry delays', () => {
  it('double from the base delay for exponential back-off, as BullMQ does', () => {
    const backoff = { type: 'exponential', delay: 5_000 } as const;

    expect([1, 2, 3].map((made) => retryDelay(backoff, made))).toEqual([5_000, 10_000, 20_000]);
  });
});
