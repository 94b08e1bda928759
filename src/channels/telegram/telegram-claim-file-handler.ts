import { type Bot, GrammyError } from 'grammy';
import { FileTooLargeError } from '../../conversation/index.js';
import type { TelegramConversation } from './telegram-conversation.js';
import { TelegramFileError } from './telegram-errors.js';

/** What the claim-file handler needs. */
export interface ClaimFileHandlerOptions {
  readonly conversation: TelegramConversation;
  readonly apiRoot: string;
  /** The bot token, for the download URL only; never logged. */
  readonly token: string;
}

/**
 * Adds the handler of photos and documents: one engine call, with a reader of the file that the
 * file-step policy calls only on a step that asks for one (nothing is downloaded otherwise).
 * An album (several photos picked at once) comes as one update per photo, back to back; each
 * waits its turn in the engine's queue for the chat, and while another file of the chat is
 * already in, the photo step is not shown again (counted in this process: Telegram sends a
 * chat's updates to the one webhook, and an album's parts together).
 */
export function registerClaimFileHandler(bot: Bot, options: ClaimFileHandlerOptions): void {
  const { conversation, apiRoot, token } = options;
  /** Files of each chat handed to the engine and not yet answered. */
  const inFlight = new Map<number, number>();

  bot.on(['message:photo', 'message:document'], async (ctx) => {
    const photo = ctx.message.photo?.at(-1);
    const document = ctx.message.document;
    const source = photo ?? document;
    if (!source) return;
    const read = async (maxBytes: number) => {
      const file = await ctx.api.getFile(source.file_id).catch((error: unknown) => {
        // The Bot API serves files up to 20 MB only: a bigger one it did not size is refused.
        if (error instanceof GrammyError && /file is too big/i.test(error.description)) {
          throw new FileTooLargeError();
        }
        throw error;
      });
      if ((file.file_size ?? 0) > maxBytes) throw new FileTooLargeError();
      if (!file.file_path) throw new TelegramFileError('Telegram returned no file_path');
      // The download URL embeds the bot token: it is never logged.
      const response = await fetch(`${apiRoot}/file/bot${token}/${file.file_path}`);
      if (!response.ok) {
        throw new TelegramFileError(`Telegram file download answered ${response.status}`);
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.byteLength > maxBytes) throw new FileTooLargeError();
      return { bytes, name: file.file_path.split('/').at(-1) };
    };
    const chatId = ctx.chat.id;
    inFlight.set(chatId, (inFlight.get(chatId) ?? 0) + 1);
    try {
      await conversation.update(
        ctx,
        { kind: 'file', file: { size: source.file_size, name: document?.file_name, read } },
        undefined,
        () => (inFlight.get(chatId) ?? 0) > 1,
      );
    } finally {
      const left = (inFlight.get(chatId) ?? 1) - 1;
      if (left > 0) inFlight.set(chatId, left);
      else inFlight.delete(chatId);
    }
  });
}
