import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cardPayment,
  createPartnerClient,
  mobileMoneyPayment,
  type PartnerClient,
} from '../../src/api/index.js';
import { type ConversationEngine, createTurnEngine } from '../../src/conversation/index.js';
import {
  createPaymentService,
  type PaymentOutcome,
  type PaymentService,
  paymentKey,
  registerPaymentCallback,
} from '../../src/payments/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { RedisSessionStore } from '../../src/session/index.js';
import { eventually } from '../support/eventually.js';
import { type RedisMode, runnableModes } from '../support/redis-modes.js';
import { paymentTestFlows } from './engine-flow.js';
import {
  drained,
  flowState,
  motorQuote,
  quietLogger,
  RecordingNotifier,
  type TestRedis,
  testRedis,
} from './support.js';

const SECRET = 'callback-secret-for-tests';
const MSISDN = { success: '0977123456', declined: '0971000001', silent: '0971000003' } as const;

/** One insurechat instance: real engine, payment service and callback route over shared Redis. */
interface Instance {
  readonly engine: ConversationEngine;
  readonly store: RedisSessionStore;
  readonly telegram: RecordingNotifier;
  readonly service: PaymentService;
  readonly app: FastifyInstance;
  readonly callbackUrl: string;
  readonly outcomes: PaymentOutcome[];
}

interface World {
  readonly redis: TestRedis;
  readonly sandbox: Sandbox;
  readonly client: PartnerClient;
  instance(backoffMs: readonly number[]): Promise<Instance>;
}

const open: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

/** Redis, the sandbox insurer (real clock, fast settlement) and a Partner API client for it. */
async function world(mode: RedisMode): Promise<World> {
  const redis = testRedis(mode);
  open.push(() => redis.cleanup());
  const sandbox = createSandbox({
    apiKey: 'test-key',
    settleDelayMs: 30,
    callbackRetryBaseMs: 20,
    callbackMaxAttempts: 2,
  });
  const { url } = await sandbox.listen();
  const client = createPartnerClient({ baseUrl: url, apiKey: 'test-key', maxRetries: 0 });
  open.push(async () => {
    await client.close();
    await sandbox.close();
  });
  return {
    redis,
    sandbox,
    client,
    async instance(backoffMs) {
      const store = new RedisSessionStore({ redis: redis.redis, keyPrefix: redis.prefix });
      const engine = createTurnEngine({ store, flows: paymentTestFlows, logger: quietLogger });
      const telegram = new RecordingNotifier('telegram');
      const outcomes: PaymentOutcome[] = [];
      const service = createPaymentService({
        redis: redis.redis,
        prefix: redis.prefix,
        client,
        engine,
        notifiers: [telegram],
        logger: quietLogger,
        backoffMs,
        onOutcome: (outcome) => outcomes.push(outcome),
      });
      const app = Fastify();
      registerPaymentCallback(app, { secret: SECRET, service });
      const origin = await app.listen({ port: 0, host: '127.0.0.1' });
      open.push(async () => {
        await app.close();
        await service.close();
        await engine.idle();
        engine.close();
      });
      const callbackUrl = `${origin}/payments/callback/${SECRET}`;
      return { engine, store, telegram, service, app, callbackUrl, outcomes };
    },
  };
}

const address = { channel: 'telegram', address: '5550100', locale: 'en' } as const;

/** Starts a conversation that waits for its payment, as the payment step of a flow does. */
async function waitingConversation(node: Instance, sessionKey: string): Promise<void> {
  const prompt = await node.engine.turn(sessionKey, { type: 'user.text', text: 'hi' }, { address });
  expect(prompt.key).toBe('test.awaitingPayment');
}

async function post(url: string, body: unknown): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.text();
  return response.status;
}

