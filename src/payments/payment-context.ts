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

/** The payment service's options with their defaults, and the stores built from them. */
export interface PaymentContext {
  readonly options: PaymentServiceOptions;
  readonly redis: RedisConnection | undefined;
  readonly engine: TurnEngine;
  readonly prefix: string;
  readonly log: Logger;
  readonly ttlSeconds: number;
  readonly backoffMs: readonly number[];
  readonly queueOptions: PaymentQueueOptions;
  readonly queueName: string;
  readonly deliveryAttempts: number;
  readonly deliveryBackoffMs: number;
  readonly notifiers: ReadonlyMap<string, Notifier>;
  readonly keys: PaymentKeys;
  readonly routes: PaymentRoutes;
  readonly turnDeadlineMs: number;
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
  const ledger = createPaymentLedger({ keys, prefix, log, client, getStatus });
  return {
    options,
    redis,
    engine,
    prefix,
    log,
    ttlSeconds,
    backoffMs,
    queueOptions,
    queueName,
    deliveryAttempts,
    deliveryBackoffMs,
    notifiers,
    keys,
    routes,
    turnDeadlineMs,
    ledger,
  };
}
