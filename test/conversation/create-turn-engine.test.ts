import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import {
  type ConversationEngine,
  createTurnEngine,
  type FlowDefinition,
  type FlowRegistry,
  type Prompt,
  type Reply,
  type SessionGlance,
  type TurnEngineOptions,
  type TurnMiddleware,
} from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import {
  MemorySessionStore,
  RedisSessionStore,
  type RedisSessionStoreOptions,
  type SessionLease,
  type SessionStore,
} from '../../src/session/index.js';
import { advanceRedisTtls, manualClock } from '../support/manual-clock.js';
import { connectTestRedis } from '../support/redis.js';
import {
  counterMachine,
  failingMachine,
  gate,
  menuMachine,
  pingPongMachine,
  registry,
  slowMachine,
  stuckMachine,
} from './test-flows.js';

const KEY = 'ussd:260971234567';
const text = (value: string | number): Reply => ({ type: 'user.text', text: String(value) });
const counter: Omit<FlowDefinition, 'id'> = { version: 1, machine: counterMachine };

let redis: Redis;
const prefixes: string[] = [];
const engines: ConversationEngine[] = [];

beforeAll(() => {
  redis = connectTestRedis();
});

afterEach(async () => {
  for (const engine of engines.splice(0)) {
    await engine.idle();
    engine.close();
  }
  for (const prefix of prefixes.splice(0)) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  }
});

afterAll(() => {
  redis.disconnect();
});

function redisStore(options: Partial<RedisSessionStoreOptions> = {}) {
  const keyPrefix = `test:${randomUUID()}:`;
  prefixes.push(keyPrefix);
  return new RedisSessionStore({ redis, keyPrefix, ...options });
}

/** How many commands `step` sent on the test's Redis connection. */
async function redisCommandsOf(step: () => Promise<unknown>): Promise<number> {
  let commands = 0;
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((...args: Parameters<typeof send>) => {
    commands += 1;
    return send(...args);
  }) as typeof redis.sendCommand;
  try {
    await step();
  } finally {
    redis.sendCommand = send;
  }
  return commands;
}

function captureLogs() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { logger: createLogger({ destination, level: 'debug' }), lines };
}

function engine(
  flows: FlowRegistry,
  store: SessionStore,
  options: Partial<TurnEngineOptions> = {},
): ConversationEngine {
  const created = createTurnEngine({
    store,
    flows,
    logger: captureLogs().logger,
    defaultDeadlineMs: 20_000,
    ...options,
  });
  engines.push(created);
  return created;
}

/**
 * Adds middleware that steers only the next turn sent through the returned function (a channel's
 * request carrying its own decision); every other turn passes through untouched.
 */
function steered(turns: ConversationEngine) {
  let pending: TurnMiddleware | undefined;
  turns.use((context, next) => {
    const current = pending;
    pending = undefined;
    return current ? current(context, next) : next();
  });
  return (middleware: TurnMiddleware, reply: Reply): Promise<Prompt> => {
    pending = middleware;
    return turns.turn(KEY, reply);
  };
}

/** Wraps a store to count calls and bytes written, as a benchmark would. */
function countingStore(inner: SessionStore) {
  const counts = { acquire: 0, commit: 0, remove: 0, release: 0, extend: 0, bytes: 0 };
  const store: SessionStore = {
    acquire: (key, options) => {
      counts.acquire += 1;
      return inner.acquire(key, options);
    },
    commit: (lease: SessionLease, data: string) => {
      counts.commit += 1;
      counts.bytes += Buffer.byteLength(data);
      return inner.commit(lease, data);
    },
    remove: (lease) => {
      counts.remove += 1;
      return inner.remove(lease);
    },
    release: (lease) => {
      counts.release += 1;
      return inner.release(lease);
    },
    extend: (lease, ttl) => {
      counts.extend += 1;
      return inner.extend(lease, ttl);
    },
    read: (key) => inner.read(key),
    hold: (key, holdMs) => inner.hold(key, holdMs),
    unhold: (key) => inner.unhold(key),
  };
  const reset = () => {
    for (const name of Object.keys(counts) as (keyof typeof counts)[]) counts[name] = 0;
  };
  return { store, counts, reset };
}

