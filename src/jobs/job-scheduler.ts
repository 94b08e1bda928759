/** One run of a scheduled job, as its handler sees it. */
export interface Job {
  readonly name: string;
  readonly data: unknown;
  /** Tries already made before this one. */
  readonly attemptsMade: number;
  /** Tries allowed in all. */
  readonly attempts: number;
  /** Replaces the data a retry of this job will see. */
  updateData(data: unknown): Promise<void>;
}

/** How one job is scheduled and retried. */
export interface JobOptions {
  /** A second add with an id still waiting, delayed or running does nothing. */
  readonly jobId: string;
  /** Milliseconds before the first try; default 0. */
  readonly delay?: number;
  readonly attempts: number;
  /** Delay before a retry: always `delay` (fixed), or `delay` doubled per earlier failure. */
  readonly backoff: { readonly type: 'fixed' | 'exponential'; readonly delay: number };
}

/** What a scheduler runs and whom it tells about failures. */
export interface JobHooks {
  /** Runs every due job; undefined when this instance only enqueues (BullMQ without a worker). */
  readonly handler: ((job: Job) => Promise<void>) | undefined;
  /** Jobs run at once (on this instance). */
  readonly concurrency: number;
  /** A try failed; `last` when it will not be retried. Must not throw. */
  onFailed(failure: JobFailure): void;
}

/** A failed try, as told to {@link JobHooks.onFailed}. */
export interface JobFailure {
  readonly err: Error;
  readonly name: string | undefined;
  readonly data: unknown;
  /** Tries made, this one included. */
  readonly attemptsMade: number | undefined;
  readonly last: boolean;
}

/**
 * A repeating job's schedule. BullMQ keeps a calendar and follows `pattern` (cron, in `tz`) when
 * given; the in-process scheduler has no calendar and runs every `everyMs`, which is why both
 * are given (the job itself skips hours it must not act in).
 */
export interface Repeat {
  readonly everyMs: number;
  readonly pattern?: { readonly cron: string; readonly tz: string };
}

/** How a job asked for by {@link JobScheduler.addAndWait} ended. */
export type JobOutcome = 'completed' | 'failed' | 'timed-out';

/**
 * The job-scheduler port: delayed and retried jobs, repeating schedules, and a job run now and
 * waited for. Two adapters: BullMQ over Redis (jobs survive restarts, any instance's worker runs
 * them) and timers in this process (the embedded default).
 */
export interface JobScheduler {
  add(name: string, data: unknown, options: JobOptions): Promise<void>;
  /**
   * Creates or updates the repeating schedule `id` running job `name`: one schedule however
   * many instances call it, and a firing never overtakes a run of it still under way.
   */
  repeat(id: string, repeat: Repeat, name: string): Promise<void>;
  /** Whether schedule `id` still exists (Redis may have been flushed since). */
  hasRepeat(id: string): Promise<boolean>;
  /** Adds a one-try job and waits until some worker has run it, for at most `timeoutMs`. */
  addAndWait(name: string, data: unknown, timeoutMs?: number): Promise<JobOutcome>;
  /**
   * Resolves once no job is waiting or running (and, with `includeDelayed`, none is waiting for
   * its time either).
   */
  drained(includeDelayed: boolean): Promise<void>;
  /** Stops running jobs (waiting for those under way) and drops the ones not yet run. */
  close(): Promise<void>;
}

/** The delay before retry number `attemptsMade` (1 for the first retry), as BullMQ computes it. */
export function retryDelay(backoff: JobOptions['backoff'], attemptsMade: number): number {
  return backoff.type === 'fixed' ? backoff.delay : backoff.delay * 2 ** (attemptsMade - 1);
}

/** Polls `done` every `everyMs` milliseconds until it is true. */
export async function until(done: () => boolean | Promise<boolean>, everyMs = 10): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, everyMs));
}
