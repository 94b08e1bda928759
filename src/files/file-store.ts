import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { CodedError } from '../errors/index.js';
import { MAX_FILE_BYTES, readAtMost } from './document-type.js';
import { diskBackend, type FileBackend } from './file-backend.js';
import { type RecordFolder, recordFolder } from './record-folder.js';

/** The insurer's claim a stored file is evidence for: its book (line) and the insurer's id. */
export const FileClaim = z.object({
  line: z.enum(['credit-life', 'group-life']),
  claimId: z.string().min(1).max(64),
});
/** The claim a stored file is evidence for. */
export type FileClaim = z.infer<typeof FileClaim>;

/** What a stored file is, kept beside its bytes. */
export const FileMeta = z.object({
  contentType: z.string().min(1).max(200),
  fileName: z.string().min(1).max(255),
  size: z.number().int().nonnegative(),
  createdAt: z.string(),
  /** The owner's keyed hash (see {@link PutOptions.owner}), never the owner. */
  ownerKey: z.string().optional(),
  /** The claim the file is evidence for: it is kept while the claim needs it. */
  claim: FileClaim.optional(),
  /** The claim's status when the sweep last saw it, and when it last saw it change. */
  claimSeen: z.object({ status: z.string().optional(), changedAt: z.string() }).optional(),
});
/** What a stored file is. */
export type FileMeta = z.infer<typeof FileMeta>;

/** What the insurer says of a claim now: still reported (in a status), no longer, or unknown. */
export type ClaimReport =
  | { readonly kind: 'reported'; readonly status: string }
  | { readonly kind: 'gone' }
  | { readonly kind: 'unknown' };

/** Asks the insurer about a claim; the server builds it over the Partner API client. */
export type ClaimReporter = (claim: FileClaim) => Promise<ClaimReport>;