describe.each(runnableModes())(
  'payment outcomes over the sandbox insurer on $name Redis',
  (mode) => {
    it('tells a successful mobile-money payment once, with its policy number, and moves the flow to paid', async () => {
      const w = await world(mode);
      const node = await w.instance([60_000]);
      w.sandbox.setPaymentCallbackUrl(node.callbackUrl);
      await waitingConversation(node, 'tg:100');
      const quoteId = await motorQuote(w.client);

      await node.service.track('MM-OK', { sessionKey: 'tg:100', ...address, quoteId });
      const paid = await w.client.call('payQuotation', {
        path: { quoteId },
        body: mobileMoneyPayment(MSISDN.success, 'MM-OK'),
      });
      expect(paid.status).toBe('Pending');
      await eventually('the user is told', () => node.telegram.sent.length === 1);
      await node.service.idle();
      await drained(w.redis.redis, w.redis.prefix, { includeDelayed: false });

      expect(node.telegram.sent).toHaveLength(1);
      const policyNumber = node.telegram.sent[0]?.prompt.params?.policyNumber;
      expect(policyNumber).toMatch(/\S/);
      const details = await w.client.call('getTransaction', { path: { reference: 'MM-OK' } });
      expect(details.policyNumber).toBe(policyNumber);
      expect(await flowState(node.store, 'tg:100')).toBe('paid');
      expect(node.outcomes).toEqual(['paid']);
    });

    it('tells a declined payment once and leaves the flow offering a retry', async () => {
      const w = await world(mode);
      const node = await w.instance([40, 40, 40]);
      w.sandbox.setPaymentCallbackUrl(node.callbackUrl);
      await waitingConversation(node, 'tg:101');
      const quoteId = await motorQuote(w.client);

      await node.service.track('MM-DECLINED', { sessionKey: 'tg:101', ...address });
      await w.client.call('payQuotation', {
        path: { quoteId },
        body: mobileMoneyPayment(MSISDN.declined, 'MM-DECLINED'),
      });
      await eventually('the user is told', () => node.telegram.sent.length === 1);
      await node.service.idle();
      await drained(w.redis.redis, w.redis.prefix);

      expect(node.telegram.sent).toHaveLength(1);
      expect(node.telegram.sent[0]?.prompt.choices).toEqual([
        { id: 'retry', label: 'payment.retry' },
      ]);
      expect(await flowState(node.store, 'tg:101')).toBe('failed');
    });

    it('tells a never-answered payment once that it is still pending, with a way to check again', async () => {
      const w = await world(mode);
      const node = await w.instance([40, 40, 40]);
      w.sandbox.setPaymentCallbackUrl(node.callbackUrl);
      await waitingConversation(node, 'tg:102');
      const quoteId = await motorQuote(w.client);

      await node.service.track('MM-SILENT', { sessionKey: 'tg:102', ...address });
      await w.client.call('payQuotation', {
        path: { quoteId },
        body: mobileMoneyPayment(MSISDN.silent, 'MM-SILENT'),
      });
      await eventually('the user is told', () => node.telegram.sent.length === 1);
      await drained(w.redis.redis, w.redis.prefix);

      expect(node.telegram.sent).toHaveLength(1);
      expect(node.telegram.sent[0]?.prompt.choices).toEqual([
        { id: 'check', label: 'engine.checkAgain' },
      ]);
      expect(await flowState(node.store, 'tg:102')).toBe('stillPending');
      expect(await node.service.check('MM-SILENT')).toBe('pending');
      expect(node.outcomes).toEqual(['pending']);
    });

    it('lets the poller deliver when the callback is lost', async () => {
      const w = await world(mode);
      const node = await w.instance([40, 40, 40, 40, 40]);
      w.sandbox.setPaymentCallbackUrl(null);
      await waitingConversation(node, 'tg:103');
      const quoteId = await motorQuote(w.client);

      await node.service.track('MM-NOCALLBACK', { sessionKey: 'tg:103', ...address });
      await w.client.call('payQuotation', {
        path: { quoteId },
        body: mobileMoneyPayment(MSISDN.success, 'MM-NOCALLBACK'),
      });
      await eventually('the user is told', () => node.telegram.sent.length === 1);
      await drained(w.redis.redis, w.redis.prefix);

      expect(node.telegram.sent).toHaveLength(1);
      expect(node.telegram.sent[0]?.prompt.key).toBe('payment.paid');
      expect(await flowState(node.store, 'tg:103')).toBe('paid');
    });

    it('sends one message when the insurer delivers the callback again and again', async () => {
      const w = await world(mode);
      const node = await w.instance([60_000]);
      w.sandbox.setPaymentCallbackUrl(node.callbackUrl);
      await waitingConversation(node, 'tg:104');
      const quoteId = await motorQuote(w.client);
      await node.service.track('MM-DUP', { sessionKey: 'tg:104', ...address });
      await w.client.call('payQuotation', {
        path: { quoteId },
        body: mobileMoneyPayment(MSISDN.success, 'MM-DUP'),
      });
      await eventually('the user is told', () => node.telegram.sent.length === 1);
      const details = await w.client.call('getTransaction', { path: { reference: 'MM-DUP' } });
      const body = {
        policyId: details.policyId,
        paymentReference: 'MM-DUP',
        partnerReference: 'MM-DUP',
        status: 'Success',
        amount: details.amount,
        currency: details.currency,
        policyNumber: details.policyNumber,
        policyStatus: 'Active',
        paidAt: null,
      };

      const statuses = await Promise.all([
        post(node.callbackUrl, body),
        post(node.callbackUrl, body),
        post(node.callbackUrl, { ...body, status: 'Failed' }),
      ]);
      await node.service.idle();
      await drained(w.redis.redis, w.redis.prefix, { includeDelayed: false });

      expect(statuses).toEqual([200, 200, 200]);
      expect(node.telegram.sent).toHaveLength(1);
      expect(await flowState(node.store, 'tg:104')).toBe('paid');
    });

    it('rejects a forged callback with a wrong secret, with no effect', async () => {
      const w = await world(mode);
      const node = await w.instance([60_000]);
      await waitingConversation(node, 'tg:105');
      const quoteId = await motorQuote(w.client);
      await node.service.track('MM-FORGED', { sessionKey: 'tg:105', ...address });
      await w.client.call('payQuotation', {
        path: { quoteId },
        body: mobileMoneyPayment(MSISDN.silent, 'MM-FORGED'),
      });

      const forged = node.callbackUrl.replace(SECRET, 'not-the-secret');
      const status = await post(forged, {
        paymentReference: 'MM-FORGED',
        partnerReference: 'MM-FORGED',
        status: 'Success',
        policyNumber: 'FAKE/0001',
      });
      await node.service.idle();

      expect(status).toBe(401);
      expect(node.telegram.attempts).toBe(0);
      expect(await flowState(node.store, 'tg:105')).toBe('awaitingPayment');
      expect(await w.redis.redis.exists(paymentKey(w.redis.prefix, 'hint', 'MM-FORGED'))).toBe(0);
    });

    it('sends nothing when the callback has the right secret but the status still says pending', async () => {
      const w = await world(mode);
      const node = await w.instance([60_000]);
      await waitingConversation(node, 'tg:106');
      const quoteId = await motorQuote(w.client);
      await node.service.track('MM-EARLYWORD', { sessionKey: 'tg:106', ...address });
      await w.client.call('payQuotation', {
        path: { quoteId },
        body: mobileMoneyPayment(MSISDN.silent, 'MM-EARLYWORD'),
      });

      const status = await post(node.callbackUrl, {
        paymentReference: 'MM-EARLYWORD',
        partnerReference: 'MM-EARLYWORD',
        status: 'Success',
      });
      await node.service.idle();
      await drained(w.redis.redis, w.redis.prefix, { includeDelayed: false });

      expect(status).toBe(200);
      expect(node.telegram.attempts).toBe(0);
      expect(node.outcomes).toEqual([]);
      expect(await flowState(node.store, 'tg:106')).toBe('awaitingPayment');
    });

    it('delivers a callback that arrived before the route was written', async () => {
      const w = await world(mode);
      const node = await w.instance([60_000]);
      w.sandbox.setPaymentCallbackUrl(node.callbackUrl);
      await waitingConversation(node, 'tg:107');
      const quoteId = await motorQuote(w.client);

      await w.client.call('payQuotation', {
        path: { quoteId },
        body: mobileMoneyPayment(MSISDN.success, 'MM-EARLY'),
      });
      await eventually('the sandbox delivered its callback', () =>
        w.sandbox.payments.callbackLog('MM-EARLY').some((attempt) => attempt.delivered),
      );
      await node.service.idle();
      expect(node.telegram.attempts).toBe(0);

      await node.service.track('MM-EARLY', { sessionKey: 'tg:107', ...address });
      await eventually('the user is told', () => node.telegram.sent.length === 1);

      expect(node.telegram.sent[0]?.prompt.key).toBe('payment.paid');
      expect(await flowState(node.store, 'tg:107')).toBe('paid');
    });

    it('tells the user once when the callback reaches instance A and the conversation was on instance B', async () => {
      const w = await world(mode);
      const a = await w.instance([60_000]);
      const b = await w.instance([60_000]);
      w.sandbox.setPaymentCallbackUrl(a.callbackUrl);
      await waitingConversation(b, 'tg:108');
      const quoteId = await motorQuote(w.client);

      await b.service.track('MM-AB', { sessionKey: 'tg:108', ...address });
      await w.client.call('payQuotation', {
        path: { quoteId },
        body: mobileMoneyPayment(MSISDN.success, 'MM-AB'),
      });
      await eventually(
        'the user is told',
        () => a.telegram.sent.length + b.telegram.sent.length === 1,
      );
      await a.service.idle();
      await drained(w.redis.redis, w.redis.prefix, { includeDelayed: false });

      expect(a.telegram.sent.length + b.telegram.sent.length).toBe(1);
      expect(await flowState(b.store, 'tg:108')).toBe('paid');
      const next = await b.engine.turn('tg:108', { type: 'user.text', text: '?' }, { address });
      expect(next.key).toBe('payment.paid');
    });

    it('tells the outcome of a card payment once the payer completes the redirect page', async () => {
      const w = await world(mode);
      const node = await w.instance([60_000]);
      w.sandbox.setPaymentCallbackUrl(node.callbackUrl);
      await waitingConversation(node, 'tg:109');
      const quoteId = await motorQuote(w.client);

      await node.service.track('CARD-1', { sessionKey: 'tg:109', ...address });
      const paid = await w.client.call('payQuotation', {
        path: { quoteId },
        body: cardPayment(
          { city: 'Lusaka', country: 'ZM', address: 'Cairo Road', zip: 10101 },
          'CARD-1',
        ),
      });
      expect(paid.redirectUrl).toMatch(/^https?:\/\//);
      expect(node.telegram.attempts).toBe(0);
      const page = await fetch(String(paid.redirectUrl));
      await page.text();
      await eventually('the user is told', () => node.telegram.sent.length === 1);

      expect(node.telegram.sent[0]?.prompt.key).toBe('payment.paid');
      expect(await flowState(node.store, 'tg:109')).toBe('paid');
    });

    it('receipts a prepaid credit-life batch and puts its cover on risk once the premium payment is confirmed', async () => {
      const w = await world(mode);
      const node = await w.instance([60_000]);
      w.sandbox.setPaymentCallbackUrl(node.callbackUrl);
      await waitingConversation(node, 'tg:110');
      const quotations = await w.client.call('getCreditLifeQuotations');
      const prepaid = quotations.find((q) => q.requiresPrepayment === true);
      const policy = await w.client.call('createCreditLifePolicy', {
        body: { quotationId: String(prepaid?.id), startDate: '2026-03-02' },
      });
      await node.service.track('CL-PREMIUM', { sessionKey: 'tg:110', ...address });

      const placed = await w.client.call('placeLoansAndPay', {
        path: { policyId: policy.id },
        body: {
          loans: [
            {
              fullName: 'Test Borrower',
              nrcNumber: '111111/11/1',
              dateOfBirth: '1990-01-01',
              amount: 10_000,
              startDate: '2026-03-02',
              endDate: '2027-03-01',
              partnerLoanReference: 'LOAN-1',
              interestRate: 0.28,
            },
          ],
          payment: { reference: 'CL-PREMIUM', mobileMoneyAccountNumber: MSISDN.success },
        },
      });
      expect(placed.schedule.status).toBe('Pending');
      await eventually('the user is told', () => node.telegram.sent.length === 1);

      expect(node.telegram.sent[0]?.prompt.key).toBe('payment.paid');
      const batch = await w.client.call('getCreditLifeBatch', {
        path: { scheduleId: placed.schedule.id },
      });
      expect(batch).toMatchObject({ status: 'Receipted', outstandingPremium: 0 });
      expect(batch.loans?.[0]?.status).toBe('Active');
    });
  },
);
