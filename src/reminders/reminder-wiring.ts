import type { PartnerClient } from '../api/index.js';
import type { Notifier } from '../channels/index.js';
import type { Logger } from '../log/index.js';
import type { RedisConnection } from '../redis/index.js';
import { createMemoryContactBook, createRedisContactBook } from './contact-book.js';
import {
  type CreditLifeMilestone,
  type CreditLifeReminders,
  createCreditLifeReminders,
} from './credit-life-reminders.js';
import { createReminderScheduler } from './reminder-scheduler.js';
import {
  createReminderService,
  type ReminderService,
  type ReminderServiceOptions,
} from './reminder-service.js';
import { createStaffDigest, type StaffDigestPoster } from './staff-digest.js';

/** Options of {@link createReminderWiring}. */
export interface ReminderWiringOptions
  extends Pick<
    ReminderServiceOptions,
    'notifiers' | 'logger' | 'serviceCode' | 'now' | 'onSent' | 'onRenewalAfterReminder'
  > {
  /** Shared with every instance; without it contacts and the schedule stay in this process. */
  readonly redis?: RedisConnection | undefined;
  /** Prefix of every key this server writes, e.g. `insurechat:`. */
  readonly prefix: string;
  /** Reads each policy just before reminding (renewed elsewhere, cancelled). */
  readonly client: Pick<PartnerClient, 'call' | 'paginate'>;
  readonly logger: Logger;
  /** Metrics: one credit-life reminder sent (to Slack). Must not throw. */
  readonly onCreditLifeSent?: (milestone: CreditLifeMilestone, channel: string) => void;
  /**
   * The staff's Slack channel, when configured: the morning digest and the credit-life premium
   * reminders (the lender is the policyholder, served by staff) go there.
   */
  readonly digest?: { readonly channel: string; readonly slack: () => Notifier | undefined };
}

/** The reminder service with its contact book and schedule, as the server runs it. */
export interface ReminderWiring {
  readonly service: ReminderService;
  /** The morning digest, when configured. */
  readonly digest?: StaffDigestPoster;
  /** Credit-life premium reminders to the digest channel, when configured. */
  readonly creditLife?: CreditLifeReminders;
  /** Stops the schedule (Redis itself stays open). */
  close(): Promise<void>;
}

/**
 * Builds the reminders for a server: contacts in Redis (or memory), the scan on a BullMQ job
 * scheduler (or an hourly timer), each policy read from the insurer before its reminder.
 */
export async function createReminderWiring(
  options: ReminderWiringOptions,
): Promise<ReminderWiring> {
  const { redis, client, logger } = options;
  const book = redis
    ? createRedisContactBook(redis, options.prefix)
    : createMemoryContactBook(options.now);
  const service = createReminderService({
    book,
    notifiers: options.notifiers,
    logger,
    serviceCode: options.serviceCode,
    ...(options.now ? { now: options.now } : {}),
    ...(options.onSent ? { onSent: options.onSent } : {}),
    ...(options.onRenewalAfterReminder
      ? { onRenewalAfterReminder: options.onRenewalAfterReminder }
      : {}),
    policyNow: async (policyId) => {
      const policy = await client.call('getMotorPolicy', { path: { policyId } });
      return { endDate: policy.endDate ?? undefined, status: policy.status ?? undefined };
    },
  });
  // The staff's Slack channel: the morning digest and credit-life reminders (claims in `book`).
  const staff = options.digest && {
    client,
    slack: options.digest.slack,
    channel: options.digest.channel,
    book,
    logger,
    ...(options.now ? { now: options.now } : {}),
  };
  const digest = staff ? createStaffDigest(staff) : undefined;
  const creditLife = staff
    ? createCreditLifeReminders({
        ...staff,
        ...(options.onCreditLifeSent ? { onSent: options.onCreditLifeSent } : {}),
      })
    : undefined;
  // Each run (hourly, 07:00–19:00 Lusaka) reminds motor holders and credit-life lenders, then
  // posts the digest if today's is not out.
  const scan = async () => {
    const summary = await service.scan();
    await creditLife?.scan();
    await digest?.post();
    return summary;
  };
  const scheduler = await createReminderScheduler({ redis, prefix: options.prefix, scan, logger });
  return {
    service,
    ...(digest ? { digest } : {}),
    ...(creditLife ? { creditLife } : {}),
    close: () => scheduler.close(),
  };
}
