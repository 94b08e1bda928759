import type { Bot } from 'grammy';
import type { TelegramConversation } from './telegram-conversation.js';

/** Messages the bot cannot use: answered with a hint of what the current step expects. */
const UNSUPPORTED = [
  'message:sticker',
  'message:voice',
  'message:audio',
  'message:video',
  'message:video_note',
  'message:animation',
  'message:location',
  'message:venue',
  'message:poll',
  'message:dice',
] as const;

/** Adds the handlers of a shared contact, typed text and the messages the bot cannot use. */
export function registerMessageHandlers(bot: Bot, conversation: TelegramConversation): void {
  bot.on('message:contact', async (ctx) => {
    const contact = ctx.message.contact;
    // Only the sender's own number is vouched for by Telegram. Someone else's contact card
    // (forwarded, or picked from the address book) would let a caller speak as that person's
    // phone, so it is refused and never reaches the flow.
    if (contact.user_id !== undefined && contact.user_id === ctx.from.id) {
      await conversation.update(ctx, { kind: 'contact', phone: contact.phone_number });
    } else {
      await conversation.notice(ctx, 'telegram.notYourContact');
    }
  });

  bot.on([...UNSUPPORTED], (ctx) =>
    conversation.update(ctx, { kind: 'look', lead: 'chat.unsupported', hint: true }),
  );

  bot.on('message:text', (ctx) =>
    conversation.update(ctx, { kind: 'text', text: ctx.message.text }),
  );
}
