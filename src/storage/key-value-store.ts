/**
 * The key-value port every part that keeps shared state writes through (contacts, holdings,
 * consent, payment keys): the few operations they really use, each one Redis command (or one
 * pipeline, or one script where a check and its write must be atomic), so a part's Redis round
 * trips are what its calls are. Two adapters: Redis, shared by every instance
 * ({@link createRedisStore}), and this process only ({@link createMemoryStore}).
 *
 * Every key of one call lives in one hash slot (each method touches one key), so all of it runs
 * on a Redis Cluster. TTLs are in seconds; a key written without one keeps any it had (Redis's
 * own rule for hashes, sets and sorted sets) and a string written without one has none.
 */
export interface KeyValueStore {
  /** The string under `key`; undefined when missing or expired. */
  get(key: string): Promise<string | undefined>;
  /** The string under `key`, its lifetime restarted at `ttlSeconds` (GETEX). */
  getAndTouch(key: string, ttlSeconds: number): Promise<string | undefined>;
  /** Writes (or replaces) the string under `key` for `ttlSeconds`. */
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /**
   * Claim-once: writes `value` for `ttlSeconds` only when `key` is missing, or holds one of
   * `replaceable` (checked and written in one atomic step). True when this caller wrote it.
   */
  setIfAbsent(
    key: string,
    value: string,
    ttlSeconds: number,
    replaceable?: readonly string[],
  ): Promise<boolean>;
  /** Reads and deletes the string under `key` at once (GETDEL); undefined when there was none. */
  take(key: string): Promise<string | undefined>;
  /** Deletes `key`, whatever it holds. */
  delete(key: string): Promise<void>;
  /** Deletes the string under `key` unless it equals `keep` (atomic). */
  deleteUnless(key: string, keep: string): Promise<void>;
  /** Deletes the string under `key` only while it equals `expected` (atomic); true when it did. */
  deleteIf(key: string, expected: string): Promise<boolean>;
  /** Adds one to the counter under `key` (missing counts as 0), restarts its TTL, returns it. */
  increment(key: string, ttlSeconds: number): Promise<number>;
  /** Sets `key`'s lifetime; with `onlyIfNone`, only when it has none yet (EXPIRE NX). */
  expire(
    key: string,
    ttlSeconds: number,
    options?: { readonly onlyIfNone?: boolean },
  ): Promise<void>;

  /** Every field of the hash under `key`, in the order first written; `{}` when missing. */
  hashGetAll(key: string): Promise<Record<string, string>>;
  /** Writes hash fields; with `ttlSeconds`, restarts the hash's lifetime in the same trip. */
  hashSet(
    key: string,
    fields: Readonly<Record<string, string>>,
    ttlSeconds?: number,
  ): Promise<void>;
  hashDelete(key: string, field: string): Promise<void>;
  hashHas(key: string, field: string): Promise<boolean>;
  /**
   * Writes `field` = `amount` into the hash under `key` only when the hash would then hold at
   * most `limits.fields` fields whose amounts add up to at most `limits.total` (checked and
   * written in one atomic step), and restarts the hash's lifetime. True when it was written. A
   * quota's reservation: concurrent callers on any instance cannot pass the limits together.
   */
  hashAddWithin(
    key: string,
    field: string,
    amount: number,
    limits: { readonly fields: number; readonly total: number },
    ttlSeconds: number,
  ): Promise<boolean>;

  /** Adds `member` to the set under `key` and restarts the set's TTL (one atomic step). */
  setAdd(key: string, member: string, ttlSeconds: number): Promise<void>;
  /** The members of the set under `key` (none when missing or expired). */
  setMembers(key: string): Promise<string[]>;

  /** Adds (or re-scores) `member` of the sorted set under `key`. */
  sortedAdd(key: string, score: number, member: string): Promise<void>;
  /** Members scored at most `maxScore`, lowest first. */
  sortedUpTo(key: string, maxScore: number): Promise<string[]>;
  sortedRemove(key: string, member: string): Promise<void>;
  /** Removes the members scored below `score` (strictly). */
  sortedRemoveBelow(key: string, score: number): Promise<void>;

  /** The latest `count` entries of the stream under `key`, newest first. */
  streamLatest(key: string, count: number): Promise<Array<Record<string, string>>>;
  /** At most `count` entries of the stream under `key` after the id `afterId` (from the start when undefined), oldest first. */
  streamRange(key: string, afterId: string | undefined, count: number): Promise<StreamEntry[]>;
  /** The newest entry of the stream under `key` whose id time is before `beforeMs`, if any. */
  streamNewestBefore(key: string, beforeMs: number): Promise<StreamEntry | undefined>;
  /**
   * Appends an entry to the stream under `key` and writes `head` (plus `lastId`, the new id) into
   * the hash under `headKey`, in one atomic step, only while the hash's `expect.field` still
   * holds `expect.value` (`''` for a missing hash or field): the compare-and-set that keeps a
   * linked log in order across instances. The id's time is `atMs` (or the stream's last id time,
   * when that is later); with `trimBeforeMs`, entries whose ids are older go in the same step
   * (XTRIM MINID, exact). The one method of two keys: both must share a hash slot (a `{tag}`).
   * Resolves to the new id, or undefined when the expectation no longer held.
   */
  streamAppendLinked(
    key: string,
    headKey: string,
    append: LinkedAppend,
  ): Promise<string | undefined>;
}

/** One entry of a stream: its id (`<ms>-<seq>`) and its fields. */
export interface StreamEntry {
  readonly id: string;
  readonly fields: Record<string, string>;
}

/** What {@link KeyValueStore.streamAppendLinked} appends, and on what condition. */
export interface LinkedAppend {
  readonly fields: Readonly<Record<string, string>>;
  readonly head: Readonly<Record<string, string>>;
  readonly expect: { readonly field: string; readonly value: string };
  /** The entry's time (epoch ms), its id's first part. */
  readonly atMs: number;
  readonly trimBeforeMs?: number | undefined;
}
