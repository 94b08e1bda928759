import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Principal } from '../../src/access/index.js';
import {
  createLimits,
  DEFAULT_LIMITS,
  type LimitRequest,
  type Limits,
  type LimitsConfig,
  LimitsEnv,
  type LimitVerdict,
  limitsConfigOf,
  limitsMarkdown,
} from '../../src/limits/index.js';
import { connectRedis, type RedisConnection } from '../../src/redis/index.js';
import { countRedisCommands } from '../support/redis-command-count.js';
import {
  connectMode,
  deleteKeys,
  runnableModes,
  STANDALONE_URL,
  testPrefix,
} from '../support/redis-modes.js';

const SECRET = 'limits-test-secret-0123456789';
const CALLER: Principal = { kind: 'phone', phone: '260971000001' };
const HOLDER = '260972000002';
const NRC = '123456/78/1';

/** Small counts so each test reaches them quickly; 0 leaves a window unlimited. */
const CONFIG: LimitsConfig = {
  ...DEFAULT_LIMITS,
  sms: { caller: { hour: 5, day: 8 }, target: { hour: 3, day: 10 } },
  lookup: { caller: { hour: 4, day: 0 }, target: { hour: 0, day: 0 } },
  payment: { caller: { hour: 0, day: 0 }, target: { hour: 0, day: 2 } },
  anonymous: { hour: 2, day: 10 },
};

const smsTo = (phone: string, principal: Principal = CALLER): LimitRequest => ({
  kind: 'sms',
  principal,
  target: { kind: 'phone', value: phone },
});

/** `count` requests one after the other; the verdicts in order. */
async function takeMany(limits: Limits, request: LimitRequest, count: number) {
  const verdicts: LimitVerdict[] = [];
  for (let i = 0; i < count; i += 1) verdicts.push(await limits.take(request));
  return verdicts;
}

const allowedCount = (verdicts: LimitVerdict[]) => verdicts.filter((v) => v.allowed).length;