/** Options of {@link FileStore.put}. */
export interface PutOptions {
  readonly contentType: string;
  readonly fileName: string;
  /**
   * Whose file it is (a data subject id such as `telegram:<chatId>`), so "Delete my data" finds
   * it. Kept only as a keyed hash: no stored object names the person.
   */
  readonly owner?: string;
  /** The claim the file is evidence for (see {@link FileStore.keepFor}). */
  readonly claim?: FileClaim;
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
 * Claim documents and photos uploaded in chats, certificates and bordereaux, on local disk or in
 * an S3-compatible bucket, handed out as HMAC-signed URLs (`/files/:id?sig=`, `&exp=` when the
 * link expires) that the insurer and users fetch.
 */
export interface FileStore {
  /** Stores bytes and returns the new file's id. */
  put(body: Readable | Buffer | Uint8Array, options: PutOptions): Promise<{ id: string }>;
  /** An absolute URL valid for `ttlSeconds` (default one week): links shown to users. */
  signedUrl(id: string, ttlSeconds?: number): string;
  /**
   * The absolute URL the insurer holds: no expiry, it works as long as the file is kept (a
   * deleted file answers 404).
   */
  link(id: string): string;
  /** Checks a URL's `exp` (when it has one) and `sig`; throws {@link FileAccessError} if not. */
  verify(id: string, exp: string | undefined, sig: string | undefined): void;
  /** The file id of a URL this store signed and that still verifies; undefined otherwise. */
  idOf(url: string): string | undefined;
  /** Opens a stored file; throws {@link FileAccessError} `FILE_NOT_FOUND`. */
  open(id: string): Promise<OpenedFile>;
  /**
   * Records that a stored file is evidence for `claim`: from now on it is kept while the insurer
   * reports the claim, and for the claim retention after it last saw it change. Resolves the
   * file's meta; throws {@link FileAccessError} `FILE_NOT_FOUND`.
   */
  keepFor(id: string, claim: FileClaim): Promise<FileMeta>;
  /** How many stored files `owner` uploaded (see {@link PutOptions.owner}). */
  countOwned(owner: string): Promise<number>;
  /** Deletes every file `owner` uploaded; resolves how many went. */
  forgetOwner(owner: string): Promise<number>;
  /**
   * Deletes files past their retention; resolves how many went. A file with no claim goes
   * `retentionMs` after upload. A claim's file goes only when `report` says the insurer no longer
   * reports the claim and `claimRetentionMs` has passed since its status was last seen to change;
   * a report that fails or is unknown (or no `report`) keeps it.
   */
  sweep(report?: ClaimReporter): Promise<number>;
  /**
   * Small records kept beside the files under `folder` (no slashes), as durable as the files:
   * the sweep and owner lists never touch them (they read the top level and `owned/` only).
   */
  records(folder: string): RecordFolder;
  /** Releases the backend (removes the folder when it was a temporary one this store made). */
  close(): Promise<void>;
}

/** Options of {@link createFileStore}. */
export interface FileStoreOptions {
  /** Folder for the files; a fresh temporary folder (removed on close) when omitted. */
  readonly dir?: string | undefined;
  /** Where the objects live instead of `dir` (an S3-compatible bucket: see `s3Backend`). */
  readonly backend?: FileBackend | undefined;
  /** HMAC key for URL signatures; must be the same on every instance. */
  readonly signingSecret: string;
  /** Base URL the signed URLs start with, e.g. `https://bot.example.com`. */
  readonly publicUrl: string | (() => string);
  /** Clock for expiry and retention, injectable in tests. */
  readonly now?: () => number;
  /** Largest file accepted, in bytes (default {@link MAX_FILE_BYTES}, 20 MB). */
  readonly maxBytes?: number;
  /** How long a file with no claim is kept after upload; 30 days. */
  readonly retentionMs?: number;
  /** How long a claim's file outlives the claim's last seen change once unreported; 365 days. */
  readonly claimRetentionMs?: number;
}

const ID_PATTERN = /^[0-9a-f-]{36}$/;
const ONE_WEEK_SECONDS = 7 * 24 * 3600;
const DAY_MS = 86_400_000;
/** Files with no claim are kept 30 days: past the week a user's link lives. */
export const FILE_RETENTION_MS = 30 * DAY_MS;
/** A claim's files are kept a year after the claim last changed and the insurer dropped it. */
export const CLAIM_FILE_RETENTION_MS = 365 * DAY_MS;
/** Folder of per-owner markers, one empty object per file: `owned/<owner hash>/<id>`. */
const OWNED = 'owned';
/** Folder of the per-owner lists older versions appended to (local disk only). */
const LEGACY_OWNERS = 'owners';

/** Creates a {@link FileStore} on local disk (the default) or over the given backend. */
export async function createFileStore(options: FileStoreOptions): Promise<FileStore> {
  const backend =
    options.backend ??
    (options.dir === undefined
      ? diskBackend(await mkdtemp(join(tmpdir(), 'insurechat-files-')), true)
      : diskBackend(options.dir));
  const now = options.now ?? Date.now;
  const maxBytes = options.maxBytes ?? MAX_FILE_BYTES;
  const retentionMs = options.retentionMs ?? FILE_RETENTION_MS;
  const claimRetentionMs = options.claimRetentionMs ?? CLAIM_FILE_RETENTION_MS;
  const baseUrl = (): string =>
    (typeof options.publicUrl === 'function' ? options.publicUrl() : options.publicUrl).replace(
      /\/+$/,
      '',
    );
  const hmac = (payload: string): Buffer =>
    createHmac('sha256', options.signingSecret).update(payload).digest();
  // An expiring link signs `<id>.<exp>`, a kept one `<id>.keep`: `exp` is digits only, so
  // neither signature can pass as the other.
  const sign = (id: string, exp: number | 'keep'): string =>
    hmac(`${id}.${exp}`).toString('base64url');
  // Keyed with the signing secret: the owner's folder name says nothing about whose it is.
  const ownerKey = (owner: string): string => hmac(`owner:${owner}`).toString('hex');
  const metaKey = (id: string): string => `${id}.json`;
  const dataKey = (id: string): string => `${id}.bin`;

  const readMeta = async (id: string): Promise<FileMeta | undefined> => {
    const raw = await backend.readText(metaKey(id));
    if (raw === undefined) return undefined;
    try {
      return FileMeta.parse(JSON.parse(raw));
    } catch {
      return undefined;
    }
  };
  const writeMeta = (id: string, meta: FileMeta): Promise<void> =>
    backend.write(metaKey(id), Buffer.from(JSON.stringify(FileMeta.parse(meta))));
  const remove = async (id: string, meta: FileMeta | undefined): Promise<void> => {
    await backend.delete(dataKey(id));
    await backend.delete(metaKey(id));
    if (meta?.ownerKey) await backend.delete(`${OWNED}/${meta.ownerKey}/${id}`);
  };
  /** The ids whose files `owner` uploaded and that are still there. */
  const ownedIds = async (owner: string): Promise<string[]> => {
    const key = ownerKey(owner);
    const ids = new Set<string>();
    for await (const marker of backend.list(`${OWNED}/${key}/`)) {
      const id = marker.slice(marker.lastIndexOf('/') + 1);
      if (ID_PATTERN.test(id)) ids.add(id);
    }
    const legacy = await backend.readText(`${LEGACY_OWNERS}/${key}`);
    for (const id of legacy?.split('\n') ?? []) if (ID_PATTERN.test(id)) ids.add(id);
    const present = await Promise.all(
      [...ids].map(async (id) => ((await readMeta(id)) ? id : undefined)),
    );
    return present.filter((id): id is string => id !== undefined);
  };
  const verify = (id: string, exp: string | undefined, sig: string | undefined): void => {
    const invalid = () =>
      new FileAccessError('FILE_SIGNATURE_INVALID', 'the file link is not valid');
    if (!ID_PATTERN.test(id) || sig === undefined || (exp !== undefined && !/^\d+$/.test(exp))) {
      throw invalid();
    }
    const expected = Buffer.from(sign(id, exp === undefined ? 'keep' : Number(exp)));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    if (exp !== undefined && Number(exp) * 1000 < now()) {
      throw new FileAccessError('FILE_URL_EXPIRED', 'the file link has expired');
    }
  };

  return {
    async put(body, putOptions) {
      const id = randomUUID();
      const bytes = await collect(body, maxBytes);
      const owned = putOptions.owner === undefined ? undefined : ownerKey(putOptions.owner);
      const createdAt = new Date(now()).toISOString();
      const meta: FileMeta = FileMeta.parse({
        contentType: putOptions.contentType,
        fileName: putOptions.fileName,
        size: bytes.length,
        createdAt,
        ...(owned ? { ownerKey: owned } : {}),
        ...(putOptions.claim
          ? { claim: putOptions.claim, claimSeen: { changedAt: createdAt } }
          : {}),
      });
      await backend.write(dataKey(id), bytes);
      if (owned) await backend.write(`${OWNED}/${owned}/${id}`, Buffer.alloc(0));
      // The meta last: a file is there once its meta is.
      await writeMeta(id, meta);
      return { id };
    },

    signedUrl(id, ttlSeconds = ONE_WEEK_SECONDS) {
      const exp = Math.floor(now() / 1000) + ttlSeconds;
      return `${baseUrl()}/files/${encodeURIComponent(id)}?exp=${exp}&sig=${sign(id, exp)}`;
    },

    link(id) {
      return `${baseUrl()}/files/${encodeURIComponent(id)}?sig=${sign(id, 'keep')}`;
    },

    verify,

    idOf(url) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return undefined;
      }
      const id = /^\/files\/([0-9a-f-]{36})$/.exec(parsed.pathname)?.[1];
      if (!id) return undefined;
      try {
        verify(
          id,
          parsed.searchParams.get('exp') ?? undefined,
          parsed.searchParams.get('sig') ?? undefined,
        );
        return id;
      } catch {
        return undefined;
      }
    },

