import { LRUCache } from 'lru-cache';
import type { RedisConnection } from '../../redis/index.js';
import { createRedisStore, type KeyValueStore } from '../../storage/index.js';

/**
 * Remembers ids for a while so a redelivered platform request (Telegram update, Slack retry) is
 * handled once. `claim` resolves true for the first caller of an id and false afterwards.
 */
export interface OnceSet {
  claim(id: string): Promise<boolean>;
}

/** Options shared by both {@link OnceSet} implementations. */
export interface OnceSetOptions {
  /** How long an id is remembered; default 3 600 s, longer than any platform's redelivery window. */
  readonly ttlSeconds?: number;
}

const DEFAULT_TTL_SECONDS = 3_600;

/** A {@link OnceSet} in process memory, bounded in size; the default when Redis is not configured. */
export class MemoryOnceSet implements OnceSet {
  readonly #seen: LRUCache<string, true>;

  constructor(options: OnceSetOptions & { readonly maxEntries?: number } = {}) {
    this.#seen = new LRUCache<string, true>({
      max: options.maxEntries ?? 50_000,
      ttl: (options.ttlSeconds ?? DEFAULT_TTL_SECONDS) * 1_000,
    });
  }

  async claim(id: string): Promise<boolean> {
    if (this.#seen.has(id)) return false;
    this.#seen.set(id, true);
    return true;
  }
}

/**
 * A {@link OnceSet} over the key-value port (`SET NX EX` on Redis), so any instance behind a load
 * balancer sees an id another instance already handled.
 */
export class StoreOnceSet implements OnceSet {
  readonly #store: KeyValueStore;
  readonly #prefix: string;
  readonly #ttlSeconds: number;

  constructor(store: KeyValueStore, prefix: string, options: OnceSetOptions = {}) {
    this.#store = store;
    this.#prefix = prefix;
    this.#ttlSeconds = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  }

  claim(id: string): Promise<boolean> {
    return this.#store.setIfAbsent(`${this.#prefix}${id}`, '1', this.#ttlSeconds);
  }
}

/** A {@link StoreOnceSet} over a Redis connection. */
export class RedisOnceSet extends StoreOnceSet {
  constructor(redis: RedisConnection, prefix: string, options: OnceSetOptions = {}) {
    super(createRedisStore(redis), prefix, options);
  }
}
