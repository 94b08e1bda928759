import { afterAll, describe, expect, it } from 'vitest';
import {
  AUDIT_RETENTION_MS,
  auditStreamKey,
  createMemoryStaffAuditLog,
  createRedisStaffAuditLog,
  type StaffAuditLog,
} from '../../src/privacy/index.js';
import { testRedis } from '../payments/support.js';

const redis = testRedis();
afterAll(() => redis.cleanup());

const lookUp = (who: string, what: string) => ({ who, at: new Date().toISOString(), what });

const logs: ReadonlyArray<readonly [string, () => StaffAuditLog]> = [
  ['in memory', () => createMemoryStaffAuditLog()],
  ['in Redis', () => createRedisStaffAuditLog(redis.redis, `${redis.prefix}${Math.random()}:`)],
];

describe.each(logs)('the staff audit log %s', (_name, make) => {
  it('shows the latest look-ups, newest first', async () => {
    const log = make();
    await log.append(lookUp('T1:U1', 'policy ••••••/••/•'));
    await log.append(lookUp('T1:U2', 'claim CLC-1'));
    expect((await log.latest(1)).map((entry) => entry.who)).toEqual(['T1:U2']);
    expect((await log.latest(5)).map((entry) => entry.who)).toEqual(['T1:U2', 'T1:U1']);
  });
});

describe('the staff audit log retention', () => {
  it('in memory drops look-ups older than a year as new ones come', async () => {
    let now = Date.now();
    const log = createMemoryStaffAuditLog(() => now);
    await log.append(lookUp('T1:U1', 'policy old'));
    now += AUDIT_RETENTION_MS + 60_000;
    await log.append(lookUp('T1:U1', 'txn REF1'));
    expect((await log.latest(5)).map((entry) => entry.what)).toEqual(['txn REF1']);
  });

  it('in Redis trims entries older than a year (by stream id) on each append', async () => {
    const prefix = `${redis.prefix}trim:`;
    // An entry written more than a year ago: stream ids start with their epoch ms.
    const old = Date.now() - AUDIT_RETENTION_MS - 60_000;
    await redis.redis.xadd(
      auditStreamKey(prefix),
      `${old}-0`,
      'who',
      'T1:U1',
      'at',
      'x',
      'what',
      'old',
    );
    const log = createRedisStaffAuditLog(redis.redis, prefix);
    await log.append(lookUp('T1:U1', 'txn REF1'));
    expect((await log.latest(5)).map((entry) => entry.what)).toEqual(['txn REF1']);
    expect(await redis.redis.xlen(auditStreamKey(prefix))).toBe(1);
  });
});
