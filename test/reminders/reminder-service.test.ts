import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Notifier } from '../../src/channels/index.js';
import type { ChannelAddress, Prompt } from '../../src/conversation/index.js';
import { renderPrompt } from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import { hashTag, type RedisConnection } from '../../src/redis/index.js';
import {
  type ContactBook,
  createMemoryContactBook,
  createRedisContactBook,
  createReminderScheduler,
  createReminderService,
  type PolicyNow,
  type ReminderServiceOptions,
  SCAN_PATTERN,
  SCAN_TIME_ZONE,
} from '../../src/reminders/index.js';
import { eventually } from '../support/eventually.js';
import { type ManualClock, manualClock } from '../support/manual-clock.js';
import { connectTestRedis } from '../support/redis.js';
import { deleteKeys, testPrefix } from '../support/redis-modes.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const logger = createLogger({ level: 'silent' });
const END = '2027-02-22';

/** A notifier that records what it sends, and fails while `failing` is set. */
class RecordingNotifier implements Notifier {
  readonly sent: { address: ChannelAddress; text: string }[] = [];
  failing = false;
  constructor(readonly channel: 'ussd' | 'telegram') {}
  async notify(address: ChannelAddress, prompt: Prompt): Promise<void> {
    if (this.failing) throw new Error('platform refused');
    // The notice a new USSD buyer gets at purchase is not a reminder.
    if (prompt.key === 'reminder.smsNotice') return;
    this.sent.push({ address, text: renderPrompt(prompt, address.locale).text });
  }
}

/** Lusaka is UTC+2 all year: `hour` o'clock there, `daysBefore` days before END. */
function at(clock: ManualClock, daysBefore: number, hour: number): void {
  clock.advance(
    Date.parse(`${END}T00:00:00Z`) - daysBefore * DAY + (hour - 2) * HOUR - clock.now(),
  );
}

function setup(
  book: ContactBook = createMemoryContactBook(),
  extra: Partial<ReminderServiceOptions> = {},
) {
  const clock = manualClock(Date.parse('2026-11-23T08:00:00Z'));
  const sms = new RecordingNotifier('ussd');
  const telegram = new RecordingNotifier('telegram');
  const service = createReminderService({
    book,
    notifiers: [sms, telegram],
    logger,
    serviceCode: '*384*4628#',
    now: clock.now,
    ...extra,
  });
  return { clock, sms, telegram, service };
}

const bought = (channel: 'ussd' | 'telegram', policyId: string, address: string) => ({
  route: { channel, address, locale: 'en' },
  policyId,
  policyNumber: `MTR-${policyId}`,
  what: 'Motor Third Party for BDR 1',
  endDate: END,
  renewal: false,
});

/** A Redis connection for the describe block it is called in, its keys deleted after. */
function sharedRedis() {
  const prefix = testPrefix();
  let connection: RedisConnection | undefined;
  beforeAll(() => {
    connection = connectTestRedis();
  });
  afterAll(async () => {
    if (!connection) return;
    await deleteKeys(connection, prefix);
    await connection.quit();
  });
  return {
    prefix,
    get redis(): RedisConnection {
      if (!connection) throw new Error('Redis is connected in beforeAll');
      return connection;
    },
  };
}

