import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { z } from 'zod';
import { CodedError } from '../errors/index.js';
import type { FileBackend } from './file-backend.js';

/** Raised when the bucket could not be reached or refused a request (the cause says why). */
export class FileStoreUnavailableError extends CodedError<'FILE_STORE_UNAVAILABLE'> {
  override readonly name = 'FileStoreUnavailableError';
}

/** Where an S3-compatible bucket is and how to reach it (FILES_URL and the FILES_S3_* settings). */
export const S3Location = z.object({
  bucket: z.string().min(3).max(63),
  /** Key prefix inside the bucket, without leading or trailing slash; '' for none. */
  prefix: z.string(),
  /** The server's URL for a non-AWS store (MinIO, Ceph, R2…); unset: AWS itself. */
  endpoint: z.string().optional(),
  region: z.string().min(1),
  /** Unset: the SDK's own chain (environment, instance role…). */
  credentials: z.object({ accessKeyId: z.string(), secretAccessKey: z.string() }).optional(),
  /** Bucket in the path (`host/bucket/key`), as most self-hosted servers need. */
  forcePathStyle: z.boolean(),
});
/** Where an S3-compatible bucket is and how to reach it. */
export type S3Location = z.infer<typeof S3Location>;

/** `s3://bucket/some/prefix` → bucket and prefix; undefined when it is no such URL. */
export function parseS3Url(url: string): { bucket: string; prefix: string } | undefined {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!match?.[1]) return undefined;
  return { bucket: match[1], prefix: (match[2] ?? '').replace(/^\/+|\/+$/g, '') };
}

/** True when the store answered that the key is not there (a missing bucket is an error). */
function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    error.name !== 'NoSuchBucket' &&
    (error.name === 'NoSuchKey' ||
      error.name === 'NotFound' ||
      error.$metadata.httpStatusCode === 404)
  );
}

/**
 * A {@link FileBackend} in an S3-compatible bucket, through the AWS SDK v3: every instance that
 * names the same bucket and prefix sees the same files, owner markers and claim records.
 */
export function s3Backend(location: S3Location): FileBackend {
  const client = new S3Client({
    region: location.region,
    forcePathStyle: location.forcePathStyle,
    ...(location.endpoint ? { endpoint: location.endpoint } : {}),
    ...(location.credentials ? { credentials: location.credentials } : {}),
    // The SDK's default CRC checksums are refused by many self-hosted S3 servers; S3 itself
    // still checks Content-MD5 where an operation requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = location.bucket;
  const full = (key: string): string => (location.prefix ? `${location.prefix}/${key}` : key);
  const strip = location.prefix ? location.prefix.length + 1 : 0;

  // One error for whatever the bucket answers wrongly: callers (and the HTTP error boundary)
  // see a store that is unavailable, never an SDK error's status taken for the client's fault.
  const unavailable = (error: unknown) =>
    new FileStoreUnavailableError('FILE_STORE_UNAVAILABLE', 'the file bucket did not answer', {
      cause: error,
    });
  const get = async (key: string) => {
    try {
      return await client.send(new GetObjectCommand({ Bucket, Key: full(key) }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw unavailable(error);
    }
  };
  const send = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw unavailable(error);
    }
  };

  return {
    async write(key, body) {
      await send(() =>
        client.send(
          new PutObjectCommand({ Bucket, Key: full(key), Body: body, ContentLength: body.length }),
        ),
      );
    },
    async read(key) {
      const body = (await get(key))?.Body;
      // In Node the SDK's body is a Readable (IncomingMessage) with its helpers mixed in.
      return body instanceof Readable ? body : undefined;
    },
    async readText(key) {
      const body = (await get(key))?.Body;
      return body ? send(() => body.transformToString('utf8')) : undefined;
    },
    async delete(key) {
      await send(() => client.send(new DeleteObjectCommand({ Bucket, Key: full(key) })));
    },
    async *list(prefix) {
      let token: string | undefined;
      do {
        const page = await send(() =>
          client.send(
            new ListObjectsV2Command({
              Bucket,
              Prefix: full(prefix),
              Delimiter: '/',
              ...(token ? { ContinuationToken: token } : {}),
            }),
          ),
        );
        for (const item of page.Contents ?? []) if (item.Key) yield item.Key.slice(strip);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async close() {
      client.destroy();
    },
  };
}
