import type { Prompt, TurnRoute } from '../conversation/index.js';
import { CodedError } from '../errors/index.js';
import type { Logger } from '../log/index.js';
import { CONSENT_NOTICE_VERSION, type ConsentStore } from './consent-store.js';
import { type DataSubject, dataSubjectOf, subjectHandset } from './data-subject.js';
import type { ErasureTombstones } from './erasure-tombstones.js';

/** What the bot holds about one subject, in the words "My data" shows. */
export interface PersonalDataHeld {
  /** Policies the bot indexes for the subject (its reminder card, the holdings index). */
  readonly policies: number;
  /** A renewal-reminder card: where the subject is reminded, and of which covers. */
  readonly reminderCard: boolean;
  /** Handoffs to a person still open (their Slack thread's context). */
  readonly handoffs: number;
  /** Files the subject uploaded (claim photos and documents). */
  readonly files: number;
  /** Payments still in flight: their route is kept until the outcome is told (a day at most). */
  readonly payments: number;
  /** The phone or chat itself, masked (a phone keeps its last three digits). */
  readonly address?: string;
  /** NRCs linked to the phone (the holdings index), masked to their shape. */
  readonly nrcs?: readonly string[];
  /** The printed numbers of the policies counted in `policies`, each once. */
  readonly policyNumbers?: readonly string[];
  /** When the subject agreed to the privacy notice (`YYYY-MM-DD`); absent: not agreed. */
  readonly consentedOn?: string;
}

/**
 * Who the full privacy notice names: the controller (who decides why and how the data is used)
 * and the contact of its data protection officer (PRIVACY_CONTROLLER, PRIVACY_CONTACT).
 */
export interface PrivacyNotice {
  readonly controller: string;
  readonly contact: string;
}

/** The notice's names when none are set: the sandbox deployment's. */
export const SANDBOX_PRIVACY_NOTICE: PrivacyNotice = {
  controller: 'insurechat sandbox (demo insurer)',
  contact: 'privacy@insurechat.example',
};

/** Nothing held: a subject the bot knows nothing about. */
export const NO_PERSONAL_DATA: PersonalDataHeld = {
  policies: 0,
  reminderCard: false,
  handoffs: 0,
  files: 0,
  payments: 0,
};

/**
 * One place the bot keeps personal data (reminders, handoffs, files, payment routes, the holdings
 * index): what it holds about a subject, and erasing it.
 */
export interface PersonalDataStore {
  /** Names the store in logs (never the subject). */
  readonly name: string;
  /** What it holds about the subject. */
  held(subject: DataSubject): Promise<Partial<PersonalDataHeld>>;
  /**
   * Erases what it holds about the subject; resolves how many records it had to keep (payments
   * in flight, kept for exactly-once delivery until they expire).
   */
  forget(subject: DataSubject): Promise<{ readonly kept?: number }>;
}

/** Why the data is erased: "Delete my data", or "Stop using my data" (consent withdrawn). */
export type ErasureReason = 'delete' | 'withdraw';

/** What an erasure did. */
export interface ErasureResult {
  /** Payments in flight whose route is kept until the outcome is told (a day at most). */
  readonly paymentsKept: number;
}

/** Raised when some store could not erase; the others did, and asking again finishes the job. */
export class ErasureIncompleteError extends CodedError<'ERASURE_INCOMPLETE'> {
  override readonly name = 'ErasureIncompleteError';
  readonly stores: readonly string[];
  constructor(stores: readonly string[], options?: { cause?: unknown }) {
    super('ERASURE_INCOMPLETE', `personal data not erased from: ${stores.join(', ')}`, options);
    this.stores = stores;
  }
}

/** Options of {@link createPersonalData}. */
export interface PersonalDataOptions {
  readonly consent: ConsentStore;
  readonly stores: readonly PersonalDataStore[];
  /** Sends the erasure receipt to a subject (an SMS to a phone); without it none is sent. */
  readonly receipt?: (subject: DataSubject, prompt: Prompt) => Promise<void>;
  readonly logger: Logger;
  readonly now?: () => number;
  /** The notice version asked for; default {@link CONSENT_NOTICE_VERSION}. */
  readonly noticeVersion?: number;
  /** Who the full notice names; default {@link SANDBOX_PRIVACY_NOTICE}. */
  readonly notice?: PrivacyNotice;
  /**
   * Masks NRCs and phone numbers in what "My data" shows (the one masking function, given by
   * the server); default: every digit hidden.
   */
  readonly mask?: (text: string) => string;
  /** Writes what waited for the subject's consent (a language picked first); never rejects. */
  readonly onAgreed?: (subject: DataSubject) => Promise<void>;
  /** Drops what waited for the subject's consent, which they refused; never rejects. */
  readonly onRefused?: (subject: DataSubject) => Promise<void>;
}

