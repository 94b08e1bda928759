import { afterEach, describe, expect, it } from 'vitest';
import { type ConversationEngine, createTurnEngine } from '../../src/conversation/index.js';
import { createPaymentService, type PaymentService } from '../../src/payments/index.js';
import { RedisSessionStore } from '../../src/session/index.js';
import { eventually } from '../support/eventually.js';
import { type RedisMode, runnableModes } from '../support/redis-modes.js';
import { paymentTestFlows } from './engine-flow.js';
import {
  drained,
  flowState,
  quietLogger,
  RecordingNotifier,
  StatusBoard,
  type TestRedis,
  testRedis,
  webhook,
} from './support.js';

/** One insurechat instance: its own engine (and actor cache), notifier and payment service. */
interface Instance {
  readonly engine: ConversationEngine;
  readonly store: RedisSessionStore;
  readonly telegram: RecordingNotifier;
  readonly service: PaymentService;
}

const open: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

function instance(shared: TestRedis, board: StatusBoard, backoffMs: readonly number[]): Instance {
  const store = new RedisSessionStore({ redis: shared.redis, keyPrefix: shared.prefix });
  const engine = createTurnEngine({ store, flows: paymentTestFlows, logger: quietLogger });
  const telegram = new RecordingNotifier('telegram');
  const service = createPaymentService({
    redis: shared.redis,
    prefix: shared.prefix,
    getStatus: board.read,
    engine,
    notifiers: [telegram],
    logger: quietLogger,
    backoffMs,
  });
  open.push(async () => {
    await service.close();
    await engine.idle();
    engine.close();
  });
  return { engine, store, telegram, service };
}

function setup(mode: RedisMode): TestRedis {
  const shared = testRedis(mode);
  open.push(() => shared.cleanup());
  return shared;
}

const address = { channel: 'telegram', address: '5550001', locale: 'en' } as const;
const route = (sessionKey: string) => ({ sessionKey, ...address });

describe.each(runnableModes())(
  'payment service with the real turn engine on $name Redis',
  (mode) => {
    it('moves the waiting flow to paid and tells the user the policy number once', async () => {
      const shared = setup(mode);
      const board = new StatusBoard();
      const node = instance(shared, board, [50, 50]);
      const first = await node.engine.turn(
        'tg:5550001',
        { type: 'user.text', text: 'hi' },
        { address },
      );
      expect(first.key).toBe('test.awaitingPayment');

      await node.service.track('REF-E1', route('tg:5550001'));
      board.statuses.set('REF-E1', 'Success');
      await node.service.handleCallback(webhook('REF-E1', 'Success'));
      await eventually('the user is told', () => node.telegram.sent.length === 1);
      await drained(shared.redis, shared.prefix);

      expect(node.telegram.sent).toHaveLength(1);
      expect(node.telegram.sent[0]?.prompt).toMatchObject({
        key: 'payment.paid',
        params: { policyNumber: 'MTR/2026/0001' },
      });
      expect(await flowState(node.store, 'tg:5550001')).toBe('paid');
    });

    it('tells the user once when the callback reaches instance A and the conversation was on instance B', async () => {
      const shared = setup(mode);
      const board = new StatusBoard();
      const a = instance(shared, board, [60_000]);
      const b = instance(shared, board, [60_000]);
      await b.engine.turn('tg:5550002', { type: 'user.text', text: 'hi' }, { address });
      await b.service.track('REF-E2', route('tg:5550002'));
      board.statuses.set('REF-E2', 'Success');

      await Promise.all([
        a.service.handleCallback(webhook('REF-E2', 'Success')),
        a.service.handleCallback(webhook('REF-E2', 'Success')),
      ]);
      await eventually(
        'the user is told',
        () => a.telegram.sent.length + b.telegram.sent.length === 1,
      );
      await drained(shared.redis, shared.prefix, { includeDelayed: false });

      expect(a.telegram.sent.length + b.telegram.sent.length).toBe(1);
      expect(await flowState(b.store, 'tg:5550002')).toBe('paid');
      // B's own next turn sees what was delivered through the shared store, not its stale cache.
      const next = await b.engine.turn(
        'tg:5550002',
        { type: 'user.text', text: 'and now?' },
        { address },
      );
      expect(next.key).toBe('payment.paid');
    });

    it('tells the user the outcome itself when the conversation expired before the payment settled', async () => {
      const shared = setup(mode);
      const board = new StatusBoard();
      const node = instance(shared, board, [60_000]);
      await node.service.track('REF-E3', route('tg:gone'));
      board.statuses.set('REF-E3', 'Success');

      await node.service.handleCallback(webhook('REF-E3', 'Success'));
      await eventually('the user is told', () => node.telegram.sent.length === 1);

      expect(node.telegram.sent[0]?.prompt).toEqual({
        key: 'payment.outcome.paid',
        params: { reference: 'REF-E3', policyNumber: 'MTR/2026/0001' },
        input: 'none',
        final: true,
      });
    });
  },
);
