import { type ClaimFiles, createClaimFiles } from '../claim-documents/index.js';
import {
  createFileStore,
  createShortLinks,
  type FileStore,
  type ShortLinks,
  s3Backend,
} from '../files/index.js';
import { createHandoffStore, type HandoffStore } from '../handoff/index.js';
import { connectRedis, duplicateForBatching, type RedisConnection } from '../redis/index.js';
import { MemorySessionStore, RedisSessionStore, type SessionStore } from '../session/index.js';
import { createMemoryStore, createRedisStore, type KeyValueStore } from '../storage/index.js';
import type { ServerContext } from './server-context.js';

/** Where the server keeps state: Redis when configured (or given), else this process. */
export interface ServerStores {
  /** The shared connection, when there is Redis. */
  readonly redis: RedisConnection | undefined;
  /** The key-value port over that Redis, or this process. */
  readonly store: KeyValueStore;
  readonly sessions: SessionStore;
  readonly files: FileStore;
  /** Short stand-ins for signed file links, for SMS (one segment). */
  readonly shortLinks: ShortLinks;
  /** Claim documents from every channel: checked by their bytes, capped per file and per claim. */
  readonly claimFiles: ClaimFiles;
  readonly handoffs: HandoffStore;
}

/** Connects Redis (unless given) and builds the stores over it, or in this process without it. */
export async function buildStores(context: ServerContext): Promise<ServerStores> {
  const { config, deps, closers, keyPrefix } = context;
  let redis = deps.redis;
  if (!redis && config.redis) {
    const owned = connectRedis(config.redis);
    closers.push(async () => {
      await owned.quit().catch(() => owned.disconnect());
    });
    redis = owned;
  }
  const files =
    deps.fileStore ??
    (await createFileStore({
      dir: config.files.dir,
      // FILES_URL: a bucket every instance shares (files, owner markers, claim records).
      backend: config.files.s3 ? s3Backend(config.files.s3) : undefined,
      signingSecret: config.files.signingSecret,
      publicUrl: context.publicUrl,
      claimRetentionMs: config.files.claimRetentionMs,
      ...(deps.fileClock ? { now: deps.fileClock } : {}),
    }));
  if (!deps.fileStore) closers.push(() => files.close());
  const store = redis ? createRedisStore(redis) : createMemoryStore();
  return {
    redis,
    store,
    sessions: deps.sessions ?? sessionStore(context, redis),
    files,
    shortLinks: createShortLinks({ store, keyPrefix, publicUrl: context.publicUrl }),
    // Each claim's count on the shared store: every instance and channel counts the same files.
    claimFiles: createClaimFiles({
      files,
      store,
      keyPrefix,
      maxFilesPerClaim: config.claimFiles.maxFiles,
      maxBytesPerClaim: config.claimFiles.maxBytes,
    }),
    handoffs: createHandoffStore(store, keyPrefix),
  };
}

/** The session store: on its own batched connection where it can be (see duplicateForBatching). */
function sessionStore(context: ServerContext, redis: RedisConnection | undefined): SessionStore {
  if (!redis) return new MemorySessionStore();
  const batching = duplicateForBatching(redis);
  if (batching) {
    context.closers.push(async () => {
      await batching.quit().catch(() => batching.disconnect());
    });
  }
  return new RedisSessionStore({ redis: batching ?? redis, keyPrefix: context.keyPrefix });
}