describe('the renewal reminder scan', () => {
  it('sends nothing from 20:00 to 07:00 Lusaka time and sends at 07:00 and until 19:59', async () => {
    const { clock, sms, service } = setup();
    await service.recordPurchase(bought('ussd', 'p1', '260971000001'));
    for (const [days, hour] of [
      [14, 20],
      [14, 23],
      [13, 0],
      [13, 6],
    ] as const) {
      at(clock, days, hour);
      expect(await service.scan()).toMatchObject({ quiet: true, sent: 0 });
    }
    expect(sms.sent).toHaveLength(0);
    at(clock, 13, 7);
    expect(await service.scan()).toMatchObject({ quiet: false, sent: 1 });
    expect(sms.sent[0]?.text).toBe(
      'Motor cover MTR-p1 (Motor Third Party for BDR 1) ends on 22/02/2027. To renew, dial *384*4628# and choose Renew MTR-p1. Reply STOP to stop reminders.',
    );
    // 19:59 is still daytime: a policy recorded now is reminded at once.
    await service.recordPurchase(bought('ussd', 'p2', '260971000002'));
    clock.advance(12 * HOUR + 59 * 60_000);
    expect(await service.scan()).toMatchObject({ quiet: false, sent: 1 });
  });

  it('reminds once per milestone however often it scans, and a cover first seen 2 days out gets only the 3-day reminder', async () => {
    const { clock, telegram, service } = setup();
    await service.recordPurchase(bought('telegram', 'p1', '7001'));
    at(clock, 20, 10);
    expect((await service.scan()).sent).toBe(0);
    for (const days of [14, 13, 10, 4]) {
      at(clock, days, 10);
      await service.scan();
    }
    expect(telegram.sent).toHaveLength(1);
    at(clock, 2, 10);
    await service.recordPurchase(bought('telegram', 'p2', '7002'));
    for (let i = 0; i < 3; i += 1) await service.scan();
    at(clock, 0, 10);
    await service.scan();
    // p1: 14 then 3; p2 (first seen at 2 days): 3 only. Nothing once the cover has ended.
    expect(telegram.sent.map((s) => s.address.address)).toEqual(['7001', '7001', '7002']);
    at(clock, -1, 10);
    expect((await service.scan()).sent).toBe(0);
  });

  it('gives the claim back when the send fails, so the next scan sends it once', async () => {
    const { clock, sms, service } = setup();
    await service.recordPurchase(bought('ussd', 'p1', '260971000001'));
    at(clock, 14, 9);
    sms.failing = true;
    expect(await service.scan()).toMatchObject({ sent: 0, failed: 1 });
    sms.failing = false;
    at(clock, 14, 10);
    expect(await service.scan()).toMatchObject({ sent: 1, failed: 0 });
    at(clock, 14, 11);
    expect(await service.scan()).toMatchObject({ sent: 0 });
    expect(sms.sent).toHaveLength(1);
  });

  it('sends nothing to a holder who said STOP, and starts again after START', async () => {
    const { clock, sms, service } = setup();
    await service.recordPurchase(bought('ussd', 'p1', '260971000001'));
    await service.setStopped({ channel: 'ussd', address: '260971000001' }, true);
    at(clock, 14, 9);
    expect(await service.scan()).toMatchObject({ sent: 0, skipped: 1 });
    expect(await service.offersFor({ channel: 'ussd', address: '260971000001' })).toMatchObject({
      remindersOn: false,
    });
    await service.setStopped({ channel: 'ussd', address: '260971000001' }, false);
    at(clock, 3, 9);
    expect((await service.scan()).sent).toBe(1);
    expect(sms.sent).toHaveLength(1);
  });

  it('reminds in the language the holder speaks now, not the one they bought in', async () => {
    const { clock, sms, service } = setup();
    await service.recordPurchase(bought('ussd', 'p9', '260971000009'));
    await service.languages.choose({ channel: 'ussd', address: '260971000009' }, 'bem');
    at(clock, 14, 9);
    expect((await service.scan()).sent).toBe(1);
    expect(sms.sent[0]?.address.locale).toBe('bem');
    expect(sms.sent[0]?.text).toMatch(
      /^Inshuwalansi ya motoka MTR-p9 \(Motor Third Party for BDR 1\) ikapwa pa /,
    );
  });

  it('does not remind a policy the insurer says was renewed elsewhere, and reminds its next period instead', async () => {
    let policy: PolicyNow = { endDate: '2027-05-22', status: 'Active' };
    const { clock, sms, service } = setup(createMemoryContactBook(), {
      policyNow: async () => policy,
    });
    await service.recordPurchase(bought('ussd', 'p1', '260971000001'));
    at(clock, 14, 9);
    expect(await service.scan()).toMatchObject({ sent: 0, skipped: 1 });
    expect(sms.sent).toHaveLength(0);
    clock.advance(89 * DAY);
    policy = { endDate: '2027-05-22', status: 'Active' };
    expect((await service.scan()).sent).toBe(1);
    expect(sms.sent[0]?.text).toMatch('ends on 22/05/2027');
  });

  it('offers a holder the covers ending within 14 days, soonest first', async () => {
    const { clock, service } = setup();
    const holder = { channel: 'ussd', address: '260971000001' } as const;
    await service.recordPurchase(bought('ussd', 'p1', holder.address));
    await service.recordPurchase({
      ...bought('ussd', 'p2', holder.address),
      endDate: '2027-02-20',
    });
    at(clock, 17, 9);
    expect((await service.offersFor(holder)).offers).toEqual([]);
    at(clock, 13, 9);
    expect(await service.offersFor(holder)).toEqual({
      offers: [
        { policyId: 'p2', policyNumber: 'MTR-p2', endDate: '2027-02-20' },
        { policyId: 'p1', policyNumber: 'MTR-p1', endDate: END },
      ],
      remindersOn: true,
      remindersOff: false,
    });
    // Turned off, the menu offers them back; turned on, it offers to stop them again.
    await service.stop(holder);
    expect(await service.offersFor(holder)).toMatchObject({
      remindersOn: false,
      remindersOff: true,
    });
    await service.start(holder);
    expect(await service.offersFor(holder)).toMatchObject({
      remindersOn: true,
      remindersOff: false,
    });
    // A stranger has nothing to stop nor to turn back on.
    expect(await service.offersFor({ channel: 'ussd', address: '260971000009' })).toEqual({
      offers: [],
      remindersOn: false,
      remindersOff: false,
    });
  });
});