/** The behaviour every store must show; `make` builds a limiter over a fresh key space. */
function behavesAsLimits(make: (config?: LimitsConfig) => Limits) {
  it('lets one target be reached only as often as its hourly count, then says an hour', async () => {
    const verdicts = await takeMany(make(), smsTo(HOLDER), 6);
    expect(allowedCount(verdicts)).toBe(3);
    expect(verdicts.at(-1)).toEqual({ allowed: false, scope: 'target', window: 'hour' });
  });

  it('counts one target the same whichever form its number is written in', async () => {
    const limits = make();
    await limits.take(smsTo('260972000002'));
    await limits.take(smsTo('0972000002'));
    await limits.take(smsTo('+260 97 200 0002'));
    expect((await limits.take(smsTo('972000002'))).allowed).toBe(false);
  });

  it('counts one caller across many targets, and gives back the target count it refused', async () => {
    const limits = make();
    const verdicts: LimitVerdict[] = [];
    for (let i = 0; i < 7; i += 1) verdicts.push(await limits.take(smsTo(`26097300000${i}`)));
    expect(allowedCount(verdicts)).toBe(5);
    expect(verdicts.at(-1)).toEqual({ allowed: false, scope: 'caller', window: 'hour' });
    // The sixth and seventh targets were never reached: each still has its whole count.
    const other: Principal = { kind: 'phone', phone: '260971999999' };
    const sixth = await takeMany(limits, smsTo('260973000005', other), 3);
    expect(allowedCount(sixth)).toBe(3);
  });

  it('says tomorrow when the day count refuses', async () => {
    const limits = make({
      ...CONFIG,
      sms: { caller: { hour: 0, day: 2 }, target: { hour: 0, day: 0 } },
    });
    const verdicts = await takeMany(limits, smsTo(HOLDER), 3);
    expect(verdicts.at(-1)).toEqual({ allowed: false, scope: 'caller', window: 'day' });
  });

  it('never counts the holder’s own requests, nor staff’s, against the holder', async () => {
    const limits = make();
    const holder: Principal = { kind: 'phone', phone: HOLDER };
    const staff: Principal = { kind: 'staff', member: 'U123' };
    // An attacker uses up the holder's count …
    const attacker = await takeMany(limits, smsTo(HOLDER), 4);
    expect(attacker.at(-1)?.allowed).toBe(false);
    // … the holder still gets their own SMS, and so does staff's.
    expect((await limits.take(smsTo(HOLDER, holder))).allowed).toBe(true);
    expect((await limits.take({ ...smsTo(HOLDER, staff) })).allowed).toBe(true);
    // The phone on record asking about its own NRC (the flow says it is theirs).
    const own: LimitRequest = {
      kind: 'payment',
      principal: CALLER,
      target: { kind: 'phone', value: HOLDER },
      own: true,
    };
    expect(allowedCount(await takeMany(limits, own, 4))).toBe(4);
  });

  it('gives an anonymous caller the stricter cap, per address', async () => {
    const limits = make();
    const lookup = (address: string): LimitRequest => ({
      kind: 'lookup',
      principal: { kind: 'nobody' },
      route: { channel: 'telegram', address },
      target: { kind: 'nrc', value: NRC },
    });
    expect(allowedCount(await takeMany(limits, lookup('111'), 4))).toBe(2);
    expect(allowedCount(await takeMany(limits, lookup('222'), 1))).toBe(1);
    // A phone gets the kind's own count.
    const byPhone = { kind: 'lookup', principal: CALLER } as const;
    expect(allowedCount(await takeMany(limits, byPhone, 5))).toBe(4);
  });

  it('limits each kind on its own', async () => {
    const limits = make();
    await takeMany(limits, smsTo(HOLDER), 3);
    const prompt: LimitRequest = {
      kind: 'payment',
      principal: CALLER,
      target: { kind: 'phone', value: HOLDER },
    };
    const verdicts = await takeMany(limits, prompt, 3);
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, false]);
    expect(verdicts.at(-1)).toEqual({ allowed: false, scope: 'target', window: 'day' });
  });

  it('lets exactly the count through when requests arrive at once', async () => {
    const limits = make();
    const verdicts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        limits.take(smsTo(HOLDER, { kind: 'phone', phone: `26097700000${i % 10}` })),
      ),
    );
    expect(allowedCount(verdicts)).toBe(3);
  });
}

describe('limits in this process', () => {
  behavesAsLimits((config = CONFIG) =>
    createLimits({ config, prefix: testPrefix(), secret: SECRET }),
  );

  it('tells each refusal by kind and scope, never by who', async () => {
    const heard: string[] = [];
    const limits = createLimits({
      config: CONFIG,
      prefix: testPrefix(),
      secret: SECRET,
      onRefused: (...args) => heard.push(args.join('/')),
    });
    await takeMany(limits, smsTo(HOLDER), 4);
    expect(heard).toEqual(['sms/target']);
  });
});

