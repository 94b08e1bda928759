import type { PartnerClient } from '../api/index.js';
import type { Logger } from '../log/index.js';
import type { RedisConnection } from '../redis/index.js';
import { createMemoryContactBook, createRedisContactBook } from './contact-book.js';
import {
  createBullReminderScheduler,
  createMemoryReminderScheduler,
  type ReminderScheduler,
} from './reminder-scheduler.js';
import {
  createReminderService,
  type ReminderService,
  type ReminderServiceOptions,
} from './reminder-service.js';

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
  readonly client: Pick<PartnerClient, 'call'>;
  readonly logger: Logger;
}

/** The reminder service with its contact book and schedule, as the server runs it. */
export interface ReminderWiring {
  readonly service: ReminderService;
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
  const scan = () => service.scan();
  const scheduler: ReminderScheduler = redis
    ? await createBullReminderScheduler({ redis, prefix: options.prefix, scan, logger })
    : createMemoryReminderScheduler({ scan, logger });
  return { service, close: () => scheduler.close() };
}
