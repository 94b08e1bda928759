import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { Prompt } from '../../conversation/index.js';

/**
 * What the USSD channel remembers about one phone between requests: the Prompt on screen, which
 * page of it, and the gateway session it was shown in (a new session id means the call dropped).
 */
export const UssdState = z.object({
  gatewaySessionId: z.string(),
  /** `resume`: the "Continue / Start again" menu is on screen. */
  mode: z.enum(['prompt', 'resume']),
  prompt: Prompt,
  page: z.number().int().nonnegative(),
  locale: z.string(),
});
/** What the USSD channel remembers about one phone between requests. */
export type UssdState = z.infer<typeof UssdState>;

/** Where {@link UssdState} lives, keyed by the normalised MSISDN, expiring after a TTL. */
export interface UssdStateStore {
  get(msisdn: string): Promise<UssdState | undefined>;
  set(msisdn: string, state: UssdState): Promise<void>;
  delete(msisdn: string): Promise<void>;
}

/** In-process store; the default when no Redis is configured (single instance only). */
export function createMemoryUssdStateStore(ttlSeconds: number): UssdStateStore {
  const cache = new LRUCache<string, UssdState>({ max: 100_000, ttl: ttlSeconds * 1000 });
  return {
    async get(msisdn) {
      return cache.get(msisdn);
    },
    async set(msisdn, state) {
      cache.set(msisdn, state);
    },
    async delete(msisdn) {
      cache.delete(msisdn);
    },
  };
}

/**
 * Redis store, so any instance behind the load balancer can answer the next screen. A record that
 * no longer parses (older release) is treated as absent rather than failing the call.
 */
export function createRedisUssdStateStore(
  redis: Redis,
  options: { readonly prefix: string; readonly ttlSeconds: number },
): UssdStateStore {
  const key = (msisdn: string): string => `${options.prefix}ussd-state:${msisdn}`;
  return {
    async get(msisdn) {
      const raw = await redis.get(key(msisdn));
      if (raw === null) return undefined;
      try {
        const parsed = UssdState.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    async set(msisdn, state) {
      await redis.set(key(msisdn), JSON.stringify(state), 'EX', options.ttlSeconds);
    },
    async delete(msisdn) {
      await redis.del(key(msisdn));
    },
  };
}
