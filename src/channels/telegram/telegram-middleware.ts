import type { Bot } from 'grammy';
import { type CallerLanguages, supportedLocaleOf } from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import type { OnceSet } from '../shared/index.js';
import type { TelegramConversation } from './telegram-conversation.js';
import { describeTelegramError } from './telegram-errors.js';

/** What the update middleware needs. */
export interface TelegramMiddlewareOptions {
  readonly conversation: TelegramConversation;
  readonly seen: OnceSet;
  readonly languages?: CallerLanguages | undefined;
  readonly defaultLocale: string;
  readonly log: Logger;
}

/**
 * Adds what runs before every handler, in order: the one error boundary, once per update id,
 * the update's language, and private chats only.
 */
export function useTelegramMiddleware(bot: Bot, options: TelegramMiddlewareOptions): void {
  const { conversation, seen, languages, defaultLocale, log } = options;

  // First middleware: whether updates come by webhook or by polling, a failure is answered here,
  // logged without message text, with an apology to the user.
  bot.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      log.error(
        { ...describeTelegramError(error), updateId: ctx.update.update_id },
        'telegram update failed',
      );
      try {
        await conversation.notice(ctx, 'engine.error');
      } catch (apologyError) {
        log.error(describeTelegramError(apologyError), 'telegram apology failed');
      }
    }
  });

  // Telegram redelivers an update it thinks failed; the id is claimed before any effect.
  bot.use(async (ctx, next) => {
    if (!(await seen.claim(String(ctx.update.update_id)))) {
      log.info({ updateId: ctx.update.update_id }, 'telegram update already handled');
      return;
    }
    await next();
  });

  // The update's language: the one the user chose, else their Telegram app's when it is ours.
  bot.use(async (ctx, next) => {
    const chatId = ctx.chat?.id;
    let chosen: string | undefined;
    if (chatId !== undefined && languages) {
      try {
        chosen = await languages.chosen({ channel: 'telegram', address: String(chatId) });
      } catch (error) {
        log.warn(describeTelegramError(error), 'telegram user language could not be read');
      }
    }
    const spoken = chosen ?? supportedLocaleOf(ctx.from?.language_code) ?? defaultLocale;
    await conversation.inLocale(spoken, next);
  });

  // Private chats only: a group would share one session between its members.
  bot.chatType(['group', 'supergroup', 'channel']).use(() => undefined);
}
