/*
 * Personal data as Zambia's Data Protection Act expects: consent to a versioned notice, what the
 * bot holds about a phone or chat and its erasure, the retention table, and the append-only log of
 * staff look-ups. Blocks say who each export is for.
 */

// Server: a language picked before the notice waits for consent (nothing stored before it).
export {
  type ConsentFirstLanguages,
  type ConsentFirstLanguagesOptions,
  consentFirstLanguages,
  PENDING_LANGUAGE_MS,
} from './consent-first-languages.js';
// Server: consent per subject.
export {
  CONSENT_NOTICE_VERSION,
  CONSENT_TTL_SECONDS,
  ConsentRecord,
  type ConsentStore,
  consentKey,
  createConsentStore,
  createMemoryConsentStore,
} from './consent-store.js';
// Everyone: whose data a conversation touches (a phone or a chat).
export {
  type DataSubject,
  dataSubjectOf,
  subjectHandset,
  subjectId,
  subjectPhone,
} from './data-subject.js';
// Server: erasures remembered as keyed hashes, so the holdings sync does not undo them.
export {
  createErasureTombstones,
  ERASURE_TOMBSTONE_TTL_SECONDS,
  type ErasedIdentity,
  type ErasureTombstones,
  type IdentityWriter,
  liftingErased,
  skippingErased,
} from './erasure-tombstones.js';
// docs/privacy-and-limits.md and tests: every key and file, and when it goes.
export { keyedHasher } from './keyed-hash.js';
// Slack desk, handoff threads and the staff audit: the one masking of personal data in text.
export {
  maskCsv,
  maskFileText,
  maskName,
  maskNameParams,
  maskPersonalData,
  maskPromptNames,
} from './mask-personal-data.js';
// Server and flows: "My data" and erasure over every store of personal data.
export {
  createPersonalData,
  ERASURE_RECEIPTS,
  ErasureIncompleteError,
  type ErasureReason,
  type ErasureResult,
  type HoldingsIndexHook,
  holdingsIndexStore,
  NO_PERSONAL_DATA,
  type PersonalData,
  type PersonalDataHeld,
  type PersonalDataOptions,
  type PersonalDataStore,
  type PrivacyNotice,
  type Refusal,
  SANDBOX_PRIVACY_NOTICE,
} from './personal-data.js';
export { keptWithoutTtl, RETENTION, type RetentionRule, retentionMarkdown } from './retention.js';
// Server and the Slack desk: the hash-chained audit of staff look-ups.
export {
  AUDIT_OUTCOMES,
  AUDIT_RETENTION_MS,
  AUDIT_ROUTES,
  type AuditAttempt,
  type AuditBreak,
  AuditEntry,
  type AuditVerdict,
  auditHeadKey,
  auditStreamKey,
  auditText,
  createMemoryStaffAuditLog,
  createRedisStaffAuditLog,
  createStaffAuditLog,
  StaffAuditError,
  type StaffAuditLog,
  type StaffAuditOptions,
} from './staff-audit.js';
// The Slack desk: look-ups recorded before they run, the audit read by its admins.
export {
  createStaffLookups,
  type LookupAttempt,
  type StaffLookups,
} from './staff-lookups.js';
