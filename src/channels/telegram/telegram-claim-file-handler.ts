import type { Bot } from 'grammy';
import {
  ClaimFileRefusedError,
  type ClaimFiles,
  claimOfPrompt,
} from '../../claim-documents/index.js';
import { subjectId } from '../../privacy/index.js';
import type { TelegramConversation } from './telegram-conversation.js';
import { TelegramFileError } from './telegram-errors.js';
import type { TelegramHandoff } from './telegram-handoff.js';

/** What the claim-file handler needs. */
export interface ClaimFileHandlerOptions {
  readonly conversation: TelegramConversation;
  readonly handoff: TelegramHandoff;
  /**
   * Takes claim files (their real type, the per-file and per-claim caps); without it a photo gets
   * a "cannot take files here" answer.
   */
  readonly claimFiles?: Pick<ClaimFiles, 'keep' | 'maxFileBytes' | 'refusal'> | undefined;
  readonly apiRoot: string;
  /** The bot token, for the download URL only; never logged. */
  readonly token: string;
}

/**
 * Adds the handler of photos and documents: a step that asks for a file gets the stored file's
 * URL as a `user.photo` reply; anything else gets a hint and nothing is downloaded. A file refused
 * (not a photo or PDF by its bytes, over the size limit, the claim full) is answered with the
 * refusal's words, the same as every channel's, and the step stays.
 */
export function registerClaimFileHandler(bot: Bot, options: ClaimFileHandlerOptions): void {
  const { conversation, handoff, apiRoot, token } = options;
  const { notice } = conversation;

  bot.on(['message:photo', 'message:document'], async (ctx) => {
    if (await handoff.withPerson(ctx)) return;
    const claimFiles = options.claimFiles;
    if (!claimFiles) {
      await notice(ctx, 'telegram.filesUnavailable');
      return;
    }
    const photo = ctx.message.photo?.at(-1);
    const document = ctx.message.document;
    const source = photo ?? document;
    if (!source) return;
    const refuse = (error: ClaimFileRefusedError) => notice(ctx, error.key, error.params);
    // Telegram says the size first: a file over the limit is never downloaded.
    if ((source.file_size ?? 0) > claimFiles.maxFileBytes) {
      await refuse(claimFiles.refusal('FILE_TOO_LARGE'));
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
    try {
      const kept = await claimFiles.keep({
        bytes,
        name: document?.file_name ?? file.file_path.split('/').at(-1),
        // Owned by the chat, so "Delete my data" finds it.
        owner: subjectId({ channel: 'telegram', address: String(ctx.chat.id) }),
        claim: claimOfPrompt(step),
      });
      await conversation.turn(ctx, { type: 'user.photo', url: kept.url, fileName: kept.fileName });
    } catch (error) {
      if (!(error instanceof ClaimFileRefusedError)) throw error;
      await refuse(error);
    }
  });
}