    async open(id) {
      const meta = ID_PATTERN.test(id) ? await readMeta(id) : undefined;
      const body = meta ? await backend.read(dataKey(id)) : undefined;
      if (!meta || !body) throw new FileAccessError('FILE_NOT_FOUND', 'no such file');
      return { meta, body };
    },

    async keepFor(id, claim) {
      const meta = ID_PATTERN.test(id) ? await readMeta(id) : undefined;
      if (!meta) throw new FileAccessError('FILE_NOT_FOUND', 'no such file');
      const same = meta.claim?.line === claim.line && meta.claim.claimId === claim.claimId;
      if (same) return meta;
      const kept: FileMeta = {
        ...meta,
        claim,
        claimSeen: { changedAt: new Date(now()).toISOString() },
      };
      await writeMeta(id, kept);
      return kept;
    },

    async countOwned(owner) {
      return (await ownedIds(owner)).length;
    },

    async forgetOwner(owner) {
      const ids = await ownedIds(owner);
      for (const id of ids) await remove(id, await readMeta(id));
      await backend.delete(`${LEGACY_OWNERS}/${ownerKey(owner)}`);
      return ids.length;
    },

    async sweep(report) {
      const at = now();
      // One question per claim per sweep, however many files it has.
      const asked = new Map<string, Promise<ClaimReport>>();
      const ask = (claim: FileClaim): Promise<ClaimReport> => {
        const key = `${claim.line}:${claim.claimId}`;
        let answer = asked.get(key);
        if (!answer) {
          answer = report
            ? report(claim).catch((): ClaimReport => ({ kind: 'unknown' }))
            : Promise.resolve({ kind: 'unknown' });
          asked.set(key, answer);
        }
        return answer;
      };
      let removed = 0;
      for await (const key of backend.list('')) {
        const id = /^([0-9a-f-]{36})\.json$/.exec(key)?.[1];
        const meta = id ? await readMeta(id) : undefined;
        if (!id || !meta) continue;
        if (!meta.claim) {
          if (Date.parse(meta.createdAt) < at - retentionMs) {
            await remove(id, meta);
            removed += 1;
          }
          continue;
        }
        const seen = meta.claimSeen ?? { changedAt: meta.createdAt };
        const answer = await ask(meta.claim);
        if (answer.kind === 'reported' && answer.status !== seen.status) {
          // A new status restarts the clock: the claim is moving, its evidence still matters.
          await writeMeta(id, {
            ...meta,
            claimSeen: { status: answer.status, changedAt: new Date(at).toISOString() },
          });
        } else if (answer.kind === 'gone' && Date.parse(seen.changedAt) < at - claimRetentionMs) {
          await remove(id, meta);
          removed += 1;
        }
      }
      // Lists older versions appended to: one naming no file still there goes.
      for await (const key of backend.list(`${LEGACY_OWNERS}/`)) {
        const listed = (await backend.readText(key))?.split('\n') ?? [];
        const live = await Promise.all(
          listed.filter((id) => ID_PATTERN.test(id)).map(async (id) => readMeta(id)),
        );
        if (!live.some(Boolean)) await backend.delete(key);
      }
      return removed;
    },

    records(folder) {
      return recordFolder(backend, folder);
    },

    async close() {
      await backend.close();
    },
  };
}

/** The bytes of `body`, refusing more than `maxBytes` with a RangeError. */
async function collect(body: Readable | Buffer | Uint8Array, maxBytes: number): Promise<Buffer> {
  if (!(Buffer.isBuffer(body) || body instanceof Uint8Array)) return readAtMost(body, maxBytes);
  if (body.byteLength > maxBytes) throw new RangeError(`file larger than ${maxBytes} bytes`);
  return Buffer.from(body);
}
