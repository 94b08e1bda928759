import { Redis } from 'ioredis';
import type { RedisConnection } from './config.js';

/** Options of {@link connectRedis}. */
export interface ConnectRedisOptions {
  /** Wait for the first command before connecting; default false (start-up fails fast). */
  readonly lazyConnect?: boolean;
}

/**
 * Opens the configured Redis: one URL, or through Sentinels, which name the current master and
 * are asked again after a failover. Commands give up after 3 retries so a turn fails fast.
 */
export function connectRedis(
  connection: RedisConnection,
  options: ConnectRedisOptions = {},
): Redis {
  const common = { maxRetriesPerRequest: 3, lazyConnect: options.lazyConnect ?? false };
  if (connection.kind === 'url') return new Redis(connection.url, common);
  return new Redis({
    ...common,
    sentinels: connection.sentinels,
    name: connection.name,
    ...(connection.sentinelPassword === undefined
      ? {}
      : { sentinelPassword: connection.sentinelPassword }),
    ...(connection.password === undefined ? {} : { password: connection.password }),
  });
}
