import { hashTag, type RedisConnection } from '../redis/index.js';

/** What a payment-reference key holds: its route, delivery marker, callback hint or generation. */
export type PaymentKeyKind = 'route' | 'delivered' | 'hint' | 'generation' | 'holder';

/**
 * The Redis key of one record of a payment reference. The reference is a hash tag, so all of one
 * payment's records share a Cluster slot (a script may touch several of them).
 */
export function paymentKey(prefix: string, kind: PaymentKeyKind, reference: string): string {
  return `${prefix}payment-${kind}:${hashTag(reference)}`;
}

/**
 * The BullMQ prefix of the payment queue under `prefix`: one hash tag, because BullMQ's scripts
 * touch several keys of a queue at once and a Redis Cluster needs them in one slot.
 */
export function paymentQueuePrefix(prefix: string): string {
  return hashTag(`${prefix}bull`);
}

/**
 * The few key operations the payment service needs, so it runs over Redis (shared by every
 * instance) or over a Map in one process (the embedded default, no Redis). Values expire after
 * the TTL given when they are written.
 */
export interface PaymentKeys {
  /** The value under `key`, or undefined when none was written or it expired. */
  get(key: string): Promise<string | undefined>;
  /** Writes (or replaces) `value` under `key` for `ttlSeconds`. */
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Adds one to the counter under `key` (missing counts as 0), renews its TTL, returns it. */
  incr(key: string, ttlSeconds: number): Promise<number>;
  /**
   * Writes the delivery marker `outcome` unless one is there; a `pending` marker counts as free
   * for a final outcome (the user may check again), never another final one. True when written.
   */
  claim(key: string, outcome: string, ttlSeconds: number): Promise<boolean>;
  /** Clears the delivery marker unless it says `paid` (a paid reference stays paid). */
  restart(key: string): Promise<void>;
  /** Adds `member` to the set under `key` and renews the set's TTL. */
  addMember(key: string, member: string, ttlSeconds: number): Promise<void>;
  /** The members of the set under `key` (none when missing or expired). */
  members(key: string): Promise<string[]>;
}

// Both scripts keep the check and the write in one atomic step across instances.
const CLAIM_FINAL = `
local current = redis.call('GET', KEYS[1])
if current == false or (current == 'pending' and ARGV[1] ~= 'pending') then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  return 1
end
return 0`;

const RESTART = `
local current = redis.call('GET', KEYS[1])
if current == 'paid' then return 0 end
redis.call('DEL', KEYS[1])
return 1`;

/** Payment keys in Redis, shared by every instance. */
export function createRedisPaymentKeys(redis: RedisConnection): PaymentKeys {
  return {
    async get(key) {
      return (await redis.get(key)) ?? undefined;
    },
    async set(key, value, ttlSeconds) {
      await redis.set(key, value, 'EX', ttlSeconds);
    },
    async del(key) {
      await redis.del(key);
    },
    async incr(key, ttlSeconds) {
      const [[incrError, value] = [null, 0], [expireError] = [null]] =
        (await redis.multi().incr(key).expire(key, ttlSeconds).exec()) ?? [];
      if (incrError) throw incrError;
      if (expireError) throw expireError;
      return Number(value);
    },
    async claim(key, outcome, ttlSeconds) {
      return (await redis.eval(CLAIM_FINAL, 1, key, outcome, ttlSeconds)) === 1;
    },
    async restart(key) {
      await redis.eval(RESTART, 1, key);
    },
    async addMember(key, member, ttlSeconds) {
      const [[addError] = [null], [expireError] = [null]] =
        (await redis.multi().sadd(key, member).expire(key, ttlSeconds).exec()) ?? [];
      if (addError) throw addError;
      if (expireError) throw expireError;
    },
    async members(key) {
      return redis.smembers(key);
    },
  };
}

/** Payment keys in a Map: one process only; expired entries are dropped as they are met. */
export function createMemoryPaymentKeys(now: () => number = Date.now): PaymentKeys {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  let writes = 0;

  const read = (key: string): string | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.value;
  };
  const write = (key: string, value: string, ttlSeconds: number): void => {
    entries.set(key, { value, expiresAt: now() + ttlSeconds * 1000 });
    // Keys nobody reads again would otherwise stay forever; an occasional sweep bounds the Map.
    writes += 1;
    if (writes % 1000 === 0) {
      const at = now();
      for (const [k, e] of entries) if (e.expiresAt <= at) entries.delete(k);
    }
  };

  // Each method does its read and write without awaiting in between, so within one process they
  // are as atomic as the Redis scripts.
  return {
    async get(key) {
      return read(key);
    },
    async set(key, value, ttlSeconds) {
      write(key, value, ttlSeconds);
    },
    async del(key) {
      entries.delete(key);
    },
    async incr(key, ttlSeconds) {
      const next = Number(read(key) ?? '0') + 1;
      write(key, String(next), ttlSeconds);
      return next;
    },
    async claim(key, outcome, ttlSeconds) {
      const current = read(key);
      if (current !== undefined && !(current === 'pending' && outcome !== 'pending')) return false;
      write(key, outcome, ttlSeconds);
      return true;
    },
    async restart(key) {
      if (read(key) !== 'paid') entries.delete(key);
    },
    async addMember(key, member, ttlSeconds) {
      const current = new Set<string>(JSON.parse(read(key) ?? '[]') as string[]);
      current.add(member);
      write(key, JSON.stringify([...current]), ttlSeconds);
    },
    async members(key) {
      return JSON.parse(read(key) ?? '[]') as string[];
    },
  };
}