type StoreFactory = (options?: { ttlSeconds?: number }) => SessionStore;
/** Moves the store's time forward (its TTLs and lock expiries) without sleeping. */
type Advance = (ms: number) => Promise<void>;
const memoryTime = manualClock();
const storeFactories: [string, StoreFactory, Advance][] = [
  [
    'Redis',
    (options) => redisStore(options),
    async (ms) => {
      for (const prefix of prefixes) await advanceRedisTtls(redis, prefix, ms);
    },
  ],
  [
    'memory',
    (options) => new MemorySessionStore({ now: memoryTime.now, ...options }),
    async (ms) => memoryTime.advance(ms),
  ],
];

describe.each(storeFactories)('turn engine over the %s store', (_name, makeStore, advance) => {
  it('starts a fresh session on main-menu without sending the triggering reply', async () => {
    const turns = engine(registry(counter), makeStore());
    expect(await turns.turn(KEY, text('dial'))).toMatchObject({
      key: 'test.count',
      params: { count: 0 },
    });
  });

  it('applies 100 turns sent at once to one session in order, none lost', async () => {
    const turns = engine(registry(counter), makeStore());
    await turns.turn(KEY, text('dial'));
    const prompts = await Promise.all(
      Array.from({ length: 100 }, (_, index) => turns.turn(KEY, text(index + 1))),
    );
    expect(prompts.map((prompt) => prompt.params?.count)).toEqual(
      Array.from({ length: 100 }, (_, index) => index + 1),
    );
    expect(prompts.at(-1)?.params).toEqual({ count: 100, inOrder: 'yes' });
  });

  it('loses no turn when two engine instances share one session', async () => {
    const store = makeStore();
    const first = engine(registry(counter), store);
    const second = engine(registry(counter), store);
    await first.turn(KEY, text('dial'));
    const prompts = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        (index % 2 === 0 ? first : second).turn(KEY, text(index + 1)),
      ),
    );
    const counts = prompts.map((prompt) => Number(prompt.params?.count)).sort((a, b) => a - b);
    expect(counts).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
  });

  it('hands over to the next flow in the same turn and returns its first prompt', async () => {
    const turns = engine(
      registry({ version: 1, machine: menuMachine }, { 'motor-quote': counter }),
      makeStore(),
    );
    expect((await turns.turn(KEY, text('dial'))).key).toBe('test.menu');
    expect(await turns.turn(KEY, { type: 'user.choice', id: 'go' })).toMatchObject({
      key: 'test.count',
      params: { count: 0 },
    });
    expect((await turns.turn(KEY, text(1))).params).toEqual({ count: 1, inOrder: 'yes' });
  });

  it('ends the session when a flow is done without a next flow', async () => {
    const store = makeStore();
    const turns = engine(registry(counter), store);
    await turns.turn(KEY, text('dial'));
    await turns.turn(KEY, text(1));
    expect(await turns.turn(KEY, { type: 'user.cancel' })).toMatchObject({
      key: 'test.bye',
      params: { count: 1 },
      final: true,
    });
    expect(await store.read(KEY)).toBeUndefined();
  });

  it('stores a channel state with the answered prompt and shows it to the next decision', async () => {
    const turns = engine(registry(counter), makeStore());
    const glances: SessionGlance[] = [];
    turns.use(async (context, next) => {
      glances.push(context.session);
      const shown = await next();
      context.channelState = `seen ${shown.params?.count}`;
      return shown;
    });
    await turns.turn(KEY, text('dial'));
    expect((await turns.turn(KEY, text(1))).params?.count).toBe(1);
    expect(glances.map((glance) => glance.state)).toEqual([undefined, 'seen 0']);
    expect(glances[1]).toMatchObject({ prompt: { key: 'test.count' }, unseen: false });
  });

  it('answers a keep from the record with the new state, without touching the flow', async () => {
    const turns = engine(registry(counter), makeStore());
    const once = steered(turns);
    let seen: string | undefined;
    const keep: TurnMiddleware = (context) => {
      seen = context.session.state;
      return context.keep('page 2');
    };
    await turns.turn(KEY, text('dial'));
    await turns.turn(KEY, text(1));
    expect((await once(keep, text('x'))).params?.count).toBe(1);
    await once(keep, text('x'));
    expect(seen).toBe('page 2');
    expect((await turns.turn(KEY, text(2))).params).toEqual({ count: 2, inOrder: 'yes' });
  });

  it('keeps a closing screen while the channel pages it, and forgets it after the last page', async () => {
    const store = makeStore();
    const turns = engine(registry(counter), store);
    const once = steered(turns);
    await turns.turn(KEY, text('dial'));
    const closing = await once(
      async (context, next) => {
        const shown = await next();
        context.channelState = 'page 0';
        return shown;
      },
      { type: 'user.cancel' },
    );
    expect(closing).toMatchObject({ key: 'test.bye', final: true });
    expect(await store.read(KEY)).toBeDefined();
    const last = await once((context) => context.keep(undefined), text('98'));
    expect(last).toMatchObject({ key: 'test.bye', final: true });
    expect(await store.read(KEY)).toBeUndefined();
  });

  it('stores the prompt once per record, beside the snapshot rather than inside it too', async () => {
    const store = makeStore();
    await engine(registry(counter), store).turn(KEY, text('dial'));
    const record = JSON.parse((await store.read(KEY))?.data ?? '{}');
    expect(record.prompt).toMatchObject({ key: 'test.count' });
    expect(record.snapshot.context).not.toHaveProperty('prompt');
    // Another instance restores it with the prompt in place.
    const other = engine(registry(counter), store);
    expect((await other.turn(KEY, text(1))).params).toEqual({ count: 1, inOrder: 'yes' });
  });

  it('resumes a dropped session on a new engine instance with the same prompt', async () => {
    const store = makeStore();
    const first = engine(registry(counter), store);
    await first.turn(KEY, text('dial'));
    await first.turn(KEY, text(1));
    const last = await first.turn(KEY, text(2));
    const second = engine(registry(counter), store);
    expect(await second.turn(KEY, text(''), { resume: true })).toEqual(last);
    expect((await second.turn(KEY, text(3))).params).toEqual({ count: 3, inOrder: 'yes' });
  });

  it('restarts at main-menu with a note when the record is corrupted', async () => {
    const store = makeStore();
    const lease = await store.acquire(KEY);
    if (lease.status !== 'acquired') throw new Error('expected the lock');
    await store.commit(lease.lease, '{"flowId": "main-menu", "snapshot": tru');
    const turns = engine(registry(counter), store);
    const prompt = await turns.turn(KEY, text(5));
    expect(prompt).toMatchObject({ key: 'test.count', params: { count: 0 } });
    expect(prompt.notes).toEqual([{ key: 'engine.restarted' }]);
    expect((await turns.turn(KEY, text(1))).params).toEqual({ count: 1, inOrder: 'yes' });
  });

  it('restarts at main-menu with a note when the snapshot is of another flow version', async () => {
    const store = makeStore();
    await engine(registry(counter), store).turn(KEY, text('dial'));
    await engine(registry(counter), store).turn(KEY, text(1));
    const upgraded = engine(registry({ ...counter, version: 2 }), store);
    const prompt = await upgraded.turn(KEY, text(2));
    expect(prompt).toMatchObject({ key: 'test.count', params: { count: 0 } });
    expect(prompt.notes).toEqual([{ key: 'engine.restarted' }]);
  });

  it('restarts at main-menu with a note when the snapshot does not restore', async () => {
    const store = makeStore();
    await engine(registry(counter), store).turn(KEY, text('dial'));
    const stored = await store.read(KEY);
    const record = JSON.parse(stored?.data ?? '{}');
    record.snapshot.value = 'a-state-that-was-removed';
    const lease = await store.acquire(KEY);
    if (lease.status !== 'acquired') throw new Error('expected the lock');
    await store.commit(lease.lease, JSON.stringify(record));
    const prompt = await engine(registry(counter), store).turn(KEY, text(1));
    expect(prompt.notes).toEqual([{ key: 'engine.restarted' }]);
  });

  it('answers still working at the deadline and shows the result on the next turn', async () => {
    const work = gate<string>();
    const slow = slowMachine.provide({ actors: { slowWork: fromPromise(() => work.promise) } });
    const turns = engine(registry({ version: 1, machine: slow }), makeStore(), {
      defaultDeadlineMs: 50,
    });
    expect((await turns.turn(KEY, text('dial'))).key).toBe('test.ask');
    expect((await turns.turn(KEY, text('go'))).key).toBe('engine.stillWorking');
    work.open('ready');
    await turns.idle();
    expect(await turns.turn(KEY, text('anything'))).toMatchObject({
      key: 'test.result',
      params: { value: 'ready' },
    });
    // The result was shown; the next answer goes to the flow again.
    expect((await turns.turn(KEY, text('again'))).key).toBe('test.result');
  });

  it('keeps the closing screen of a flow that finished late for the next turn', async () => {
    const work = gate<string>();
    const slow = slowMachine.provide({ actors: { slowWork: fromPromise(() => work.promise) } });
    const store = makeStore();
    const turns = engine(registry({ version: 1, machine: slow }), store, {
      defaultDeadlineMs: 50,
    });
    await turns.turn(KEY, text('dial'));
    expect((await turns.turn(KEY, { type: 'user.choice', id: 'pay' })).key).toBe(
      'engine.stillWorking',
    );
    work.open('done');
    await turns.idle();
    expect(await turns.turn(KEY, text('anything'))).toEqual({
      key: 'test.closed',
      input: 'none',
      final: true,
    });
    expect(await store.read(KEY)).toBeUndefined();
  });

  it('answers busy while a slow turn still holds the session past the next deadline', async () => {
    const work = gate<string>();
    const slow = slowMachine.provide({ actors: { slowWork: fromPromise(() => work.promise) } });
    const turns = engine(registry({ version: 1, machine: slow }), makeStore(), {
      defaultDeadlineMs: 30,
    });
    await turns.turn(KEY, text('dial'));
    expect((await turns.turn(KEY, text('go'))).key).toBe('engine.stillWorking');
    expect((await turns.turn(KEY, text('hello?'))).key).toBe('engine.busy');
    work.open('ready');
    await turns.idle();
    expect((await turns.turn(KEY, text('hello?'))).key).toBe('test.result');
  });

  it('re-prompts the last prompt with a note after a process died mid-turn', async () => {
    const store = makeStore();
    const first = engine(registry(counter), store);
    await first.turn(KEY, text('dial'));
    const last = await first.turn(KEY, text(1));
    // A process takes the lock and dies: its lock expires, its in-flight marker stays.
    const dying = await store.acquire(KEY, { lockTtlMs: 20 });
    expect(dying.status).toBe('acquired');
    await advance(60);
    const second = engine(registry(counter), store);
    const prompt = await second.turn(KEY, text(2));
    expect(prompt).toEqual({ ...last, notes: [{ key: 'engine.interrupted' }] });
    expect((await second.turn(KEY, text(2))).params).toEqual({ count: 2, inOrder: 'yes' });
  });

  it('starts afresh once the session TTL passed', async () => {
    const turns = engine(registry(counter), makeStore({ ttlSeconds: 0.2 }));
    await turns.turn(KEY, text('dial'));
    expect((await turns.turn(KEY, text(1))).params?.count).toBe(1);
    await advance(500);
    expect((await turns.turn(KEY, text(2))).params?.count).toBe(0);
  });

  it('answers engine.error and keeps the session when a flow fails', async () => {
    const { logger, lines } = captureLogs();
    const store = makeStore();
    const turns = engine(registry({ version: 1, machine: failingMachine }), store, { logger });
    await turns.turn(KEY, text('dial'));
    const before = await store.read(KEY);
    expect(await turns.turn(KEY, text('go'))).toMatchObject({ key: 'engine.error' });
    expect(await store.read(KEY)).toEqual(before);
    expect((await turns.turn(KEY, text('dial'), { resume: true })).key).toBe('test.ask');
    expect(lines.join('')).toContain('turn.failed');
    expect(lines.join('')).not.toContain('260971234567');
  });

  it('answers engine.error for a reply that breaks the contract', async () => {
    const turns = engine(registry(counter), makeStore());
    const malformed = { type: 'user.shout' } as unknown as Reply;
    expect((await turns.turn(KEY, malformed)).key).toBe('engine.error');
  });

  it('gives up on a flow that never settles and frees the session', async () => {
    const turns = engine(registry({ version: 1, machine: stuckMachine }), makeStore(), {
      defaultDeadlineMs: 20,
      maxTurnMs: 50,
    });
    await turns.turn(KEY, text('dial'));
    expect((await turns.turn(KEY, text('go'))).key).toBe('engine.stillWorking');
    await turns.idle();
    expect((await turns.turn(KEY, text('dial'), { resume: true })).key).toBe('test.ask');
  });

  it('sends a payment outcome to the flow even after an interrupted turn', async () => {
    const store = makeStore();
    const turns = engine(registry(counter), store);
    await turns.turn(KEY, text('dial'));
    await store.acquire(KEY, { lockTtlMs: 20 });
    await advance(60);
    const outcome: Reply = { type: 'payment.settled', reference: 'IC1', outcome: 'paid' };
    expect(await turns.turn(KEY, outcome)).toMatchObject({
      key: 'test.paid',
      params: { outcome: 'paid' },
    });
  });

  it('shows a payment outcome told out of turn before applying the next reply', async () => {
    const turns = engine(registry(counter), makeStore());
    await turns.turn(KEY, text('dial'));
    await turns.turn(KEY, { type: 'payment.settled', reference: 'IC1', outcome: 'paid' });
    // The user answers the screen they still see: they are shown the outcome instead.
    expect((await turns.turn(KEY, text('1'))).key).toBe('test.paid');
    expect(await turns.turn(KEY, text('1'))).toMatchObject({
      key: 'test.count',
      params: { count: 1, inOrder: 'yes' },
    });
  });

  it('does not start a conversation from a payment outcome on a corrupted session', async () => {
    const store = makeStore();
    const lease = await store.acquire(KEY);
    if (lease.status !== 'acquired') throw new Error('expected the lock');
    await store.commit(lease.lease, 'garbage');
    const turns = engine(registry(counter), store);
    const outcome: Reply = { type: 'payment.settled', reference: 'IC1', outcome: 'paid' };
    expect((await turns.turn(KEY, outcome)).key).toBe('engine.sessionEnded');
    expect(await store.read(KEY)).toEqual({ version: 1, data: 'garbage' });
  });

  it('ends politely on a payment outcome for a session that no longer exists', async () => {
    const store = makeStore();
    const turns = engine(registry(counter), store);
    const outcome: Reply = { type: 'payment.settled', reference: 'IC1', outcome: 'paid' };
    expect(await turns.turn(KEY, outcome)).toMatchObject({
      key: 'engine.sessionEnded',
      final: true,
    });
    expect(await store.read(KEY)).toBeUndefined();
  });

  it('records where the user can be reached and starts USSD flows with the caller phone', async () => {
    const store = makeStore();
    const turns = engine(registry(counter), store);
    const address = { channel: 'ussd', address: '0971234567', locale: 'en' } as const;
    const caller = { kind: 'phone', phone: address.address } as const;
    await turns.turn(KEY, text('dial'), { address, caller, audience: 'funeral-member' });
    const record = JSON.parse((await store.read(KEY))?.data ?? '{}');
    expect(record).toMatchObject({
      address,
      audience: 'funeral-member',
      callerPhone: '260971234567',
      principal: { kind: 'phone', phone: '260971234567' },
      snapshot: { context: { audience: 'funeral-member' } },
    });
  });

  it('starts a chat as nobody and keeps the phone of the contact it shares for later flows', async () => {
    const store = makeStore();
    const turns = engine(registry(counter), store);
    const address = { channel: 'telegram', address: '4242', locale: 'en' } as const;
    await turns.turn(KEY, text('hi'), { address });
    const before = JSON.parse((await store.read(KEY))?.data ?? '{}');
    expect(before.principal).toEqual({ kind: 'nobody' });
    await turns.turn(KEY, { type: 'user.contact', phone: '+260 97 765 4321' }, { address });
    const after = JSON.parse((await store.read(KEY))?.data ?? '{}');
    expect(after.principal).toEqual({ kind: 'phone', phone: '260977654321' });
  });

  it('starts a Slack desk session as its staff member', async () => {
    const store = makeStore();
    const turns = engine(registry(counter), store);
    const address = { channel: 'slack', address: 'T1:C1:U42', locale: 'en' } as const;
    const caller = { kind: 'staff', member: 'U42' } as const;
    await turns.turn(KEY, text('hi'), { address, caller, audience: 'staff' });
    const record = JSON.parse((await store.read(KEY))?.data ?? '{}');
    expect(record.principal).toEqual({ kind: 'staff', member: 'U42' });
  });
});

