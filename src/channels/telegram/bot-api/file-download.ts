import { type Api, GrammyError } from 'grammy';
import { FileTooLargeError, type IncomingFile } from '../../../conversation/index.js';
import { TelegramFileError } from './telegram-errors.js';

/** Where the Bot API serves a bot's files; the URL embeds the bot token, so it is never logged. */
interface FileSource {
  readonly api: Api;
  readonly apiRoot: string;
  readonly token: string;
}

/**
 * The bytes of the file `fileId` (getFile, then the file download) and the name Telegram stores
 * it under; a file over `maxBytes` is refused as too large, before its download when Telegram
 * sized it.
 */
export async function downloadFile(
  source: FileSource,
  fileId: string,
  maxBytes: number,
): ReturnType<IncomingFile['read']> {
  const file = await source.api.getFile(fileId).catch((error: unknown) => {
    // The Bot API serves files up to 20 MB only: a bigger one it did not size is refused.
    if (error instanceof GrammyError && /file is too big/i.test(error.description)) {
      throw new FileTooLargeError();
    }
    throw error;
  });
  if ((file.file_size ?? 0) > maxBytes) throw new FileTooLargeError();
  if (!file.file_path) throw new TelegramFileError('Telegram returned no file_path');
  const response = await fetch(`${source.apiRoot}/file/bot${source.token}/${file.file_path}`);
  if (!response.ok) {
    throw new TelegramFileError(`Telegram file download answered ${response.status}`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > maxBytes) throw new FileTooLargeError();
  return { bytes, name: file.file_path.split('/').at(-1) };
}
