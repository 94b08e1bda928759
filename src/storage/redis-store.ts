import type { RedisConnection } from '../redis/index.js';
import type { KeyValueStore } from './key-value-store.js';

// Each script keeps a check and its write in one atomic step across instances.
const SET_UNLESS_HELD = `
local current = redis.call('GET', KEYS[1])
if current ~= false then
  local free = false
  for i = 3, #ARGV do if current == ARGV[i] then free = true end end
  if not free then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1`;

const DELETE_UNLESS = `
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1`;

const HASH_ADD_WITHIN = `
local amounts = redis.call('HVALS', KEYS[1])
local total = tonumber(ARGV[2])
local count = 1
for _, held in ipairs(amounts) do total = total + tonumber(held); count = count + 1 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
if count > tonumber(ARGV[3]) or total > tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1`;

/** Throws the first error of a pipeline's or transaction's results. */
function failed(results: [Error | null, unknown][] | null): [Error | null, unknown][] {
  const error = results?.find(([err]) => err)?.[0];
  if (error) throw error;
  return results ?? [];
}

/**
 * The key-value port over Redis (standalone, Sentinel or Cluster), shared by every instance.
 * One command per call, except where the port says one step: `increment` and `setAdd` are a
 * MULTI, `hashSet` with a TTL a pipeline, a guarded write or delete a script.
 */
export function createRedisStore(redis: RedisConnection): KeyValueStore {
  return {
    async get(key) {
      return (await redis.get(key)) ?? undefined;
    },
    async getAndTouch(key, ttlSeconds) {
      return (await redis.getex(key, 'EX', ttlSeconds)) ?? undefined;
    },
    async set(key, value, ttlSeconds) {
      await redis.set(key, value, 'EX', ttlSeconds);
    },
    async setIfAbsent(key, value, ttlSeconds, replaceable = []) {
      if (replaceable.length === 0) {
        return (await redis.set(key, value, 'EX', ttlSeconds, 'NX')) === 'OK';
      }
      return (await redis.eval(SET_UNLESS_HELD, 1, key, value, ttlSeconds, ...replaceable)) === 1;
    },
    async take(key) {
      return (await redis.getdel(key)) ?? undefined;
    },
    async delete(key) {
      await redis.del(key);
    },
    async deleteUnless(key, keep) {
      await redis.eval(DELETE_UNLESS, 1, key, keep);
    },
    async increment(key, ttlSeconds) {
      const [[, value] = [null, 0]] = failed(
        await redis.multi().incr(key).expire(key, ttlSeconds).exec(),
      );
      return Number(value);
    },
    async expire(key, ttlSeconds, options) {
      if (options?.onlyIfNone) await redis.expire(key, ttlSeconds, 'NX');
      else await redis.expire(key, ttlSeconds);
    },
    async hashGetAll(key) {
      return redis.hgetall(key);
    },
    async hashSet(key, fields, ttlSeconds) {
      if (ttlSeconds === undefined) {
        await redis.hset(key, fields);
        return;
      }
      failed(await redis.pipeline().hset(key, fields).expire(key, ttlSeconds).exec());
    },
    async hashDelete(key, field) {
      await redis.hdel(key, field);
    },
    async hashHas(key, field) {
      return (await redis.hexists(key, field)) === 1;
    },
    async hashAddWithin(key, field, amount, limits, ttlSeconds) {
      const written = await redis.eval(
        HASH_ADD_WITHIN,
        1,
        key,
        field,
        amount,
        limits.fields,
        limits.total,
        ttlSeconds,
      );
      return written === 1;
    },
    async setAdd(key, member, ttlSeconds) {
      failed(await redis.multi().sadd(key, member).expire(key, ttlSeconds).exec());
    },
    async setMembers(key) {
      return redis.smembers(key);
    },
    async sortedAdd(key, score, member) {
      await redis.zadd(key, score, member);
    },
    async sortedUpTo(key, maxScore) {
      return redis.zrangebyscore(key, '-inf', maxScore);
    },
    async sortedRemove(key, member) {
      await redis.zrem(key, member);
    },
    async sortedRemoveBelow(key, score) {
      await redis.zremrangebyscore(key, '-inf', `(${score}`);
    },
    async streamAppend(key, fields, oldestMs) {
      await redis.xadd(key, 'MINID', String(oldestMs), '*', ...Object.entries(fields).flat());
    },
    async streamLatest(key, count) {
      const rows = await redis.xrevrange(key, '+', '-', 'COUNT', count);
      return rows.map(([, flat]) => {
        const record: Record<string, string> = {};
        for (let i = 0; i + 1 < flat.length; i += 2)
          record[flat[i] as string] = flat[i + 1] as string;
        return record;
      });
    },
  };
}
