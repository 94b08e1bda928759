import {
  type AcquireOptions,
  type AcquireResult,
  acquireWithBackoff,
  type CommitResult,
  type LockAttempt,
  newLockToken,
  SESSION_DEFAULTS,
  type SessionLease,
  type SessionStore,
  type SessionStoreOptions,
  type StoredSession,
} from './session-store.js';

interface Entry {
  version: number;
  data: string;
  expiresAt: number;
  /** Token of the turn in flight; see RedisSessionStore. */
  marker: string | undefined;
}

interface Lock {
  token: string;
  expiresAt: number;
}

/** Options of {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions extends SessionStoreOptions {
  /** Clock in epoch ms; tests may pass their own. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * Sessions in process memory with the same semantics as {@link RedisSessionStore} (versions,
 * TTL, lock token and expiry, in-flight marker). The embedded default when `REDIS_URL` is
 * unset; sessions are lost on restart and not shared between processes.
 */
export class MemorySessionStore implements SessionStore {
  private readonly records = new Map<string, Entry>();
  private readonly locks = new Map<string, Lock>();
  /** When each session's hold ends (epoch ms); see `hold`. */
  private readonly holds = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly lockTtlMs: number;
  private readonly now: () => number;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.ttlMs = Math.round((options.ttlSeconds ?? SESSION_DEFAULTS.ttlSeconds) * 1000);
    this.lockTtlMs = options.lockTtlMs ?? SESSION_DEFAULTS.lockTtlMs;
    this.now = options.now ?? Date.now;
  }

  async acquire(key: string, options: AcquireOptions = {}): Promise<AcquireResult> {
    const lockTtlMs = options.lockTtlMs ?? this.lockTtlMs;
    const attempt = async (): Promise<LockAttempt> => {
      const held = this.liveLock(key);
      if (held) return { taken: false, retryInMs: held.expiresAt - this.now() };
      const token = newLockToken();
      this.locks.set(key, { token, expiresAt: this.now() + lockTtlMs });
      const entry = this.liveEntry(key);
      const interrupted = entry?.marker !== undefined;
      if (entry) entry.marker = token;
      const unchanged = entry !== undefined && entry.version === options.knownVersion;
      const record: StoredSession | undefined =
        entry && !unchanged ? { version: entry.version, data: entry.data } : undefined;
      return {
        taken: true,
        result: {
          status: 'acquired',
          lease: { key, token, version: entry?.version },
          record,
          interrupted,
          ...(unchanged ? { unchanged: true as const } : {}),
        },
      };
    };
    return acquireWithBackoff(attempt, options.waitMs ?? SESSION_DEFAULTS.waitMs);
  }

  async commit(lease: SessionLease, data: string): Promise<CommitResult> {
    const refused = this.checkLease(lease);
    if (refused) return refused;
    const version = (lease.version ?? 0) + 1;
    this.records.set(lease.key, {
      version,
      data,
      expiresAt: Math.max(this.now() + this.ttlMs, this.liveHold(lease.key) ?? 0),
      marker: undefined,
    });
    this.locks.delete(lease.key);
    return { status: 'committed', version };
  }

  async remove(lease: SessionLease): Promise<CommitResult> {
    const refused = this.checkLease(lease);
    if (refused) return refused;
    this.records.delete(lease.key);
    this.locks.delete(lease.key);
    // As in Redis, where the hold is a field of the deleted record.
    this.holds.delete(lease.key);
    return { status: 'deleted' };
  }

  async release(lease: SessionLease): Promise<void> {
    if (this.liveLock(lease.key)?.token !== lease.token) return;
    this.clearMarker(lease);
    this.locks.delete(lease.key);
  }

  async extend(lease: SessionLease, lockTtlMs?: number): Promise<boolean> {
    const lock = this.liveLock(lease.key);
    if (lock?.token !== lease.token) return false;
    lock.expiresAt = this.now() + (lockTtlMs ?? this.lockTtlMs);
    return true;
  }

  async read(key: string): Promise<StoredSession | undefined> {
    const entry = this.liveEntry(key);
    return entry ? { version: entry.version, data: entry.data } : undefined;
  }

  async hold(key: string, holdMs: number): Promise<void> {
    const until = Math.max(this.now() + holdMs, this.liveHold(key) ?? 0);
    this.holds.set(key, until);
    const entry = this.liveEntry(key);
    if (entry) entry.expiresAt = Math.max(entry.expiresAt, until);
  }

  async unhold(key: string): Promise<void> {
    const held = this.liveHold(key) !== undefined;
    this.holds.delete(key);
    const entry = this.liveEntry(key);
    if (held && entry) entry.expiresAt = this.now() + this.ttlMs;
  }

  /** Refuses a stale lease exactly as the Redis commit script does. */
  private checkLease(lease: SessionLease): CommitResult | undefined {
    if (this.liveLock(lease.key)?.token !== lease.token) return { status: 'lock-lost' };
    if ((this.liveEntry(lease.key)?.version ?? 0) !== (lease.version ?? 0)) {
      this.clearMarker(lease);
      this.locks.delete(lease.key);
      return { status: 'conflict' };
    }
    return undefined;
  }

  private clearMarker(lease: SessionLease): void {
    const entry = this.liveEntry(lease.key);
    if (entry?.marker === lease.token) entry.marker = undefined;
  }

  private liveEntry(key: string): Entry | undefined {
    const entry = this.records.get(key);
    if (entry && entry.expiresAt <= this.now()) {
      this.records.delete(key);
      return undefined;
    }
    return entry;
  }

  private liveHold(key: string): number | undefined {
    const until = this.holds.get(key);
    if (until !== undefined && until <= this.now()) {
      this.holds.delete(key);
      return undefined;
    }
    return until;
  }

  private liveLock(key: string): Lock | undefined {
    const lock = this.locks.get(key);
    if (lock && lock.expiresAt <= this.now()) {
      this.locks.delete(key);
      return undefined;
    }
    return lock;
  }
}
