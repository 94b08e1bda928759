import { vi } from 'vitest';

/**
 * Awaits `work` under vitest's fake timers when it also waits on real I/O (a real Redis): the
 * simulated clock moves on `stepMs` at a time, and between steps the event loop takes in the
 * I/O that came back, until `work` settles (the test's own timeout bounds it).
 * Advancing the clock in one go would fire every timer before the Redis replies that schedule
 * the next ones had arrived.
 */
export async function settleOnFakeTimers<T>(work: Promise<T>, stepMs = 1): Promise<T> {
  let settled = false;
  const watched = work.finally(() => {
    settled = true;
  });
  // A rejection is the caller's to see, at the return below, not an unhandled one meanwhile.
  watched.catch(() => undefined);
  while (!settled) {
    // The synchronous advance: the async one yields a real timer tick per fake timer fired.
    vi.advanceTimersByTime(stepMs);
    // setImmediate is left real: the promise jobs the timers set off run, and the poll phase
    // takes in the Redis replies that came back, before the clock moves again.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return watched;
}
