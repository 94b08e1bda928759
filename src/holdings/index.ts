/*
 * The index of who holds what: phone → NRCs and records, NRC → records and phones, identifiers
 * only, every entry expiring. Written when the bot sells, filled for cover sold elsewhere by a
 * background sync of the insurer's lists; a cover lookup reads it, then asks the insurer about
 * the few records it names. What to show of them (access) is decided elsewhere.
 */

// Flows and tests: the claims kept beside the holdings (by NRC, reporting phone, loan, member, number).
export {
  CLAIM_LISTS,
  CLAIM_SUBJECT_FIELDS,
  ClaimBook,
  type ClaimFact,
  type ClaimList,
  ClaimRef,
  type ClaimSubject,
  type ClaimSubjectField,
  type ClaimsWhere,
  claimFactOf,
  claimKeys,
  claimListOf,
} from './claims-index.js';
// Flows and the server: the index itself (Redis beside the sessions, or this process).
export {
  type Completeness,
  CURSOR_TTL_SECONDS,
  createHoldingsIndex,
  createMemoryHoldingsIndex,
  createRedisHoldingsIndex,
  HOLDINGS_TTL_SECONDS,
  type HoldingFact,
  HoldingRef,
  type HoldingsIndex,
  holdingsKeys,
  LIST_STALE_AFTER_MS,
  type ListState,
  type NrcEntry,
  type PhoneEntry,
  type Reread,
  refField,
  SYNCED_LISTS,
  type SyncedList,
} from './holdings-index.js';
// Server: the sync's schedule (BullMQ job scheduler over Redis, a timer otherwise).
export {
  createHoldingsScheduler,
  type HoldingsScheduler,
  type HoldingsSchedulerOptions,
  HoldingsSyncFailedError,
  type RequestHoldingsSyncOptions,
  requestHoldingsSync,
  SCHEDULE_CHECK_MS,
  SYNC_EVERY_MS,
  type SyncRun,
} from './holdings-scheduler.js';
// Server, tests and the bench: one run of the sync.
export { type SyncHoldingsOptions, type SyncSummary, syncHoldings } from './holdings-sync.js';
// Server: what follows the claim books' records as the sync reads them (claim progress).
export type { ClaimBookName, ClaimWatch, ClaimWatcher } from './sync-claims.js';