/** What a subject refused: the privacy notice, or their words going to a person (handoff). */
export type Refusal = 'notice' | 'handoff';

/**
 * Consent and "My data" as the flows need them, per route: the subject is derived from the
 * route in one place ({@link dataSubjectOf}). A route without a subject holds nothing and needs
 * no consent (there is nothing to record it against).
 */
export interface PersonalData {
  /** Who the full notice names. */
  readonly notice: PrivacyNotice;
  /** True when the route's subject agreed to the current notice. */
  consented(route: TurnRoute | null): Promise<boolean>;
  /** Records agreement to the current notice, now, and writes what waited for it. */
  agree(route: TurnRoute | null): Promise<void>;
  /**
   * Records a refusal without personal data (a log line naming the channel and what was
   * refused) and drops what waited for consent; nothing about the subject is stored.
   */
  refused(route: TurnRoute | null, what: Refusal): Promise<void>;
  /** What the bot holds about the route's subject. */
  held(route: TurnRoute | null): Promise<PersonalDataHeld>;
  /**
   * Erases what the bot holds about the subject (not the insurer's records), forgets its
   * consent and sends the receipt. The conversation's own session ends with the flow that asked.
   * Throws {@link ErasureIncompleteError} when a store failed (after trying every store).
   */
  erase(route: TurnRoute | null, reason: ErasureReason): Promise<ErasureResult>;
}

/** Message keys of the erasure receipts. */
export const ERASURE_RECEIPTS = {
  delete: 'mydata.receipt.deleted',
  withdraw: 'mydata.receipt.stopped',
} as const satisfies Record<ErasureReason, string>;

/** Creates {@link PersonalData} over the consent store and every store of personal data. */
export function createPersonalData(options: PersonalDataOptions): PersonalData {
  const { consent, stores } = options;
  const now = options.now ?? Date.now;
  const version = options.noticeVersion ?? CONSENT_NOTICE_VERSION;
  const log = options.logger.child({ module: 'privacy' });
  const mask = options.mask ?? ((text: string) => text.replace(/\d/g, '•'));

  return {
    notice: options.notice ?? SANDBOX_PRIVACY_NOTICE,

    async consented(route) {
      const subject = dataSubjectOf(route);
      if (!subject) return true;
      return (await consent.get(subject))?.version === version;
    },

    async agree(route) {
      const subject = dataSubjectOf(route);
      if (!subject) return;
      await consent.agree(subject, { version, agreedAt: new Date(now()).toISOString() });
      log.info({ channel: subject.channel, version }, 'privacy notice agreed');
      await options.onAgreed?.(subject).catch((err: unknown) => {
        log.warn({ err }, 'what waited for consent was not written');
      });
    },

    async refused(route, what) {
      const subject = dataSubjectOf(route);
      if (!subject) return;
      await options.onRefused?.(subject).catch((err: unknown) => {
        log.warn({ err }, 'what waited for consent was not dropped');
      });
      log.info({ event: 'privacy.refused', channel: subject.channel, what }, 'consent refused');
    },

    async held(route) {
      const subject = dataSubjectOf(route);
      if (!subject) return NO_PERSONAL_DATA;
      const [parts, agreed] = await Promise.all([
        Promise.all(stores.map((store) => store.held(subject))),
        consent.get(subject),
      ]);
      const counted = parts.reduce<PersonalDataHeld>(
        (sum, part) => ({
          policies: sum.policies + (part.policies ?? 0),
          reminderCard: sum.reminderCard || part.reminderCard === true,
          handoffs: sum.handoffs + (part.handoffs ?? 0),
          files: sum.files + (part.files ?? 0),
          payments: sum.payments + (part.payments ?? 0),
        }),
        NO_PERSONAL_DATA,
      );
      // Two stores may name the same policy or NRC (the reminder card and the index): once each.
      const nrcs = [...new Set(parts.flatMap((part) => part.nrcs ?? []))];
      const numbers = [...new Set(parts.flatMap((part) => part.policyNumbers ?? []))];
      const address =
        subjectHandset(subject) === undefined ? subject.address : `+${subject.address}`;
      return {
        ...counted,
        policies: Math.max(counted.policies, numbers.length),
        address: mask(address),
        nrcs: nrcs.map(mask),
        policyNumbers: numbers,
        ...(agreed?.version === version ? { consentedOn: agreed.agreedAt.slice(0, 10) } : {}),
      };
    },

    async erase(route, reason) {
      const subject = dataSubjectOf(route);
      if (!subject) return { paymentsKept: 0 };
      const results = await Promise.allSettled([
        ...stores.map((store) => store.forget(subject)),
        consent.forget(subject).then((): { readonly kept?: number } => ({})),
      ]);
      const failed: string[] = [];
      let kept = 0;
      results.forEach((result, index) => {
        const name = stores[index]?.name ?? 'consent';
        if (result.status === 'fulfilled') kept += result.value.kept ?? 0;
        else {
          failed.push(name);
          log.error({ err: result.reason, store: name }, 'personal data not erased');
        }
      });
      if (failed.length > 0) throw new ErasureIncompleteError(failed);
      // Recorded without the subject: the channel and the reason are what an audit needs.
      log.info(
        { event: 'privacy.erased', channel: subject.channel, reason, paymentsKept: kept },
        'personal data erased',
      );
      if (options.receipt) {
        const receipt: Prompt = {
          key: ERASURE_RECEIPTS[reason],
          params: { paymentsKept: kept },
          input: 'none',
          final: true,
        };
        // The erasure stands whether or not the receipt goes out.
        await options.receipt(subject, receipt).catch((err: unknown) => {
          log.warn({ err }, 'erasure receipt not sent');
        });
      }
      return { paymentsKept: kept };
    },
  };
}

