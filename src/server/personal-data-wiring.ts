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
  maskPersonalData,
  type PersonalData,
  type PersonalDataStore,
  type PrivacyNotice,
  type StaffAuditLog,
  subjectId,
  subjectPhone,
} from '../privacy/index.js';
import type { ReminderService } from '../reminders/index.js';
import type { KeyValueStore } from '../storage/index.js';

/** What {@link createPersonalDataWiring} erases from and reports on. */
interface PersonalDataWiringOptions {
  /** Where consent and the audit stream live (the server's key-value store). */
  readonly store: KeyValueStore;
  readonly prefix: string;
  readonly reminders: Pick<ReminderService, 'cardOf' | 'forget'>;
  readonly handoffs: Pick<HandoffStore, 'bySession' | 'forget'>;
  readonly files: Pick<FileStore, 'countOwned' | 'forgetOwner'>;
  /**
   * The file store's owner of documents sent through `/d/` links to a phone (the links' keyed
   * hash of it); without it only files owned by the subject id are counted and deleted.
   */
  readonly uploadOwnerOf?: (phone: string) => string | undefined;
  /** The payment service, once built (it is built after the flows that use this). */
  readonly payments: () => Pick<PaymentService, 'inFlightFor' | 'forgetHolder'> | undefined;
  /**
   * Further stores: issue 25's holdings index goes here as `holdingsIndexStore(holdings)` (its
   * `forget(phone)`), so "Delete my data" erases its entries too.
   */
  readonly extraStores?: readonly PersonalDataStore[];
  /** Writes what waited for consent (see `PersonalDataOptions.onAgreed`). */
  readonly onAgreed?: (subject: DataSubject) => Promise<void>;
  /** Drops what waited for consent (see `PersonalDataOptions.onRefused`). */
  readonly onRefused?: (subject: DataSubject) => Promise<void>;
  /** Who the full notice names (PRIVACY_CONTROLLER, PRIVACY_CONTACT). */
  readonly notice?: PrivacyNotice;
  /** Sends the erasure receipt by SMS to a phone subject. */
  readonly sms: (phone: string, prompt: Prompt) => Promise<void>;
  readonly logger: Logger;
  /** The staff audit's HMAC key (AUDIT_SECRET). */
  readonly auditSecret: string;
  /** The staff audit's clock; default `Date.now`. */
  readonly auditClock?: () => number;
}

/** The service and the audit stream. */
interface PersonalDataWiring {
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
  // A subject's files: those its conversation kept, and a phone's uploads through `/d/` links.
  const ownersOf = (subject: DataSubject): string[] => {
    const phone = subjectPhone(subject);
    const upload = phone === undefined ? undefined : options.uploadOwnerOf?.(phone);
    return upload ? [subjectId(subject), upload] : [subjectId(subject)];
  };
  const stores: PersonalDataStore[] = [
    {
      name: 'reminders',
      async held(subject) {
        const card = await options.reminders.cardOf(holder(subject));
        return {
          policies: card.policies.length,
          policyNumbers: card.policies.map((policy) => policy.policyNumber),
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
        const counts = await Promise.all(ownersOf(subject).map(options.files.countOwned));
        return { files: counts.reduce((sum, count) => sum + count, 0) };
      },
      async forget(subject) {
        await Promise.all(ownersOf(subject).map(options.files.forgetOwner));
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
    ...(options.notice ? { notice: options.notice } : {}),
    // The one masking function: an NRC keeps its shape, a phone its last three digits; shown to
    // the customer with `x` for its dots, which a USSD screen's GSM 7-bit alphabet lacks.
    mask: (text) => maskPersonalData(text).replaceAll('•', 'x'),
    ...(options.onAgreed ? { onAgreed: options.onAgreed } : {}),
    ...(options.onRefused ? { onRefused: options.onRefused } : {}),
  });
  const audit = createStaffAuditLog(options.store, prefix, {
    secret: options.auditSecret,
    ...(options.auditClock ? { now: options.auditClock } : {}),
  });
  return { personalData, audit };
}
