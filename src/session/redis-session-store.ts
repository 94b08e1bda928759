import { isCluster } from '../redis/index.js';
import { LuaScript, type RedisConnection } from './lua-script.js';
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
import { SessionStoreError } from './session-store-error.js';

// Record hash fields: v = version, d = data, m = token of the turn in flight (cleared on
// commit/release; still set when a new turn acquires means the previous holder died), h = held
// (see `hold`: a write then never shortens the record's expiry).

/**
 * KEYS: record, lock[, peek…]. ARGV: token, lock ttl ms, version the caller holds ('0' = none).
 * Takes the lock and reads the record (and each peek hash). Reply: {0, lock ms left} or
 * {1, version, data, interrupted, unchanged[, fields of each peek]}; data is left out
 * (unchanged = 1) when the caller's version is current.
 */
const ACQUIRE = new LuaScript(`
if not redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {0, redis.call('PTTL', KEYS[2])}
end
local peeks = {}
for i = 3, #KEYS do peeks[#peeks + 1] = redis.call('HGETALL', KEYS[i]) end
local rec = redis.call('HMGET', KEYS[1], 'v', 'd', 'm')
local reply = {1, false, false, 0, 0}
if rec[1] then
  local interrupted = 0
  if rec[3] then interrupted = 1 end
  redis.call('HSET', KEYS[1], 'm', ARGV[1])
  if rec[1] == ARGV[3] then reply = {1, rec[1], false, interrupted, 1}
  else reply = {1, rec[1], rec[2], interrupted, 0} end
end
for i = 1, #peeks do reply[5 + i] = peeks[i] end
return reply
`);

/**
 * KEYS: record, lock. ARGV: token, expected version (0 = none), data, ttl ms. A held record
 * keeps its longer expiry; `h` comes in the one read the version check makes anyway.
 */
const COMMIT = new LuaScript(`
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return {0} end
local cur = redis.call('HMGET', KEYS[1], 'v', 'h')
local v = tonumber(cur[1] or '0')
if v ~= tonumber(ARGV[2]) then
  if redis.call('HGET', KEYS[1], 'm') == ARGV[1] then redis.call('HDEL', KEYS[1], 'm') end
  redis.call('DEL', KEYS[2])
  return {-1}
end
v = v + 1
redis.call('HSET', KEYS[1], 'v', v, 'd', ARGV[3])
redis.call('HDEL', KEYS[1], 'm')
if not cur[2] or redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
redis.call('DEL', KEYS[2])
return {1, v}
`);

/** KEYS: record, lock. ARGV: token, expected version (0 = none). */
const REMOVE = new LuaScript(`
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return {0} end
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if v ~= tonumber(ARGV[2]) then
  if redis.call('HGET', KEYS[1], 'm') == ARGV[1] then redis.call('HDEL', KEYS[1], 'm') end
  redis.call('DEL', KEYS[2])
  return {-1}
end
redis.call('DEL', KEYS[1], KEYS[2])
return {2}
`);

/** KEYS: record, lock. ARGV: token. */
const RELEASE = new LuaScript(`
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[1], 'm') == ARGV[1] then redis.call('HDEL', KEYS[1], 'm') end
redis.call('DEL', KEYS[2])
return 1
`);

/** KEYS: record. ARGV: hold ms. Marks the record held; its expiry is never shortened. */
const HOLD = new LuaScript(`
redis.call('HSET', KEYS[1], 'h', '1')
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 1
`);

/** KEYS: record. ARGV: ttl ms. A held record's expiry goes back to the idle lifetime. */
const UNHOLD = new LuaScript(`
if redis.call('HDEL', KEYS[1], 'h') == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 1
`);

