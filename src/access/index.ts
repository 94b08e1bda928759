/*
 * The access rule: who is asking (a Principal, handed to every flow by the engine) and what they
 * may learn of each record. Every actor that returns personal data to a flow asks `accessTo`.
 */
export {
  type Access,
  accessTo,
  type Disclosure,
  NOBODY,
  Principal,
  phoneOf,
  principalOf,
  type RecordOwners,
  type RecordType,
} from './access.js';
export {
  CODE_TRIES,
  CODE_TTL_SECONDS,
  CODE_WINDOW_SECONDS,
  CODES_PER_WINDOW,
  type CodeCheck,
  type CodeRefusal,
  type CodeSubject,
  createOneTimeCodes,
  type OneTimeCodeOptions,
  type OneTimeCodes,
} from './one-time-codes.js';
export {
  createRegistrations,
  type HeldIndividual,
  NO_REGISTRATIONS,
  type NrcHolder,
  type OnRecord,
  onRecordAmong,
  phonesOnRecordForNrc,
  REGISTRATIONS_FOLDER,
  RESTORE_WAIT_MS,
  type Registration,
  type Registrations,
  type RegistrationsOptions,
  RegistrationsUnknownError,
} from './registrations.js';
export { type StaffAllowList, staffAllowed } from './staff-allow-list.js';
