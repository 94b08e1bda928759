import { afterEach, describe, expect, it } from 'vitest';
import {
  createPaymentService,
  type PaymentOutcome,
  type PaymentService,
  type PaymentServiceSettings,
} from '../../src/payments/index.js';
import { eventually } from '../support/eventually.js';
import { type RedisMode, runnableModes } from '../support/redis-modes.js';
import {
  MemoryState,
  quietLogger,
  RecordingNotifier,
  StatusBoard,
  TestPaymentEngine,
  type TestRedis,
  telegramRoute,
  testRedis,
  webhook,
} from './support.js';

/** Where the service keeps its keys and jobs: Redis + BullMQ (standalone or Cluster), or this process. */
interface Backend {
  readonly name: string;
  /** The Redis mode, or undefined for the in-process backend. */
  readonly mode: RedisMode | undefined;
}

const redisBackends: Backend[] = runnableModes().map((mode) => ({
  name: `redis ${mode.name}`,
  mode,
}));
const backends: Backend[] = [...redisBackends, { name: 'memory', mode: undefined }];

interface Harness {
  /** The test's Redis, for the Redis backend only. */
  readonly store: TestRedis | undefined;
  readonly board: StatusBoard;
  readonly engine: TestPaymentEngine;
  readonly telegram: RecordingNotifier;
  readonly outcomes: PaymentOutcome[];
  readonly service: PaymentService;
}

const open: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

function harness(
  backend: Backend,
  overrides: Partial<PaymentServiceSettings> & { failures?: number } = {},
): Harness {
  const store = backend.mode ? testRedis(backend.mode) : undefined;
  const board = new StatusBoard();
  const engine = store
    ? new TestPaymentEngine(store.redis, store.prefix)
    : new TestPaymentEngine(new MemoryState(), 'memory:');
  const telegram = new RecordingNotifier('telegram', overrides.failures ?? 0);
  const outcomes: PaymentOutcome[] = [];
  const service = createPaymentService({
    ...(store ? { redis: store.redis, prefix: store.prefix } : {}),
    getStatus: board.read,
    engine,
    notifiers: [telegram],
    logger: quietLogger,
    backoffMs: [30, 30, 30],
    queue: { deliveryBackoffMs: 20 },
    onOutcome: (outcome) => outcomes.push(outcome),
    ...overrides,
  });
  open.push(async () => {
    await service.close();
    await store?.cleanup();
  });
  return { store, board, engine, telegram, outcomes, service };
}

/** Waits for every job to finish, so "exactly one" also means "and no more coming". */
async function settled(h: Harness, { includeDelayed = true } = {}): Promise<void> {
  await h.service.settled({ includeDelayed });
}

