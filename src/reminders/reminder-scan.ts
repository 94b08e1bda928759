import { dayNumber, lusakaNow } from '../clock/index.js';
import type { Prompt } from '../conversation/index.js';
import type { ContactRecord } from './contact-book.js';
import { DEFAULT_QUIET_HOURS, isQuiet } from './quiet-hours.js';
import { REMINDERS_OFF_CHOICE, RENEW_CHOICE_PREFIX } from './reminder-choices.js';
import type { PolicyNow, ScanSummary } from './reminder-service.js';
import type { ReminderState } from './reminder-state.js';
import { MILESTONES, type Milestone, milestoneOf } from './renewal-milestones.js';

const SENDING_TTL_SECONDS = 600;
const SENT_TTL_SECONDS = 60 * 86_400;
/** Covers ended this long ago leave the due index. */
const FORGET_AFTER_DAYS = 30;

/**
 * The scan of {@link ReminderService.scan}: covers ending at a milestone, each holder reminded
 * once per policy, period and milestone, claimed in the book before sending.
 */
export function createReminderScan(state: ReminderState): () => Promise<ScanSummary> {
  const { options, book, log, now, safely } = state;
  const quiet = options.quietHours ?? DEFAULT_QUIET_HOURS;

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

  return async function scan(): Promise<ScanSummary> {
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
  };
}
