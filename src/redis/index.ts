// Redis for every part that keeps shared state: where it is (configuration), the one connection
// factory (standalone, Sentinel or Cluster) and the hash-tag rule that keeps keys in one slot.

export {
  type ConnectRedisOptions,
  connectRedis,
  duplicateForBatching,
  duplicateForBlocking,
  hashTag,
  isCluster,
  type RedisConnection,
} from './connect-redis.js';
export { HostPort, RedisTarget } from './redis-target.js';
