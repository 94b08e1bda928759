import type { Bot } from 'grammy';
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
 */
export function registerClaimFileHandler(bot: Bot, options: ClaimFileHandlerOptions): void {
  const { conversation, apiRoot, token } = options;

  bot.on(['message:photo', 'message:document'], async (ctx) => {
    const photo = ctx.message.photo?.at(-1);
    const document = ctx.message.document;
    const source = photo ?? document;
    if (!source) return;
    const read = async () => {
      const file = await ctx.api.getFile(source.file_id);
      if (!file.file_path) throw new TelegramFileError('Telegram returned no file_path');
      // The download URL embeds the bot token: it is never logged.
      const response = await fetch(`${apiRoot}/file/bot${token}/${file.file_path}`);
      if (!response.ok) {
        throw new TelegramFileError(`Telegram file download answered ${response.status}`);
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { bytes, name: file.file_path.split('/').at(-1) };
    };
    await conversation.update(ctx, {
      kind: 'file',
      file: { size: source.file_size, name: document?.file_name, read },
    });
  });
}
