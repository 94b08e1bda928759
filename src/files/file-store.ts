import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import {
  appendFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { CodedError } from '../errors/index.js';
import { MAX_FILE_BYTES } from './document-type.js';

/** What a stored file is, kept beside its bytes. */
export const FileMeta = z.object({
  contentType: z.string().min(1).max(200),
  fileName: z.string().min(1).max(255),
  size: z.number().int().nonnegative(),
  createdAt: z.string(),
});
/** What a stored file is. */
export type FileMeta = z.infer<typeof FileMeta>;

/** Options of {@link FileStore.put}. */
export interface PutOptions {
  readonly contentType: string;
  readonly fileName: string;
  /**
   * Whose file it is (a data subject id such as `telegram:<chatId>`), so "Delete my data" finds
   * it. Kept only as a keyed hash: no file on disk names the person.
   */
  readonly owner?: string;
}

/** Why a file could not be served. */
export type FileAccessErrorCode = 'FILE_NOT_FOUND' | 'FILE_SIGNATURE_INVALID' | 'FILE_URL_EXPIRED';

/** Raised when a file id is unknown or a signed URL is forged or expired. */
export class FileAccessError extends CodedError<FileAccessErrorCode> {
  override readonly name = 'FileAccessError';
}

/** A file opened for serving. */
export interface OpenedFile {
  readonly meta: FileMeta;
  readonly body: Readable;
}

/**
 * Claim documents and photos uploaded in chats, on local disk, handed out as HMAC-signed,
 * expiring URLs (`/files/:id?exp=&sig=`) that the insurer can fetch.
 */
export interface FileStore {
  /** Stores bytes and returns the new file's id. */
  put(body: Readable | Buffer | Uint8Array, options: PutOptions): Promise<{ id: string }>;
  /** An absolute URL valid for `ttlSeconds` (default one week). */
  signedUrl(id: string, ttlSeconds?: number): string;
  /** Checks a URL's `exp` and `sig`; throws {@link FileAccessError} when they do not hold. */
  verify(id: string, exp: string | undefined, sig: string | undefined): void;
  /** Opens a stored file; throws {@link FileAccessError} `FILE_NOT_FOUND`. */
  open(id: string): Promise<OpenedFile>;
  /** How many stored files `owner` uploaded (see {@link PutOptions.owner}). */
  countOwned(owner: string): Promise<number>;
  /** Deletes every file `owner` uploaded; resolves how many went. */
  forgetOwner(owner: string): Promise<number>;
  /** Deletes files (and owner lists) older than the store's retention; resolves how many went. */
  sweep(): Promise<number>;
  /** Removes the folder when it was a temporary one this store made. */
  close(): Promise<void>;
}

/** Options of {@link createFileStore}. */
export interface FileStoreOptions {
  /** Folder for the files; a fresh temporary folder (removed on close) when omitted. */
  readonly dir?: string | undefined;
  /** HMAC key for URL signatures; must be the same on every instance. */
  readonly signingSecret: string;
  /** Base URL the signed URLs start with, e.g. `https://bot.example.com`. */
  readonly publicUrl: string | (() => string);
  /** Clock for expiry, injectable in tests. */
  readonly now?: () => number;
  /** Largest file accepted, in bytes (default {@link MAX_FILE_BYTES}, 20 MB). */
  readonly maxBytes?: number;
  /** How long a file is kept after upload before {@link FileStore.sweep} deletes it; 30 days. */
  readonly retentionMs?: number;
}

const ID_PATTERN = /^[0-9a-f-]{36}$/;
const ONE_WEEK_SECONDS = 7 * 24 * 3600;
/** Files are kept 30 days: past the week a signed link lives, and the insurer's fetch of it. */
export const FILE_RETENTION_MS = 30 * 86_400_000;
/** Subfolder of the per-owner lists of file ids. */
const OWNERS = 'owners';

/** Creates a {@link FileStore} on local disk. */
export async function createFileStore(options: FileStoreOptions): Promise<FileStore> {
  const temporary = options.dir === undefined;
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'insurechat-files-')));
  await mkdir(dir, { recursive: true });
  const now = options.now ?? Date.now;
  const maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
  const baseUrl = (): string =>
    (typeof options.publicUrl === 'function' ? options.publicUrl() : options.publicUrl).replace(
      /\/+$/,
      '',
    );

  const sign = (id: string, exp: number): string =>
    createHmac('sha256', options.signingSecret).update(`${id}.${exp}`).digest('base64url');
  const dataPath = (id: string): string => join(dir, `${id}.bin`);
  const metaPath = (id: string): string => join(dir, `${id}.json`);
  const retentionMs = options.retentionMs ?? FILE_RETENTION_MS;
  // Keyed with the signing secret: the list's name says nothing about whose it is.
  const ownerPath = (owner: string): string =>
    join(
      dir,
      OWNERS,
      createHmac('sha256', options.signingSecret).update(`owner:${owner}`).digest('hex'),
    );
  await mkdir(join(dir, OWNERS), { recursive: true });

  /** The ids listed for `owner` whose files are still there. */
  const ownedIds = async (owner: string): Promise<string[]> => {
    let listed: string;
    try {
      listed = await readFile(ownerPath(owner), 'utf8');
    } catch {
      return [];
    }
    const ids = listed.split('\n').filter((id) => ID_PATTERN.test(id));
    const present = await Promise.all(
      ids.map(async (id) => ((await exists(metaPath(id))) ? id : undefined)),
    );
    return present.filter((id): id is string => id !== undefined);
  };
  const remove = async (id: string): Promise<void> => {
    await rm(dataPath(id), { force: true });
    await rm(metaPath(id), { force: true });
  };

  return {
    async put(body, putOptions) {
      const id = randomUUID();
      const target = dataPath(id);
      if (Buffer.isBuffer(body) || body instanceof Uint8Array) {
        if (body.byteLength > maxBytes) throw new RangeError(`file larger than ${maxBytes} bytes`);
        await writeFile(target, body);
      } else {
        let size = 0;
        const limited = body.map((chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) throw new RangeError(`file larger than ${maxBytes} bytes`);
          return chunk;
        });
        try {
          await pipeline(limited, createWriteStream(target));
        } catch (error) {
          await rm(target, { force: true });
          throw error;
        }
      }
      const { size } = await stat(target);
      const meta: FileMeta = FileMeta.parse({
        contentType: putOptions.contentType,
        fileName: putOptions.fileName,
        size,
        createdAt: new Date(now()).toISOString(),
      });
      await writeFile(metaPath(id), JSON.stringify(meta));
      if (putOptions.owner !== undefined) await appendFile(ownerPath(putOptions.owner), `${id}\n`);
      return { id };
    },

    signedUrl(id, ttlSeconds = ONE_WEEK_SECONDS) {
      const exp = Math.floor(now() / 1000) + ttlSeconds;
      return `${baseUrl()}/files/${encodeURIComponent(id)}?exp=${exp}&sig=${sign(id, exp)}`;
    },

    verify(id, exp, sig) {
      if (!ID_PATTERN.test(id) || exp === undefined || sig === undefined || !/^\d+$/.test(exp)) {
        throw new FileAccessError('FILE_SIGNATURE_INVALID', 'the file link is not valid');
      }
      const expected = Buffer.from(sign(id, Number(exp)));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        throw new FileAccessError('FILE_SIGNATURE_INVALID', 'the file link is not valid');
      }
      if (Number(exp) * 1000 < now()) {
        throw new FileAccessError('FILE_URL_EXPIRED', 'the file link has expired');
      }
    },

    async open(id) {
      if (!ID_PATTERN.test(id)) throw new FileAccessError('FILE_NOT_FOUND', 'no such file');
      let raw: string;
      try {
        raw = await readFile(metaPath(id), 'utf8');
      } catch (error) {
        throw new FileAccessError('FILE_NOT_FOUND', 'no such file', { cause: error });
      }
      const meta = FileMeta.parse(JSON.parse(raw));
      return { meta, body: createReadStream(dataPath(id)) };
    },

    async countOwned(owner) {
      return (await ownedIds(owner)).length;
    },

    async forgetOwner(owner) {
      const ids = await ownedIds(owner);
      for (const id of ids) await remove(id);
      await rm(ownerPath(owner), { force: true });
      return ids.length;
    },

    async sweep() {
      const before = now() - retentionMs;
      let removed = 0;
      for (const name of await readdir(dir)) {
        const id = /^([0-9a-f-]{36})\.json$/.exec(name)?.[1];
        if (!id || !(await createdBefore(metaPath(id), before))) continue;
        await remove(id);
        removed += 1;
      }
      // An owner list is appended to at each upload: one untouched that long names no live file.
      for (const name of await readdir(join(dir, OWNERS))) {
        const path = join(dir, OWNERS, name);
        if (await olderThan(path, before)) await rm(path, { force: true });
      }
      return removed;
    },

    async close() {
      if (temporary) await rm(dir, { recursive: true, force: true });
    },
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** True when the file at `path` was last written before `epochMs` (false when it is gone). */
async function olderThan(path: string, epochMs: number): Promise<boolean> {
  try {
    return (await stat(path)).mtimeMs < epochMs;
  } catch {
    return false;
  }
}

/** True when the file whose meta is at `path` was stored before `epochMs` (by the store's clock). */
async function createdBefore(path: string, epochMs: number): Promise<boolean> {
  try {
    const meta = FileMeta.parse(JSON.parse(await readFile(path, 'utf8')));
    return Date.parse(meta.createdAt) < epochMs;
  } catch {
    return false;
  }
}
