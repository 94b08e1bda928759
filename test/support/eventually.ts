import { vi } from 'vitest';

/**
 * How often {@link eventually} looks again. Short, because what a test waits for (a reply on a
 * loopback socket, a queue job, a pushed message) usually lands within a few milliseconds, and
 * every poll interval is paid in full by whoever waits.
 */
const POLL_MS = 10;

/**
 * The longest {@link eventually} waits by default: under the 30 s test timeout, so a wait that
 * never ends fails with what it waited for rather than as an anonymous test timeout.
 */
const DEFAULT_TIMEOUT_MS = 20_000;

/** What a check returns while its condition does not hold yet. */
type NotYet = undefined | null | false;

/** Thrown when what a test waited for never happened: says what it was and for how long. */
export class NeverHappenedError extends Error {
  override readonly name = 'NeverHappenedError';
}

/**
 * Polls `check` every {@link POLL_MS} ms until it returns a value other than `undefined`, `null`
 * or `false`, and resolves that value (`true` for a yes/no check). A check that throws counts as
 * "not yet". After `timeoutMs` it fails with a {@link NeverHappenedError} naming `what` (read as
 * "timed out waiting until <what>") and the check's last error, if it threw one.
 *
 * The one way tests wait for something that happens out of their hands (a pushed message, a
 * settled payment, a drained queue): find it by what it is, never by when it should be done.
 */
export async function eventually<T>(
  what: string,
  check: () => T | NotYet | Promise<T | NotYet>,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<Exclude<T, NotYet>> {
  let lastError: unknown;
  try {
    return await vi.waitFor(
      async () => {
        let value: T | NotYet;
        try {
          value = await check();
        } catch (err) {
          lastError = err;
          throw err;
        }
        if (value === undefined || value === null || value === false) {
          lastError = undefined;
          throw new Error('not yet');
        }
        return value as Exclude<T, NotYet>;
      },
      { timeout: timeoutMs, interval: POLL_MS },
    );
  } catch {
    const why = lastError instanceof Error ? ` (last check threw: ${lastError.message})` : '';
    throw new NeverHappenedError(`Timed out after ${timeoutMs} ms waiting until ${what}${why}`, {
      cause: lastError,
    });
  }
}
