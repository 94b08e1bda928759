/*
 * The sandbox insurer: the whole Partner Insurance API with the spec's state rules, in memory.
 * The bot embeds it when PARTNER_API_URL is unset; `npm run sandbox` runs it alone.
 */

// Products on offer: tests may give a sandbox more (paging) or none
export {
  MOTOR_PRODUCTS,
  type MotorProductDefinition,
  type SandboxCatalogue,
  TRAVEL_PACKAGES,
  type TravelPackageDefinition,
} from './catalogue.js';
// Time control for tests of grace, lapse and expiry
export { type Clock, createManualClock, type ManualClock, systemClock } from './clock.js';
// For the bot process, `npm run sandbox` and tests
export {
  createSandbox,
  SANDBOX_BASE_PATH,
  type Sandbox,
  type SandboxOptions,
} from './create-sandbox.js';
// The demo book seeded at every start, for the README, tests and newcomers
export { DEMO_BOOK, type DemoPerson } from './demo-book.js';
export { LARGE_BOOK_MASTER_POLICIES, largeBookHolder } from './large-book.js';
export {
  type CallbackAttempt,
  FAILURE_REASON,
  type PaymentEngine,
  type SandboxTransaction,
  type SandboxTransactionStatus,
  type SettleOutcome,
} from './payment-engine.js';
export { DEFAULT_LEVY_RATE } from './premium.js';
export { SEED } from './seed.js';
export type { OutboxSms, SmsOutbox } from './sms-outbox.js';
// The stricter sandbox: what a real insurer may send
export {
  STRICT_DEFAULTS,
  type StrictInsurerOptions,
  UNKNOWN_FIELDS,
  UNSEEN_PENDING_STATUS,
} from './strict-insurer.js';
// For the README, the web simulator and the startup banner
export {
  outcomeForMsisdn,
  SANDBOX_TEST_MSISDNS,
  type SandboxTestMsisdn,
  type TestPaymentOutcome,
} from './test-msisdns.js';
