import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Location } from '../../src/files/index.js';

/** The bucket every test S3 server starts with. */
export const TEST_BUCKET = 'insurechat-test';

/** A real S3-compatible server (s3rver) in this process, on loopback, over a temporary folder. */
export interface TestS3Server {
  /** The server's URL (`S3_ENDPOINT`). */
  readonly endpoint: string;
  /** Where a store under `prefix` of the test bucket is, with the server's fixed credentials. */
  location(prefix: string): S3Location;
  close(): Promise<void>;
}

/** Starts s3rver on a free port with {@link TEST_BUCKET} created. */
export async function startS3Server(): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'insurechat-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    location: (prefix) => ({
      bucket: TEST_BUCKET,
      prefix,
      endpoint,
      region: 'us-east-1',
      // s3rver's own fixed key pair.
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      forcePathStyle: true,
    }),
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
