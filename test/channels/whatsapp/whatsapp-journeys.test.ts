import { expect, it } from 'vitest';
import { signatureOf } from '../../../src/channels/whatsapp/index.js';
import { buyMotorUntilPaying, payByMobileMoney, pushed } from './motor-journey.js';
import { APP_SECRET, useWhatsAppServer, VERIFY_TOKEN, whatsappChat } from './whatsapp-chat.js';

/*
 * Customers on WhatsApp through the whole server: their messages posted to /whatsapp/webhook
 * signed with the app secret, the answers read from the local Graph API the server sends to.
 */

const server = useWhatsAppServer();
const serverUrl = () => server.url;

it('buys motor cover from the first message to the certificate as a document message', async () => {
  // Sandbox numbers ending in 1, 2 or 3 fail; this sender pays from their own number.
  const chat = whatsappChat({
    graph: server.graph,
    serverUrl: serverUrl(),
    waId: '260971234567',
    settled: server.settled,
  });
  const { screen, seen } = await buyMotorUntilPaying(chat, 'BCE 7781', 'own');
  expect(seen[0]).toMatch(/What would you like/);
  // The sender's number is the verified phone: offered as a button, never asked to be shared.
  expect(seen.some((text) => /share your phone/i.test(text))).toBe(false);
  expect(screen.text).toMatch(/Approve ZMW [\d,.]+ on your phone/);
  const paid = await pushed(chat, /^Paid ZMW/, 0, (sent) => sent.documents.length > 0);
  expect(paid.text).toMatch(/BCE 7781.*Your policy number is MTR-/s);
  const certificate = paid.documents[0];
  expect(certificate?.filename).toMatch(/^MTR-[\w.-]+-certificate\.pdf$/);
  expect(new URL(certificate?.link ?? '').searchParams.get('sig')).toBeTruthy();
  expect((await fetch(certificate?.link ?? '')).status).toBe(200);
}, 90_000);

it('tells a declined payment and takes the money on a second try from another number', async () => {
  const chat = whatsappChat({
    graph: server.graph,
    serverUrl: serverUrl(),
    waId: '260971234561',
    settled: server.settled,
  });
  await buyMotorUntilPaying(chat, 'BCE 7782', 'own');
  const declined = await pushed(chat, /did not go through/);
  expect(declined.text).toMatch(/Reason: The customer declined the payment prompt/);
  expect(declined.choices.map((choice) => choice.title)).toEqual(['Pay again', 'End']);
  // The outcome was pushed: the customer's first tap on it answers it.
  const payWith = await chat.tap(declined, /Pay again/);
  expect(payWith.text).toMatch(/Pay with/);
  const from = chat.sent().length;
  expect((await payByMobileMoney(chat, payWith, '0971234567')).text).toMatch(/^Approve ZMW/);
  const paid = await pushed(chat, /^Paid ZMW/, from);
  expect(paid.text).toMatch(/BCE 7782.*Your policy number is MTR-/s);
}, 90_000);

it('answers the webhook verification with the challenge, and refuses a wrong verify token', async () => {
  const query = (token: string) =>
    `${serverUrl()}/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`;
  const ok = await fetch(query(VERIFY_TOKEN));
  expect(ok.status).toBe(200);
  expect(await ok.text()).toBe('1158201444');
  expect((await fetch(query('guess'))).status).toBe(403);
});

it('refuses a forged or unsigned POST, and sends nothing', async () => {
  const chat = whatsappChat({
    graph: server.graph,
    serverUrl: serverUrl(),
    waId: '260977000001',
    settled: server.settled,
  });
  const before = server.graph.sent.length;
  const body = chat.messageBody({ type: 'text', text: { body: 'Hello' } });
  expect((await chat.post(body, null)).status).toBe(401);
  expect((await chat.post(body, `sha256=${'0'.repeat(64)}`)).status).toBe(401);
  expect((await chat.post(body, 'sha256=not-hex')).status).toBe(401);
  // Signed with another app's secret: as forged as no signature at all.
  expect((await chat.post(body, signatureOf(JSON.stringify(body), `${APP_SECRET}x`))).status).toBe(
    401,
  );
  expect(server.graph.sent.length).toBe(before);
  // The same body, rightly signed, is a message like any other.
  expect((await chat.post(body)).status).toBe(200);
  expect(server.graph.sent.length).toBeGreaterThan(before);
});

it('records delivery statuses without turning them into turns', async () => {
  const chat = whatsappChat({
    graph: server.graph,
    serverUrl: serverUrl(),
    waId: '260977000002',
    settled: server.settled,
  });
  const menu = await chat.text('Hello');
  const sentId = menu.messages.at(-1)?.id ?? '';
  const before = server.graph.sent.length;
  for (const status of ['sent', 'delivered', 'read'] as const) {
    const body = chat.envelope({
      statuses: [{ id: sentId, status, timestamp: '1764000000', recipient_id: '260977000002' }],
    });
    expect((await chat.post(body)).status).toBe(200);
  }
  expect(server.graph.sent.length).toBe(before);
  expect(await server.app.redis.get(`${server.app.prefix}whatsapp-status:{${sentId}}`)).toBe(
    'read',
  );
  // The conversation did not move: the next tap still answers the menu.
  const motor = await chat.tap(menu, /motor/i);
  expect(motor.text).toMatch(/^Motor insurance/);
});

it('handles a message WhatsApp delivers twice once', async () => {
  const chat = whatsappChat({
    graph: server.graph,
    serverUrl: serverUrl(),
    waId: '260977000003',
    settled: server.settled,
  });
  const menu = await chat.text('Hello');
  const tap = {
    type: 'interactive',
    interactive: { type: 'list_reply', list_reply: { id: 'motor' } },
  };
  const first = await chat.send(tap, 'wamid.twice');
  expect(first.text).toMatch(/^Motor insurance/);
  const again = await chat.send(tap, 'wamid.twice');
  expect(again.messages).toHaveLength(0);
  expect(menu.choices.length).toBeGreaterThan(3);
  // The window is open: the phone's key lives 24 hours.
  const ttl = await server.app.redis.ttl(`${server.app.prefix}whatsapp-window:{260977000003}`);
  expect(ttl).toBeGreaterThan(23 * 3600);
});

it('takes typed words as Telegram its commands: menu, cancel, and done with no person open', async () => {
  const chat = whatsappChat({
    graph: server.graph,
    serverUrl: serverUrl(),
    waId: '260977000004',
    settled: server.settled,
  });
  const motor = await chat.tap(await chat.text('Hi'), /motor/i);
  expect(motor.text).toMatch(/^Motor insurance/);
  const done = await chat.text('done');
  expect(done.text).toMatch(
    /^You are not talking to a person\. Here is where you are:\s+Motor insurance/,
  );
  const menu = await chat.text('Menu');
  expect(menu.text).toMatch(/What would you like/);
  await chat.tap(menu, /motor/i);
  expect((await chat.text('cancel')).text).toMatch(/^Cancelled\./);
  expect((await chat.text('Hello')).text).toMatch(/What would you like/);
});
