import { autoRetry } from '@grammyjs/auto-retry';
import { type APIThrottlerOptions, apiThrottler } from '@grammyjs/transformer-throttler';
import { Bot, type Transformer } from 'grammy';
import { typedUploads } from './typed-upload.js';

/** Telegram's own Bot API server, where the bot is not pointed at another. */
export const TELEGRAM_API_ROOT = 'https://api.telegram.org';

/** How {@link createTelegramBot} reaches the Bot API. */
export interface TelegramBotOptions {
  readonly token: string;
  readonly apiRoot: string;
  /**
   * Outgoing rate limits (Bottleneck settings per global/group/private chat); default the
   * throttler's own, which match Telegram's published limits. `false` only for tests.
   */
  readonly throttle?: APIThrottlerOptions | false | undefined;
}

/**
 * The grammY bot with its outgoing API calls wrapped: typed document uploads, the throttler and
 * auto-retry on 429. Handlers are added by the channel.
 */
export function createTelegramBot(options: TelegramBotOptions): Bot {
  const bot = new Bot(options.token, { client: { apiRoot: options.apiRoot } });
  // Innermost: documents go out with their content type (application/pdf), which grammY's own
  // multipart cannot say; the throttler and auto-retry below wrap these calls like any other.
  bot.api.config.use(typedUploads(options.apiRoot, options.token));
  // Throttle first so bursts stay under Telegram's limits; auto-retry then absorbs any 429 that
  // still comes back. Network errors fail the call instead of retrying forever: the update is then
  // answered by the error boundary.
  if (options.throttle !== false) {
    bot.api.config.use(exceptTyping(apiThrottler(options.throttle ?? {})));
  }
  bot.api.config.use(
    exceptTyping(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 60, rethrowHttpErrors: true })),
  );
  return bot;
}

/**
 * A transformer that lets chat actions ("typing") past: one is no message, so it must not take
 * the chat's one-message-a-second turn from the answer, and one retried after a 429 could land
 * after the answer and show "typing" under it.
 */
function exceptTyping(transformer: Transformer): Transformer {
  return (prev, method, payload, signal) =>
    method === 'sendChatAction'
      ? prev(method, payload, signal)
      : transformer(prev, method, payload, signal);
}
