import type { AcquireResult, SessionStore } from '../session/index.js';
import { KeyedQueue } from './keyed-queue.js';

/** What taking the lock answered: the session is the turn's, busy past the deadline, or failed. */
type LockResult = AcquireResult | { readonly status: 'failed'; readonly error: unknown };

/** Options of {@link TurnGate}. */
interface TurnGateOptions {
  readonly store: SessionStore;
  /** Lock lifetime, extended while a turn runs past its deadline. */
  readonly lockTtlMs: number;
}

/**
 * Ordering and lock: turns of one session run one at a time, first come first served within a
 * process (`order`, free when uncontended) and under the store's lock across processes (`lock`,
 * taken with the record's read in one round trip); a turn that cannot get in by its deadline is
 * turned away as busy.
 */
export class TurnGate {
  private readonly queue = new KeyedQueue();

  constructor(private readonly options: TurnGateOptions) {}

  /**
   * Takes the turn's place in this process's queue for the session. Call it before any await so
   * arrival order holds. Gives the way out (call it once the turn is over), at once when nobody
   * is ahead, or undefined when the earlier turns did not leave by `deadlineAt` (epoch ms).
   */
  order(sessionKey: string, deadlineAt: number): (() => void) | Promise<(() => void) | undefined> {
    return this.queue.tryEnter(sessionKey) ?? this.queue.enter(sessionKey, deadlineAt - Date.now());
  }

  /**
   * Takes the store's lock and reads the record, waiting up to `deadlineAt`. `knownVersion` is
   * the version the caller holds a copy of: the store leaves the data out when it is current.
   * `peek` is a key read with the record (see `AcquireOptions.peek`), `also` others (see
   * `AcquireOptions.also`). Never throws: a store failure is a `failed` result.
   */
  async lock(
    sessionKey: string,
    deadlineAt: number,
    knownVersion: number | undefined,
    peek?: string,
    also?: readonly string[],
  ): Promise<LockResult> {
    try {
      return await this.options.store.acquire(sessionKey, {
        waitMs: Math.max(0, deadlineAt - Date.now()),
        lockTtlMs: this.options.lockTtlMs,
        ...(knownVersion === undefined ? {} : { knownVersion }),
        ...(peek === undefined ? {} : { peek }),
        ...(also === undefined || also.length === 0 ? {} : { also }),
      });
    } catch (error) {
      return { status: 'failed', error };
    }
  }
}
