import { randomUUID } from 'node:crypto';

/** One persisted session: opaque data (the engine's JSON record) and its write version. */
export interface StoredSession {
  /** Starts at 1 on the first write and grows by one on every write. */
  readonly version: number;
  readonly data: string;
}

/**
 * Proof that a turn holds a session's lock. Pass it back to `commit`, `remove`, `release` or
 * `extend`; a lease whose lock expired or was taken over is refused.
 */
export interface SessionLease {
  readonly key: string;
  readonly token: string;
  /** The record's version when the lock was taken; `commit` writes only over this version. */
  readonly version: number | undefined;
}

/** What `acquire` found: the lock and the record, or a session still busy after the wait. */
export type AcquireResult =
  | {
      readonly status: 'acquired';
      readonly lease: SessionLease;
      /** The record, or undefined when there is none or when `unchanged` is true. */
      readonly record: StoredSession | undefined;
      /**
       * True when the previous lock holder never committed nor released (its process died
       * mid-turn): whatever it was doing may or may not have happened.
       */
      readonly interrupted: boolean;
      /**
       * True when the record is at the `knownVersion` the caller asked with: its data was not
       * sent (`record` is undefined) because the caller's own copy of that version is current.
       */
      readonly unchanged?: true;
      /**
       * The fields of the hash named by {@link AcquireOptions.peek}, read in the same step ({}
       * when it does not exist); undefined when the store did not read it, so the caller reads
       * it itself.
       */
      readonly peeked?: Readonly<Record<string, string>>;
      /** The fields of each {@link AcquireOptions.also} hash the store read, by key. */
      readonly alsoPeeked?: ReadonlyMap<string, Readonly<Record<string, string>>>;
    }
  | { readonly status: 'busy' };

/** What a write found: done, or refused because the lease is stale. */
export type CommitResult =
  | { readonly status: 'committed'; readonly version: number }
  | { readonly status: 'deleted' }
  /** The record's version moved since `acquire`; nothing was written. */
  | { readonly status: 'conflict' }
  /** The lock expired or another turn holds it now; nothing was written. */
  | { readonly status: 'lock-lost' };

/** Options of one `acquire`. */
export interface AcquireOptions {
  /** How long to wait for a lock another turn holds before answering busy. Default 4000 ms. */
  readonly waitMs?: number;
  /** How long the lock lives unless extended or released. Default the store's `lockTtlMs`. */
  readonly lockTtlMs?: number;
  /**
   * The version the caller already holds a copy of (the engine's actor cache). When the record
   * is still at it, `acquire` answers `unchanged` without sending the data again.
   */
  readonly knownVersion?: number;
  /**
   * A Redis hash another part keeps beside the session (a holder's renewal card): read with the
   * record, so what a conversation's first screen needs costs no round trip of its own. Read
   * only by the Redis store and only when the key carries the session key's hash tag (the same
   * Cluster slot); otherwise `peeked` is left out.
   */
  readonly peek?: string;
  /**
   * Other hashes a turn may need (the card of a holder the caller may SMS), read with the record
   * where the store can: a standalone Redis reads any key, a Cluster only the session's slot.
   * Those not read are left out of `alsoPeeked`, and the caller reads them itself.
   */
  readonly also?: readonly string[];
}

/**
 * Where conversation sessions live between turns. Turns for one session are serialised by a
 * per-session lock with a token and an expiry; reading happens with taking the lock and writing
 * with releasing it, so a turn costs two store round trips.
 */
export interface SessionStore {
  /** Takes the session's lock and reads its record in one step, waiting up to `waitMs`. */
  acquire(key: string, options?: AcquireOptions): Promise<AcquireResult>;
  /** Writes the record over the leased version, refreshes its TTL and releases the lock. */
  commit(lease: SessionLease, data: string): Promise<CommitResult>;
  /** Deletes the record and releases the lock (the conversation ended). */
  remove(lease: SessionLease): Promise<CommitResult>;
  /** Releases the lock without writing; the record is left as it was. */
  release(lease: SessionLease): Promise<void>;
  /** Pushes the lock's expiry out for a long turn; false when the lock is no longer ours. */
  extend(lease: SessionLease, lockTtlMs?: number): Promise<boolean>;
  /** Reads a record without locking (diagnostics, tests). */
  read(key: string): Promise<StoredSession | undefined>;
  /**
   * Keeps a session for at least `holdMs` from now, past its idle lifetime: the hold is a flag on
   * the record, so later writes keep the longer expiry without any extra work on their turn. For
   * a conversation paused while a person has it. A session with no record yet is held as well.
   */
  hold(key: string, holdMs: number): Promise<void>;
  /** Ends a hold: a held session gets its idle lifetime back, counted from now. */
  unhold(key: string): Promise<void>;
}

/** Options shared by both store implementations. */
export interface SessionStoreOptions {
  /** Idle lifetime of a session, refreshed on each write. Default 900 s (15 minutes). */
  readonly ttlSeconds?: number;
  /** Lifetime of a turn's lock unless extended. Default 30 000 ms. */
  readonly lockTtlMs?: number;
}

/** Defaults of {@link SessionStoreOptions}. */
export const SESSION_DEFAULTS = {
  ttlSeconds: 900,
  lockTtlMs: 30_000,
  waitMs: 4_000,
} as const;

/** A fresh lock token: unique per acquisition, so a stale holder cannot release a new lock. */
export function newLockToken(): string {
  return randomUUID();
}

/** One attempt to take a lock: the result, or how long the lock has left (ms, when known). */
export type LockAttempt =
  | { readonly taken: true; readonly result: AcquireResult & { status: 'acquired' } }
  | { readonly taken: false; readonly retryInMs?: number };

/**
 * Polls `attempt` with short, jittered back-off until it takes the lock or `waitMs` passed.
 * Polling (rather than a pub/sub wake) keeps a waiting turn independent of subscriber
 * connections; the back-off stays short because turns hold locks for milliseconds.
 */
export async function acquireWithBackoff(
  attempt: () => Promise<LockAttempt>,
  waitMs: number,
): Promise<AcquireResult> {
  const giveUpAt = Date.now() + Math.max(0, waitMs);
  let delayMs = 2;
  for (;;) {
    const outcome = await attempt();
    if (outcome.taken) return outcome.result;
    const left = giveUpAt - Date.now();
    if (left <= 0) return { status: 'busy' };
    const jittered = delayMs / 2 + Math.random() * delayMs;
    await sleep(Math.min(jittered, left, outcome.retryInMs ?? Number.POSITIVE_INFINITY) + 1);
    delayMs = Math.min(delayMs * 2, 50);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
