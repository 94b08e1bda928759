import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CodedError } from '../errors/index.js';
import { hashTag } from '../redis/index.js';
import type { KeyValueStore } from '../storage/index.js';

/** Why a guarded payment start could not give an answer. */
export type PaymentGuardErrorCode =
  | 'PAYMENT_GUARD_TIMEOUT'
  | 'PAYMENT_GUARD_CORRUPT'
  | 'PAYMENT_GUARD_BACKEND_FAILED';

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
  /**
   * Where claims live: the server's key-value store (Redis, shared by every instance, or memory
   * in one process for the embedded mode).
   */
  readonly store: KeyValueStore;
  /** Prefix of the `pay:<quoteId>` keys. Default `insurechat:`. */
  readonly keyPrefix?: string;
  /** Checks a stored result before a duplicate receives it. */
  readonly schema: z.ZodType<T>;
  /** How long a started payment is remembered. Default 7 days. */
  readonly ttlSeconds?: number;
  /**
   * How long a claim stays valid while `start` runs; after it a crashed starter's claim is
   * taken over (the attempt's reference lets the insurer spot the repeat). Default 60.
   */
  readonly leaseSeconds?: number;
  /** How long a duplicate waits for the first start before failing. Default 30 000 ms. */
  readonly waitMs?: number;
}

/**
 * What a failed start leaves in place of its claim: free for the next claim at once. The port has
 * no "delete if it holds X", and replacing exactly our own claim is its atomic equivalent.
 */
const ABANDONED = JSON.stringify({ state: 'abandoned' });

const Stored = z.discriminatedUnion('state', [
  z.object({ state: z.literal('starting'), token: z.string() }),
  z.object({ state: z.literal('started'), result: z.unknown() }),
  z.object({ state: z.literal('abandoned') }),
]);

/**
 * Creates the money-exactly-once guard: `once(quoteId, start)` claims `pay:<quoteId>` once
 * (the store's `setIfAbsent`), stores the started payment under it, and gives duplicates that
 * stored result.
 */
export function createPaymentGuard<T>(options: PaymentGuardOptions<T>): PaymentGuard<T> {
  const { store } = options;
  const prefix = options.keyPrefix ?? 'insurechat:';
  const ttlSeconds = options.ttlSeconds ?? 7 * 24 * 60 * 60;
  const leaseSeconds = options.leaseSeconds ?? 60;
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
        const claim = JSON.stringify({ state: 'starting', token });
        if (await store.setIfAbsent(key, claim, leaseSeconds, [ABANDONED])) {
          return await startClaimed(key, claim, start);
        }
        stored = (await store.get(key)) ?? null;
      } catch (error) {
        if (error instanceof StartFailed) throw error.cause;
        throw new PaymentGuardError(
          'PAYMENT_GUARD_BACKEND_FAILED',
          quoteId,
          'Payment guard unavailable',
          {
            cause: error,
          },
        );
      }
      if (stored !== null) {
        const parsed = parseStored(quoteId, stored);
        // A failed start gave its claim up: claim it again at once.
        if (parsed.state === 'abandoned') continue;
        if (parsed.state === 'started') {
          const result = options.schema.safeParse(parsed.result);
          if (!result.success) {
            throw new PaymentGuardError(
              'PAYMENT_GUARD_CORRUPT',
              quoteId,
              'Stored payment does not parse',
              {
                cause: result.error,
              },
            );
          }
          return result.data;
        }
      }
      if (Date.now() >= giveUpAt) {
        throw new PaymentGuardError(
          'PAYMENT_GUARD_TIMEOUT',
          quoteId,
          'The first payment start did not finish',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 200);
    }
  };

  const startClaimed = async (key: string, claim: string, start: () => Promise<T>) => {
    let result: T;
    try {
      result = await start();
    } catch (error) {
      // Only our own claim is given up: one taken over after the lease stays its new owner's.
      await store.setIfAbsent(key, ABANDONED, leaseSeconds, [claim]).catch(() => undefined);
      throw new StartFailed(error);
    }
    await store.set(key, JSON.stringify({ state: 'started', result }), ttlSeconds);
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
    throw new PaymentGuardError(
      'PAYMENT_GUARD_CORRUPT',
      quoteId,
      'Stored payment claim does not parse',
      {
        cause: error,
      },
    );
  }
}
