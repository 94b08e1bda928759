/*
 * Renewal reminders: where each holder of a policy bought through insurechat is reached
 * (recorded at purchase), the scan that reminds them 14 and 3 days before their cover ends on the
 * channel they bought on (once per milestone across instances, never in Lusaka's night), the
 * entry menu's "Renew …" offers, and STOP/START by SMS.
 */

// Server: where contacts and send claims are kept (Redis, or this process).
export {
  type ContactBook,
  type ContactBookOptions,
  ContactRecord,
  createMemoryContactBook,
  createRedisContactBook,
  type HolderAddress,
} from './contact-book.js';
// Server and tests: credit-life premium reminders to the staff's Slack channel.
export {
  type CreditLifeMilestone,
  type CreditLifeReminders,
  type CreditLifeRemindersOptions,
  createCreditLifeReminders,
} from './credit-life-reminders.js';
// Server: the SMS gateway's incoming messages (STOP / START).
export {
  INBOUND_SMS_PATH,
  InboundSmsBody,
  type InboundSmsOptions,
  registerInboundSms,
} from './inbound-sms.js';
// Server: the quiet hours of Lusaka's night (the calendar is src/clock's).
export { DEFAULT_QUIET_HOURS, type QuietHours } from './quiet-hours.js';
// Server: the scan's schedule (BullMQ job scheduler over Redis, a timer otherwise).
export {
  createReminderScheduler,
  type ReminderScheduler,
  type ReminderSchedulerOptions,
  SCAN_PATTERN,
  SCAN_TIME_ZONE,
} from './reminder-scheduler.js';
// Server, flows' wiring and channels: the service and the renewal choice id.
export {
  createReminderService,
  type HolderReminders,
  isMenuShortcut,
  type Milestone,
  type PolicyNow,
  type PurchaseRecord,
  REMINDERS_OFF_CHOICE,
  REMINDERS_ON_CHOICE,
  RENEW_CHOICE_PREFIX,
  type ReminderService,
  type ReminderServiceOptions,
  type RenewalOffer,
  type ScanSummary,
} from './reminder-service.js';
// Server: everything above, put together.
export {
  createReminderWiring,
  type ReminderWiring,
  type ReminderWiringOptions,
} from './reminder-wiring.js';
// Server and tests: the staff's morning digest in Slack.
export {
  createStaffDigest,
  digestText,
  type StaffDigest,
  type StaffDigestOptions,
  type StaffDigestPoster,
} from './staff-digest.js';
