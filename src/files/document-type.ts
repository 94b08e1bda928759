import type { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';

/**
 * The largest file any channel takes: 20 MB (MiB), Telegram's own getFile limit, so the same
 * figure is true on the documents page, WhatsApp and Telegram.
 */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

/**
 * The types a claim document may be, by the type its bytes show (never the sender's word):
 * photos from a phone's camera and PDF scans, each with the extension it is stored under.
 */
export const DOCUMENT_TYPES: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'application/pdf': 'pdf',
};

/** A document's type as its bytes show it: the MIME type and the extension it is stored with. */
export interface DocumentType {
  readonly mime: string;
  readonly ext: string;
}

/**
 * The type `bytes` really are, when it is one {@link DOCUMENT_TYPES} takes; undefined for anything
 * else (an executable, HTML, SVG, text, an unknown format), whatever name or type it was sent with.
 */
export async function sniffDocumentType(bytes: Uint8Array): Promise<DocumentType | undefined> {
  const found = await fileTypeFromBuffer(bytes);
  if (!found) return undefined;
  // file-type names an HEIF still `image/heif` with the extension `heic`: ours comes from the MIME.
  const ext = DOCUMENT_TYPES[found.mime];
  return ext === undefined ? undefined : { mime: found.mime, ext };
}

/** Text types the flows' own files may be (a staff bordereau): no signature to sniff. */
const TEXT_TYPES: ReadonlySet<string> = new Set(['text/csv']);

/**
 * The type a file the flows fetched from the insurer (a certificate, a bordereau) is stored as:
 * the type its bytes show when that is a document type; the declared text type when its bytes
 * show no format at all (a CSV); anything else is kept as plain bytes, never as what it claimed.
 */
export async function storedType(bytes: Uint8Array, declared: string): Promise<string> {
  const found = await fileTypeFromBuffer(bytes);
  if (found) return DOCUMENT_TYPES[found.mime] === undefined ? OCTET_STREAM : found.mime;
  const type = declared.split(';')[0]?.trim().toLowerCase() ?? '';
  return TEXT_TYPES.has(type) ? type : OCTET_STREAM;
}

const OCTET_STREAM = 'application/octet-stream';

/**
 * The bytes of `body`, to be typed before they are stored; stops reading with a RangeError (as
 * the file store does) once they pass `maxBytes`, so an endless stream is not held in memory.
 */
export async function readAtMost(body: Readable, maxBytes = MAX_FILE_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    if (size > maxBytes) {
      body.destroy();
      throw new RangeError(`file larger than ${maxBytes} bytes`);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** What a stored file may be named: letters, digits, `.`, `-`, `_` and spaces, 120 at most. */
const UNSAFE_NAME = /[^\w.\- ]/g;

/**
 * The name a document is stored under: the sender's name made safe, its extension replaced by the
 * one its bytes show (`invoice.jpg` holding a PDF is kept as `invoice.pdf`); `document.<ext>` when
 * the sender gave none.
 */
export function documentFileName(declared: string | undefined, type: DocumentType): string {
  const safe = (declared ?? '').replace(UNSAFE_NAME, '_').trim().slice(0, 120);
  const stem = safe
    .replace(/\.[^.]*$/, '')
    .replace(/^\.+/, '')
    .trim();
  return `${stem || 'document'}.${type.ext}`;
}

/**
 * A percent-encoded file name (the documents page's `x-file-name`); undefined when the encoding is
 * broken (`%E0%A4%A`), so the caller falls back to a default name instead of failing.
 */
export function decodeFileName(encoded: string | undefined): string | undefined {
  if (!encoded) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}
