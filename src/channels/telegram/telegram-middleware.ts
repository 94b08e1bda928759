import type { Bot } from 'grammy';
import type { Logger } from '../../log/index.js';
import type { OnceSet } from '../shared/index.js';
import type { TelegramConversation } from './telegram-conversation.js';
import { describeTelegramError } from './telegram-errors.js';

/** What the update middleware needs. */
export interface TelegramMiddlewareOptions {
  readonly conversation: TelegramConversation;
  readonly seen: OnceSet;
  readonly log: Logger;
}

/**
 * Adds what runs before every handler, in order: the one error boundary, once per update id,
 * and private chats only (the update's language is the language policy's, in the engine).
 */
export function useTelegramMiddleware(bot: Bot, options: TelegramMiddlewareOptions): void {
  const { conversation, seen, log } = options;

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

  // Private chats only: a group would share one session between its members.
  bot.chatType(['group', 'supergroup', 'channel']).use(() => undefined);
}
