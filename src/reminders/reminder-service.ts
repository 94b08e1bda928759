import type { Notifier } from '../channels/index.js';
import { dayNumber, lusakaNow } from '../clock/index.js';
import type {
  CallerLanguages,
  ChannelAddress,
  Prompt,
  TurnPrefetch,
} from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import type { ContactBook, HolderAddress, HolderCard } from './contact-book.js';
import { createPurchaseContacts } from './purchase-contacts.js';
import type { QuietHours } from './quiet-hours.js';
import { createReminderScan } from './reminder-scan.js';
import { createReminderState } from './reminder-state.js';
import { type Milestone, milestoneOf } from './renewal-milestones.js';
import { createTurnPeeks } from './turn-peeks.js';

export {
  isMenuShortcut,
  REMINDERS_OFF_CHOICE,
  REMINDERS_ON_CHOICE,
  RENEW_CHOICE_PREFIX,
} from './reminder-choices.js';
export type { Milestone } from './renewal-milestones.js';

/** A paid motor policy (new or renewed) and where its holder bought it. */
export interface PurchaseRecord {
  /** The conversation's address: the channel bought on, the chat id or MSISDN, the locale. */
  readonly route: ChannelAddress;
  readonly policyId: string;
  readonly policyNumber: string;
  readonly what: string;
  /** Last day of cover, `YYYY-MM-DD`. */
  readonly endDate: string;
  readonly renewal: boolean;
}

/** "Renew MTR-… (ends 21/11)": a policy of the holder's that ends soon. */
export interface RenewalOffer {
  readonly policyId: string;
  readonly policyNumber: string;
  /** `YYYY-MM-DD`. */
  readonly endDate: string;
}

/** A holder's renewals due and the state of their reminders, as the entry menu shows them. */
export interface HolderReminders {
  readonly offers: RenewalOffer[];
  /** The holder has covers we remind of and has not turned reminders off. */
  readonly remindersOn: boolean;
  /** The holder has covers we remind of and turned reminders off: the menu offers them back. */
  readonly remindersOff: boolean;
}

const NO_REMINDERS: HolderReminders = { offers: [], remindersOn: false, remindersOff: false };

/** What one scan did. */
export interface ScanSummary {
  /** True when it ran in quiet hours and sent nothing. */
  readonly quiet: boolean;
  readonly sent: number;
  /** Stopped, not agreed, already renewed, or already sent (by this or another instance). */
  readonly skipped: number;
  /** Sends that failed; their claims were given back for the next scan. */
  readonly failed: number;
}

/** What the insurer says of a policy now; undefined fields are not known. */
export interface PolicyNow {
  readonly endDate?: string | undefined;
  readonly status?: string | undefined;
}

/** Options of {@link createReminderService}. */
export interface ReminderServiceOptions {
  readonly book: ContactBook;
  /**
   * One per channel; a reminder goes out through the one of the channel bought on. Read at each
   * send, so the server may add notifiers after creating the service.
   */
  readonly notifiers: readonly Notifier[];
  readonly logger: Logger;
  /** The USSD short code an SMS reminder names. */
  readonly serviceCode: string;
  /** Epoch ms; tests pass a manual clock. */
  readonly now?: () => number;
  readonly quietHours?: QuietHours;
  /**
   * Reads the policy from the insurer just before reminding: a policy renewed elsewhere (a later
   * end date) or cancelled gets no reminder. Unreadable: the reminder goes out on our record.
   */
  readonly policyNow?: (policyId: string) => Promise<PolicyNow | undefined>;
  /**
   * How long a turn waits on the reminders' store (the menu's offers, a purchase's contact)
   * before going on without them; default 300 ms. A turn never waits on reminders (a Redis shard
   * failing over, say): the menu shows the plain list, the contact is still written.
   */
  readonly answerWithinMs?: number;
  /**
   * How long a USSD buyer's "we will remind you" notice waits for the purchase's outcome SMS to
   * carry it (see {@link ReminderService.takeNotice}) before it goes alone; default 3 000 ms.
   * The outcome SMS is sent right after the turn that records the purchase, so it seldom waits.
   */
  readonly noticeWaitMs?: number;
  /** Metrics: one reminder sent. Must not throw. */
  readonly onSent?: (milestone: Milestone, channel: string) => void;
  /** Metrics: a renewal paid for a period a reminder was sent about. Must not throw. */
  readonly onRenewalAfterReminder?: (channel: string) => void;
}

