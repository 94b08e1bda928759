import type { Api, Bot } from 'grammy';
import type { BotCommand } from 'grammy/types';
import { CHOOSE_LANGUAGE } from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import type { TelegramConversation } from './telegram-conversation.js';
import { describeTelegramError } from './telegram-errors.js';

/** The commands the bot offers in Telegram's "/" menu, registered with `setMyCommands`. */
export const TELEGRAM_COMMANDS = [
  'start',
  'help',
  'cancel',
  'status',
  'human',
  'language',
] as const;

// The policyholder menu's entry for "my policies and cover" (flows/main-menu.ts), which /status
// opens directly.
const STATUS_MENU_CHOICE = 'policies';

/** Adds the "/" commands' handlers: one engine call each at most. */
export function registerTelegramCommands(bot: Bot, conversation: TelegramConversation): void {
  const { update, notice } = conversation;
  bot.command('start', (ctx) => update(ctx, { kind: 'command', command: 'menu' }));
  bot.command('help', (ctx) => notice(ctx, 'telegram.help'));
  bot.command('cancel', (ctx) => update(ctx, { kind: 'command', command: 'cancel' }));
  bot.command('status', (ctx) =>
    update(ctx, { kind: 'command', command: 'menu', pick: STATUS_MENU_CHOICE }),
  );
  // A command handler: grammY's second argument (`next`) is not an answer.
  bot.command('human', (ctx) => update(ctx, { kind: 'command', command: 'person' }));
  bot.command('language', (ctx) => update(ctx, { kind: 'choice', id: CHOOSE_LANGUAGE }));
  // Back to the assistant: the step the conversation waits on, answers kept.
  bot.command('done', (ctx) => update(ctx, { kind: 'command', command: 'done' }));
}

/** The "/" menu's entries, described in the language of the update being handled. */
function commandMenu(conversation: TelegramConversation): BotCommand[] {
  return TELEGRAM_COMMANDS.map((command) => ({
    command,
    description: conversation.say(`telegram.command.${command}`),
  }));
}

/** Fills Telegram's "/" menu; best effort (a Bot API without it still serves the bot). */
export async function registerCommandMenu(
  bot: Bot,
  conversation: TelegramConversation,
  log: Logger,
): Promise<void> {
  try {
    await bot.api.setMyCommands(commandMenu(conversation));
  } catch (error) {
    log.warn(describeTelegramError(error), 'telegram commands not registered');
  }
}

/**
 * Gives one chat the "/" menu in the language it chose, inside {@link TelegramConversation.inLocale}.
 * Telegram keeps a chat's own menu over the bot's default, and its per-language menus follow the
 * app's language, which is never Bemba or Nyanja. Best effort: the chat goes on without it.
 */
export async function setChatCommandMenu(
  api: Api,
  chatId: number,
  conversation: TelegramConversation,
  log: Logger,
): Promise<void> {
  try {
    await api.setMyCommands(commandMenu(conversation), {
      scope: { type: 'chat', chat_id: chatId },
    });
  } catch (error) {
    log.warn(describeTelegramError(error), 'telegram chat commands not set');
  }
}
