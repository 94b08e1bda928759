import type { OutboxSms } from '../../src/sandbox/sms-outbox.js';

/** The one-time code SMS (catalogue key `motor.sms.code`), with the code as its first group. */
const CODE_SMS = /^Your insurechat code: (\d{6})\./;

/**
 * The code of the newest one-time code SMS among `messages`. Found by what the SMS says, never
 * by its position: a purchase notice or an outcome SMS to the same phone may land after it.
 * Throws, listing what was there, when no code SMS was sent.
 */
export function newestCode(messages: readonly Pick<OutboxSms, 'message'>[]): string {
  const codes = messages.flatMap((sms) => CODE_SMS.exec(sms.message)?.[1] ?? []);
  const code = codes.at(-1);
  if (!code) {
    throw new Error(`no code SMS among: ${JSON.stringify(messages.map((sms) => sms.message))}`);
  }
  return code;
}