/** Renewal reminders: contacts recorded at purchase, scans that remind once per milestone. */
export interface ReminderService {
  /**
   * Records (or, on a renewal, moves on) where the holder of a paid policy is reached. Never
   * throws: a failure is logged and the purchase stands. Resolves whether the closing screen
   * should carry the notice that reminders will come: a USSD caller gets it by SMS instead (sent
   * in the background for a new policy), so their one-page outcome screen stays one page.
   */
  recordPurchase(purchase: PurchaseRecord): Promise<{ readonly notice: boolean }>;
  /**
   * The reminder notice waiting for a USSD buyer's next SMS, taken (so it is told once): the
   * SMS notifier adds it to the purchase's outcome SMS, one message where there were two. The
   * notice waits in this process, and in the book for an outcome `sms` naming its policy that
   * another instance sends (any instance's payment worker may tell the outcome).
   */
  takeNotice(address: string, sms?: Prompt): Prompt | undefined | Promise<Prompt | undefined>;
  /**
   * Finds covers ending in 14 or in 3 days (by Lusaka's calendar) and reminds each holder once
   * per policy, period and milestone, across instances. In quiet hours it sends nothing: the
   * first scan after them does.
   */
  scan(): Promise<ScanSummary>;
  /** The holder's covers ending within 14 days, and whether their reminders are on. */
  offersFor(holder: HolderAddress): Promise<HolderReminders>;
  /**
   * Reads each holder's card with their session's record (Redis only), so the entry menu's
   * offers cost the turn no round trip of its own; undefined when the book is in memory.
   */
  readonly prefetch?: TurnPrefetch;
  /**
   * The language each holder chose, kept on their card: read with the session when the card is
   * (no round trip of its own), else from the book.
   */
  readonly languages: CallerLanguages;
  /** The holder's card: the policies reminded of at this address, and whether they said STOP. */
  cardOf(holder: HolderAddress): Promise<HolderCard>;
  /**
   * The caller at `caller` may SMS `recipient` on their next turn (a plate's holder told that
   * someone asked): the recipient's language is then read with that turn's session, where the
   * store can, instead of in a round trip of its own. Forgotten after a minute.
   */
  expectSms(caller: HolderAddress, recipient: HolderAddress): void;
  /** Erases the holder's card and contacts ("My data"); resolves how many policies it named. */
  forget(holder: HolderAddress): Promise<number>;
  /** Turns the holder's reminders off (`STOP`, the menu item) or on again (`START`). */
  setStopped(holder: HolderAddress, stopped: boolean): Promise<void>;
  /** The menu item: {@link setStopped} with true. */
  stop(holder: HolderAddress): Promise<void>;
  /** The menu item shown while they are off: {@link setStopped} with false. */
  start(holder: HolderAddress): Promise<void>;
}

/** Creates the reminder service over a contact book (Redis or memory). */
export function createReminderService(options: ReminderServiceOptions): ReminderService {
  const state = createReminderState(options);
  const { book, log, now } = state;
  const peeks = createTurnPeeks(state);
  const { holderId, peeked, peekedLanguages, takePeeked, prefetch, expectSms, languages } = peeks;
  const scan = createReminderScan(state);
  const { record, takeNotice } = createPurchaseContacts(state, peeks);

  const today = (): number => dayNumber(lusakaNow(now()).date);

  /**
   * `work`'s result, or `fallback` once {@link ReminderServiceOptions.answerWithinMs} has passed
   * (the work goes on): a turn never waits on the reminders' store.
   */
  async function within<T>(work: Promise<T>, fallback: T): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(fallback), options.answerWithinMs ?? 300);
      timer.unref();
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The holder's covers ending within 14 days, soonest first, and whether reminders are on. */
  function offersOf(card: HolderCard): HolderReminders {
    if (card.policies.length === 0) return NO_REMINDERS;
    const day = today();
    const offers = card.policies
      .filter((policy) => milestoneOf(dayNumber(policy.endDate) - day) !== undefined)
      .sort((a, b) => a.endDate.localeCompare(b.endDate))
      .map(({ policyId, policyNumber, endDate }) => ({ policyId, policyNumber, endDate }));
    return { offers, remindersOn: !card.stopped, remindersOff: card.stopped };
  }

  const service: ReminderService = {
    recordPurchase(purchase) {
      // Recorded in full in the background if the store is slow; the screen just lacks the notice.
      return within(record(purchase), { notice: false });
    },

    scan,

    takeNotice,

    async offersFor(holder) {
      try {
        const card = takePeeked(holder);
        if (card) return offersOf(card);
        return await within(book.cardOf(holder).then(offersOf), NO_REMINDERS);
      } catch (err) {
        log.warn({ err }, 'renewal offers could not be read; the menu shows without them');
        return NO_REMINDERS;
      }
    },

    ...(prefetch && { prefetch }),

    expectSms,

    languages,

    cardOf(holder) {
      return book.cardOf(holder);
    },

    async forget(holder) {
      peeked.delete(holderId(holder));
      peekedLanguages.delete(holderId(holder));
      const count = await book.forgetHolder(holder);
      log.info({ channel: holder.channel, policies: count }, 'renewal reminder contacts erased');
      return count;
    },

    async setStopped(holder, stopped) {
      peeked.delete(holderId(holder));
      await book.setStopped(holder, stopped);
      log.info({ channel: holder.channel, stopped }, 'renewal reminders switched');
    },

    stop(holder) {
      return service.setStopped(holder, true);
    },

    start(holder) {
      return service.setStopped(holder, false);
    },
  };
  return service;
}
