import type { Api } from 'grammy';
import type { BotCommand } from 'grammy/types';
import type { Logger } from '../../../log/index.js';
import { describeTelegramError } from './telegram-errors.js';

/**
 * Fills Telegram's "/" menu with `commands`: the bot's default menu, or one chat's own when
 * `chatId` is given (Telegram keeps a chat's menu over the default, and its per-language menus
 * follow the app's language, which is never Bemba or Nyanja). Best effort: a Bot API without it
 * still serves the bot, and the chat goes on without it.
 */
export async function setCommandMenu(
  api: Api,
  commands: readonly BotCommand[],
  log: Logger,
  chatId?: number,
): Promise<void> {
  try {
    await api.setMyCommands(
      commands,
      chatId === undefined ? undefined : { scope: { type: 'chat', chat_id: chatId } },
    );
  } catch (error) {
    const what =
      chatId === undefined ? 'telegram commands not registered' : 'telegram chat commands not set';
    log.warn(describeTelegramError(error), what);
  }
}
