import type { Prompt } from '../conversation/index.js';
import type { PurchaseRecord } from './reminder-service.js';
import type { ReminderState } from './reminder-state.js';
import type { TurnPeeks } from './turn-peeks.js';

/**
 * How long a purchase's reminder notice is held in the book for another instance's outcome SMS:
 * well past the wait before it goes alone.
 */
const NOTICE_CLAIM_TTL_SECONDS = 60;

/**
 * The contacts recorded at purchase ({@link ReminderService.recordPurchase}) and the "we will
 * remind you" notice a USSD buyer gets with the purchase's outcome SMS
 * ({@link ReminderService.takeNotice}).
 */
export function createPurchaseContacts(state: ReminderState, peeks: TurnPeeks) {
  const { options, book, log, now, safely } = state;
  const { peeked, holderId } = peeks;

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

  /** See {@link ReminderService.takeNotice}. */
  function takeNotice(
    address: string,
    sms?: Prompt,
  ): Prompt | undefined | Promise<Prompt | undefined> {
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
  }

  return { record, takeNotice };
}
