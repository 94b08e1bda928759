import { expect, it } from 'vitest';
import { RATE_LIMIT_TRIES } from '../../../src/channels/whatsapp/index.js';
import { TURN_ATTEMPTS } from '../../../src/inbox/index.js';
import { useWhatsAppServer, whatsappChat } from './whatsapp-chat.js';

/*
 * WhatsApp as Meta runs it (issue 40): each customer message is marked read with the typing
 * indicator before its reply, and a send Meta refuses for a rate limit is tried again inside the
 * send. Through the whole server against the local Graph API; the Graph client's back-off sleep
 * returns at once (it only records what it was asked to wait) and the inbox retries at once.
 */

const waits: number[] = [];
const server = useWhatsAppServer(
  {},
  {
    whatsappSleep: async (ms) => {
      waits.push(ms);
    },
    whatsappTurnBackoffMs: 1,
  },
);
const chatOf = (waId: string) =>
  whatsappChat({ graph: server.graph, serverUrl: server.url, waId, settled: server.settled });

it("marks a customer's message read with the typing indicator before its reply is sent", async () => {
  const chat = chatOf('260977000300');
  const before = server.graph.sent.length;
  const screen = await chat.send({ type: 'text', text: { body: 'Hi' } }, 'wamid.typing.1');
  expect(screen.text).toMatch(/What would you like/);
  const reads = server.graph.reads.filter((read) => read.message_id === 'wamid.typing.1');
  expect(reads).toHaveLength(1);
  expect(reads[0]?.typing_indicator).toEqual({ type: 'text' });
  // Sent before the reply, or the indicator would stay up after it: every reply came later.
  const firstReply = server.graph.sent.findIndex(
    (sent, index) => index >= before && sent.to === '260977000300',
  );
  expect(reads[0]?.sentBefore).toBeLessThanOrEqual(firstReply);
}, 60_000);

it('answers as usual when the read receipt fails', async () => {
  server.graph.failReads(1);
  const screen = await chatOf('260977000301').text('Hi');
  expect(screen.text).toMatch(/What would you like/);
  expect(screen.text).not.toMatch(/Sorry/);
}, 60_000);

it('waits out a rate limit (130429) and delivers the reply exactly once', async () => {
  const calm = await chatOf('260977000302').text('Hi');
  waits.length = 0;
  server.graph.failNext(1, 400, 130429);
  const limited = await chatOf('260977000303').text('Hi');
  expect(limited.text).toMatch(/What would you like/);
  expect(limited.text).not.toMatch(/Sorry/);
  expect(limited.messages.map((message) => message.type)).toEqual(
    calm.messages.map((message) => message.type),
  );
  expect(waits).toHaveLength(1);
}, 60_000);

it('retries a pair rate limit (131056) and an HTTP 429 the same way', async () => {
  waits.length = 0;
  server.graph.failNext(2, 400, 131056);
  const paired = await chatOf('260977000304').text('Hi');
  expect(paired.text).toMatch(/What would you like/);
  server.graph.failNext(1, 429, 4);
  const throttled = await chatOf('260977000305').text('Hi');
  expect(throttled.text).toMatch(/What would you like/);
  expect(waits).toHaveLength(3);
  // Backing off: each wait longer than the one before it in the same send.
  expect(waits[1]).toBeGreaterThanOrEqual(waits[0] ?? 0);
}, 60_000);

it('ends a send that stays rate-limited in the apology, after the inbox retried the turn', async () => {
  waits.length = 0;
  // Every try of every job of the turn is refused; the apology after them goes through.
  server.graph.failNext(RATE_LIMIT_TRIES * TURN_ATTEMPTS, 400, 130429);
  const screen = await chatOf('260977000306').text('Hi');
  expect(screen.text).toMatch(/^Sorry, something went wrong/);
  expect(screen.messages).toHaveLength(1);
  expect(waits).toHaveLength((RATE_LIMIT_TRIES - 1) * TURN_ATTEMPTS);
}, 60_000);
