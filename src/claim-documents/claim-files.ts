import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Prompt } from '../conversation/index.js';
import { CodedError } from '../errors/index.js';
import {
  documentFileName,
  type FileStore,
  MAX_FILE_BYTES,
  sniffDocumentType,
} from '../files/index.js';
import { createMemoryStore, type KeyValueStore } from '../storage/index.js';
import type { LinkedClaim } from './upload-links.js';

/** Why a file was not taken for a claim. */
export type ClaimFileRefusalCode = 'FILE_TYPE_REFUSED' | 'FILE_TOO_LARGE' | 'CLAIM_FILES_FULL';

/**
 * Raised when a file is not taken: its bytes are no photo or PDF, it is over the per-file limit,
 * or the claim has no room left. `key` and `params` are the refusal's words in the locale
 * catalogue (`files.refused.*`), the same on every channel.
 */
export class ClaimFileRefusedError extends CodedError<ClaimFileRefusalCode> {
  override readonly name = 'ClaimFileRefusedError';
  readonly key: string;
  readonly params: Readonly<Record<string, number>>;

  constructor(code: ClaimFileRefusalCode, key: string, params: Record<string, number>) {
    super(code, `claim file refused: ${code}`);
    this.key = key;
    this.params = params;
  }
}

/** Default most files one claim takes, over every channel: 10. */
export const CLAIM_MAX_FILES = 10;
/** Default most bytes one claim takes, over every channel: 50 MB (MiB). */
export const CLAIM_MAX_BYTES = 50 * 1024 * 1024;
/** How long a claim's count is kept after its last file: 90 days, as long as its files' URLs. */
const QUOTA_TTL_SECONDS = 90 * 24 * 3600;

/** A file offered for a claim, from any channel. */
export interface ClaimFileInput {
  readonly bytes: Uint8Array;
  /** The name the sender gave; its extension is replaced by the one the bytes show. */
  readonly name?: string | undefined;
  /** Whose file it is (a data subject id), so "Delete my data" finds it. */
  readonly owner?: string | undefined;
  /** The claim it is for: counted against that claim's files and bytes. */
  readonly claim?: LinkedClaim | undefined;
  /** Life of the returned URL; the file store's default when omitted. */
  readonly urlTtlSeconds?: number | undefined;
}

/** A file taken: stored under its real type, counted against its claim. */
export interface KeptClaimFile {
  readonly id: string;
  readonly url: string;
  readonly fileName: string;
  readonly contentType: string;
  /** Gives the claim its room back (the insurer did not take the file). */
  release(): Promise<void>;
}

/**
 * The one way a claim document is taken, on every channel (the documents page, WhatsApp,
 * Telegram): checked by its bytes, capped per file and per claim, then stored.
 */
export interface ClaimFiles {
  /** The largest file taken, in bytes: channels refuse bigger ones before downloading them. */
  readonly maxFileBytes: number;
  /**
   * Checks the bytes' real type (JPEG, PNG, WebP, HEIC/HEIF or PDF only) and size, reserves room
   * on the claim atomically, stores the file; throws {@link ClaimFileRefusedError}.
   */
  keep(file: ClaimFileInput): Promise<KeptClaimFile>;
  /** The refusal of `code`, with its words' figures (for a size known before any download). */
  refusal(code: ClaimFileRefusalCode): ClaimFileRefusedError;
}

/** Options of {@link createClaimFiles}. */
export interface ClaimFilesOptions {
  readonly files: Pick<FileStore, 'put' | 'signedUrl'>;
  /** Where each claim's count is kept, shared by every instance; this process when omitted. */
  readonly store?: KeyValueStore | undefined;
  /** Prefix of the count keys (the server's key prefix). */
  readonly keyPrefix?: string | undefined;
  readonly maxFilesPerClaim?: number | undefined;
  readonly maxBytesPerClaim?: number | undefined;
  /** Largest file; default {@link MAX_FILE_BYTES}. */
  readonly maxFileBytes?: number | undefined;
}

/** A size in MB as the refusals say it: whole when it is, else to one decimal. */
function megabytes(bytes: number): number {
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}

/** Creates the {@link ClaimFiles} every channel stores claim documents through. */
export function createClaimFiles(options: ClaimFilesOptions): ClaimFiles {
  const { files } = options;
  const store = options.store ?? createMemoryStore();
  const prefix = options.keyPrefix ?? '';
  const maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
  const limits = {
    fields: options.maxFilesPerClaim ?? CLAIM_MAX_FILES,
    total: options.maxBytesPerClaim ?? CLAIM_MAX_BYTES,
  };
  const quotaKey = (claim: LinkedClaim) => `${prefix}claim-files:${claim.line}:${claim.claimId}`;

  const refusal = (code: ClaimFileRefusalCode): ClaimFileRefusedError => {
    switch (code) {
      case 'FILE_TYPE_REFUSED':
        return new ClaimFileRefusedError(code, 'files.refused.type', {});
      case 'FILE_TOO_LARGE':
        return new ClaimFileRefusedError(code, 'files.refused.tooLarge', {
          mb: megabytes(maxFileBytes),
        });
      case 'CLAIM_FILES_FULL':
        return new ClaimFileRefusedError(code, 'files.refused.claimFull', {
          files: limits.fields,
          mb: megabytes(limits.total),
        });
    }
  };

  return {
    maxFileBytes,
    refusal,
    async keep(file) {
      const { bytes, claim } = file;
      if (bytes.byteLength > maxFileBytes) throw refusal('FILE_TOO_LARGE');
      const type = await sniffDocumentType(bytes);
      if (!type) throw refusal('FILE_TYPE_REFUSED');
      const fileName = documentFileName(file.name, type);
      // Room is taken before the bytes are stored: concurrent uploads cannot pass the cap.
      const reservation = randomUUID();
      let release = async (): Promise<void> => undefined;
      if (claim) {
        const key = quotaKey(claim);
        const room = await store.hashAddWithin(
          key,
          reservation,
          bytes.byteLength,
          limits,
          QUOTA_TTL_SECONDS,
        );
        if (!room) throw refusal('CLAIM_FILES_FULL');
        release = () => store.hashDelete(key, reservation);
      }
      try {
        const { id } = await files.put(bytes, {
          contentType: type.mime,
          fileName,
          ...(file.owner === undefined ? {} : { owner: file.owner }),
          // Kept as the claim's evidence from the start: while the insurer reports the claim.
          ...(claim === undefined ? {} : { claim }),
        });
        return {
          id,
          url: files.signedUrl(id, file.urlTtlSeconds),
          fileName,
          contentType: type.mime,
          release,
        };
      } catch (error) {
        await release();
        throw error;
      }
    },
  };
}

/**
 * What a step asking for a claim's document carries besides its words: the claim's line and id
 * (`params.claimLine`, `params.claimId`, written by the claim flow), so a file sent on any chat
 * channel counts against that claim.
 */
const PromptClaim = z.object({
  claimLine: z.enum(['credit-life', 'group-life']),
  claimId: z.string().min(1).max(64),
});

/** The claim a step asks a document for; undefined when the step names none. */
export function claimOfPrompt(prompt: Prompt | undefined): LinkedClaim | undefined {
  const parsed = PromptClaim.safeParse(prompt?.params ?? {});
  return parsed.success ? { line: parsed.data.claimLine, claimId: parsed.data.claimId } : undefined;
}
