type Value =
  | { readonly kind: 'string'; value: string }
  | { readonly kind: 'hash'; readonly fields: Map<string, string> }
  | { readonly kind: 'set'; readonly members: Set<string> }
  | { readonly kind: 'sorted'; readonly scores: Map<string, number> }
  | {
      readonly kind: 'stream';
      readonly items: Array<{
        readonly ms: number;
        readonly seq: number;
        readonly fields: Record<string, string>;
      }>;
    };

interface Entry {
  value: Value;
  /** Epoch ms after which the key is gone; undefined: no lifetime. */
  expiresAt: number | undefined;
}

/** How many writes pass between sweeps of expired keys (keys nobody reads again). */
const SWEEP_EVERY_WRITES = 1000;

/**
 * The entries of one memory store and the few operations its methods are made of: each reads and
 * writes without awaiting, dropping expired keys as they are met and sweeping now and then.
 */
export function createMemoryEntries(now: () => number) {
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
    entries,
    live,
    expiry,
    readString,
    writeString,
    collection,
    existing,
    setLifetime,
    shrink,
  };
}
