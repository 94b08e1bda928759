import type { Readable } from 'node:stream';
import { request } from 'undici';
import type { Attachment } from '../conversation/index.js';
import {
  documentFileName,
  type FileStore,
  readAtMost,
  sniffDocumentType,
  storedType,
} from '../files/index.js';
import type { StaffFile } from './slack-thread.js';

/** Slack's host for private file downloads: the only one the bot token is sent to by default. */
export const SLACK_FILE_ORIGIN = 'https://files.slack.com';

/** Where staff files are kept for the customer, and how they are fetched from Slack. */
export interface HandoffFiles {
  readonly store: Pick<FileStore, 'put' | 'signedUrl'>;
  /** The bot token Slack's private file URLs need (`Authorization: Bearer`). */
  readonly botToken: string;
  /**
   * Origins the token may be sent to: Slack's file host, plus a local Slack's (`SLACK_API_URL`).
   * A signed event naming any other host is not fetched: the token never leaves Slack.
   */
  readonly origins: readonly string[];
  /** The one file size limit (`MAX_FILE_BYTES`): larger files are not sent, and staff are told. */
  readonly maxBytes: number;
  /** Per-download time limit. Default 20 000 ms. */
  readonly timeoutMs?: number;
}

/** What became of one staff file: a document for the customer, or why not. */
export type StaffFileOutcome =
  | { readonly kind: 'kept'; readonly attachment: Attachment }
  | { readonly kind: 'tooLarge' }
  | { readonly kind: 'failed' };

const UNSAFE_NAME = /[^\w.\- ]/g;

/** The name a staff file is sent under: the document's own when its bytes show one, else made safe. */
function fileNameOf(file: StaffFile, type: Awaited<ReturnType<typeof sniffDocumentType>>): string {
  const declared = file.name ?? file.title;
  if (type) return documentFileName(declared, type);
  const safe = (declared ?? '').replace(UNSAFE_NAME, '_').trim().slice(0, 120);
  return safe.replace(/^\.+/, '') || 'file';
}

/**
 * Fetches a file a staff member attached in Slack with the bot token, keeps it in the file store
 * (owned by the customer, so "Delete my data" finds it) and answers a document attachment under
 * a signed link: each channel sends it as a document, or as a short link by SMS.
 */
export async function keepStaffFile(
  files: HandoffFiles,
  file: StaffFile,
  owner: string,
): Promise<StaffFileOutcome> {
  // Slack's own word on the size: a file over the limit is never downloaded.
  if (file.size !== undefined && file.size > files.maxBytes) return { kind: 'tooLarge' };
  const url = file.url_private_download;
  if (!url || !files.origins.includes(originOf(url))) return { kind: 'failed' };
  const timeoutMs = files.timeoutMs ?? 20_000;
  let bytes: Buffer;
  try {
    const response = await request(url, {
      headers: { authorization: `Bearer ${files.botToken}` },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    // Without the right token Slack answers its sign-in page, not the file.
    const type = String(response.headers['content-type'] ?? '');
    if (response.statusCode !== 200 || type.startsWith('text/html')) {
      await response.body.dump();
      return { kind: 'failed' };
    }
    bytes = await readAtMost(response.body as unknown as Readable, files.maxBytes);
  } catch (error) {
    return error instanceof RangeError ? { kind: 'tooLarge' } : { kind: 'failed' };
  }
  const sniffed = await sniffDocumentType(bytes);
  const fileName = fileNameOf(file, sniffed);
  const contentType = await storedType(bytes, file.mimetype ?? '');
  const { id } = await files.store.put(bytes, { contentType, fileName, owner });
  return {
    kind: 'kept',
    attachment: {
      kind: 'document',
      url: files.store.signedUrl(id),
      label: 'handoff.staffFileLabel',
      fileName,
    },
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}
