import type { FastifyInstance } from 'fastify';
import type { TurnEngine } from '../conversation/index.js';
import {
  createPaymentService,
  type PaymentService,
  registerPaymentCallback,
} from '../payments/index.js';
import type { Insurer } from './build-insurer.js';
import type { ServerStores } from './build-stores.js';
import { metrics } from './metrics.js';
import type { NotifierDirectory } from './notifier-directory.js';
import type { PaymentTrackerSeam } from './payment-tracker.js';
import type { ServerContext } from './server-context.js';

/** What the payment service is built over: it delivers outcomes into the engine's flows. */
interface PaymentInputs {
  readonly app: FastifyInstance;
  readonly stores: ServerStores;
  readonly insurer: Insurer;
  readonly engine: TurnEngine;
  /** Complete by now: every channel's notifier has been added. */
  readonly notifiers: NotifierDirectory;
  readonly tracker: PaymentTrackerSeam;
}

/**
 * The payment service and the insurer's callback route. Without Redis the service keeps its
 * routes and timers in this process: the same exactly-once delivery for one instance, lost on
 * restart.
 */
export function buildPayments(context: ServerContext, inputs: PaymentInputs): PaymentService {
  const { config, deps, logger, keyPrefix } = context;
  const { redis, store } = inputs.stores;
  const service = createPaymentService({
    ...(redis ? { redis } : {}),
    store,
    prefix: keyPrefix,
    client: inputs.insurer.client,
    engine: inputs.engine,
    notifiers: inputs.notifiers.live,
    logger,
    ...(deps.paymentBackoffMs ? { backoffMs: deps.paymentBackoffMs } : {}),
    ...(deps.paymentLookupBackoff ? { lookupBackoff: deps.paymentLookupBackoff } : {}),
    proceedDelayMs: config.ussd.payDelayMs,
    onOutcome: (outcome) => metrics.payments.inc({ outcome }),
  });
  inputs.tracker.attach(service);
  context.closers.last(() => service.close());
  registerPaymentCallback(inputs.app, {
    secret: config.payments.callbackSecret,
    ...(config.payments.callbackAllowedIps.length > 0
      ? { allowedIps: config.payments.callbackAllowedIps }
      : {}),
    service,
  });
  return service;
}
