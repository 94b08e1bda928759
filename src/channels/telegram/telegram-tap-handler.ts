import type { Bot, Context } from 'grammy';
import {
  type CallerLanguages,
  CHOOSE_LANGUAGE,
  HANDOFF_AGREE,
  HANDOFF_DECLINE,
  LANGUAGE_PROMPT,
  localeOfChoice,
  TALK_TO_A_PERSON,
} from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import { isMenuShortcut } from '../../reminders/index.js';
import { parseCallbackData } from './render-telegram-message.js';
import { setChatCommandMenu } from './telegram-commands.js';
import type { TelegramConversation } from './telegram-conversation.js';
import { KeyboardTap } from './telegram-engine-middleware.js';
import { describeTelegramError } from './telegram-errors.js';
import type { TelegramHandoff } from './telegram-handoff.js';

/** What the tap handler needs besides the conversation. */
export interface TapHandlerOptions {
  readonly conversation: TelegramConversation;
  readonly handoff: TelegramHandoff;
  readonly languages?: CallerLanguages | undefined;
  readonly log: Logger;
}

/**
 * Adds the handler of inline-keyboard taps: the language and "Talk to a person" entries are the
 * channel's own; any other choice goes to the conversation, and the next screen replaces the
 * tapped message.
 */
export function registerTapHandler(bot: Bot, options: TapHandlerOptions): void {
  const { conversation, handoff, languages, log } = options;
  const { engine, sender, say, sessionOf, optionsOf, messageOf } = conversation;

  /**
   * Remembers the user's language, then shows where their conversation is (or the menu), in it.
   * Not remembered (the store failed): this answer is still in it, the next one as before.
   */
  async function chooseLanguage(ctx: Context, chatId: number, picked: string): Promise<void> {
    try {
      await languages?.choose({ channel: 'telegram', address: String(chatId) }, picked);
    } catch (error) {
      log.warn(describeTelegramError(error), 'telegram user language could not be saved');
    }
    await conversation.inLocale(picked, async () => {
      const lead = say('language.changed');
      // The step the conversation is on, or (a chat with none) the entry menu, opened.
      const step = await engine.peek(sessionOf(chatId), optionsOf(chatId));
      if (!step.final) await sender.send(ctx.api, chatId, messageOf(step, [lead]));
      else await ctx.reply([lead, say('telegram.expect.start')].join(' '));
      // After the answer, so the user never waits on it.
      await setChatCommandMenu(ctx.api, chatId, conversation, log);
    });
  }

  bot.on('callback_query:data', async (ctx) => {
    // Stops the button's spinner at once; it carries no chat id, so the per-chat throttle
    // leaves it alone and the edit below is the tap's only call in that queue.
    await ctx.answerCallbackQuery();
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const messageId = ctx.callbackQuery.message?.message_id;
    const { token, id } = parseCallbackData(ctx.callbackQuery.data);
    if (id === CHOOSE_LANGUAGE && languages) {
      await sender.edit(ctx.api, chatId, messageId, messageOf(LANGUAGE_PROMPT));
      return;
    }
    const picked = localeOfChoice(id);
    if (picked !== undefined) {
      await chooseLanguage(ctx, chatId, picked);
      return;
    }
    if (id === TALK_TO_A_PERSON) {
      await handoff.askForPerson(ctx);
      return;
    }
    if (id === HANDOFF_AGREE || id === HANDOFF_DECLINE) {
      await handoff.answerConsent(ctx, id === HANDOFF_AGREE ? 'agreed' : 'declined');
      return;
    }
    if (await handoff.withPerson(ctx)) return;
    const choice = { type: 'user.choice', id } as const;
    if (isMenuShortcut(id)) {
      // A reminder's "Renew now" or "Stop reminders" belongs to no step of the conversation: it
      // opens the menu afresh and picks there, in a new message under the reminder.
      await conversation.sendPrompt(ctx.api, chatId, await conversation.startOver(chatId, id));
      return;
    }
    // Keyboards sent before screens carried a token are taken as they are.
    const tap = token === undefined ? undefined : new KeyboardTap(token);
    const prompt = await engine.turn(sessionOf(chatId), choice, {
      ...optionsOf(chatId),
      ...(tap ? { channelRequest: tap } : {}),
    });
    const before = tap?.stale ? [say('telegram.menuExpired')] : [];
    await sender.edit(ctx.api, chatId, messageId, messageOf(prompt, before));
  });
}
