import type { Bot } from 'grammy';
import type { Logger } from '../../log/index.js';
import type { OnceSet } from '../shared/index.js';
import { describeTelegramError, downloadFile } from './bot-api/index.js';
import { parseCallbackData } from './render-telegram-message.js';
import { registerTelegramCommands } from './telegram-commands.js';
import type { TelegramConversation } from './telegram-conversation.js';
import { KeyboardTap } from './telegram-engine-middleware.js';

/** What handling an update needs besides the conversation. */
interface UpdateHandlingOptions {
  readonly seen: OnceSet;
  readonly log: Logger;
  /** The Bot API root and the bot token, for file downloads only; the token is never logged. */
  readonly apiRoot: string;
  readonly token: string;
}

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

/**
 * Adds what handles every update, in order: the one error boundary, once per update id, private
 * chats only (the update's language is the language policy's, in the engine), then the "/"
 * commands and what else the user sent, each one engine call with a neutral input.
 */
export function handleTelegramUpdates(
  bot: Bot,
  conversation: TelegramConversation,
  options: UpdateHandlingOptions,
): void {
  const { seen, log, apiRoot, token } = options;
  const failed = (error: unknown, updateId: number) =>
    log.error({ ...describeTelegramError(error), updateId }, 'telegram update failed');

  // First middleware: whether updates come by webhook or by polling, a failure is answered here,
  // logged without message text, with an apology to the user.
  bot.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      failed(error, ctx.update.update_id);
      try {
        await conversation.notice(ctx, 'engine.error');
      } catch (apologyError) {
        log.error(describeTelegramError(apologyError), 'telegram apology failed');
      }
    }
  });
  // The boundary answers every failure; this only catches what it could not.
  bot.catch((error) => failed(error.error, error.ctx.update.update_id));

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

  registerTelegramCommands(bot, conversation);

  // An inline-keyboard tap: the choice goes to the engine with the screen token its keyboard
  // carried, and the answer replaces the tapped message (the conversation policies say when it
  // is a new message instead: the language, a person, a reminder's button).
  bot.on('callback_query:data', async (ctx) => {
    // Stops the button's spinner at once; it carries no chat id, so the per-chat throttle
    // leaves it alone and the edit below is the tap's only call in that queue.
    await ctx.answerCallbackQuery();
    const { token, id } = parseCallbackData(ctx.callbackQuery.data);
    const tap = new KeyboardTap(token, ctx.callbackQuery.message?.message_id);
    await conversation.update(ctx, { kind: 'choice', id }, tap);
  });

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

  // Photos and documents: one engine call, with a reader of the file that the file-step policy
  // calls only on a step that asks for one (nothing is downloaded otherwise). An album (several
  // photos picked at once) comes as one update per photo, back to back; each waits its turn in
  // the engine's queue for the chat, and while another file of the chat is already in, the photo
  // step is not shown again (counted in this process: Telegram sends a chat's updates to the one
  // webhook, and an album's parts together).
  const filesInFlight = new Map<number, number>();
  bot.on(['message:photo', 'message:document'], async (ctx) => {
    const photo = ctx.message.photo?.at(-1);
    const document = ctx.message.document;
    const source = photo ?? document;
    if (!source) return;
    const read = (maxBytes: number) =>
      downloadFile({ api: ctx.api, apiRoot, token }, source.file_id, maxBytes);
    const chatId = ctx.chat.id;
    filesInFlight.set(chatId, (filesInFlight.get(chatId) ?? 0) + 1);
    try {
      await conversation.update(
        ctx,
        { kind: 'file', file: { size: source.file_size, name: document?.file_name, read } },
        undefined,
        () => (filesInFlight.get(chatId) ?? 0) > 1,
      );
    } finally {
      const left = (filesInFlight.get(chatId) ?? 1) - 1;
      if (left > 0) filesInFlight.set(chatId, left);
      else filesInFlight.delete(chatId);
    }
  });
}
