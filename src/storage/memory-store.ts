import type { KeyValueStore } from './key-value-store.js';

type Value =
  | { readonly kind: 'string'; value: string }
  | { readonly kind: 'hash'; readonly fields: Map<string, string> }
  | { readonly kind: 'set'; readonly members: Set<string> }
  | { readonly kind: 'sorted'; readonly scores: Map<string, number> }
  | {
      readonly kind: 'stream';
      readonly items: Array<{ readonly atMs: number; readonly fields: Record<string, string> }>;
    };

interface Entry {
  value: Value;
  /** Epoch ms after which the key is gone; undefined: no lifetime. */
  expiresAt: number | undefined;
}

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Clock for lifetimes (epoch ms), injectable in tests. Default `Date.now`. */
  readonly now?: () => number;
}

/** How many writes pass between sweeps of expired keys (keys nobody reads again). */
const SWEEP_EVERY_WRITES = 1000;

/**
 * The key-value port in this process (the embedded default, no Redis): lost on restart, and one
 * instance only. Each method reads and writes without awaiting in between, so within the process
 * it is as atomic as the Redis adapter's commands and scripts. Expired keys are dropped as they
 * are met, and swept now and then.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): KeyValueStore {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  let writes = 0;

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const expiry = (ttlSeconds: number) => now() + ttlSeconds * 1000;
  const swept = () => {
    writes += 1;
    if (writes % SWEEP_EVERY_WRITES !== 0) return;
    for (const key of [...entries.keys()]) live(key);
  };
  const readString = (key: string): string | undefined => {
    const value = live(key)?.value;
    return value?.kind === 'string' ? value.value : undefined;
  };
  const writeString = (key: string, value: string, ttlSeconds: number | undefined) => {
    entries.set(key, {
      value: { kind: 'string', value },
      expiresAt: ttlSeconds === undefined ? undefined : expiry(ttlSeconds),
    });
    swept();
  };
  /** The collection of `kind` under `key`, made (without a lifetime) when missing. */
  function collection<K extends Value['kind']>(key: string, kind: K): Extract<Value, { kind: K }> {
    const found = live(key);
    if (found?.value.kind === kind) return found.value as Extract<Value, { kind: K }>;
    const made = (
      kind === 'hash'
        ? { kind, fields: new Map() }
        : kind === 'set'
          ? { kind, members: new Set() }
          : kind === 'sorted'
            ? { kind, scores: new Map() }
            : { kind, items: [] }
    ) as Extract<Value, { kind: K }>;
    entries.set(key, { value: made, expiresAt: undefined });
    swept();
    return made;
  }
  const existing = <K extends Value['kind']>(key: string, kind: K) => {
    const value = live(key)?.value;
    return value?.kind === kind ? (value as Extract<Value, { kind: K }>) : undefined;
  };
  const setLifetime = (key: string, ttlSeconds: number) => {
    const entry = live(key);
    if (entry) entry.expiresAt = expiry(ttlSeconds);
  };
  /** Edits an existing collection; one left empty is gone, as in Redis. */
  const shrink = <K extends 'hash' | 'sorted'>(
    key: string,
    kind: K,
    edit: (value: Extract<Value, { kind: K }>) => number,
  ) => {
    const value = existing(key, kind);
    if (value && edit(value) === 0) entries.delete(key);
  };

  return {
    async get(key) {
      return readString(key);
    },
    async getAndTouch(key, ttlSeconds) {
      const value = readString(key);
      if (value !== undefined) setLifetime(key, ttlSeconds);
      return value;
    },
    async set(key, value, ttlSeconds) {
      writeString(key, value, ttlSeconds);
    },
    async setIfAbsent(key, value, ttlSeconds, replaceable = []) {
      const current = live(key);
      if (current) {
        const held = current.value.kind === 'string' ? current.value.value : undefined;
        if (held === undefined || !replaceable.includes(held)) return false;
      }
      writeString(key, value, ttlSeconds);
      return true;
    },
    async take(key) {
      const value = readString(key);
      entries.delete(key);
      return value;
    },
    async delete(key) {
      entries.delete(key);
    },
    async deleteUnless(key, keep) {
      if (readString(key) !== keep) entries.delete(key);
    },
    async increment(key, ttlSeconds) {
      const next = Number(readString(key) ?? '0') + 1;
      writeString(key, String(next), ttlSeconds);
      return next;
    },
    async expire(key, ttlSeconds, expireOptions) {
      const entry = live(key);
      if (!entry || (expireOptions?.onlyIfNone && entry.expiresAt !== undefined)) return;
      entry.expiresAt = expiry(ttlSeconds);
    },
    async hashGetAll(key) {
      return Object.fromEntries(existing(key, 'hash')?.fields ?? []);
    },
    async hashSet(key, fields, ttlSeconds) {
      const hash = collection(key, 'hash');
      for (const [field, value] of Object.entries(fields)) hash.fields.set(field, value);
      if (ttlSeconds !== undefined) setLifetime(key, ttlSeconds);
    },
    async hashDelete(key, field) {
      shrink(key, 'hash', ({ fields }) => {
        fields.delete(field);
        return fields.size;
      });
    },
    async hashHas(key, field) {
      return existing(key, 'hash')?.fields.has(field) ?? false;
    },
    async setAdd(key, member, ttlSeconds) {
      collection(key, 'set').members.add(member);
      setLifetime(key, ttlSeconds);
    },
    async setMembers(key) {
      return [...(existing(key, 'set')?.members ?? [])];
    },
    async sortedAdd(key, score, member) {
      collection(key, 'sorted').scores.set(member, score);
    },
    async sortedUpTo(key, maxScore) {
      return [...(existing(key, 'sorted')?.scores ?? [])]
        .filter(([, score]) => score <= maxScore)
        .sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0))
        .map(([member]) => member);
    },
    async sortedRemove(key, member) {
      shrink(key, 'sorted', ({ scores }) => {
        scores.delete(member);
        return scores.size;
      });
    },
    async sortedRemoveBelow(key, score) {
      shrink(key, 'sorted', ({ scores }) => {
        for (const [member, at] of scores) if (at < score) scores.delete(member);
        return scores.size;
      });
    },
    async streamAppend(key, fields, oldestMs) {
      const { items } = collection(key, 'stream');
      items.push({ atMs: now(), fields: { ...fields } });
      while (items[0] && items[0].atMs < oldestMs) items.shift();
    },
    async streamLatest(key, count) {
      const items = existing(key, 'stream')?.items ?? [];
      return items
        .slice(-count)
        .reverse()
        .map(({ fields }) => ({ ...fields }));
    },
  };
}
