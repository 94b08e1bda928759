import { type CreditLifePolicy, firstOf } from '../api/index.js';
import { dateOfDay, dayNumber, lusakaNow } from '../clock/index.js';
import type { Prompt } from '../conversation/index.js';
import { formatMoney } from '../money/index.js';
import { DEFAULT_QUIET_HOURS, isQuiet, type QuietHours } from './quiet-hours.js';
import type { ScanSummary } from './reminder-service.js';
import type { StaffDigestOptions } from './staff-digest.js';

/** Days before a credit-life period is due (14, 3), or `owed`: periods unpaid now. */
export type CreditLifeMilestone = 14 | 3 | 'owed';

/**
 * Options of {@link createCreditLifeReminders}: the digest's (the lender's staff are the
 * policyholder, so reminders go to the digest's channel; claims kept in the same store).
 */
export interface CreditLifeRemindersOptions extends StaffDigestOptions {
  readonly quietHours?: QuietHours;
  /** Metrics: one reminder sent. Must not throw. */
  readonly onSent?: (milestone: CreditLifeMilestone, channel: string) => void;
}

/** Credit-life premium reminders, sent to the staff's Slack channel. */
export interface CreditLifeReminders {
  /**
   * Reads every credit-life policy's cover state and reminds once per policy, period and
   * milestone, across instances: 14 and 3 days before the next period is due, and when periods
   * are owed now. In quiet hours it sends nothing.
   */
  scan(): Promise<ScanSummary>;
}

/** The scan reads this many credit-life policies at most (lenders, not borrowers: few). */
const MAX_POLICIES = 200;
const SENDING_TTL_SECONDS = 600;
const SENT_TTL_SECONDS = 60 * 86_400;

/** The milestone a period due in `daysLeft` days is at: the nearest one not yet passed. */
function milestoneOf(daysLeft: number): 14 | 3 | undefined {
  if (daysLeft < 0 || daysLeft > 14) return undefined;
  return daysLeft <= 3 ? 3 : 14;
}

/** Creates the credit-life reminders; the reminder schedule calls `scan` with the motor scan. */
export function createCreditLifeReminders(
  options: CreditLifeRemindersOptions,
): CreditLifeReminders {
  const now = options.now ?? Date.now;
  const quiet = options.quietHours ?? DEFAULT_QUIET_HOURS;
  const log = options.logger.child({ module: 'credit-life-reminders' });
  const address = { channel: 'slack', address: `:${options.channel}:`, locale: 'en' } as const;

  return {
    async scan() {
      const local = lusakaNow(now());
      const slack = options.slack();
      if (isQuiet(local.hour, quiet)) return { quiet: true, sent: 0, skipped: 0, failed: 0 };
      const counts = { sent: 0, skipped: 0, failed: 0 };
      if (!slack) return { quiet: false, ...counts };
      const today = dayNumber(local.date);
      let policies: CreditLifePolicy[];
      try {
        policies = await firstOf(
          options.client.paginate('getCreditLifePolicies', { query: { PageSize: 50 } }),
          MAX_POLICIES,
        );
      } catch (err) {
        log.warn({ err }, 'credit-life policies could not be listed; the next scan tries again');
        return { quiet: false, ...counts };
      }
      const productNames = await readProductNames();
      for (const policy of policies) {
        const policyId = String(policy.id);
        const policyNumber = policy.policyNumber ?? policyId;
        let cover: Awaited<ReturnType<typeof readCover>>;
        try {
          cover = await readCover(policyId);
        } catch (err) {
          log.warn({ err, policyId }, 'credit-life cover state could not be read');
          counts.failed += 1;
          continue;
        }
        if (!cover.currentPeriodEnd || /cancel|lapsed|closed/i.test(cover.status)) continue;
        const periodEnd = lusakaNow(Date.parse(cover.currentPeriodEnd)).date;
        const owed = cover.unpaidPeriods?.length ?? 0;
        const perPeriod = cover.premiumPerPeriod ?? 0;
        // The next period is due the day after the current one ends.
        const dueDay = dayNumber(periodEnd) + 1;
        const milestone: CreditLifeMilestone | undefined =
          owed > 0 ? 'owed' : milestoneOf(dueDay - today);
        if (milestone === undefined) continue;
        const key = `credit-life:${policyId}:${periodEnd}:${milestone}`;
        if (!(await options.book.claim(key, 'sending', SENDING_TTL_SECONDS))) {
          counts.skipped += 1;
          continue;
        }
        const params = {
          policyNumber,
          product: productNames.get(String(policy.productId)) ?? 'credit life',
          dueDate: dateOfDay(dueDay),
          currency: policy.currency ?? 'ZMW',
          amount: formatMoney(perPeriod * Math.max(owed, 1)),
          periods: Math.max(owed, 1),
          graceEndsAt: cover.graceEndsAt ? lusakaNow(Date.parse(cover.graceEndsAt)).date : '-',
        };
        const prompt: Prompt = {
          key: milestone === 'owed' ? 'reminder.creditLifeOwed' : 'reminder.creditLifeDue',
          params,
          input: 'none',
          final: true,
        };
        try {
          await slack.notify(address, prompt);
        } catch (err) {
          await options.book.release(key).catch(() => undefined);
          log.error({ err, policyId, milestone }, 'credit-life reminder could not be sent');
          counts.failed += 1;
          continue;
        }
        await options.book.confirm(key, 'sent', SENT_TTL_SECONDS);
        log.info({ policyId, milestone }, 'credit-life reminder sent');
        try {
          options.onSent?.(milestone, 'slack');
        } catch (err) {
          log.warn({ err }, 'reminder metrics hook threw');
        }
        counts.sent += 1;
      }
      return { quiet: false, ...counts };
    },
  };

  /** Product names by id, so staff read "Payroll loan cover", not a number; none if unreadable. */
  async function readProductNames(): Promise<Map<string, string>> {
    try {
      const products = await options.client.call('getCreditLifeProducts', {});
      return new Map(products.map((product) => [String(product.id), product.name]));
    } catch (err) {
      log.warn({ err }, 'credit-life products could not be read; reminders name no product');
      return new Map();
    }
  }

  function readCover(policyId: string) {
    return options.client.call('getCreditLifePolicyStatus', { path: { policyId } });
  }
}
