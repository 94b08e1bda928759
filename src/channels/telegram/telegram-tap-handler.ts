import type { Bot } from 'grammy';
import { parseCallbackData } from './render-telegram-message.js';
import type { TelegramConversation } from './telegram-conversation.js';
import { KeyboardTap } from './telegram-engine-middleware.js';

/**
 * Adds the handler of inline-keyboard taps: the choice goes to the engine with the screen token
 * its keyboard carried, and the answer replaces the tapped message (the conversation policies
 * say when it is a new message instead: the language, a person, a reminder's button).
 */
export function registerTapHandler(bot: Bot, conversation: TelegramConversation): void {
  bot.on('callback_query:data', async (ctx) => {
    // Stops the button's spinner at once; it carries no chat id, so the per-chat throttle
    // leaves it alone and the edit below is the tap's only call in that queue.
    await ctx.answerCallbackQuery();
    const { token, id } = parseCallbackData(ctx.callbackQuery.data);
    const tap = new KeyboardTap(token, ctx.callbackQuery.message?.message_id);
    await conversation.update(ctx, { kind: 'choice', id }, tap);
  });
}
