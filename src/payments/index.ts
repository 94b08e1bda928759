/*
 * Payment outcomes pushed back into the chat, exactly once, from any instance: the route table,
 * the service (callback handling, BullMQ status poller, delivery into the flow and out through the
 * channel's notifier) and the insurer's callback route. Without Redis the same service keeps its
 * keys in a Map and its jobs on timers: exactly once within the one process. Blocks are in module order (Biome sorts
 * them); each says who it is for.
 */

// Everyone that still imports the notifier contract from here.
/**
 * @deprecated Moved beside the channels: import it from `src/channels/index.js`. Kept one step so
 * branches written against the old home still build.
 */
export type { Notifier } from '../channels/index.js';
// Server: payment attempts started once each, in order, with their own references.
export {
  type AttemptTracker,
  attemptReference,
  CARD_LINK_PROMPT,
  createPaymentAttempts,
  type PaymentAttempt,
  type PaymentAttempts,
  type PaymentAttemptsOptions,
  type PaymentStart,
  StartedAttempt,
  type TrackOptions,
} from './payment-attempts.js';
// Server: mounting the insurer's callback route.
export {
  PAYMENT_CALLBACK_PATH,
  type PaymentCallbackOptions,
  registerPaymentCallback,
} from './payment-callback.js';
// Everyone: what can go wrong.
export {
  PaymentAttemptError,
  PaymentError,
  type PaymentErrorCode,
  PaymentItemBusyError,
  PaymentNotifyError,
  PaymentNotTakenError,
  PaymentRouteError,
  PaymentUnconfirmedError,
} from './payment-errors.js';
// Server and flows: each payment attempt started at most once, on the key-value port.
export {
  createPaymentGuard,
  type PaymentGuard,
  PaymentGuardError,
  type PaymentGuardErrorCode,
  type PaymentGuardOptions,
  paymentGuardKey,
} from './payment-guard.js';
// Tests and tools: where a payment's records and its queue live in Redis.
export { type PaymentKeyKind, paymentKey, paymentQueuePrefix } from './payment-keys.js';
// Server and engine wiring: where an outcome goes when a payment starts.
export {
  createPaymentRoutes,
  PaymentRoute,
  type PaymentRoutes,
  type PaymentRoutesOptions,
} from './payment-routes.js';
// Server: the service (track, callbacks, poller, delivery) and its options.
export {
  type CallbackResult,
  createPaymentService,
  DEFAULT_BACKOFF_MS,
  DEFAULT_LOOKUP_BACKOFF,
  type LookupBackoff,
  PAYMENT_PROMPTS,
  type PaymentHolder,
  type PaymentQueueOptions,
  type PaymentService,
  type PaymentServiceOptions,
  type PaymentServiceSettings,
  type PaymentStatusReader,
  type PaymentStatusSource,
} from './payment-service.js';
// Flows and the staff desk: the shared reading of status words.
export { classifyPaymentStatus, type PaymentOutcome } from './payment-status.js';
