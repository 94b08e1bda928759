import type { Api } from 'grammy';
import { createTyping, type TypingOptions } from '../../../conversation/index.js';
import type { Logger } from '../../../log/index.js';
import { describeTelegramError } from './telegram-errors.js';

/** Runs one chat's turn with "typing" shown in the chat while the turn is slow. */
export type ChatTyping = <T>(api: Api, chatId: number, turn: () => Promise<T>) => Promise<T>;

/**
 * "Typing" as Telegram's chat action, paced by the engine's `createTyping`: a failed action is
 * logged and never fails the turn (chat actions also skip the throttler, see telegram-bot.ts).
 */
export function chatTyping(options: TypingOptions, log: Logger): ChatTyping {
  const whileSlow = createTyping(options, (error) =>
    log.warn(describeTelegramError(error), 'telegram typing action failed'),
  );
  return (api, chatId, turn) => whileSlow(() => api.sendChatAction(chatId, 'typing'), turn);
}
