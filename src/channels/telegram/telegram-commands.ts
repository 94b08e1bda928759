import type { Api, Bot } from 'grammy';
import type { BotCommand } from 'grammy/types';
import { LANGUAGE_PROMPT } from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import type { TelegramConversation } from './telegram-conversation.js';
import { describeTelegramError } from './telegram-errors.js';
import type { TelegramHandoff } from './telegram-handoff.js';

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
export function registerTelegramCommands(
  bot: Bot,
  conversation: TelegramConversation,
  handoff: TelegramHandoff,
): void {
  const { sender, say, sendPrompt, notice } = conversation;
  const { leavingPerson } = handoff;

  bot.command(
    'start',
    leavingPerson(async (ctx) => {
      const chatId = ctx.chat?.id ?? 0;
      await sendPrompt(ctx.api, chatId, await conversation.startOver(chatId));
    }),
  );
  bot.command('help', (ctx) => notice(ctx, 'telegram.help'));
  bot.command(
    'cancel',
    leavingPerson((ctx) => conversation.turn(ctx, { type: 'user.cancel' })),
  );
  bot.command(
    'status',
    leavingPerson(async (ctx) => {
      const chatId = ctx.chat?.id ?? 0;
      await sendPrompt(ctx.api, chatId, await conversation.startOver(chatId, STATUS_MENU_CHOICE));
    }),
  );
  bot.command('human', handoff.askForPerson);
  bot.command('language', (ctx) => sendPrompt(ctx.api, ctx.chat.id, LANGUAGE_PROMPT));
  // Back to the assistant: the step the conversation waits on, answers kept.
  bot.command('done', async (ctx) => {
    const ended = await handoff.end(ctx.chat.id);
    const lead = say(ended ? 'handoff.back' : 'handoff.notOpen');
    const step = await conversation.currentStep(ctx.chat.id);
    if (!step) {
      await ctx.reply([lead.replace(/:$/, '.'), say('telegram.expect.start')].join(' '));
      return;
    }
    await sender.send(ctx.api, ctx.chat.id, conversation.messageOf(step, [lead]));
  });
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
