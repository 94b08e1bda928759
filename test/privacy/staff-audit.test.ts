import { afterAll, describe, expect, it } from 'vitest';
import {
  AUDIT_RETENTION_MS,
  type AuditAttempt,
  auditHeadKey,
  auditStreamKey,
  auditText,
  createMemoryStaffAuditLog,
  createRedisStaffAuditLog,
  type StaffAuditLog,
} from '../../src/privacy/index.js';
import { testRedis } from '../payments/support.js';
import { runnableModes } from '../support/redis-modes.js';

const redis = testRedis();
afterAll(() => redis.cleanup());

const SECRET = 'staff-audit-test-secret';
const DAY_MS = 86_400_000;

/** A clock the test moves: a year passes in one step. */
function clock(start = Date.UTC(2026, 0, 5, 9)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const lookUp = (
  _time: unknown,
  who: string,
  what: string,
  outcome: AuditAttempt['outcome'] = 'looked-up',
): AuditAttempt => ({ who, route: 'command', outcome, what });

type Made = { log: StaffAuditLog; time: ReturnType<typeof clock>; prefix: string };
const logs: ReadonlyArray<readonly [string, () => Made]> = [
  [
    'in memory',
    () => {
      const time = clock();
      return { log: createMemoryStaffAuditLog({ now: time.now }), time, prefix: '' };
    },
  ],
  [
    'in Redis',
    () => {
      const time = clock();
      const prefix = `${redis.prefix}${Math.random()}:`;
      const log = createRedisStaffAuditLog(redis.redis, prefix, { secret: SECRET, now: time.now });
      return { log, time, prefix };
    },
  ],
];

describe.each(logs)('the staff audit log %s', (_name, make) => {
  it('shows the latest look-ups, newest first, with their outcome', async () => {
    const { log, time } = make();
    await log.append(lookUp(time, 'T1:U1', 'policy 479974/11/1'));
    time.advance(1_000);
    await log.append(lookUp(time, 'T1:U2', 'claim CLC-1', 'refused'));
    expect((await log.latest(1)).map((entry) => [entry.who, entry.outcome])).toEqual([
      ['T1:U2', 'refused'],
    ]);
    const both = await log.latest(5);
    expect(both.map((entry) => entry.what)).toEqual(['claim CLC-1', 'policy ••••••/••/•']);
  });

  it('verifies an untouched chain, and one trimmed by retention a year on', async () => {
    const { log, time } = make();
    expect(await log.verify()).toEqual({ intact: true, entries: 0, breaks: [] });
    for (const n of [1, 2, 3]) {
      await log.append(lookUp(time, 'T1:U1', `txn TX-00${n}`));
      time.advance(DAY_MS);
    }
    expect(await log.verify()).toEqual({ intact: true, entries: 3, breaks: [] });
    // A year after the second look-up: the first two go, the checkpoint keeps the chain whole.
    time.advance(AUDIT_RETENTION_MS - 2 * DAY_MS + 60_000);
    await log.append(lookUp(time, 'T1:U1', 'txn TX-004'));
    expect((await log.latest(10)).map((entry) => entry.what)).toEqual(['txn TX-004', 'txn TX-003']);
    expect(await log.verify()).toEqual({ intact: true, entries: 2, breaks: [] });
  });
});

describe('two instances appending at once', () => {
  it('keep one unbroken chain: an append that lost the race reads the head again', async () => {
    const prefix = `${redis.prefix}${Math.random()}:`;
    const [a, b] = [1, 2].map(() =>
      createRedisStaffAuditLog(redis.redis, prefix, { secret: SECRET }),
    );
    if (!a || !b) throw new Error('two logs expected');
    const time = clock();
    await Promise.all(
      [1, 2, 3, 4, 5].flatMap((n) => [
        a.append(lookUp(time, 'T1:UA', `claim CLC-A${n}`)),
        b.append(lookUp(time, 'T1:UB', `claim CLC-B${n}`)),
      ]),
    );
    expect(await a.verify()).toEqual({ intact: true, entries: 10, breaks: [] });
  });
});

describe('the chain in Redis against tampering', () => {
  async function threeEntries() {
    const time = clock(Date.now() - 10 * DAY_MS);
    const prefix = `${redis.prefix}${Math.random()}:`;
    const log = createRedisStaffAuditLog(redis.redis, prefix, { secret: SECRET, now: time.now });
    for (const n of [1, 2, 3]) {
      await log.append(lookUp(time, 'T1:U1', `txn TX-00${n}`));
      time.advance(DAY_MS);
    }
    const stream = auditStreamKey(prefix);
    const ids = (await redis.redis.xrange(stream, '-', '+')).map(([id]) => id);
    return { log, stream, ids, prefix };
  }

  it('reports an edited entry, a head wound back over a deleted entry, and a deleted head', async () => {
    const { log, stream, ids, prefix } = await threeEntries();
    const rows = await redis.redis.xrange(stream, '-', '+');
    const [, second, third] = rows;
    if (!second || !third) throw new Error('three entries expected');
    // The newest entry rewritten (deleted and added again, one word changed).
    const fields = [...third[1]];
    fields[fields.indexOf('txn TX-003')] = 'txn TX-009';
    await redis.redis.xdel(stream, third[0]);
    await redis.redis.xadd(stream, '*', ...fields);
    expect(await log.verify()).toMatchObject({ intact: false, breaks: [{ kind: 'altered' }] });
    // The head wound back to the second entry, as if the third had never been.
    const secondMac = second[1][second[1].indexOf('mac') + 1] ?? '';
    const head = auditHeadKey(prefix);
    await redis.redis.hset(head, { count: '2', lastId: ids[1] ?? '', mac: secondMac });
    expect(await log.verify()).toMatchObject({ intact: false, breaks: [{ kind: 'head-altered' }] });
    await redis.redis.del(head);
    expect(await log.verify()).toMatchObject({ intact: false, breaks: [{ kind: 'head-missing' }] });
  });

  it('keys the chain: a log with another secret finds every entry altered', async () => {
    const { prefix } = await threeEntries();
    const other = createRedisStaffAuditLog(redis.redis, prefix, { secret: 'another-secret-key' });
    expect(await other.verify()).toMatchObject({
      intact: false,
      breaks: [{ kind: 'head-altered' }],
    });
  });
});

// The entry and its head are written by one script over two keys: one Cluster slot ({staff-audit}).
describe.each(runnableModes())('the chain on $name Redis', (mode) => {
  it('appends and verifies with entry and head in one slot', async () => {
    const modeRedis = testRedis(mode);
    try {
      const time = clock(Date.now());
      const log = createRedisStaffAuditLog(modeRedis.redis, modeRedis.prefix, {
        secret: SECRET,
        now: time.now,
      });
      for (const n of [1, 2]) await log.append(lookUp(time, 'T1:U1', `claim CLC-00${n}`));
      expect(await log.verify()).toEqual({ intact: true, entries: 2, breaks: [] });
    } finally {
      await modeRedis.cleanup();
    }
  });
});

describe('auditText', () => {
  it('keeps what was typed on one line, masked, with no control characters', () => {
    const forged = 'policy ABC123\n2026-01-05 09:00 UTC · <@U0BOSS> · policy 123456101\u202e\u0007';
    const stored = auditText(forged);
    for (const control of ['\n', '\r', '\u202e', '\u0007']) expect(stored).not.toContain(control);
    expect(stored).toContain('\\n2026-01-05');
    expect(stored).not.toContain('123456101');
    expect(auditText('x'.repeat(500))).toHaveLength(200);
  });
});
