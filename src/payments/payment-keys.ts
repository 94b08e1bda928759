import { hashTag } from '../redis/index.js';
import type { KeyValueStore } from '../storage/index.js';

/**
 * What a payment-reference key holds: its route, delivery marker, callback hint or generation;
 * or, keyed by a hand-over's id, that what followed it was told (`proceed`).
 */
export type PaymentKeyKind = 'route' | 'delivered' | 'hint' | 'generation' | 'holder' | 'proceed';

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
 * the TTL given when they are written. Built by {@link createPaymentKeys} over either store.
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

/** A delivery marker a final outcome may replace: the user may check again while it is pending. */
const REPLACEABLE_BY_FINAL = ['pending'] as const;

/**
 * The payment keys over the key-value port: Redis shared by every instance, or this process
 * (the embedded default). The delivery marker's check-and-write and the restart's keep-if-paid
 * are the port's atomic steps (one script each on Redis).
 */
export function createPaymentKeys(store: KeyValueStore): PaymentKeys {
  return {
    get: (key) => store.get(key),
    set: (key, value, ttlSeconds) => store.set(key, value, ttlSeconds),
    del: (key) => store.delete(key),
    incr: (key, ttlSeconds) => store.increment(key, ttlSeconds),
    claim: (key, outcome, ttlSeconds) =>
      store.setIfAbsent(
        key,
        outcome,
        ttlSeconds,
        outcome === 'pending' ? [] : REPLACEABLE_BY_FINAL,
      ),
    restart: (key) => store.deleteUnless(key, 'paid'),
    addMember: (key, member, ttlSeconds) => store.setAdd(key, member, ttlSeconds),
    members: (key) => store.setMembers(key),
  };
}
