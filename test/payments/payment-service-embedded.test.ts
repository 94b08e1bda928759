import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createPartnerClient, mobileMoneyPayment } from '../../src/api/index.js';
import { createSmsNotifier } from '../../src/channels/sms/index.js';
import {
  type ConversationEngine,
  createTurnEngine,
  renderPrompt,
} from '../../src/conversation/index.js';
import {
  createPaymentService,
  PAYMENT_PROMPTS,
  type PaymentService,
  registerPaymentCallback,
} from '../../src/payments/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { MemorySessionStore } from '../../src/session/index.js';
import { eventually } from '../support/eventually.js';
import { paymentTestFlows } from './engine-flow.js';
import { flowState, motorQuote, quietLogger } from './support.js';

const SECRET = 'memory-callback-secret';
const API_KEY = 'test-key';
// The sandbox's success number; USSD routes carry the caller's number in international form.
const PAYER = { msisdn: '0977123456', address: '260977123456' } as const;
const ussd = { channel: 'ussd', address: PAYER.address, locale: 'en' } as const;

/** insurechat's embedded default: no Redis, in-memory sessions, the sandbox's SMS endpoint. */
interface Embedded {
  readonly sandbox: Sandbox;
  readonly engine: ConversationEngine;
  readonly sessions: MemorySessionStore;
  readonly service: PaymentService;
  payMotor(reference: string): Promise<void>;
}

const open: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

async function embedded(backoffMs: readonly number[]): Promise<Embedded> {
  const sandbox = createSandbox({
    apiKey: API_KEY,
    settleDelayMs: 30,
    callbackRetryBaseMs: 20,
    callbackMaxAttempts: 2,
  });
  const { url, origin: sandboxOrigin } = await sandbox.listen();
  const client = createPartnerClient({ baseUrl: url, apiKey: API_KEY, maxRetries: 0 });
  const sessions = new MemorySessionStore();
  const engine = createTurnEngine({
    store: sessions,
    flows: paymentTestFlows,
    logger: quietLogger,
  });
  const sms = createSmsNotifier({
    url: `${sandboxOrigin}/version1/messaging`,
    apiKey: API_KEY,
    username: 'sandbox',
    render: renderPrompt,
  });
  const service = createPaymentService({
    client,
    engine,
    notifiers: [sms],
    logger: quietLogger,
    backoffMs,
  });
  const app = Fastify();
  registerPaymentCallback(app, { secret: SECRET, service });
  const origin = await app.listen({ port: 0, host: '127.0.0.1' });
  sandbox.setPaymentCallbackUrl(`${origin}/payments/callback/${SECRET}`);
  open.push(async () => {
    await app.close();
    await service.close();
    await engine.idle();
    engine.close();
    await client.close();
    await sandbox.close();
  });
  return {
    sandbox,
    engine,
    sessions,
    service,
    async payMotor(reference) {
      const quoteId = await motorQuote(client);
      const paid = await client.call('payQuotation', {
        path: { quoteId },
        body: mobileMoneyPayment(PAYER.msisdn, reference),
      });
      expect(paid.status).toBe('Pending');
    },
  };
}

describe('payment outcomes without Redis', () => {
  it('texts a USSD payer once when the mobile-money payment succeeds, and moves the flow to paid', async () => {
    const app = await embedded([60_000]);
    const sessionKey = `ussd:${PAYER.address}`;
    const first = await app.engine.turn(
      sessionKey,
      { type: 'user.text', text: '1' },
      { address: ussd },
    );
    expect(first.key).toBe('test.awaitingPayment');

    await app.service.track('MEM-OK', { sessionKey, ...ussd });
    await app.payMotor('MEM-OK');
    await eventually('the SMS is sent', () => app.sandbox.smsOutbox.list(PAYER.msisdn).length > 0);
    await app.service.settled({ includeDelayed: false });

    expect(app.sandbox.smsOutbox.list(PAYER.msisdn)).toHaveLength(1);
    expect(await flowState(app.sessions, sessionKey)).toBe('paid');
  });

  it('texts the policy number itself when the conversation ended before the payment settled', async () => {
    const app = await embedded([60_000]);

    await app.service.track('MEM-GONE', { sessionKey: `ussd:${PAYER.address}`, ...ussd });
    await app.payMotor('MEM-GONE');
    await eventually('the SMS is sent', () => app.sandbox.smsOutbox.list(PAYER.msisdn).length > 0);
    await app.service.settled({ includeDelayed: false });

    const [sms, ...more] = app.sandbox.smsOutbox.list(PAYER.msisdn);
    expect(more).toEqual([]);
    expect(sms?.message).toMatch(/^Payment MEM-GONE received\. Your policy number is \S+\.$/);
  });

  it('lets the poller text the outcome when the callback never arrives', async () => {
    const app = await embedded([40, 40, 40]);
    app.sandbox.setPaymentCallbackUrl('http://127.0.0.1:9/unreachable');

    await app.service.track('MEM-LOST', { sessionKey: `ussd:${PAYER.address}`, ...ussd });
    await app.payMotor('MEM-LOST');
    await eventually('the SMS is sent', () => app.sandbox.smsOutbox.list(PAYER.msisdn).length > 0);
    await app.service.settled();

    const messages = app.sandbox.smsOutbox.list(PAYER.msisdn);
    expect(messages).toHaveLength(1);
    // The policy number came only with the lost callback, so the notice does without it.
    expect(messages[0]?.message).toMatch(
      /^Payment MEM-LOST received\. Your policy is being issued/,
    );
  });
});

describe('payment outcome notices', () => {
  it.each(Object.values(PAYMENT_PROMPTS))(
    'renders %s as one SMS with every parameter filled',
    (key) => {
      const { text } = renderPrompt(
        {
          key,
          params: { reference: 'IC0123456789ABCDEF0123', policyNumber: 'MTR/2026/000123456' },
          input: 'none',
          final: true,
        },
        'en',
      );

      expect(text).not.toBe(key);
      expect(text).not.toMatch(/[{}]/);
      expect(text.length).toBeLessThan(160);
    },
  );
});