describe.each(backends)('payment service over $name', (backend) => {
  it('tells the user once and moves the flow to paid when a callback confirms a success', async () => {
    const h = harness(backend, { backoffMs: [60_000] });
    await h.engine.startWaiting('tg:1');
    await h.service.track('REF-PAID', telegramRoute('tg:1'));
    h.board.statuses.set('REF-PAID', 'Success');

    expect(await h.service.handleCallback(webhook('REF-PAID', 'Success'))).toBe('delivered');
    await eventually('the user is told', () => h.telegram.sent.length === 1);

    expect(h.telegram.sent[0]?.prompt).toMatchObject({
      key: 'payment.paid',
      params: { policyNumber: 'MTR/2026/0001' },
    });
    expect(h.telegram.sent[0]?.address).toEqual({
      channel: 'telegram',
      address: '424242',
      locale: 'en',
    });
    expect(await h.engine.state('tg:1')).toBe('paid');
    expect(h.outcomes).toEqual(['paid']);
  });

  it('tells the user once and offers a retry when the payment was declined', async () => {
    const h = harness(backend);
    await h.engine.startWaiting('tg:2');
    await h.service.track('REF-DECLINED', telegramRoute('tg:2'));
    h.board.statuses.set('REF-DECLINED', 'FAILED');

    await h.service.handleCallback(webhook('REF-DECLINED', 'Failed'));
    await eventually('the user is told', () => h.telegram.sent.length === 1);
    await settled(h);

    expect(h.telegram.sent).toHaveLength(1);
    expect(h.telegram.sent[0]?.prompt.choices).toEqual([{ id: 'retry', label: 'payment.retry' }]);
    expect(await h.engine.state('tg:2')).toBe('payment-failed');
    expect(h.outcomes).toEqual(['failed']);
  });

  it('tells the user once that a never-answered payment is still pending after the last poll', async () => {
    const h = harness(backend);
    await h.engine.startWaiting('tg:3');
    await h.service.track('REF-SILENT', telegramRoute('tg:3'));

    await eventually('the user is told', () => h.telegram.sent.length === 1);
    await settled(h);

    expect(h.telegram.sent).toHaveLength(1);
    expect(h.telegram.sent[0]?.prompt.key).toBe('payment.still-pending');
    expect(await h.engine.state('tg:3')).toBe('still-pending');
    // one read per back-off step, then it stopped
    expect(h.board.reads).toBe(3);
    expect(h.outcomes).toEqual(['pending']);
  });

  it('lets the poller deliver the outcome when the callback is lost', async () => {
    const h = harness(backend);
    await h.engine.startWaiting('tg:4');
    await h.service.track('REF-LOST', telegramRoute('tg:4'));
    h.board.statuses.set('REF-LOST', 'successful');

    await eventually('the user is told', () => h.telegram.sent.length === 1);
    await settled(h);

    expect(h.telegram.sent).toHaveLength(1);
    expect(h.telegram.sent[0]?.prompt.key).toBe('payment.paid');
    expect(await h.engine.state('tg:4')).toBe('paid');
  });

  it('sends one message for duplicate, late and out-of-order callbacks', async () => {
    const h = harness(backend);
    await h.engine.startWaiting('tg:5');
    await h.service.track('REF-DUP', telegramRoute('tg:5'));
    h.board.statuses.set('REF-DUP', 'Success');

    const results = await Promise.all([
      h.service.handleCallback(webhook('REF-DUP', 'Success')),
      h.service.handleCallback(webhook('REF-DUP', 'Success')),
      h.service.handleCallback(webhook('REF-DUP', 'Failed')),
    ]);
    await eventually('the user is told', () => h.telegram.sent.length === 1);
    const late = await h.service.handleCallback(webhook('REF-DUP', 'Pending'));
    await settled(h);

    expect(results.filter((r) => r === 'delivered')).toHaveLength(1);
    expect(late).toBe('duplicate');
    expect(h.telegram.sent).toHaveLength(1);
    expect(h.engine.handled).toHaveLength(1);
    expect(await h.engine.state('tg:5')).toBe('paid');
  });

  it('tells nobody anything when the callback says success but the status is still pending', async () => {
    const h = harness(backend, { backoffMs: [60_000] });
    await h.engine.startWaiting('tg:6');
    await h.service.track('REF-PREMATURE', telegramRoute('tg:6'));

    expect(await h.service.handleCallback(webhook('REF-PREMATURE', 'Success'))).toBe('pending');

    expect(h.board.reads).toBe(1);
    expect(h.telegram.attempts).toBe(0);
    expect(h.engine.handled).toHaveLength(0);
    expect(await h.engine.state('tg:6')).toBe('awaiting-payment');
    expect(h.outcomes).toEqual([]);
  });

  it('delivers a callback that arrived before the route was written, once the route appears', async () => {
    const h = harness(backend, { backoffMs: [60_000] });
    h.board.statuses.set('REF-EARLY', 'Success');

    expect(await h.service.handleCallback(webhook('REF-EARLY', 'Success'))).toBe('parked');
    expect(h.telegram.attempts).toBe(0);

    await h.engine.startWaiting('tg:7');
    await h.service.track('REF-EARLY', telegramRoute('tg:7'));
    await eventually('the user is told', () => h.telegram.sent.length === 1);

    expect(h.telegram.sent[0]?.prompt).toMatchObject({
      key: 'payment.paid',
      params: { policyNumber: 'MTR/2026/0001' },
    });
    expect(await h.engine.state('tg:7')).toBe('paid');
  });

  it('retries a notifier that failed without moving the flow twice, and tells the user once', async () => {
    const h = harness(backend, { failures: 2 });
    await h.engine.startWaiting('tg:8');
    await h.service.track('REF-FLAKY', telegramRoute('tg:8'));
    h.board.statuses.set('REF-FLAKY', 'completed');

    await h.service.handleCallback(webhook('REF-FLAKY', 'Success'));
    await eventually('the user is told', () => h.telegram.sent.length === 1);
    await settled(h);

    expect(h.telegram.attempts).toBe(3);
    expect(h.telegram.sent).toHaveLength(1);
    expect(h.engine.handled).toHaveLength(1);
  });

  it('delivers the final outcome when the user checks again after the still-pending notice', async () => {
    const h = harness(backend, { backoffMs: [20] });
    await h.engine.startWaiting('tg:9');
    await h.service.track('REF-SLOW', telegramRoute('tg:9'));
    await eventually('the pending notice is sent', () => h.telegram.sent.length === 1);

    h.board.statuses.set('REF-SLOW', 'Success');
    expect(await h.service.check('REF-SLOW')).toBe('paid');
    await eventually('the outcome is sent', () => h.telegram.sent.length === 2);
    expect(await h.service.check('REF-SLOW')).toBe('paid');
    await settled(h);

    expect(h.telegram.sent.map((m) => m.prompt.key)).toEqual([
      'payment.still-pending',
      'payment.paid',
    ]);
    expect(await h.engine.state('tg:9')).toBe('paid');
  });

  it('pushes nothing once the flow has shown the user the final outcome in a turn', async () => {
    const h = harness(backend, { backoffMs: [20, 20] });
    await h.engine.startWaiting('tg:12');
    await h.service.track('REF-SEEN', telegramRoute('tg:12'));
    h.board.statuses.set('REF-SEEN', 'Success');

    expect(await h.service.acknowledge('REF-SEEN', 'paid')).toBe(true);
    const callback = await h.service.handleCallback(webhook('REF-SEEN', 'Success'));
    await settled(h);

    expect(callback).toBe('duplicate');
    expect(h.telegram.attempts).toBe(0);
    expect(h.engine.handled).toHaveLength(0);
    expect(await h.service.acknowledge('REF-SEEN', 'paid')).toBe(false);
  });

  it('tells the outcome of a retried payment that reuses the reference of a failed one', async () => {
    const h = harness(backend, { backoffMs: [60_000] });
    await h.engine.startWaiting('tg:10');
    await h.service.track('REF-AGAIN', telegramRoute('tg:10'));
    h.board.statuses.set('REF-AGAIN', 'Failed');
    await h.service.handleCallback(webhook('REF-AGAIN', 'Failed'));
    await eventually('the failure is sent', () => h.telegram.sent.length === 1);

    await h.service.track('REF-AGAIN', telegramRoute('tg:10'));
    h.board.statuses.set('REF-AGAIN', 'Success');
    await h.service.handleCallback(webhook('REF-AGAIN', 'Success'));
    await eventually('the success is sent', () => h.telegram.sent.length === 2);

    expect(h.telegram.sent.map((m) => m.prompt.key)).toEqual(['payment.failed', 'payment.paid']);
  });
});