describe('two instances sharing Redis', () => {
  const shared = sharedRedis();
  const { prefix } = shared;

  it('send each reminder once when both scan at the same moment, milestone after milestone', async () => {
    const one = setup(createRedisContactBook(shared.redis, prefix));
    const two = setup(createRedisContactBook(shared.redis, prefix));
    for (let i = 0; i < 5; i += 1) {
      await one.service.recordPurchase(bought('ussd', `r${i}`, `26097100000${i}`));
    }
    for (const [days, hour] of [
      [14, 7],
      [14, 8],
      [3, 7],
      [3, 12],
    ] as const) {
      at(one.clock, days, hour);
      at(two.clock, days, hour);
      await Promise.all([one.service.scan(), two.service.scan(), one.service.scan()]);
    }
    const sent = [...one.sms.sent, ...two.sms.sent].map((s) => s.address.address).sort();
    expect(sent).toHaveLength(10);
    expect(new Set(sent).size).toBe(5);
  });

  it("put a USSD buyer's reminder notice on the outcome SMS the other instance sends, and do not send it again alone", async () => {
    // The notice's wait runs on fake timers; Redis answers as usual.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const notices: string[] = [];
      const noticeSms: Notifier = {
        channel: 'ussd',
        async notify(address, prompt) {
          notices.push(`${address.address} ${renderPrompt(prompt, address.locale).text}`);
        },
      };
      const one = setup(createRedisContactBook(shared.redis, prefix), {
        notifiers: [noticeSms],
      });
      const two = setup(createRedisContactBook(shared.redis, prefix));
      await one.service.recordPurchase(bought('ussd', 'n1', '260971000091'));
      const outcome: Prompt = {
        key: 'payment.outcome.paid',
        params: { reference: 'IC-N1', policyNumber: 'MTR-n1' },
        input: 'none',
        final: true,
      };
      const carried = await two.service.takeNotice('260971000091', outcome);
      expect(carried && renderPrompt(carried, 'en').text).toContain(
        'We will remind you by SMS before MTR-n1 ends',
      );
      expect(await two.service.takeNotice('260971000091', outcome)).toBeUndefined();
      // Another purchase whose outcome no instance sent by SMS (seen on screen): its notice goes
      // alone. Its wait ends after the first's, on the same connection: once it has arrived,
      // the first notice's turn to go alone has passed.
      await one.service.recordPurchase(bought('ussd', 'n2', '260971000092'));
      await vi.advanceTimersByTimeAsync(3_000);
      vi.useRealTimers();
      await eventually('the notice went by SMS alone', () => notices.length > 0);
      expect(notices).toHaveLength(1);
      expect(notices).toEqual([
        '260971000092 We will remind you by SMS before MTR-n2 ends, so you can renew in time. Reply STOP to opt out.',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keep one job scheduler for the scan, on the hour from 07:00 to 19:00 in Lusaka, however many instances start', async () => {
    const scans: string[] = [];
    const schedulers = await Promise.all(
      [1, 2, 3].map(() =>
        createReminderScheduler({
          redis: shared.redis,
          prefix,
          logger,
          runWorker: false,
          scan: async () => scans.push('scan'),
        }),
      ),
    );
    const queue = new Queue('reminders', {
      connection: shared.redis,
      prefix: hashTag(`${prefix}bull`),
    });
    const found = await queue.getJobSchedulers();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ pattern: SCAN_PATTERN, tz: SCAN_TIME_ZONE, name: 'scan' });
    expect(SCAN_PATTERN).toBe('0 7-19 * * *');
    await queue.close();
    for (const scheduler of schedulers) await scheduler.close();
    expect(scans).toEqual([]);
  });
});

