import type { Api, Bot } from 'grammy';
import { CHOOSE_LANGUAGE } from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import { setCommandMenu } from './bot-api/index.js';
import type { TelegramConversation } from './telegram-conversation.js';

/** The commands the bot offers in Telegram's "/" menu, registered with `setMyCommands`. */
const TELEGRAM_COMMANDS = ['start', 'help', 'cancel', 'status', 'human', 'language'] as const;

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

/**
 * Gives Telegram's "/" menu its entries in the language of the update being handled: the bot's
 * default (no `chatId`), or one chat's, in the language it chose.
 */
export function setTelegramCommandMenu(
  api: Api,
  conversation: TelegramConversation,
  log: Logger,
  chatId?: number,
): Promise<void> {
  const menu = TELEGRAM_COMMANDS.map((command) => ({
    command,
    description: conversation.say(`telegram.command.${command}`),
  }));
  return setCommandMenu(api, menu, log, chatId);
}
