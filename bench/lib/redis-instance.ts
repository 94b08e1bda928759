import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** The Redis server a bench run uses, and how to give it back. */
export interface RedisInstance {
  readonly url: string;
  /** `private` when the bench started its own redis-server, `shared` for REDIS_URL. */
  readonly kind: 'private' | 'shared';
  stop(): Promise<void>;
}

/** Asks the OS for a TCP port nobody listens on. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPing(url: string, attempts = 50): Promise<void> {
  for (let i = 0; i < attempts; i += 1) {
    const client = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    // Refused connections while the server starts are expected; connect() reports them.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return;
    } catch {
      client.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`Redis at ${url} did not answer PING`);
}

/**
 * The bench's Redis. With REDIS_URL set, that server (shared: other traffic on it blurs the
 * command counts). Otherwise a private `redis-server` on a free port, so INFO commandstats and
 * memory deltas count only the bench's own traffic; falls back to 127.0.0.1:6379 when the binary
 * is missing.
 */
export async function openBenchRedis(): Promise<RedisInstance> {
  const configured = process.env.REDIS_URL;
  if (configured) return { url: configured, kind: 'shared', stop: async () => {} };
  const port = await freePort();
  let child: ChildProcess;
  try {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', reject);
    });
  } catch {
    return { url: 'redis://127.0.0.1:6379', kind: 'shared', stop: async () => {} };
  }
  const url = `redis://127.0.0.1:${port}`;
  await waitForPing(url);
  return {
    url,
    kind: 'private',
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Calls per command name from INFO commandstats (`cmdstat_get:calls=3,...`). */
export async function commandStats(redis: Redis): Promise<Map<string, number>> {
  const info = await redis.info('commandstats');
  const calls = new Map<string, number>();
  for (const line of info.split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match) calls.set(match[1]!, Number(match[2]));
  }
  return calls;
}

/** Commands run between two commandstats readings, without the bench's own INFO calls. */
export function commandDelta(
  before: Map<string, number>,
  after: Map<string, number>,
): Map<string, number> {
  const delta = new Map<string, number>();
  for (const [name, count] of after) {
    if (name === 'info') continue;
    const diff = count - (before.get(name) ?? 0);
    if (diff > 0) delta.set(name, diff);
  }
  return delta;
}

/** `used_memory` in bytes from INFO memory. */
export async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  const match = /used_memory:(\d+)/.exec(info);
  return match ? Number(match[1]) : Number.NaN;
}

/** Deletes every key under a prefix with SCAN (never KEYS, which blocks a shared server). */
export async function deletePrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}