/** KEYS: lock. ARGV: token, lock ttl ms. */
const EXTEND = new LuaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`);

/** ACQUIRE's reply: the lock's time left, or the record's version, data and flags. */
type AcquireReply =
  | readonly [taken: 0, lockMsLeft: number]
  | readonly [
      taken: 1,
      version: string | null,
      data: string | null,
      interrupted: number,
      unchanged: number,
      peeked: readonly (readonly string[])[],
    ];

/** COMMIT's and REMOVE's reply: committed at a version, deleted, lock lost, or conflict. */
type WriteReply = readonly [1, number] | readonly [2] | readonly [0] | readonly [-1];

/**
 * The scripts' replies are checked by hand, not with zod: they come from our own Lua on every
 * turn, so a check only guards against a wrong script version, and must cost next to nothing.
 */
function acquireReplyOf(reply: unknown): AcquireReply {
  if (Array.isArray(reply)) {
    const [taken, a, b, c, d, ...peeks] = reply as unknown[];
    if (taken === 0 && typeof a === 'number' && reply.length === 2) return [0, a];
    if (
      taken === 1 &&
      reply.length >= 5 &&
      peeks.every(Array.isArray) &&
      (a === null || typeof a === 'string') &&
      (b === null || typeof b === 'string') &&
      typeof c === 'number' &&
      typeof d === 'number'
    ) {
      return [1, a, b, c, d, peeks as (readonly string[])[]];
    }
  }
  throw new TypeError('unexpected reply from the acquire script');
}

/** The part of a key Redis Cluster hashes: the first non-empty `{…}`, else the whole key. */
function hashTagOf(key: string): string {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

/** HGETALL's flat field, value list as a record (no prototype: field names are data). */
function fieldsOf(flat: readonly string[] | undefined): Readonly<Record<string, string>> {
  const fields: Record<string, string> = Object.create(null);
  if (!flat) return fields;
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i] as string] = flat[i + 1] as string;
  return fields;
}

function writeReplyOf(reply: unknown): WriteReply {
  if (Array.isArray(reply)) {
    const [status, version] = reply as unknown[];
    if (status === 1 && typeof version === 'number' && reply.length === 2) return [1, version];
    if ((status === 2 || status === 0 || status === -1) && reply.length === 1) return [status];
  }
  throw new TypeError('unexpected reply from a session write script');
}

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions extends SessionStoreOptions {
  readonly redis: RedisConnection;
  /**
   * Prefix of every key, e.g. `insurechat:`. Must not contain `{` or `}`: session keys are
   * wrapped in a hash tag so a session's record and lock share a Cluster slot.
   */
  readonly keyPrefix?: string;
}

/**
 * Sessions in Redis: one hash per session (version, data, in-flight marker) and one lock key
 * with a token and an expiry. `acquire` and `commit` are one Lua script each, so a turn costs
 * two round trips; the caller owns the connection and closes it.
 */
export class RedisSessionStore implements SessionStore {
  private readonly redis: RedisConnection;
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly lockTtlMs: number;

  constructor(options: RedisSessionStoreOptions) {
    this.redis = options.redis;
    this.prefix = options.keyPrefix ?? 'insurechat:';
    if (/[{}]/.test(this.prefix)) {
      throw new SessionStoreError('SESSION_BAD_OPTION', 'keyPrefix must not contain braces');
    }
    this.ttlMs = Math.round((options.ttlSeconds ?? SESSION_DEFAULTS.ttlSeconds) * 1000);
    this.lockTtlMs = options.lockTtlMs ?? SESSION_DEFAULTS.lockTtlMs;
  }

  async acquire(key: string, options: AcquireOptions = {}): Promise<AcquireResult> {
    const lockTtlMs = options.lockTtlMs ?? this.lockTtlMs;
    const knownVersion = String(options.knownVersion ?? 0);
    const keys: string[] = this.keys(key);
    // Another slot's key would make the script fail on a Cluster: such a peek is not read.
    const peek = options.peek !== undefined && hashTagOf(options.peek) === key;
    if (peek) keys.push(options.peek as string);
    const anySlot = !isCluster(this.redis);
    const also = (options.also ?? []).filter((other) => anySlot || hashTagOf(other) === key);
    keys.push(...also);
    // The attempt is an argument, not a named const: tsx's keepNames (the bench server runs
    // through it) would name it with a defineProperty call on every acquire.
    try {
      return await acquireWithBackoff(async (): Promise<LockAttempt> => {
        const token = newLockToken();
        const reply = acquireReplyOf(
          await ACQUIRE.run(this.redis, keys, [token, lockTtlMs, knownVersion]),
        );
        if (reply[0] === 0)
          return reply[1] > 0 ? { taken: false, retryInMs: reply[1] } : { taken: false };
        const [, rawVersion, data, interrupted, unchanged, peeks] = reply;
        const version = rawVersion === null ? undefined : Number(rawVersion);
        const record: StoredSession | undefined =
          version !== undefined && data !== null ? { version, data } : undefined;
        return {
          taken: true,
          result: {
            status: 'acquired',
            lease: { key, token, version },
            record,
            interrupted: interrupted === 1,
            ...(unchanged === 1 ? { unchanged: true as const } : {}),
            ...(peek ? { peeked: fieldsOf(peeks[0]) } : {}),
            ...(also.length > 0
              ? {
                  alsoPeeked: new Map(
                    also.map((other, i) => [other, fieldsOf(peeks[i + (peek ? 1 : 0)])]),
                  ),
                }
              : {}),
          },
        };
      }, options.waitMs ?? SESSION_DEFAULTS.waitMs);
    } catch (error) {
      throw new SessionStoreError('SESSION_REDIS_FAILED', 'Could not acquire the session', {
        cause: error,
      });
    }
  }

  async commit(lease: SessionLease, data: string): Promise<CommitResult> {
    return this.write(COMMIT, lease, [data, this.ttlMs]);
  }

  async remove(lease: SessionLease): Promise<CommitResult> {
    return this.write(REMOVE, lease, []);
  }

  async release(lease: SessionLease): Promise<void> {
    try {
      await RELEASE.run(this.redis, this.keys(lease.key), [lease.token]);
    } catch (error) {
      throw new SessionStoreError('SESSION_REDIS_FAILED', 'Could not release the session', {
        cause: error,
      });
    }
  }

  async extend(lease: SessionLease, lockTtlMs?: number): Promise<boolean> {
    const [, lockKey] = this.keys(lease.key);
    try {
      const reply = await EXTEND.run(
        this.redis,
        [lockKey],
        [lease.token, lockTtlMs ?? this.lockTtlMs],
      );
      return reply === 1;
    } catch (error) {
      throw new SessionStoreError('SESSION_REDIS_FAILED', 'Could not extend the lock', {
        cause: error,
      });
    }
  }

  async read(key: string): Promise<StoredSession | undefined> {
    const [recordKey] = this.keys(key);
    try {
      const [version, data] = await this.redis.hmget(recordKey, 'v', 'd');
      return version != null && data != null ? { version: Number(version), data } : undefined;
    } catch (error) {
      throw new SessionStoreError('SESSION_REDIS_FAILED', 'Could not read the session', {
        cause: error,
      });
    }
  }

  async hold(key: string, holdMs: number): Promise<void> {
    const [recordKey] = this.keys(key);
    try {
      await HOLD.run(this.redis, [recordKey], [Math.max(1, Math.round(holdMs))]);
    } catch (error) {
      throw new SessionStoreError('SESSION_REDIS_FAILED', 'Could not hold the session', {
        cause: error,
      });
    }
  }

  async unhold(key: string): Promise<void> {
    const [recordKey] = this.keys(key);
    try {
      await UNHOLD.run(this.redis, [recordKey], [this.ttlMs]);
    } catch (error) {
      throw new SessionStoreError('SESSION_REDIS_FAILED', 'Could not end the hold', {
        cause: error,
      });
    }
  }

  private async write(
    script: LuaScript,
    lease: SessionLease,
    extra: readonly (string | number)[],
  ): Promise<CommitResult> {
    let reply: WriteReply;
    try {
      reply = writeReplyOf(
        await script.run(this.redis, this.keys(lease.key), [
          lease.token,
          lease.version ?? 0,
          ...extra,
        ]),
      );
    } catch (error) {
      throw new SessionStoreError('SESSION_REDIS_FAILED', 'Could not write the session', {
        cause: error,
      });
    }
    switch (reply[0]) {
      case 1:
        return { status: 'committed', version: reply[1] };
      case 2:
        return { status: 'deleted' };
      case 0:
        return { status: 'lock-lost' };
      default:
        return { status: 'conflict' };
    }
  }

  private keys(key: string): [record: string, lock: string] {
    return [`${this.prefix}session:{${key}}`, `${this.prefix}lock:{${key}}`];
  }
}
