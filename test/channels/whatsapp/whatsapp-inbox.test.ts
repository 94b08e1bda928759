import { expect, it } from 'vitest';
import { sandboxOf } from '../../server/test-server.js';
import { manualClock } from '../../support/manual-clock.js';
import { screenOf, useWhatsAppServer, whatsappChat } from './whatsapp-chat.js';

/*
 * The webhook answers at once and the turns run from the inbox (issue 40): through the whole
 * server, its Redis and BullMQ, against the local Graph API; the de-duplication clock is manual.
 */

const DAY_MS = 24 * 3_600_000;
const clock = manualClock();
const server = useWhatsAppServer({}, { whatsappClock: clock.now });
const chatOf = (waId: string) =>
  whatsappChat({ graph: server.graph, serverUrl: server.url, waId, settled: server.settled });

it("answers the webhook while its turn's insurer call is held, and the reply follows its release", async () => {
  const chat = chatOf('260977000100');
  const motor = await chat.tap(await chat.text('Hi'), /motor/i);
  const choice = motor.choices.find((candidate) => /new cover/i.test(candidate.title));
  expect(choice).toBeDefined();
  const type = motor.kind === 'list' ? 'list_reply' : 'button_reply';
  const sandbox = sandboxOf(server.app);
  // Every insurer answer is held 3 s: new motor cover asks the insurer for its products.
  sandbox.setAnswerDelayMs(3_000);
  try {
    const before = chat.sent().length;
    const response = await chat.postAlone(
      chat.messageBody({
        type: 'interactive',
        interactive: { type, [type]: choice },
      }),
    );
    expect(response.status).toBe(200);
    // Answered with nothing sent yet: the turn still waits on the insurer.
    expect(chat.sent().length).toBe(before);
    sandbox.setAnswerDelayMs(0);
    await server.settled();
    expect(screenOf(chat.sent().slice(before)).text).toMatch(/^Choose cover/);
  } finally {
    sandbox.setAnswerDelayMs(0);
  }
}, 60_000);

it('runs no second turn for a message id replayed 3 days later, and forgets it after 7', async () => {
  const chat = chatOf('260977000101');
  const body = chat.messageBody({ type: 'text', text: { body: 'Hi' } }, 'wamid.replayed.1');
  expect((await chat.post(body)).status).toBe(200);
  const first = chat.sent().length;
  expect(first).toBeGreaterThan(0);
  clock.advance(3 * DAY_MS);
  expect((await chat.post(body)).status).toBe(200);
  expect(chat.sent().length).toBe(first);
  // Meta stops redelivering after 7 days: the id is then a new message (the clock is read).
  clock.advance(5 * DAY_MS);
  expect((await chat.post(body)).status).toBe(200);
  expect(chat.sent().length).toBeGreaterThan(first);
}, 60_000);

it('retries a turn whose answer could not be sent, and the customer gets one reply', async () => {
  const calm = await chatOf('260977000102').text('Hi');
  server.graph.failNext(1, 500);
  const retried = await chatOf('260977000103').text('Hi');
  expect(retried.text).toMatch(/What would you like/);
  expect(retried.text).not.toMatch(/Sorry/);
  expect(retried.messages.map((message) => message.type)).toEqual(
    calm.messages.map((message) => message.type),
  );
}, 60_000);
