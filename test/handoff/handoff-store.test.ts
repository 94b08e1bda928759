import { afterAll, describe, expect, it } from 'vitest';
import {
  createHandoffStore,
  HANDOFF_TTL_MS,
  type HandoffStore,
  type OpenHandoff,
} from '../../src/handoff/index.js';
import {
  createMemoryStore,
  createRedisStore,
  type KeyValueStore,
} from '../../src/storage/index.js';
import { testRedis } from '../payments/support.js';
import { advanceRedisTtls, manualClock } from '../support/manual-clock.js';

const redis = testRedis();
afterAll(() => redis.cleanup());

const handoff = (sessionKey: string, threadTs: string): OpenHandoff => ({
  sessionKey,
  address: { channel: 'telegram', address: '4242', locale: 'en' },
  slackChannel: 'C0HANDOFF',
  threadTs,
  openedAt: 1_000,
  root: [{ type: 'section' }],
});

/** A store, the key-value port under it, and the way to move its time forward without sleeping. */
interface Subject {
  readonly store: HandoffStore;
  readonly kv: KeyValueStore;
  readonly prefix: string;
  advance(ms: number): Promise<void>;
}

const subjects: ReadonlyArray<readonly [string, () => Subject]> = [
  [
    'in memory',
    () => {
      const clock = manualClock();
      const kv = createMemoryStore({ now: clock.now });
      return {
        store: createHandoffStore(kv, 'test:'),
        kv,
        prefix: 'test:',
        advance: async (ms) => clock.advance(ms),
      };
    },
  ],
  [
    'in Redis',
    () => {
      // Each test on its own key prefix under the file's.
      const prefix = `${redis.prefix}${Math.random().toString(36).slice(2)}:`;
      const kv = createRedisStore(redis.redis);
      return {
        store: createHandoffStore(kv, prefix),
        kv,
        prefix,
        advance: (ms) => advanceRedisTtls(redis.redis, prefix, ms),
      };
    },
  ],
];

