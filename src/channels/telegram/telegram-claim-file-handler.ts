import type { Bot } from 'grammy';
import type { FileStore } from '../../files/index.js';
import { subjectId } from '../../privacy/index.js';
import type { TelegramConversation } from './telegram-conversation.js';
import { TelegramFileError } from './telegram-errors.js';
import type { TelegramHandoff } from './telegram-handoff.js';

/** What the claim-file handler needs. */
export interface ClaimFileHandlerOptions {
  readonly conversation: TelegramConversation;
  readonly handoff: TelegramHandoff;
  /** Stores claim photos; without it a photo gets a "cannot take files here" answer. */
  readonly files?: Pick<FileStore, 'put' | 'signedUrl'> | undefined;
  readonly apiRoot: string;
  /** The bot token, for the download URL only; never logged. */
  readonly token: string;
  readonly maxFileBytes: number;
}

/**
 * Adds the handler of photos and documents: a step that asks for a file gets the stored file's
 * URL as a `user.photo` reply; anything else gets a hint and nothing is downloaded.
 */
export function registerClaimFileHandler(bot: Bot, options: ClaimFileHandlerOptions): void {
  const { conversation, handoff, apiRoot, token, maxFileBytes } = options;
  const { notice } = conversation;

  bot.on(['message:photo', 'message:document'], async (ctx) => {
    if (await handoff.withPerson(ctx)) return;
    const files = options.files;
    if (!files) {
      await notice(ctx, 'telegram.filesUnavailable');
      return;
    }
    const photo = ctx.message.photo?.at(-1);
    const document = ctx.message.document;
    const source = photo ?? document;
    if (!source) return;
    if ((source.file_size ?? 0) > maxFileBytes) {
      await notice(ctx, 'telegram.fileTooLarge');
      return;
    }
    // Only a step that asks for a file gets one: nothing is downloaded or kept otherwise.
    const step = await conversation.currentStep(ctx.chat.id);
    if (step?.input !== 'photo') {
      await conversation.hint(ctx, 'telegram.unexpectedFile', step);
      return;
    }
    const file = await ctx.api.getFile(source.file_id);
    if (!file.file_path) throw new TelegramFileError('Telegram returned no file_path');
    // The download URL embeds the bot token: it is never logged.
    const response = await fetch(`${apiRoot}/file/bot${token}/${file.file_path}`);
    if (!response.ok) {
      throw new TelegramFileError(`Telegram file download answered ${response.status}`);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength > maxFileBytes) {
      await notice(ctx, 'telegram.fileTooLarge');
      return;
    }
    const fileName = document?.file_name ?? file.file_path.split('/').at(-1) ?? 'photo.jpg';
    const contentType = document?.mime_type ?? 'image/jpeg';
    // Owned by the chat, so "Delete my data" finds it.
    const owner = subjectId({ channel: 'telegram', address: String(ctx.chat.id) });
    const stored = await files.put(bytes, { contentType, fileName, owner });
    const url = files.signedUrl(stored.id);
    await conversation.turn(ctx, { type: 'user.photo', url, fileName });
  });
}
