import { Redis } from 'ioredis';
import type { RedisConnection } from '../../src/redis/index.js';

/**
 * Calls `onCommand` for every command sent on `redis` and on the batching duplicates made of it
 * later (the session store's own connection, `duplicateForBatching`); BullMQ's blocking duplicates are left
 * out, as they only wait for jobs. Each command waits for its own reply: one round trip each.
 * Standalone and Cluster both send every command through `sendCommand` (a Cluster's own
 * redirections and retries go to its node connections, so each command counts once).
 */
export function countRedisCommands(redis: RedisConnection, onCommand: () => void): void {
  const count = (connection: RedisConnection) => {
    const counted = connection as unknown as { sendCommand: (...args: unknown[]) => unknown };
    const send = counted.sendCommand.bind(connection);
    counted.sendCommand = (...args: unknown[]) => {
      onCommand();
      return send(...args);
    };
  };
  count(redis);
  if (redis instanceof Redis) {
    const duplicate = redis.duplicate.bind(redis);
    redis.duplicate = (override) => {
      const connection = duplicate(override);
      // The session store's batching connection says how it pipelines; BullMQ's say nothing.
      if (override !== undefined && 'enableAutoPipelining' in override) count(connection);
      return connection;
    };
  }
}