describe('turn engine over Redis', () => {
  it.each([
    ['with', undefined],
    ['without', false as const],
  ])(
    'costs the same store work on turn 50 as on turn 1 %s the actor cache',
    async (_label, cache) => {
      const counting = countingStore(redisStore());
      const turns = engine(registry({ version: 1, machine: pingPongMachine }), counting.store, {
        ...(cache === false ? { cache } : {}),
      });
      // Warm the server's script cache so NOSCRIPT fallbacks do not count against turn 1.
      await turns.turn('warm-up', text('dial'));
      const work: { counts: typeof counting.counts; commands: number }[] = [];
      for (let turn = 1; turn <= 50; turn += 1) {
        counting.reset();
        const commands = await redisCommandsOf(() => turns.turn(KEY, text(turn)));
        if (turn === 1 || turn === 50) work.push({ counts: { ...counting.counts }, commands });
      }
      const [first, fiftieth] = work;
      expect(first?.counts).toEqual(fiftieth?.counts);
      expect(first?.counts).toMatchObject({ acquire: 1, commit: 1 });
      expect(first?.commands).toBe(2);
      expect(fiftieth?.commands).toBe(2);
    },
  );

  it('hands another part the hash it asked for, read in the same round trip as the session', async () => {
    const store = redisStore();
    const prefix = prefixes.at(-1) ?? '';
    const card = `${prefix}card:{${KEY}}`;
    await redis.hset(card, 'stop', '1');
    const delivered: unknown[] = [];
    const turns = engine(registry(counter), store, {
      prefetch: {
        keyOf: (sessionKey) => `${prefix}card:{${sessionKey}}`,
        deliver: (address, fields) => delivered.push({ address: address.address, fields }),
      },
    });
    await turns.turn('warm-up', text('dial'));
    const address = { channel: 'ussd', address: '260971234567', locale: 'en' } as const;
    expect(await redisCommandsOf(() => turns.turn(KEY, text('dial'), { address }))).toBe(2);
    expect(delivered).toEqual([{ address: '260971234567', fields: { stop: '1' } }]);
    // A turn that says nobody's address asks for nothing.
    await turns.turn(KEY, text(1));
    expect(delivered).toHaveLength(1);
    expect(await redis.exists(card)).toBe(1);
  });

  it('fetches no record bytes on the instance that wrote the latest version', async () => {
    const inner = redisStore();
    const fetched: (number | undefined)[] = [];
    const store: SessionStore = {
      ...inner,
      acquire: async (key, options) => {
        const result = await inner.acquire(key, options);
        if (result.status === 'acquired') fetched.push(result.record?.data.length);
        return result;
      },
      commit: (lease, data) => inner.commit(lease, data),
      remove: (lease) => inner.remove(lease),
      release: (lease) => inner.release(lease),
      extend: (lease, ttl) => inner.extend(lease, ttl),
      read: (key) => inner.read(key),
      hold: (key, holdMs) => inner.hold(key, holdMs),
      unhold: (key) => inner.unhold(key),
    };
    const writer = engine(registry(counter), store);
    await writer.turn(KEY, text('dial'));
    await writer.turn(KEY, text(1));
    expect((await writer.turn(KEY, text(2))).params?.count).toBe(2);
    expect(fetched).toEqual([undefined, undefined, undefined]);
    const reader = engine(registry(counter), store);
    expect((await reader.turn(KEY, text(3))).params?.count).toBe(3);
    expect(fetched[3]).toBeGreaterThan(0);
  });

  it('skips the restore on the instance that wrote the latest version', async () => {
    const store = redisStore();
    const writer = engine(registry(counter), store);
    await writer.turn(KEY, text('dial'));
    await writer.turn(KEY, text(1));
    // Rewrite the stored snapshot in place (same version): only a restore would see it.
    const tamper = async () => {
      const [recordKey] = await redis.keys(`${prefixes.at(-1)}session:*`);
      const record = JSON.parse((await store.read(KEY))?.data ?? '{}');
      record.snapshot.context.count = 41;
      await redis.hset(recordKey ?? '', 'd', JSON.stringify(record));
    };
    await tamper();
    expect((await writer.turn(KEY, text(2))).params?.count).toBe(2);
    await tamper();
    const reader = engine(registry(counter), store);
    expect((await reader.turn(KEY, text(42))).params?.count).toBe(42);
  });
});
