/** One run of a scheduled payment job, as its handler sees it. */
export interface PaymentJob {
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
export interface PaymentJobOptions {
  /** A second add with an id still waiting, delayed or running does nothing. */
  readonly jobId: string;
  /** Milliseconds before the first try; default 0. */
  readonly delay?: number;
  readonly attempts: number;
  /** Delay before a retry: always `delay` (fixed), or `delay` doubled per earlier failure. */
  readonly backoff: { readonly type: 'fixed' | 'exponential'; readonly delay: number };
}

/** What a scheduler runs and whom it tells about failures. */
export interface PaymentSchedulerHooks {
  /** Runs every due job; undefined when this instance only enqueues (BullMQ without a worker). */
  readonly handler: ((job: PaymentJob) => Promise<void>) | undefined;
  /** Jobs run at once. */
  readonly concurrency: number;
  /** A try failed; `last` when it will not be retried. Must not throw. */
  onFailed(failure: PaymentJobFailure): void;
}

/** A failed try, as told to {@link PaymentSchedulerHooks.onFailed}. */
export interface PaymentJobFailure {
  readonly err: Error;
  readonly name: string | undefined;
  readonly data: unknown;
  /** Tries made, this one included. */
  readonly attemptsMade: number | undefined;
  readonly last: boolean;
}

/** Runs the poller's and the deliveries' delayed jobs: BullMQ over Redis, or timers in-process. */
export interface PaymentScheduler {
  add(name: string, data: unknown, options: PaymentJobOptions): Promise<void>;
  /**
   * Resolves once no job is waiting or running (and, with `includeDelayed`, none is waiting for
   * its time either).
   */
  drained(includeDelayed: boolean): Promise<void>;
  /** Stops running jobs (waiting for those under way) and drops the ones not yet run. */
  close(): Promise<void>;
}

/** The delay before retry number `attemptsMade` (1 for the first retry), as BullMQ computes it. */
export function retryDelay(backoff: PaymentJobOptions['backoff'], attemptsMade: number): number {
  return backoff.type === 'fixed' ? backoff.delay : backoff.delay * 2 ** (attemptsMade - 1);
}

/** Polls `done` every few milliseconds until it is true. */
export async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 10));
}