describe.each(subjects)('the handoff store %s', (_name, make) => {
  it('finds an open handoff from the session and from its thread', async () => {
    const { store } = make();
    expect(await store.reserve('tg:1', 30_000)).toBe(true);
    expect(await store.bySession('tg:1')).toBe('opening');
    await store.save(handoff('tg:1', '1.1'));
    expect(await store.bySession('tg:1')).toEqual(handoff('tg:1', '1.1'));
    expect(await store.byThread('C0HANDOFF', '1.1')).toEqual(handoff('tg:1', '1.1'));
    expect(await store.byThread('C0HANDOFF', '9.9')).toBeUndefined();
  });

  it('lets one request open a handoff for a session, and lets a reservation never saved lapse', async () => {
    const { store, advance } = make();
    expect(await store.reserve('tg:2', 30_000)).toBe(true);
    expect(await store.reserve('tg:2', 30_000)).toBe(false);
    await advance(30_001);
    expect(await store.bySession('tg:2')).toBeUndefined();
    expect(await store.reserve('tg:2', 30_000)).toBe(true);
  });

  it('counts the first staff reply of a thread once', async () => {
    const { store } = make();
    await store.save(handoff('tg:3', '3.1'));
    const claims = await Promise.all([1, 2, 3].map(() => store.firstReply(handoff('tg:3', '3.1'))));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('ends a handoff for exactly one of staff and customer ending it at once', async () => {
    const { store } = make();
    await store.save(handoff('tg:4', '4.1'));
    const ended = await Promise.all([
      store.close(handoff('tg:4', '4.1')),
      store.close(handoff('tg:4', '4.1')),
    ]);
    expect(ended.filter(Boolean)).toHaveLength(1);
    expect(await store.bySession('tg:4')).toBeUndefined();
    expect(await store.byThread('C0HANDOFF', '4.1')).toBeUndefined();
  });

  it("leaves a customer's newer handoff open when an older thread is resolved late", async () => {
    const { store } = make();
    await store.save(handoff('tg:5', '5.1'));
    await store.save(handoff('tg:5', '5.2'));
    expect(await store.close(handoff('tg:5', '5.1'))).toBe(true);
    expect(await store.bySession('tg:5')).toEqual(handoff('tg:5', '5.2'));
  });

  it("forgets a session's handoff from both sides when its data is erased (issue 29)", async () => {
    const { store } = make();
    await store.save(handoff('tg:6', '6.1'));
    expect(await store.forget('tg:6')).toBe(true);
    expect(await store.bySession('tg:6')).toBeUndefined();
    expect(await store.byThread('C0HANDOFF', '6.1')).toBeUndefined();
    expect(await store.forget('tg:6')).toBe(false);
  });

  it('lets an open handoff that nobody ends lapse from both sides after its lifetime', async () => {
    const { store, advance } = make();
    await store.save(handoff('tg:7', '7.1'));
    await advance(HANDOFF_TTL_MS - 1_000);
    expect(await store.byThread('C0HANDOFF', '7.1')).toEqual(handoff('tg:7', '7.1'));
    await advance(2_000);
    expect(await store.bySession('tg:7')).toBeUndefined();
    expect(await store.byThread('C0HANDOFF', '7.1')).toBeUndefined();
    expect(await store.reserve('tg:7', 30_000)).toBe(true);
  });

  it('keeps a newer handoff saved while an older one is being closed', async () => {
    const { kv, prefix } = make();
    // The newer handoff lands between the older thread's removal and the session's check.
    let store: HandoffStore | undefined;
    const racing: KeyValueStore = {
      ...kv,
      take: async (key) => {
        const taken = await kv.take(key);
        await store?.save(handoff('tg:8', '8.2'));
        return taken;
      },
    };
    store = createHandoffStore(racing, prefix);
    await store.save(handoff('tg:8', '8.1'));
    expect(await store.close(handoff('tg:8', '8.1'))).toBe(true);
    expect(await store.bySession('tg:8')).toEqual(handoff('tg:8', '8.2'));
    expect(await store.byThread('C0HANDOFF', '8.2')).toEqual(handoff('tg:8', '8.2'));
  });

  it('keeps an ended handoff by its thread, and reopens it once with the replies sent since, oldest first', async () => {
    const { store } = make();
    await store.save(handoff('tg:9', '9.1'));
    expect(await store.close(handoff('tg:9', '9.1'))).toBe(true);
    expect(await store.closedByThread('C0HANDOFF', '9.1')).toEqual(handoff('tg:9', '9.1'));
    await store.keepLate(handoff('tg:9', '9.1'), '1800000000.000020', 'second');
    await store.keepLate(handoff('tg:9', '9.1'), '1800000000.000010', 'first');
    const reopened = await Promise.all([
      store.reopen(handoff('tg:9', '9.1')),
      store.reopen(handoff('tg:9', '9.1')),
    ]);
    expect(reopened.filter((late) => late !== false)).toEqual([['first', 'second']]);
    expect(await store.bySession('tg:9')).toEqual(handoff('tg:9', '9.1'));
    expect(await store.byThread('C0HANDOFF', '9.1')).toEqual(handoff('tg:9', '9.1'));
    expect(await store.closedByThread('C0HANDOFF', '9.1')).toBeUndefined();
  });

  it("does not reopen an ended thread over the customer's newer handoff", async () => {
    const { store } = make();
    await store.save(handoff('tg:10', '10.1'));
    await store.close(handoff('tg:10', '10.1'));
    await store.save(handoff('tg:10', '10.2'));
    expect(await store.reopen(handoff('tg:10', '10.1'))).toBe(false);
    expect(await store.bySession('tg:10')).toEqual(handoff('tg:10', '10.2'));
  });

  it("forgets an ended thread and the replies kept for it when the customer's data is erased", async () => {
    const { store } = make();
    await store.save(handoff('tg:11', '11.1'));
    await store.close(handoff('tg:11', '11.1'));
    await store.keepLate(handoff('tg:11', '11.1'), '1.0', 'kept');
    await store.forget('tg:11');
    expect(await store.closedByThread('C0HANDOFF', '11.1')).toBeUndefined();
    expect(await store.reopen(handoff('tg:11', '11.1'))).toEqual([]);
  });
});
