import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMemoryJobScheduler,
  type Job,
  type JobFailure,
  type JobScheduler,
  retryDelay,
} from '../../src/jobs/index.js';
import { eventually } from '../support/eventually.js';

const open: JobScheduler[] = [];

afterEach(async () => {
  for (const scheduler of open.splice(0)) await scheduler.close();
});

function scheduler(handler: (job: Job) => Promise<void>): {
  scheduler: JobScheduler;
  failures: JobFailure[];
} {
  const failures: JobFailure[] = [];
  const created = createMemoryJobScheduler({
    handler,
    concurrency: 2,
    onFailed: (failure) => failures.push(failure),
  });
  open.push(created);
  return { scheduler: created, failures };
}

const once = { attempts: 1, backoff: { type: 'fixed', delay: 10 } } as const;

describe('the in-process job scheduler', () => {
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

describe('the in-process job scheduler, repeating', () => {
  it('runs a repeating job on its interval, skipping a firing while the last run is under way', async () => {
    vi.useFakeTimers();
    try {
      let release: () => void = () => undefined;
      const runs: string[] = [];
      const { scheduler: s } = scheduler(async (job) => {
        runs.push(job.name);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      });
      await s.repeat('scan', { everyMs: 1_000 }, 'scan');
      expect(await s.hasRepeat('scan')).toBe(true);
      // Just past the first firing: the job it queues runs a tick after it.
      await vi.advanceTimersByTimeAsync(1_001);
      expect(runs).toEqual(['scan']);
      // Two more firings while the first run holds: neither queues behind it.
      await vi.advanceTimersByTimeAsync(2_000);
      expect(runs).toEqual(['scan']);
      release();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(runs).toEqual(['scan', 'scan']);
      release();
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs a job asked for now after the one under way, and says how it ended', async () => {
    const order: string[] = [];
    const { scheduler: s, failures } = scheduler(async (job) => {
      order.push(String(job.data));
      if (job.data === 'broken') throw new Error('insurer down');
    });
    expect(await s.addAndWait('sync', 'first')).toBe('completed');
    expect(await s.addAndWait('sync', 'broken')).toBe('failed');
    expect(order).toEqual(['first', 'broken']);
    expect(failures.map((failure) => [failure.name, failure.last])).toEqual([['sync', true]]);
  });
});

describe('retry delays', () => {
  it('double from the base delay for exponential back-off, as BullMQ does', () => {
    const backoff = { type: 'exponential', delay: 5_000 } as const;

    expect([1, 2, 3].map((made) => retryDelay(backoff, made))).toEqual([5_000, 10_000, 20_000]);
  });
});
