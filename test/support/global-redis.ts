import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { type RedisProcess, startRedisProcess } from '../reliability/redis-process.js';

const configured = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function answers(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2_000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Vitest global setup: the suite needs a real Redis. When nothing answers at `REDIS_URL` (or the
 * default 127.0.0.1:6379), it starts a throwaway `redis-server` for this run and points
 * `REDIS_URL` at it; the test workers, forked after this, inherit the variable.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (await answers(configured)) return undefined;
  if (!hasRedisServer()) {
    throw new Error(
      `No Redis answers at ${configured} and there is no redis-server to start one: install redis-server or set REDIS_URL.`,
    );
  }
  const started: RedisProcess = await startRedisProcess();
  process.env.REDIS_URL = started.url;
  process.stdout.write(`No Redis at ${configured}; started a throwaway one at ${started.url}\n`);
  return () => started.stop();
}