for (const mode of runnableModes()) {
  describe(`limits on ${mode.name} Redis`, () => {
    let redis: RedisConnection;
    const prefixes: string[] = [];
    beforeAll(() => {
      redis = connectMode(mode);
    });
    afterAll(async () => {
      for (const prefix of prefixes) await deleteKeys(redis, prefix);
      await redis.quit();
    });
    const make = (config = CONFIG) => {
      const prefix = testPrefix();
      prefixes.push(prefix);
      return createLimits({ config, redis, prefix, secret: SECRET });
    };

    behavesAsLimits(make);

    it('shares its counts between two limiters on one Redis (two instances)', async () => {
      const prefix = testPrefix();
      prefixes.push(prefix);
      const first = createLimits({ config: CONFIG, redis, prefix, secret: SECRET });
      const second = createLimits({ config: CONFIG, redis, prefix, secret: SECRET });
      const verdicts = [
        ...(await takeMany(first, smsTo(HOLDER), 2)),
        ...(await takeMany(second, smsTo(HOLDER), 2)),
      ];
      expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    });

    const calls = mode.name === 'cluster' ? 2 : 1;
    it(`counts a request's caller and target windows in ${calls === 1 ? 'one script call' : 'two script calls, one per slot'}`, async () => {
      const own = connectMode(mode);
      let sent = 0;
      countRedisCommands(own, () => {
        sent += 1;
      });
      try {
        const prefix = testPrefix();
        prefixes.push(prefix);
        const limits = createLimits({ config: CONFIG, redis: own, prefix, secret: SECRET });
        await own.ping();
        sent = 0;
        const verdict = await limits.take(smsTo(HOLDER));
        expect(verdict).toEqual({ allowed: true });
        expect(sent).toBe(calls);
        // Four windows counted: the caller's and the phone's, each an hour and a day.
        expect(await keysWith(redis, prefix)).toHaveLength(4);
      } finally {
        await own.quit();
      }
    });

    it('keeps no phone or NRC in clear in its keys', async () => {
      const limits = make();
      await limits.take(smsTo(HOLDER));
      await limits.take({ kind: 'lookup', principal: CALLER, target: { kind: 'nrc', value: NRC } });
      const prefix = prefixes.at(-1) ?? '';
      const keys = await keysWith(redis, prefix);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        expect(key).not.toMatch(/972000002|971000001|123456/);
      }
    });
  });
}

describe('limits when the store fails', () => {
  const broken = () => {
    // A connection closed for good: every command fails at once.
    const redis = connectRedis({ kind: 'url', url: STANDALONE_URL }, { lazyConnect: true });
    redis.disconnect();
    const errors: unknown[] = [];
    const limits = createLimits({
      config: CONFIG,
      redis,
      prefix: testPrefix(),
      secret: SECRET,
      onError: (error) => errors.push(error),
    });
    return { limits, errors };
  };

  it('refuses an SMS to another person with "try again later", and says why in the log', async () => {
    const { limits, errors } = broken();
    expect(await limits.take(smsTo(HOLDER))).toEqual({
      allowed: false,
      scope: 'error',
      window: 'later',
    });
    expect(errors.length).toBeGreaterThan(0);
  });

  it('lets a lookup, and an SMS to the caller’s own phone, go ahead', async () => {
    const { limits } = broken();
    expect(await limits.take({ kind: 'lookup', principal: CALLER })).toEqual({ allowed: true });
    const own = smsTo(HOLDER, { kind: 'phone', phone: HOLDER });
    expect(await limits.take(own)).toEqual({ allowed: true });
  });
});

/** Every key holding `prefix`, on every master. */
async function keysWith(redis: RedisConnection, prefix: string): Promise<string[]> {
  const { Cluster } = await import('ioredis');
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  const out: string[] = [];
  for (const node of nodes) out.push(...(await node.keys(`*${prefix}*`)));
  return out;
}

describe('the limits table', () => {
  it('is the table docs/privacy-and-limits.md shows, word for word, with every variable', async () => {
    const { readFile } = await import('node:fs/promises');
    const page = await readFile(
      new URL('../../docs/privacy-and-limits.md', import.meta.url),
      'utf8',
    );
    expect(page).toContain(limitsMarkdown());
    for (const variable of Object.keys(LimitsEnv)) expect(limitsMarkdown()).toContain(variable);
  });

  it('reads each count from its variable, and a blank one as the default', () => {
    const parsed = z
      .object(LimitsEnv)
      .parse({ LIMIT_SMS_TARGET_HOUR: '7', LIMIT_SMS_TARGET_DAY: '' });
    const config = limitsConfigOf(parsed);
    expect(config.sms.target).toEqual({ hour: 7, day: DEFAULT_LIMITS.sms.target.day });
    expect(config.lookup).toEqual(DEFAULT_LIMITS.lookup);
    expect(() => z.object(LimitsEnv).parse({ LIMIT_CODE_CALLER_HOUR: '-1' })).toThrow();
  });
});
