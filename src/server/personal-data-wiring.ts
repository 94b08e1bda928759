/*
 * The personal-data service as the server runs it: consent and the audit stream beside the
 * sessions (Redis, or this process), and every store that holds personal data about a phone or a
 * chat, each with what it holds and its erasure.
 */
import type { Prompt } from '../conversation/index.js';
import type { FileStore } from '../files/index.js';
import type { HandoffStore } from '../handoff/index.js';
import type { Logger } from '../log/index.js';
import type { PaymentService } from '../payments/index.js';
import {
  createConsentStore,
  createPersonalData,
  createStaffAuditLog,
  type DataSubject,
  type PersonalData,
  type PersonalDataStore,
  type StaffAuditLog,
  subjectId,
  subjectPhone,
} from '../privacy/index.js';
import type { ReminderService } from '../reminders/index.js';
import type { KeyValueStore } from '../storage/index.js';

/** What {@link createPersonalDataWiring} erases from and reports on. */
export interface PersonalDataWiringOptions {
  /** Where consent and the audit stream live (the server's key-value store). */
  readonly store: KeyValueStore;
  readonly prefix: string;
  readonly reminders: Pick<ReminderService, 'cardOf' | 'forget'>;
  readonly handoffs: Pick<HandoffStore, 'bySession' | 'forget'>;
  readonly files: Pick<FileStore, 'countOwned' | 'forgetOwner'>;
  /** The payment service, once built (it is built after the flows that use this). */
  readonly payments: () => Pick<PaymentService, 'inFlightFor' | 'forgetHolder'> | undefined;
  /**
   * Further stores: issue 25's holdings index goes here as `holdingsIndexStore(holdings)` (its
   * `forget(phone)`), so "Delete my data" erases its entries too.
   */
  readonly extraStores?: readonly PersonalDataStore[];
  /** Sends the erasure receipt by SMS to a phone subject. */
  readonly sms: (phone: string, prompt: Prompt) => Promise<void>;
  readonly logger: Logger;
  /** The staff audit's HMAC key (AUDIT_SECRET). */
  readonly auditSecret: string;
  /** The staff audit's clock; default `Date.now`. */
  readonly auditClock?: () => number;
}

/** The service and the audit stream. */
export interface PersonalDataWiring {
  readonly personalData: PersonalData;
  readonly audit: StaffAuditLog;
}

/** Builds consent, "My data" and the audit log over the server's stores. */
export function createPersonalDataWiring(options: PersonalDataWiringOptions): PersonalDataWiring {
  const { prefix } = options;
  const holder = (subject: DataSubject) => ({
    channel: subject.channel,
    address: subject.address,
  });
  const stores: PersonalDataStore[] = [
    {
      name: 'reminders',
      async held(subject) {
        const card = await options.reminders.cardOf(holder(subject));
        return {
          policies: card.policies.length,
          reminderCard: card.policies.length > 0 || card.stopped,
        };
      },
      async forget(subject) {
        await options.reminders.forget(holder(subject));
        return {};
      },
    },
    {
      name: 'handoff',
      async held(subject) {
        return { handoffs: (await options.handoffs.bySession(subject.sessionKey)) ? 1 : 0 };
      },
      async forget(subject) {
        await options.handoffs.forget(subject.sessionKey);
        return {};
      },
    },
    {
      name: 'files',
      async held(subject) {
        return { files: await options.files.countOwned(subjectId(subject)) };
      },
      async forget(subject) {
        await options.files.forgetOwner(subjectId(subject));
        return {};
      },
    },
    {
      name: 'payments',
      async held(subject) {
        const payments = options.payments();
        return { payments: payments ? await payments.inFlightFor(holder(subject)) : 0 };
      },
      async forget(subject) {
        const payments = options.payments();
        return { kept: payments ? await payments.forgetHolder(holder(subject)) : 0 };
      },
    },
    ...(options.extraStores ?? []),
  ];
  const personalData = createPersonalData({
    consent: createConsentStore(options.store, prefix),
    stores,
    receipt: async (subject, prompt) => {
      // A chat sees the closing screen; only a phone is told again, by SMS.
      const phone = subjectPhone(subject);
      if (phone !== undefined) await options.sms(phone, prompt);
    },
    logger: options.logger,
  });
  const audit = createStaffAuditLog(options.store, prefix, {
    secret: options.auditSecret,
    ...(options.auditClock ? { now: options.auditClock } : {}),
  });
  return { personalData, audit };
}