/**
 * The holdings index (issue 25: phone → NRCs → policies) as it is erased and counted. Only a
 * phone subject has entries there.
 */
export interface HoldingsIndexHook {
  /** Erases every index entry of the phone and of its NRCs; resolves those NRCs. */
  forget(phone: string): Promise<readonly string[] | undefined>;
  /** How many policies the index names for the phone; without it "My data" counts none. */
  count?(phone: string): Promise<number>;
  /** The phone's entry: its NRCs and the records it names, listed by "My data". */
  ofPhone?(
    phone: string,
  ): Promise<{ readonly nrcs: readonly string[]; readonly refs: readonly { number: string }[] }>;
  /** What those NRCs hold (memberships and loans are indexed by NRC only), listed too. */
  ofNrcs?(
    nrcs: readonly string[],
  ): Promise<ReadonlyArray<{ readonly refs: readonly { number: string }[] }>>;
}

/**
 * The holdings index as a store of personal data: the server adds it to the stores it erases
 * (`holdingsIndexStore(holdings, tombstones)`). With tombstones, the erased phone and its NRCs
 * are remembered as keyed hashes so the background sync does not index them again.
 */
export function holdingsIndexStore(
  index: HoldingsIndexHook,
  tombstones?: ErasureTombstones,
): PersonalDataStore {
  return {
    name: 'holdings',
    async held(subject) {
      const phone = subjectHandset(subject);
      if (phone === undefined) return {};
      const [count, entry] = await Promise.all([index.count?.(phone), index.ofPhone?.(phone)]);
      const byNrc = entry && index.ofNrcs ? await index.ofNrcs(entry.nrcs) : [];
      const refs = [...(entry?.refs ?? []), ...byNrc.flatMap((held) => held.refs)];
      return {
        ...(count === undefined ? {} : { policies: count }),
        ...(entry
          ? { nrcs: entry.nrcs, policyNumbers: refs.map((ref) => ref.number).filter(Boolean) }
          : {}),
      };
    },
    async forget(subject) {
      const phone = subjectHandset(subject);
      if (phone === undefined) return {};
      // The phone first: a sync running meanwhile skips its facts before they are deleted.
      await tombstones?.bury(phone, []);
      const nrcs = (await index.forget(phone)) ?? [];
      await tombstones?.bury(undefined, nrcs);
      return {};
    },
  };
}
