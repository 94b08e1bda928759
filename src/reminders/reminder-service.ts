import type { Notifier } from '../channels/index.js';
import { dayNumber, lusakaNow } from '../clock/index.js';
import type {
  CallerLanguages,
  ChannelAddress,
  Prompt,
  TurnPrefetch,
} from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import {
  type ContactBook,
  type ContactRecord,
  cardFromFields,
  type HolderAddress,
  type HolderCard,
  languageFromFields,
} from './contact-book.js';
import { DEFAULT_QUIET_HOURS, isQuiet, type QuietHours } from './quiet-hours.js';

/** The choice id of "Renew <policy>" in the entry menu and on a reminder's button. */
export const RENEW_CHOICE_PREFIX = 'renew:';

/** The entry menu's "Stop reminders" item, also a button under a chat reminder. */
export const REMINDERS_OFF_CHOICE = 'reminders-off';

/** The entry menu's "Turn reminders on" item, shown while the holder's reminders are off. */
export const REMINDERS_ON_CHOICE = 'reminders-on';

/**
 * True for a button of a message sent out of turn (a reminder's Renew now or Stop reminders):
 * it belongs to no step of the conversation, so the channel opens the entry menu afresh and
 * picks it there.
 */
export function isMenuShortcut(choiceId: string): boolean {
  return choiceId.startsWith(RENEW_CHOICE_PREFIX) || choiceId === REMINDERS_OFF_CHOICE;
}

/** Days before the end of cover a reminder goes out: 14, then 3. */
export type Milestone = 14 | 3;
const MILESTONES: readonly Milestone[] = [14, 3];

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

const SENDING_TTL_SECONDS = 600;
const SENT_TTL_SECONDS = 60 * 86_400;
/** Covers ended this long ago leave the due index. */
const FORGET_AFTER_DAYS = 30;

/**
 * How long a purchase's reminder notice is held in the book for another instance's outcome SMS:
 * well past the wait before it goes alone.
 */
const NOTICE_CLAIM_TTL_SECONDS = 60;

/** How long a caller's expected SMS recipient waits for the caller's next turn: 1 to 2 min. */
const EXPECTED_SMS_TTL_MS = 60_000;

/** A card handed over with a session is for that turn's menu: kept 5 to 10 s, then dropped. */
const PEEKED_TTL_MS = 5_000;

/**
 * Values handed over for the turn in progress, taken once: two generations of a Map, the older
 * dropped every `ttlMs`. Setting one is a Map write (every turn sets one; an LRU with a TTL cost
 * a measurable share of the turn), and what no menu took is gone within `2 × ttlMs`.
 */
class TurnHandover<V> {
  private current = new Map<string, V>();
  private previous = new Map<string, V>();
  private rotatedAt: number;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {
    this.rotatedAt = now();
  }

  set(key: string, value: V): void {
    this.rotate();
    this.current.set(key, value);
  }

  /** The value handed over for `key`, removed. */
  take(key: string): V | undefined {
    this.rotate();
    const value = this.current.get(key) ?? this.previous.get(key);
    this.delete(key);
    return value;
  }

  delete(key: string): void {
    this.current.delete(key);
    this.previous.delete(key);
  }

  private rotate(): void {
    const now = this.now();
    const age = now - this.rotatedAt;
    if (age < this.ttlMs) return;
    this.previous = age < 2 * this.ttlMs ? this.current : new Map();
    this.current = new Map();
    this.rotatedAt = now;
  }
}