describe("a holder's card in Redis", () => {
  const shared = sharedRedis();
  const { prefix } = shared;

  /** The service over a Redis book whose commands are counted. */
  function counted() {
    const book = createRedisContactBook(shared.redis, prefix);
    let commands = 0;
    const countedBook = new Proxy(book, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function' || name === 'cardKey') return value;
        return (...args: unknown[]) => {
          commands += 1;
          return value.apply(target, args);
        };
      },
    });
    return { ...setup(countedBook), book, commands: () => commands };
  }

  it('offers renewals from the card read with the session, without reading the book', async () => {
    const { clock, service, book, commands } = counted();
    const holder = { channel: 'ussd', address: '260971000101', locale: 'en' } as const;
    await service.recordPurchase(bought('ussd', 'c1', holder.address));
    at(clock, 13, 9);
    const prefetch = service.prefetch;
    if (!prefetch) throw new Error('a Redis book reads cards with the session');
    const key = prefetch.keyOf(`ussd:${holder.address}`, holder);
    expect(key).toContain(`{ussd:${holder.address}}`);
    prefetch.deliver(holder, await shared.redis.hgetall(key ?? ''));
    const before = commands();
    expect((await service.offersFor(holder)).offers).toEqual([
      { policyId: 'c1', policyNumber: 'MTR-c1', endDate: END },
    ]);
    expect(commands()).toBe(before);
    // The card is the turn's: the next menu without a fresh one reads the book.
    expect((await service.offersFor(holder)).offers).toHaveLength(1);
    expect(commands()).toBe(before + 1);
    expect(await book.cardOf(holder)).toEqual({
      policies: [{ policyId: 'c1', policyNumber: 'MTR-c1', endDate: END }],
      stopped: false,
    });
  });

  it('keeps the language on the card for 500 days, read with the session without a command of its own', async () => {
    const { service, commands } = counted();
    const holder = { channel: 'ussd', address: '260971000109', locale: 'en' } as const;
    expect(await service.languages.chosen(holder)).toBeUndefined();
    await service.languages.choose(holder, 'ny');
    const key = service.prefetch?.keyOf(`ussd:${holder.address}`, holder) ?? '';
    expect(await shared.redis.ttl(key)).toBeGreaterThan(499 * 86_400);
    service.prefetch?.deliver(holder, await shared.redis.hgetall(key));
    const before = commands();
    expect(service.languages.chosen(holder)).toBe('ny');
    expect(commands()).toBe(before);
    // Taken by that turn: the next asks the book.
    expect(await service.languages.chosen(holder)).toBe('ny');
    expect(commands()).toBe(before + 1);
    // A card read before a new choice does not answer for it.
    service.prefetch?.deliver(holder, await shared.redis.hgetall(key));
    await service.languages.choose(holder, 'bem');
    expect(await service.languages.chosen(holder)).toBe('bem');
  });

  it('forgets a card no menu took within ten seconds, and reads the book instead', async () => {
    const { clock, service, commands } = counted();
    const holder = { channel: 'ussd', address: '260971000105', locale: 'en' } as const;
    await service.recordPurchase(bought('ussd', 'c5', holder.address));
    at(clock, 13, 9);
    // Delivered as if no policy were on the card: only a stale card would say so.
    service.prefetch?.deliver(holder, {});
    clock.advance(10_001);
    const before = commands();
    expect((await service.offersFor(holder)).offers).toHaveLength(1);
    expect(commands()).toBe(before + 1);
  });

  it('does not use a card read before the holder said STOP', async () => {
    const { clock, service } = counted();
    const holder = { channel: 'ussd', address: '260971000102', locale: 'en' } as const;
    await service.recordPurchase(bought('ussd', 'c2', holder.address));
    at(clock, 13, 9);
    const key = service.prefetch?.keyOf(`ussd:${holder.address}`, holder) ?? '';
    service.prefetch?.deliver(holder, await shared.redis.hgetall(key));
    await service.stop(holder);
    expect(await service.offersFor(holder)).toMatchObject({ remindersOff: true });
  });

  it('moves a renewed policy to the card of the holder who renewed it', async () => {
    const { book, service } = counted();
    const first = { channel: 'ussd', address: '260971000103' } as const;
    const second = { channel: 'telegram', address: '7001' } as const;
    await service.recordPurchase(bought('ussd', 'c3', first.address));
    await service.recordPurchase({
      ...bought('telegram', 'c3', second.address),
      endDate: '2027-05-22',
      renewal: true,
    });
    expect((await book.cardOf(first)).policies).toEqual([]);
    expect((await book.cardOf(second)).policies).toEqual([
      { policyId: 'c3', policyNumber: 'MTR-c3', endDate: '2027-05-22' },
    ]);
  });

  it('skips an unreadable card entry and keeps the rest', async () => {
    const { book } = counted();
    const holder = { channel: 'ussd', address: '260971000104' } as const;
    const key = book.cardKey?.(holder) ?? '';
    await shared.redis.hset(key, 'p:bad', 'not json', 'p:ok', '{"n":"MTR-ok","e":"2027-01-01"}');
    expect(await book.cardOf(holder)).toEqual({
      policies: [{ policyId: 'ok', policyNumber: 'MTR-ok', endDate: '2027-01-01' }],
      stopped: false,
    });
  });
});
