import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createFlowRegistry } from '../../flows/index.js';
import { createPartnerClient, type PartnerClient } from '../../src/api/index.js';
import {
  type ConversationEngine,
  createTurnEngine,
  type Prompt,
  type Reply,
} from '../../src/conversation/index.js';
import {
  createPaymentService,
  type PaymentService,
  registerPaymentCallback,
} from '../../src/payments/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { RedisSessionStore } from '../../src/session/index.js';
import { directPayments } from '../flows/direct-payments.js';
import { holderCar } from '../flows/sandbox-world.js';
import { eventually } from '../support/eventually.js';
import { drained, quietLogger, RecordingNotifier, type TestRedis, testRedis } from './support.js';

const SECRET = 'motor-flow-callback-secret';
const address = { channel: 'telegram', address: '5550200', locale: 'en' } as const;

interface App {
  readonly redis: TestRedis;
  readonly sandbox: Sandbox;
  readonly client: PartnerClient;
  readonly engine: ConversationEngine;
  readonly telegram: RecordingNotifier;
  /** One turn of the test's conversation. */
  say(reply: Reply): Promise<Prompt>;
}

const open: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

/** The real motor flow, engine, payment service and callback route over the sandbox. */
async function app(sessionKey: string, backoffMs: readonly number[]): Promise<App> {
  const redis = testRedis();
  open.push(() => redis.cleanup());
  const sandbox = createSandbox({ apiKey: 'test-key', settleDelayMs: 30, callbackRetryBaseMs: 20 });
  const { url } = await sandbox.listen();
  const client = createPartnerClient({ baseUrl: url, apiKey: 'test-key', maxRetries: 0 });
  open.push(async () => {
    await client.close();
    await sandbox.close();
  });

  const telegram = new RecordingNotifier('telegram');
  // The flows' payment dependency pays the quote and tracks it for this test's one conversation,
  // as the server's wiring does for the conversation of the current turn. The service is created
  // after the engine it delivers into, hence the late binding.
  let service: PaymentService | undefined;
  const flows = createFlowRegistry({
    client,
    payments: directPayments(client, {
      track: async (reference) => service?.track(reference, { sessionKey, ...address }),
    }),
  });
  const store = new RedisSessionStore({ redis: redis.redis, keyPrefix: redis.prefix });
  const engine = createTurnEngine({ store, flows, logger: quietLogger });
  const payments = createPaymentService({
    redis: redis.redis,
    prefix: redis.prefix,
    client,
    engine,
    notifiers: [telegram],
    logger: quietLogger,
    backoffMs,
  });
  service = payments;
  const server = Fastify();
  registerPaymentCallback(server, { secret: SECRET, service: payments });
  const origin = await server.listen({ port: 0, host: '127.0.0.1' });
  sandbox.setPaymentCallbackUrl(`${origin}/payments/callback/${SECRET}`);
  open.push(async () => {
    await server.close();
    await payments.close();
    await engine.idle();
    engine.close();
  });

  return {
    redis,
    sandbox,
    client,
    engine,
    telegram,
    say: (reply) => engine.turn(sessionKey, reply, { address, deadlineMs: 10_000 }),
  };
}

const choose = (id: string): Reply => ({ type: 'user.choice', id });
const type = (text: string): Reply => ({ type: 'user.text', text });

/**
 * Walks the motor flow for a car of the seeded policyholder up to the payment choice: one with no
 * cover (the seeded AJQ 1909 is insured, and buying for it again is "already insured").
 */
async function toPayment(a: App, plate: string): Promise<Prompt> {
  await holderCar(a, plate);
  await a.say(type('hi'));
  for (const reply of [
    choose('motor'),
    choose('new'),
    choose('101'),
    // Priced first: private use, the first period; then the plate.
    choose('mrc_private'),
    choose('1'),
    type(plate),
    // A chat shows the car is its own by sharing the holder's own phone (issue 23).
    { type: 'user.contact' as const, phone: '+260971234567' },
    choose('yes'),
    // A chat has no number of its own: the holder's is asked.
    type('0971234567'),
  ]) {
    await a.say(reply);
  }
  const quote = await a.say(choose('yes'));
  expect(quote.key).toBe('motor.confirmQuote');
  return quote;
}

/** The policy number the sandbox issued for the one payment of the test. */
async function issuedPolicyNumber(a: App): Promise<string> {
  const [transaction] = a.sandbox.payments.all();
  const details = await a.client.call('getTransaction', {
    path: { reference: String(transaction?.reference) },
  });
  return String(details.policyNumber);
}

describe('payment outcomes through the real motor flow', () => {
  it('a mobile-money payment approved later moves the motor flow on by itself and tells the user once', async () => {
    const a = await app('tg:motor-1', [60_000]);
    await toPayment(a, 'AJQ 1921');
    await a.say(choose('other'));

    const waiting = await a.say(type('0977123456'));
    expect(waiting.key).toBe('pay.waitPhone');
    await eventually('the user is told', () => a.telegram.sent.length === 1);
    await drained(a.redis.redis, a.redis.prefix, { includeDelayed: false });

    expect(a.telegram.sent).toHaveLength(1);
    const told = a.telegram.sent[0];
    expect(told?.address).toEqual(address);
    expect(told?.prompt).toMatchObject({
      key: 'motor.done',
      params: { policyNumber: await issuedPolicyNumber(a) },
      final: true,
    });
  });

  it('a card payment gives the user the redirect link, and the outcome arrives once the page is completed', async () => {
    const a = await app('tg:motor-2', [60_000]);
    await toPayment(a, 'AJQ 1922');

    const waiting = await a.say(choose('card'));
    expect(waiting.key).toBe('pay.waitCard');
    const link = waiting.attachments?.find((attachment) => attachment.kind === 'link');
    expect(link?.url).toMatch(/^https?:\/\/.+\/sandbox\/3ds\//);
    expect(a.telegram.attempts).toBe(0);

    await (await fetch(String(link?.url))).text();
    await eventually('the user is told', () => a.telegram.sent.length === 1);

    expect(a.telegram.sent[0]?.prompt).toMatchObject({
      key: 'motor.done',
      params: { policyNumber: await issuedPolicyNumber(a) },
    });
  });
});
