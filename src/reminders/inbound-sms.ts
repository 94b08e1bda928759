import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import { z } from 'zod';
import type { Notifier } from '../channels/index.js';
import type { Prompt } from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import { normaliseCaller } from '../msisdn/index.js';
import type { ReminderService } from './reminder-service.js';

/** Path of the SMS gateway's incoming-message callback. */
export const INBOUND_SMS_PATH = '/sms/inbound';

/** The form Africa's Talking posts for an SMS sent to our short code. */
export const InboundSmsBody = z.object({
  from: z.string().min(3).max(30),
  to: z.string().max(30).optional(),
  text: z.string().max(1600).default(''),
  id: z.string().max(200).optional(),
  date: z.string().max(50).optional(),
  linkId: z.string().max(200).optional(),
});

/** Words that turn reminders off and back on (the usual keywords for SMS consent). */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'END', 'QUIT', 'CANCEL']);
const START_WORDS = new Set(['START', 'UNSTOP', 'YES']);

/** Options of {@link registerInboundSms}. */
export interface InboundSmsOptions {
  /** The gateway's own check (its shared secret and address allow-list, as for USSD). */
  readonly guard: preHandlerHookHandler;
  readonly reminders: Pick<ReminderService, 'setStopped' | 'languages'>;
  /** The SMS notifier, to confirm the change (read per message); without it the change is silent. */
  readonly sms: () => Notifier | undefined;
  readonly logger: Logger;
}

/**
 * Registers `POST /sms/inbound`: an SMS reading STOP turns the sender's renewal reminders off,
 * START turns them back on, each confirmed by SMS; anything else is acknowledged and ignored.
 * Unauthenticated → 401/403 (the guard), unreadable → 400, all without effect.
 */
export function registerInboundSms(app: FastifyInstance, options: InboundSmsOptions): void {
  const log = options.logger.child({ module: 'inbound-sms' });
  app.post(INBOUND_SMS_PATH, { preHandler: options.guard }, async (request, reply) => {
    const body = InboundSmsBody.safeParse(request.body);
    const msisdn = body.success ? normaliseCaller(body.data.from) : undefined;
    if (!body.success || msisdn === undefined) {
      return reply.code(400).send({ error: 'invalid inbound SMS' });
    }
    const word = body.data.text.trim().toUpperCase();
    const stop = STOP_WORDS.has(word);
    if (!stop && !START_WORDS.has(word)) {
      log.info('inbound SMS without a keyword ignored');
      return reply.send({ received: true });
    }
    const holder = { channel: 'ussd', address: msisdn } as const;
    await options.reminders.setStopped(holder, stop);
    const confirmation: Prompt = {
      key: stop ? 'reminder.stopped' : 'reminder.started',
      input: 'none',
      final: true,
    };
    try {
      const locale = (await options.reminders.languages.chosen(holder)) ?? 'en';
      await options.sms()?.notify({ ...holder, locale }, confirmation);
    } catch (err) {
      // The change stands; only its confirmation was lost.
      log.warn({ err }, 'reminder consent confirmation SMS not sent');
    }
    return reply.send({ received: true });
  });
}
