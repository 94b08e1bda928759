import type { Notifier } from '../channels/index.js';
import type { TurnEngine } from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import type { RedisConnection } from '../redis/index.js';
import { createMemoryStore, createRedisStore } from '../storage/index.js';
import { createPaymentKeys, type PaymentKeys } from './payment-keys.js';
import { createPaymentLedger, type PaymentLedger } from './payment-ledger.js';
import { type PaymentRoutes, paymentRoutesOver } from './payment-routes.js';
import type {
  PaymentQueueOptions,
  PaymentServiceOptions,
  PaymentStatusReader,
} from './payment-service.js';

/** Default poller schedule: 15 s, 30 s, 1 min, 2 min, 5 min, 10 min (about 19 minutes in all). */
export const DEFAULT_BACKOFF_MS: readonly number[] = [
  15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
];

/** How a payment whose pay answer was lost is looked up: doubling from `firstMs`, capped. */
export interface LookupBackoff {
  /** First delay; default 2 000 ms. */
  readonly firstMs: number;
  /** Longest delay; default 300 000 ms (5 minutes). */
  readonly maxMs: number;
  /** How long it is looked up before the user hears "still pending"; default 24 hours. */
  readonly forMs: number;
}

/** Default lookup schedule of a payment whose answer was lost: 2 s, 4 s, … 5 min, for 24 h. */
export const DEFAULT_LOOKUP_BACKOFF: LookupBackoff = {
  firstMs: 2_000,
  maxMs: 300_000,
  forMs: 86_400_000,
};

/** The delays of a lookup schedule, one per lookup, until they add up to `forMs`. */
function lookupDelays({ firstMs, maxMs, forMs }: LookupBackoff): number[] {
  const delays: number[] = [];
  let total = 0;
  let next = Math.max(0, firstMs);
  do {
    delays.push(next);
    total += next;
    next = Math.min(maxMs, Math.max(1, next * 2));
  } while (total < forMs);
  return delays;
}

/** The payment service's options with their defaults, and the stores built from them. */
export interface PaymentContext {
  readonly options: PaymentServiceOptions;
  readonly redis: RedisConnection | undefined;
  readonly engine: TurnEngine;
  readonly prefix: string;
  readonly log: Logger;
  readonly ttlSeconds: number;
  readonly backoffMs: readonly number[];
  /** Delays between lookups of a payment whose pay answer was lost. */
  readonly lookupDelaysMs: readonly number[];
  readonly queueOptions: PaymentQueueOptions;
  readonly queueName: string;
  readonly deliveryAttempts: number;
  readonly deliveryBackoffMs: number;
  readonly notifiers: ReadonlyMap<string, Notifier>;
  readonly keys: PaymentKeys;
  readonly routes: PaymentRoutes;
  readonly turnDeadlineMs: number;
  /** How long after a handset's call is let go its payment starts. */
  readonly proceedDelayMs: number;
  readonly ledger: PaymentLedger;
}

/** Reads the payment service's options; throws when they cannot work (no delay to poll at). */
export function createPaymentContext(options: PaymentServiceOptions): PaymentContext {
  const { redis, engine } = options;
  const prefix = options.prefix ?? '';
  const client = options.client;
  const getStatus: PaymentStatusReader =
    options.getStatus ??
    ((reference) => {
      if (!client) throw new TypeError('createPaymentService needs a client or getStatus');
      return client.call('getTransactionStatus', { path: { reference } });
    });
  const log = options.logger.child({ module: 'payments' });
  const ttlSeconds = options.ttlSeconds ?? 86_400;
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  if (backoffMs.length === 0) throw new RangeError('backoffMs needs at least one delay');
  const lookupDelaysMs = lookupDelays(options.lookupBackoff ?? DEFAULT_LOOKUP_BACKOFF);
  const queueOptions = options.queue ?? {};
  const queueName = queueOptions.name ?? 'payments';
  const deliveryAttempts = queueOptions.deliveryAttempts ?? 6;
  const deliveryBackoffMs = queueOptions.deliveryBackoffMs ?? 5_000;
  const notifiers = new Map(options.notifiers.map((notifier) => [notifier.channel, notifier]));
  const keys = createPaymentKeys(
    options.store ?? (redis ? createRedisStore(redis) : createMemoryStore()),
  );
  const routes = paymentRoutesOver(keys, { prefix, ttlSeconds });
  const turnDeadlineMs = options.turnDeadlineMs ?? 30_000;
  const proceedDelayMs = options.proceedDelayMs ?? 2_000;
  const ledger = createPaymentLedger({ keys, prefix, log, client, getStatus });
  return {
    options,
    redis,
    engine,
    prefix,
    log,
    ttlSeconds,
    backoffMs,
    lookupDelaysMs,
    queueOptions,
    queueName,
    deliveryAttempts,
    deliveryBackoffMs,
    notifiers,
    keys,
    routes,
    turnDeadlineMs,
    proceedDelayMs,
    ledger,
  };
}