/** Creates the reminder service over a contact book (Redis or memory). */
export function createReminderService(options: ReminderServiceOptions): ReminderService {
  const { book } = options;
  const now = options.now ?? Date.now;
  const quiet = options.quietHours ?? DEFAULT_QUIET_HOURS;
  const log = options.logger.child({ module: 'reminders' });
  const holderId = (holder: HolderAddress) => `${holder.channel}:${holder.address}`;
  /** Cards read with a session (raw fields: most turns show no menu), taken by the first read. */
  const peeked = new TurnHandover<Readonly<Record<string, string>>>(PEEKED_TTL_MS, now);
  /** Languages read with a session, for the channel deciding that turn ('' = never chose). */
  const peekedLanguages = new TurnHandover<string>(PEEKED_TTL_MS, now);
  const cardKey = book.cardKey?.bind(book);
  /** Recipients a caller's next turn may SMS, by the caller; and whose card each key is. */
  const expectedSms = new TurnHandover<HolderAddress[]>(EXPECTED_SMS_TTL_MS, now);
  const recipientOfCard = new TurnHandover<string>(PEEKED_TTL_MS, now);

  const today = (): number => dayNumber(lusakaNow(now()).date);

  function safely(hook: (() => void) | undefined): void {
    try {
      hook?.();
    } catch (err) {
      log.warn({ err }, 'reminder metrics hook threw');
    }
  }

  function reminderPrompt(record: ContactRecord): Prompt {
    const params = {
      policyNumber: record.policyNumber,
      what: record.what,
      endDate: record.endDate,
      serviceCode: options.serviceCode,
    };
    // An SMS cannot carry a button: it names the short code, where the menu offers the renewal.
    if (record.channel === 'ussd') {
      return { key: 'reminder.motorSms', params, input: 'none', final: true };
    }
    return {
      key: 'reminder.motor',
      params,
      input: 'choice',
      final: true,
      choices: [
        { id: `${RENEW_CHOICE_PREFIX}${record.policyId}`, label: 'reminder.choice.renew' },
        { id: REMINDERS_OFF_CHOICE, label: 'menu.choice.remindersOff' },
      ],
    };
  }

  /** The insurer's view, when it can be read; a failure to read does not hold a reminder back. */
  async function readPolicy(policyId: string): Promise<PolicyNow | undefined> {
    if (!options.policyNow) return undefined;
    try {
      return await options.policyNow(policyId);
    } catch (err) {
      log.warn({ err, policyId }, 'policy could not be read before reminding; using our record');
      return undefined;
    }
  }

  /** Reminds one holder for one milestone, once; resolves what happened. */
  async function remind(
    record: ContactRecord,
    milestone: Milestone,
  ): Promise<'sent' | 'skipped' | 'failed'> {
    const notifier = options.notifiers.findLast(
      (candidate) => candidate.channel === record.channel,
    );
    if (!notifier) return 'skipped';
    const claimKey = `${record.policyId}:${record.endDate}:${milestone}`;
    // Claimed before sending: another instance's scan of the same minute finds it taken. The
    // short "sending" lifetime gives it back if this process dies before it knows the outcome.
    if (!(await book.claim(claimKey, 'sending', SENDING_TTL_SECONDS))) return 'skipped';
    const policy = await readPolicy(record.policyId);
    if (policy?.endDate && dayNumber(policy.endDate) > dayNumber(record.endDate)) {
      // Renewed elsewhere (at a branch, by an agent): the next period's reminders will be due.
      await book.save({ ...record, endDate: policy.endDate.slice(0, 10) });
      await book.confirm(claimKey, 'renewed', SENT_TTL_SECONDS);
      return 'skipped';
    }
    if (policy?.status && /cancel/i.test(policy.status)) {
      await book.confirm(claimKey, 'cancelled', SENT_TTL_SECONDS);
      return 'skipped';
    }
    // In the language the holder speaks now (they may have changed it since buying).
    const chosen = await book.cardOf(record).then(
      (card) => card.language,
      () => undefined,
    );
    const locale = chosen ?? record.locale;
    const address = { channel: record.channel, address: record.address, locale };
    try {
      await notifier.notify(address, reminderPrompt(record));
    } catch (err) {
      await book.release(claimKey).catch(() => undefined);
      log.error(
        { err, policyId: record.policyId, channel: record.channel, milestone },
        'renewal reminder could not be sent; the next scan tries again',
      );
      return 'failed';
    }
    await book.confirm(claimKey, 'sent', SENT_TTL_SECONDS);
    await book.save({ ...record, remindedFor: record.endDate });
    log.info(
      { policyId: record.policyId, channel: record.channel, milestone },
      'renewal reminder sent',
    );
    safely(() => options.onSent?.(milestone, record.channel));
    return 'sent';
  }

  /** Notices waiting for a USSD buyer's outcome SMS, by number, in this process. */
  const pendingNotices = new Map<string, { prompt: Prompt; key: string; timer: NodeJS.Timeout }>();

  /** The book's claim on a policy's pending notice: whoever takes it says it, once. */
  const noticeKey = (policyNumber: string) => `notice:${policyNumber}`;
  const noticePrompt = (policyNumber: string): Prompt => ({
    key: 'reminder.smsNotice',
    params: { policyNumber },
    input: 'none',
    final: true,
  });

  /**
   * Tells a USSD buyer that reminders will come and how to stop them, in the purchase's outcome
   * SMS. The outcome is usually told by this process right after the turn that recorded the
   * purchase; another instance's payment worker may tell it, so the notice is also held in the
   * book for {@link NOTICE_CLAIM_TTL_SECONDS}. Not taken within `noticeWaitMs` (the outcome was
   * seen on screen, or failed), it goes by SMS alone, unless another instance took it meanwhile.
   */
  async function smsNotice(purchase: PurchaseRecord): Promise<void> {
    const sms = options.notifiers.findLast((candidate) => candidate.channel === 'ussd');
    if (!sms) return;
    const prompt = noticePrompt(purchase.policyNumber);
    const key = noticeKey(purchase.policyNumber);
    // Written before the turn that recorded the purchase commits, so an outcome SMS sent after
    // it from another instance finds it. Unwritten, the notice still goes from here.
    const held = await book.confirm(key, '1', NOTICE_CLAIM_TTL_SECONDS).then(
      () => true,
      (err: unknown) => {
        log.warn({ err }, 'reminder notice not shared with other instances');
        return false;
      },
    );
    const address = purchase.route.address;
    const earlier = pendingNotices.get(address);
    if (earlier) clearTimeout(earlier.timer);
    const timer = setTimeout(() => {
      pendingNotices.delete(address);
      // An unreadable book sends it: two messages rather than none.
      const ours = held ? book.take(key).catch(() => true) : Promise.resolve(true);
      void ours
        .then((send) => (send ? sms.notify(purchase.route, prompt) : undefined))
        .catch((err: unknown) => log.warn({ err }, 'reminder notice SMS not sent'));
    }, options.noticeWaitMs ?? 3_000);
    timer.unref();
    pendingNotices.set(address, { prompt, key, timer });
  }

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

  /** The card read with this turn's session, taken (a later turn gets its own). */
  function takePeeked(holder: HolderAddress): HolderCard | undefined {
    const id = holderId(holder);
    const fields = peeked.take(id);
    return fields === undefined ? undefined : cardFromFields(fields);
  }

  /** Records the contact of a paid policy; see {@link ReminderService.recordPurchase}. */
  async function record(purchase: PurchaseRecord): Promise<{ notice: boolean }> {
    const holder = { channel: purchase.route.channel, address: purchase.route.address };
    try {
      const before = await book.get(purchase.policyId);
      if (
        purchase.renewal &&
        before?.remindedFor !== undefined &&
        before.remindedFor === before.endDate
      ) {
        safely(() => options.onRenewalAfterReminder?.(holder.channel));
      }
      peeked.delete(holderId(holder));
      const previous = before && { channel: before.channel, address: before.address };
      await book.save(
        {
          policyId: purchase.policyId,
          policyNumber: purchase.policyNumber,
          product: 'motor',
          // A renewal's words are about the renewal; the policy is still what it insured.
          what: purchase.renewal && before ? before.what : purchase.what,
          endDate: purchase.endDate.slice(0, 10),
          ...holder,
          locale: purchase.route.locale,
          consent: true,
          recordedAt: new Date(now()).toISOString(),
        },
        previous,
      );
      const on = !(await book.isStopped(holder));
      if (on && holder.channel === 'ussd') {
        if (!purchase.renewal) await smsNotice(purchase);
        return { notice: false };
      }
      return { notice: on };
    } catch (err) {
      log.error({ err, policyId: purchase.policyId }, 'contact for renewal reminders not recorded');
      return { notice: false };
    }
  }

  /** The milestone a cover ending in `daysLeft` days is at: the nearest one not yet passed. */
  function milestoneOf(daysLeft: number): Milestone | undefined {
    if (daysLeft < 0) return undefined;
    return [...MILESTONES].sort((a, b) => a - b).find((m) => daysLeft <= m);
  }

  const service: ReminderService = {
    recordPurchase(purchase) {
      // Recorded in full in the background if the store is slow; the screen just lacks the notice.
      return within(record(purchase), { notice: false });
    },

    async scan() {
      const local = lusakaNow(now());
      if (isQuiet(local.hour, quiet)) return { quiet: true, sent: 0, skipped: 0, failed: 0 };
      const day = dayNumber(local.date);
      const counts = { sent: 0, skipped: 0, failed: 0 };
      await book.forgetEndedBefore(day - FORGET_AFTER_DAYS);
      const longest = Math.max(...MILESTONES);
      for (const policyId of await book.endingBy(day + longest)) {
        const record = await book.get(policyId);
        if (!record) continue;
        const milestone = milestoneOf(dayNumber(record.endDate) - day);
        if (milestone === undefined) continue;
        if (!record.consent || (await book.isStopped(record))) {
          counts.skipped += 1;
          continue;
        }
        counts[await remind(record, milestone)] += 1;
      }
      if (counts.sent + counts.failed > 0) log.info(counts, 'renewal reminder scan done');
      return { quiet: false, ...counts };
    },

    takeNotice(address, sms) {
      const pending = pendingNotices.get(address);
      if (pending) {
        clearTimeout(pending.timer);
        pendingNotices.delete(address);
        void book.release(pending.key).catch(() => undefined);
        return pending.prompt;
      }
      // Only a payment's outcome naming its policy asks the book: no other SMS pays a read.
      const policyNumber = sms?.params?.policyNumber;
      if (sms?.params?.reference === undefined) return undefined;
      if (typeof policyNumber !== 'string' || policyNumber === '') return undefined;
      return book.take(noticeKey(policyNumber)).then(
        (taken) => (taken ? noticePrompt(policyNumber) : undefined),
        () => undefined,
      );
    },

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

    ...(cardKey && {
      prefetch: {
        keyOf: (_sessionKey, address) => cardKey(address),
        deliver: (address, fields) => {
          const id = holderId(address);
          peeked.set(id, fields);
          peekedLanguages.set(id, languageFromFields(fields) ?? '');
        },
        alsoKeysOf: (address) =>
          (expectedSms.take(holderId(address)) ?? []).map((recipient) => {
            const key = cardKey(recipient);
            recipientOfCard.set(key, holderId(recipient));
            return key;
          }),
        deliverAlso: (key, fields) => {
          const id = recipientOfCard.take(key);
          if (id !== undefined) peekedLanguages.set(id, languageFromFields(fields) ?? '');
        },
      },
    }),

    expectSms(caller, recipient) {
      if (!cardKey) return;
      const id = holderId(caller);
      const others = (expectedSms.take(id) ?? []).filter(
        (r) => holderId(r) !== holderId(recipient),
      );
      expectedSms.set(id, [...others, recipient]);
    },

    languages: {
      chosen(holder) {
        const read = peekedLanguages.take(holderId(holder));
        if (read !== undefined) return read === '' ? undefined : read;
        return book.cardOf(holder).then((card) => card.language);
      },
      async choose(holder, locale) {
        const id = holderId(holder);
        // A card read before the choice must not answer for the language after it.
        peeked.delete(id);
        peekedLanguages.delete(id);
        await book.setLanguage(holder, locale);
        log.info({ channel: holder.channel, locale }, 'language chosen');
      },
    },

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