describe.each(backends)('payment service over $name, erasing a holder (issue 29)', (backend) => {
  it("forgets the routes of a holder's settled payments and keeps the one in flight until it is told", async () => {
    const h = harness(backend, { backoffMs: [60_000] });
    const holder = { channel: 'telegram', address: '424242' };
    await h.engine.startWaiting('tg:9');
    await h.service.track('REF-SETTLED', telegramRoute('tg:9'));
    await h.service.track('REF-IN-FLIGHT', telegramRoute('tg:9'));
    h.board.statuses.set('REF-SETTLED', 'Success');
    await h.service.handleCallback(webhook('REF-SETTLED', 'Success'));
    await eventually('the settled payment is told', () => h.telegram.sent.length === 1);

    expect(await h.service.inFlightFor(holder)).toBe(1);
    expect(await h.service.forgetHolder(holder)).toBe(1);
    expect(await h.service.routes.get('REF-SETTLED')).toBeUndefined();
    expect(await h.service.routes.get('REF-IN-FLIGHT')).toMatchObject({ address: '424242' });
  });
});

describe.each(redisBackends)('payment service over $name, across instances', (backend) => {
  it('tells the user once when the callback reaches instance A and the conversation was on instance B', async () => {
    const a = harness(backend, { backoffMs: [60_000] });
    if (!a.store) throw new Error('the Redis harness has a store');
    const shared = { redis: a.store.redis, prefix: a.store.prefix };
    const engineB = new TestPaymentEngine(shared.redis, shared.prefix);
    const telegramB = new RecordingNotifier('telegram');
    const serviceB = createPaymentService({
      ...shared,
      getStatus: a.board.read,
      engine: engineB,
      notifiers: [telegramB],
      logger: quietLogger,
      backoffMs: [60_000],
    });
    open.push(() => serviceB.close());

    // The conversation runs on B: B starts the payment and records its route.
    await engineB.startWaiting('tg:11');
    await serviceB.track('REF-AB', telegramRoute('tg:11'));
    a.board.statuses.set('REF-AB', 'Success');

    // The insurer's callback lands on A, twice, while B also handles one.
    await Promise.all([
      a.service.handleCallback(webhook('REF-AB', 'Success')),
      a.service.handleCallback(webhook('REF-AB', 'Success')),
      serviceB.handleCallback(webhook('REF-AB', 'Success')),
    ]);
    await eventually(
      'the user is told',
      () => a.telegram.sent.length + telegramB.sent.length === 1,
    );
    await settled(a, { includeDelayed: false });

    expect(a.telegram.sent.length + telegramB.sent.length).toBe(1);
    expect(a.engine.handled.length + engineB.handled.length).toBe(1);
    expect(await engineB.state('tg:11')).toBe('paid');
  });
});
