import { request } from 'undici';
import { z } from 'zod';
import type { ChannelAddress, Prompt } from '../../conversation/index.js';
import { CodedStatusError } from '../../errors/index.js';
import type { Notifier } from '../index.js';
import type { RenderPrompt } from '../shared/index.js';

/** Africa's Talking's answer to a send: one entry per recipient, `statusCode` 101 when sent. */
export const AfricasTalkingSmsResponse = z.object({
  SMSMessageData: z.object({
    Message: z.string().optional(),
    Recipients: z.array(
      z.looseObject({
        statusCode: z.number(),
        number: z.string().optional(),
        status: z.string().optional(),
        messageId: z.string().optional(),
      }),
    ),
  }),
});
/** Africa's Talking's answer to a send. */
export type AfricasTalkingSmsResponse = z.infer<typeof AfricasTalkingSmsResponse>;

/** Why an SMS was not sent. */
export type SmsDeliveryErrorCode =
  | 'SMS_HTTP_ERROR'
  | 'SMS_NETWORK_ERROR'
  | 'SMS_REJECTED'
  | 'SMS_BAD_RESPONSE';

/**
 * Raised when the SMS provider did not accept a message; `status` is the HTTP status or the
 * provider's per-recipient status code, when there was one.
 */
export class SmsDeliveryError extends CodedStatusError<SmsDeliveryErrorCode> {
  override readonly name = 'SmsDeliveryError';
}

/** Options of {@link createSmsNotifier}. */
export interface SmsNotifierOptions {
  /** The full messaging endpoint, e.g. `https://api.africastalking.com/version1/messaging`. */
  readonly url: string;
  readonly apiKey: string;
  readonly username: string;
  /** Sender id or short code; the provider's default when omitted. */
  readonly from?: string | undefined;
  readonly render: RenderPrompt;
  /**
   * The USSD short code. When given, a message whose conversation waits for an answer (a failed
   * payment to pay again) says how to get back to it: dial the code and choose Continue.
   */
  readonly serviceCode?: string | undefined;
  /**
   * A short stand-in for a link (an attachment's signed URL), so the message fits one segment;
   * links are sent as they are without it.
   */
  readonly shortLink?: (url: string) => Promise<string>;
  /** Per-request time limit. Default 10 000 ms. */
  readonly timeoutMs?: number;
  /**
   * A notice waiting for this number's next SMS (a purchase's reminder notice), taken once and
   * added below the message, so one SMS says both; `prompt` is the message it would ride on.
   */
  readonly takeNotice?: (
    address: string,
    prompt: Prompt,
  ) => Prompt | undefined | Promise<Prompt | undefined>;
}

const SENT = 101;
/** Characters of one GSM-7 SMS segment: a longer message is sent (and charged) as several. */
export const SMS_SEGMENT_CHARS = 160;

/** The Notifier for USSD users: an SMS through Africa's Talking's messaging API. */
export function createSmsNotifier(options: SmsNotifierOptions): Notifier {
  const timeoutMs = options.timeoutMs ?? 10_000;
  /** Sends one message to `to` through the provider; throws SmsDeliveryError when not sent. */
  const send = async (to: string, message: string): Promise<void> => {
    const form = new URLSearchParams({
      username: options.username,
      to: `+${to.replace(/^\+/, '')}`,
      message,
    });
    if (options.from) form.set('from', options.from);

    let status: number;
    let payload: unknown;
    try {
      const response = await request(options.url, {
        method: 'POST',
        headers: {
          apiKey: options.apiKey,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form.toString(),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      status = response.statusCode;
      payload = await response.body.json().catch(() => undefined);
    } catch (error) {
      throw new SmsDeliveryError('SMS_NETWORK_ERROR', 'the SMS provider could not be reached', {
        cause: error,
      });
    }
    if (status < 200 || status >= 300) {
      throw new SmsDeliveryError('SMS_HTTP_ERROR', `the SMS provider answered ${status}`, {
        status,
      });
    }
    const parsed = AfricasTalkingSmsResponse.safeParse(payload);
    if (!parsed.success) {
      throw new SmsDeliveryError('SMS_BAD_RESPONSE', 'the SMS provider sent an unexpected answer', {
        cause: parsed.error,
      });
    }
    const recipient = parsed.data.SMSMessageData.Recipients[0];
    if (recipient?.statusCode !== SENT) {
      throw new SmsDeliveryError(
        'SMS_REJECTED',
        `the SMS provider refused the message (${recipient?.status ?? 'no recipient'})`,
        {
          ...(recipient ? { status: recipient.statusCode } : {}),
        },
      );
    }
  };
  return {
    channel: 'ussd',
    async notify(address: ChannelAddress, prompt: Prompt): Promise<void> {
      const rendered = options.render(prompt, address.locale);
      const say = (key: string, params?: Prompt['params']) =>
        options.render(
          { key, input: 'none', final: true, ...(params ? { params } : {}) },
          address.locale,
        ).text;
      const attachments = prompt.attachments ?? [];
      const urls = await Promise.all(
        attachments.map((attachment) =>
          options.shortLink ? options.shortLink(attachment.url) : attachment.url,
        ),
      );
      // A link on its own means nothing in an SMS: each carries its label ("Certificate: …"),
      // unless the label alone would take the message past one segment (the text above it says
      // what was bought: the link is its certificate).
      const labelled = attachments.map((attachment, i) =>
        attachment.label ? `${say(attachment.label)}: ${urls[i]}` : (urls[i] ?? ''),
      );
      const resume =
        !prompt.final && options.serviceCode
          ? [say('sms.continueHint', { serviceCode: options.serviceCode })]
          : [];
      const body = (links: readonly string[]) => [rendered.text, ...links, ...resume].join('\n');
      const withLabels = body(labelled);
      const bare = body(urls);
      const text =
        withLabels.length > SMS_SEGMENT_CHARS && bare.length <= SMS_SEGMENT_CHARS
          ? bare
          : withLabels;
      const notice = await options.takeNotice?.(address.address, prompt);
      const noticeText = notice ? options.render(notice, address.locale).text : undefined;
      const together = noticeText === undefined ? text : `${text}\n${noticeText}`;
      // The notice rides on the message while both fit one segment; otherwise it follows on its
      // own: two one-segment messages cost less than one of three.
      if (noticeText === undefined || together.length <= SMS_SEGMENT_CHARS) {
        await send(address.address, together);
        return;
      }
      await send(address.address, text);
      // The message is out: a notice that fails now must not make a retry send it twice. The
      // notice only says reminders will come (they come regardless), so it is not retried.
      await send(address.address, noticeText).catch(() => undefined);
    },
  };
}
