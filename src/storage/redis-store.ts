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

const DELETE_IF = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])`;

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
// A linked append: the head still as expected, then the entry (at the caller's time, or the
// stream's own when that is later), the trim, and the head, in one step.
const APPEND_LINKED = `
local held = redis.call('HGET', KEYS[2], ARGV[1]) or ''
if held ~= ARGV[2] then return false end
local n = tonumber(ARGV[5])
local fields = {}
for i = 6, 5 + 2 * n do fields[#fields + 1] = ARGV[i] end
local ms = ARGV[3]
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if last then
  local lastMs = string.match(last[1], '^(%d+)')
  if tonumber(lastMs) > tonumber(ms) then ms = lastMs end
end
-- An id below one deleted since (XDEL keeps the stream's last id) is refused: Redis picks then.
local id = redis.pcall('XADD', KEYS[1], ms .. '-*', unpack(fields))
if type(id) == 'table' and id.err then id = redis.call('XADD', KEYS[1], '*', unpack(fields)) end
if ARGV[4] ~= '' then redis.call('XTRIM', KEYS[1], 'MINID', ARGV[4]) end
local head = {'lastId', id}
for i = 6 + 2 * n, #ARGV do head[#head + 1] = ARGV[i] end
redis.call('HSET', KEYS[2], unpack(head))
return id`;

/** A stream reply's flat `[field, value, …]` as a record. */
function record(flat: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i] as string] = flat[i + 1] as string;
  return fields;
}

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
    async deleteIf(key, expected) {
      return (await redis.eval(DELETE_IF, 1, key, expected)) === 1;
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
    async streamLatest(key, count) {
      const rows = await redis.xrevrange(key, '+', '-', 'COUNT', count);
      return rows.map(([, flat]) => record(flat));
    },
    async streamRange(key, afterId, count) {
      const rows = await redis.xrange(key, afterId ? `(${afterId}` : '-', '+', 'COUNT', count);
      return rows.map(([id, flat]) => ({ id, fields: record(flat) }));
    },
    async streamNewestBefore(key, beforeMs) {
      if (beforeMs <= 0) return undefined;
      // `<ms>` as an end means its last sequence: every id of that millisecond.
      const [row] = await redis.xrevrange(key, String(beforeMs - 1), '-', 'COUNT', 1);
      return row ? { id: row[0], fields: record(row[1]) } : undefined;
    },
    async streamAppendLinked(key, headKey, append) {
      const fields = Object.entries(append.fields).flat();
      const id = await redis.eval(
        APPEND_LINKED,
        2,
        key,
        headKey,
        append.expect.field,
        append.expect.value,
        String(Math.floor(append.atMs)),
        append.trimBeforeMs === undefined ? '' : String(Math.floor(append.trimBeforeMs)),
        String(fields.length / 2),
        ...fields,
        ...Object.entries(append.head).flat(),
      );
      return typeof id === 'string' ? id : undefined;
    },
  };
}
