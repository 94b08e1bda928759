import { Cluster, Redis } from 'ioredis';
import type { RedisTarget } from './redis-target.js';

/**
 * A Redis connection: standalone, through Sentinels, or a Cluster. Code that takes one runs the
 * same commands on all three; on a Cluster every multi-key command and script must keep its
 * keys in one hash slot (see {@link hashTag}).
 */
export type RedisConnection = Redis | Cluster;

/** Options of {@link connectRedis}. */
export interface ConnectRedisOptions {
  /** Wait for the first command before connecting; default false (start-up fails fast). */
  readonly lazyConnect?: boolean;
  /**
   * How often a command is retried on a dropped connection before it fails; default 3, so a turn
   * fails fast and the user gets the polite error. `null` retries forever (BullMQ's blocking
   * connections require it).
   */
  readonly maxRetriesPerRequest?: number | null;
}

/** How long a Cluster command waits before retrying while a failover or slot move settles. */
const CLUSTER_RETRY_DELAY_MS = 200;
/**
 * Retries (redirections included) before a Cluster command fails: with the delay above about
 * 8 s, long enough to ride out a failover of a cluster whose `cluster-node-timeout` is a few
 * seconds, so a payment route written just after the insurer was called is not lost to it.
 */
const CLUSTER_MAX_REDIRECTIONS = 40;

/**
 * The one connection factory: a URL, Sentinels (asked again for the master after a failover) or
 * a Cluster (slot map refreshed after a failover or a MOVED). Whoever receives the connection
 * does not need to know which it is.
 */
export function connectRedis(
  target: RedisTarget,
  options: ConnectRedisOptions = {},
): RedisConnection {
  const common = {
    maxRetriesPerRequest:
      options.maxRetriesPerRequest === undefined ? 3 : options.maxRetriesPerRequest,
    lazyConnect: options.lazyConnect ?? false,
  };
  switch (target.kind) {
    case 'url':
      return new Redis(target.url, common);
    case 'sentinel':
      return new Redis({
        ...common,
        sentinels: target.sentinels,
        name: target.name,
        ...(target.sentinelPassword === undefined
          ? {}
          : { sentinelPassword: target.sentinelPassword }),
        ...(target.password === undefined ? {} : { password: target.password }),
      });
    case 'cluster':
      return new Cluster(target.nodes, {
        lazyConnect: common.lazyConnect,
        // Reads go to masters: a turn must read what the previous turn wrote, and replicas lag.
        scaleReads: 'master',
        // Commands issued while the slot map is (re)loaded wait for it instead of failing.
        enableOfflineQueue: true,
        // A lost master: retry on the refreshed slot map once its replica has been promoted.
        retryDelayOnFailover: CLUSTER_RETRY_DELAY_MS,
        retryDelayOnClusterDown: CLUSTER_RETRY_DELAY_MS,
        retryDelayOnTryAgain: CLUSTER_RETRY_DELAY_MS,
        maxRedirections: CLUSTER_MAX_REDIRECTIONS,
        // Every seed unreachable: keep trying, at most every 2 s (readiness reports it meanwhile).
        clusterRetryStrategy: (times) => Math.min(100 * times, 2_000),
        redisOptions: {
          maxRetriesPerRequest: common.maxRetriesPerRequest,
          ...(target.password === undefined ? {} : { password: target.password }),
        },
      });
  }
}

/** True for a Redis Cluster: a script there may touch only keys of one slot. */
export function isCluster(connection: RedisConnection): boolean {
  return connection instanceof Cluster;
}

/**
 * A second connection to the same Redis for commands that block (BullMQ workers): same target
 * and password, but commands never give up, as BullMQ requires.
 */
export function duplicateForBlocking(connection: RedisConnection): RedisConnection {
  if (connection instanceof Cluster) {
    const { replyMapping, ...redisOptions } = connection.options.redisOptions ?? {};
    return connection.duplicate(undefined, {
      redisOptions: {
        ...redisOptions,
        ...(replyMapping === undefined ? {} : { replyMapping }),
        maxRetriesPerRequest: null,
      },
    });
  }
  return connection.duplicate({ maxRetriesPerRequest: null });
}

/**
 * A second connection to the same Redis whose commands issued in one event-loop turn leave in one
 * socket write, for the session store: it sends two scripts per conversation turn, and under load
 * a socket write per command costs more CPU than the rest of its Redis work. Each command still
 * waits only for its own reply, so a turn keeps its two round trips. Undefined for a Cluster,
 * whose node connections are its own.
 */
export function duplicateForBatching(connection: RedisConnection): Redis | undefined {
  if (connection instanceof Cluster) return undefined;
  // Not ioredis's auto-pipelining: it builds a Pipeline for each event-loop turn's commands,
  // about 0.13 M instructions a command (bench/RESULTS.md section 10), where holding the socket's
  // writes until the next tick batches them as well.
  const batching = connection.duplicate({ enableAutoPipelining: false });
  writeOncePerTick(batching);
  return batching;
}

/**
 * Holds the socket's writes of one event-loop turn and lets them out together at the next tick
 * (Node's `cork`/`uncork`: one `writev` for all of them). Commands queued while the connection is
 * not ready are sent by ioredis on reconnection as before.
 */
function writeOncePerTick(redis: Redis): void {
  const send = redis.sendCommand.bind(redis);
  let corked: Redis['stream'] | undefined;
  const uncork = () => {
    const socket = corked;
    corked = undefined;
    socket?.uncork();
  };
  redis.sendCommand = (command, stream) => {
    const socket = redis.stream;
    if (corked === undefined && stream === undefined && socket?.writable) {
      socket.cork();
      corked = socket;
      process.nextTick(uncork);
    }
    return send(command, stream);
  };
}

/**
 * Wraps `id` in a Cluster hash tag (`{id}`): every key built around the same tag lands in the
 * same slot, so one script can touch them all. `id` must not contain braces itself.
 */
export function hashTag(id: string): string {
  return `{${id}}`;
}
