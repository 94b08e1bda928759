import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CodedError } from '../errors/index.js';
import { hashTag, type RedisConnection } from '../redis/index.js';

/** Why a guarded payment start could not give an answer. */
export type PaymentGuardErrorCode = 'timeout' | 'corrupt' | 'backend_failed';

/** Raised by {@link PaymentGuard.once} when the outcome of the first start cannot be known. */
export class PaymentGuardError extends CodedError<PaymentGuardErrorCode> {
  override readonly name = 'PaymentGuardError';
  readonly quoteId: string;

  constructor(
    code: PaymentGuardErrorCode,
    quoteId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.quoteId = quoteId;
  }
}

/**
 * The Redis key that guards the start of one payment attempt. The attempt's reference is a hash
 * tag so the key's slot on a Cluster follows that attempt alone.
 */
export function paymentGuardKey(keyPrefix: string, reference: string): string {
  return `${keyPrefix}pay:${hashTag(reference)}`;
}

/** Starts each payment attempt at most once and hands every duplicate the same result. */
export interface PaymentGuard<T> {
  /**
   * Runs `start` unless the payment keyed `quoteId` (an attempt's reference) was already started
   * (here or on another instance), in which case it returns that start's stored result. Concurrent duplicates wait
   * for the first to finish. When `start` throws, the claim is dropped so the user can retry.
   */
  once(quoteId: string, start: () => Promise<T>): Promise<T>;
}

/** Options of {@link createPaymentGuard}. */
export interface PaymentGuardOptions<T> {
  /** Shared Redis; without it the guard works in this process only (embedded mode). */
  readonly redis?: RedisConnection;
  /** Prefix of the `pay:<quoteId>` keys. Default `insurechat:`. */
  readonly keyPrefix?: string;
  /** Checks a stored result before a duplicate receives it. */
  readonly schema: z.ZodType<T>;
  /** How long a started payment is remembered. Default 7 days. */
  readonly ttlSeconds?: number;
  /**
   * How long a claim stays valid while `start` runs; after it a crashed starter's claim is
   * taken over (the attempt's reference lets the insurer spot the repeat). Default 60 000.
   */
  readonly leaseMs?: number;
  /** How long a duplicate waits for the first start before failing. Default 30 000 ms. */
  readonly waitMs?: number;
}

const Stored = z.discriminatedUnion('state', [
  z.object({ state: z.literal('starting'), token: z.string() }),
  z.object({ state: z.literal('started'), result: z.unknown() }),
]);

/** Where claims live: Redis `SET NX` across instances, or a Map in one process. */
interface GuardBackend {
  claim(key: string, value: string, leaseMs: number): Promise<boolean>;
  get(key: string): Promise<string | null>;
  complete(key: string, value: string, ttlMs: number): Promise<void>;
  abandon(key: string, token: string): Promise<void>;
}

const ABANDON_LUA = `
local current = redis.call('GET', KEYS[1])
if current and string.find(current, ARGV[1], 1, true) then redis.call('DEL', KEYS[1]) end
return 1
`;

function redisBackend(redis: RedisConnection): GuardBackend {
  return {
    async claim(key, value, leaseMs) {
      return (await redis.set(key, value, 'PX', leaseMs, 'NX')) === 'OK';
    },
    get: (key) => redis.get(key),
    async complete(key, value, ttlMs) {
      await redis.set(key, value, 'PX', ttlMs);
    },
    async abandon(key, token) {
      await redis.eval(ABANDON_LUA, 1, key, token);
    },
  };
}

function memoryBackend(): GuardBackend {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= Date.now()) entries.delete(key);
    return entries.get(key);
  };
  return {
    async claim(key, value, leaseMs) {
      if (live(key)) return false;
      entries.set(key, { value, expiresAt: Date.now() + leaseMs });
      return true;
    },
    async get(key) {
      return live(key)?.value ?? null;
    },
    async complete(key, value, ttlMs) {
      entries.set(key, { value, expiresAt: Date.now() + ttlMs });
    },
    async abandon(key, token) {
      if (live(key)?.value.includes(token)) entries.delete(key);
    },
  };
}

/**
 * Creates the money-exactly-once guard: `once(quoteId, start)` claims `pay:<quoteId>` with
 * `SET NX`, stores the started payment under it, and gives duplicates that stored result.
 */
export function createPaymentGuard<T>(options: PaymentGuardOptions<T>): PaymentGuard<T> {
  const backend = options.redis ? redisBackend(options.redis) : memoryBackend();
  const prefix = options.keyPrefix ?? 'insurechat:';
  const ttlMs = Math.round((options.ttlSeconds ?? 7 * 24 * 60 * 60) * 1000);
  const leaseMs = options.leaseMs ?? 60_000;
  const waitMs = options.waitMs ?? 30_000;
  // Duplicates inside one process share one promise instead of all polling the backend.
  const local = new Map<string, Promise<T>>();

  const run = async (quoteId: string, start: () => Promise<T>): Promise<T> => {
    const key = paymentGuardKey(prefix, quoteId);
    const giveUpAt = Date.now() + waitMs;
    let delayMs = 5;
    for (;;) {
      const token = randomUUID();
      let stored: string | null;
      try {
        if (await backend.claim(key, JSON.stringify({ state: 'starting', token }), leaseMs)) {
          return await startClaimed(key, token, start);
        }
        stored = await backend.get(key);
      } catch (error) {
        if (error instanceof StartFailed) throw error.cause;
        throw new PaymentGuardError('backend_failed', quoteId, 'Payment guard unavailable', {
          cause: error,
        });
      }
      if (stored !== null) {
        const parsed = parseStored(quoteId, stored);
        if (parsed.state === 'started') {
          const result = options.schema.safeParse(parsed.result);
          if (!result.success) {
            throw new PaymentGuardError('corrupt', quoteId, 'Stored payment does not parse', {
              cause: result.error,
            });
          }
          return result.data;
        }
      }
      if (Date.now() >= giveUpAt) {
        throw new PaymentGuardError('timeout', quoteId, 'The first payment start did not finish');
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 200);
    }
  };

  const startClaimed = async (key: string, token: string, start: () => Promise<T>) => {
    let result: T;
    try {
      result = await start();
    } catch (error) {
      await backend.abandon(key, token).catch(() => undefined);
      throw new StartFailed(error);
    }
    await backend.complete(key, JSON.stringify({ state: 'started', result }), ttlMs);
    return result;
  };

  return {
    once(quoteId, start) {
      const pending = local.get(quoteId);
      if (pending) return pending;
      const promise = run(quoteId, start).finally(() => local.delete(quoteId));
      local.set(quoteId, promise);
      return promise;
    },
  };
}

/** Carries the start function's own error past the backend error wrapping. */
class StartFailed extends Error {
  override readonly name = 'StartFailed';
  constructor(override readonly cause: unknown) {
    super('start failed', { cause });
  }
}

function parseStored(quoteId: string, stored: string): z.infer<typeof Stored> {
  try {
    return Stored.parse(JSON.parse(stored));
  } catch (error) {
    throw new PaymentGuardError('corrupt', quoteId, 'Stored payment claim does not parse', {
      cause: error,
    });
  }
}
