import type { KeyValueStore } from './key-value-store.js';
import { createMemoryEntries } from './memory-entries.js';

/** A stream id's two parts (`<ms>-<seq>`; a bare `<ms>` is its first sequence). */
function parseId(id: string): { ms: number; seq: number } {
  const [ms = '0', seq = '0'] = id.split('-');
  return { ms: Number(ms), seq: Number(seq) };
}

const streamEntry = (item: { ms: number; seq: number; fields: Record<string, string> }) => ({
  id: `${item.ms}-${item.seq}`,
  fields: { ...item.fields },
});

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Clock for lifetimes (epoch ms), injectable in tests. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * The key-value port in this process (the embedded default, no Redis): lost on restart, and one
 * instance only. Each method reads and writes without awaiting in between, so within the process
 * it is as atomic as the Redis adapter's commands and scripts. Expired keys are dropped as they
 * are met, and swept now and then.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): KeyValueStore {
  const now = options.now ?? Date.now;
  const memory = createMemoryEntries(now);
  const { entries, live, expiry, readString, writeString } = memory;
  const { collection, existing, setLifetime, shrink } = memory;

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
    async deleteIf(key, expected) {
      if (readString(key) !== expected) return false;
      entries.delete(key);
      return true;
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
    async hashAddWithin(key, field, amount, limits, ttlSeconds) {
      const held = existing(key, 'hash')?.fields ?? new Map<string, string>();
      if (held.has(field)) return false;
      let total = amount;
      for (const value of held.values()) total += Number(value);
      if (held.size + 1 > limits.fields || total > limits.total) return false;
      collection(key, 'hash').fields.set(field, String(amount));
      setLifetime(key, ttlSeconds);
      return true;
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
    async streamLatest(key, count) {
      const items = existing(key, 'stream')?.items ?? [];
      return items
        .slice(-count)
        .reverse()
        .map(({ fields }) => ({ ...fields }));
    },
    async streamRange(key, afterId, count) {
      const items = existing(key, 'stream')?.items ?? [];
      const after = afterId === undefined ? undefined : parseId(afterId);
      return items
        .filter(
          (item) => !after || item.ms > after.ms || (item.ms === after.ms && item.seq > after.seq),
        )
        .slice(0, count)
        .map(streamEntry);
    },
    async streamNewestBefore(key, beforeMs) {
      const items = existing(key, 'stream')?.items ?? [];
      const found = items.findLast((item) => item.ms < beforeMs);
      return found ? streamEntry(found) : undefined;
    },
    async streamAppendLinked(key, headKey, append) {
      const head = collection(headKey, 'hash');
      if ((head.fields.get(append.expect.field) ?? '') !== append.expect.value) {
        if (head.fields.size === 0) entries.delete(headKey);
        return undefined;
      }
      const { items } = collection(key, 'stream');
      const last = items.at(-1);
      // As Redis: an id never goes back, whatever the caller's clock says.
      const ms = Math.max(Math.floor(append.atMs), last?.ms ?? 0);
      const seq = last && last.ms === ms ? last.seq + 1 : 0;
      items.push({ ms, seq, fields: { ...append.fields } });
      const trimBefore = append.trimBeforeMs;
      if (trimBefore !== undefined) while (items[0] && items[0].ms < trimBefore) items.shift();
      const id = `${ms}-${seq}`;
      for (const [field, value] of Object.entries({ ...append.head, lastId: id }))
        head.fields.set(field, value);
      return id;
    },
  };
}
