import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TypingTimers } from '../../../src/conversation/index.js';
import { telegramChat } from '../../server/telegram-webhook-chat.js';
import { sandboxOf, startTestServer, type TestServer } from '../../server/test-server.js';
import { eventually } from '../../support/eventually.js';
import { freePort } from './test-support.js';

/*
 * "Typing" during slow Telegram turns (issue 40), through the whole server in webhook mode
 * against the Bot API emulator. The typing timers are fired by hand: a slow turn is one whose
 * insurer call is held while the test fires them, a fast one has answered before any could.
 */

const SECRET = 'telegram-typing-secret';

/** Timers that run only when the test fires them. */
function handTimers() {
  let next = 0;
  const pending = new Map<number, { run: () => void; ms: number }>();
  const timers: TypingTimers = {
    set(run, ms) {
      next += 1;
      pending.set(next, { run, ms });
      return next;
    },
    clear: (handle) => pending.delete(handle as number),
  };
  return {
    timers,
    /** The delays of the timers set and not yet fired or cleared. */
    pending: () => [...pending.values()].map((timer) => timer.ms),
    /** Runs every pending timer once (those they set stay pending). */
    fire() {
      const due = [...pending.values()];
      pending.clear();
      for (const timer of due) timer.run();
    },
  };
}

/**
 * Answers the emulator's `sendChatAction` (which it does not know) and records each call; every
 * other call goes on to the emulator.
 */
function recordChatActions(emulator: TelegramServer): { chatId: string; action: string }[] {
  const actions: { chatId: string; action: string }[] = [];
  const server = (emulator as unknown as { server: Server }).server;
  const [emulate] = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!/\/sendChatAction$/.test(request.url ?? '')) return emulate?.(request, response);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        chat_id: number;
        action: string;
      };
      actions.push({ chatId: String(body.chat_id), action: body.action });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: true, result: true }));
    });
  });
  return actions;
}

const hand = handTimers();
let emulator: TelegramServer;
let app: TestServer;
let actions: { chatId: string; action: string }[];

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  actions = recordChatActions(emulator);
  app = await startTestServer(
    {
      TELEGRAM_BOT_TOKEN: '616161:telegram-typing',
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_API_ROOT: emulator.config.apiURL,
      PUBLIC_URL: 'https://insurechat.example.test',
    },
    { telegramTyping: { timers: hand.timers } },
  );
}, 60_000);

afterAll(async () => {
  await app?.close();
  await emulator?.stop();
});

const chatOf = (chatId: number) =>
  telegramChat({
    emulator,
    serverUrl: `http://127.0.0.1:${app.server.info.bound?.port}`,
    secret: SECRET,
    chatId,
  });
const actionsIn = (chatId: number) => actions.filter((action) => action.chatId === String(chatId));

it('sends no chat action for turns that answer before the typing delay', async () => {
  const chat = chatOf(7_710_001);
  const menu = await chat.command('/start');
  // The answer is in: the turn's timer was cleared before it, so nothing is left to fire.
  expect(hand.pending()).toEqual([]);
  await chat.tap(menu, /motor/i);
  expect(hand.pending()).toEqual([]);
  hand.fire();
  expect(actionsIn(7_710_001)).toEqual([]);
}, 60_000);

it('shows "typing" while a turn waits on the insurer, again while it still waits, and stops at the answer', async () => {
  const chat = chatOf(7_710_002);
  const motor = await chat.tap(await chat.command('/start'), /motor/i);
  const sandbox = sandboxOf(app);
  // New motor cover asks the insurer for its products: each answer is held 3 s meanwhile.
  sandbox.setAnswerDelayMs(3_000);
  try {
    const answered = chat.tap(motor, /new cover/i);
    await eventually('the slow turn set its typing timer', () => hand.pending().length > 0);
    expect(hand.pending()).toEqual([800]);
    hand.fire();
    await eventually('typing was shown', () => actionsIn(7_710_002).length === 1);
    // Telegram shows it for 5 s: it is sent again after 4.5 s while the turn still runs.
    expect(hand.pending()).toEqual([4_500]);
    hand.fire();
    await eventually('typing was shown again', () => actionsIn(7_710_002).length === 2);
    sandbox.setAnswerDelayMs(0);
    const screen = await answered;
    expect(screen.message.text).toMatch(/^Choose cover/);
    expect(actionsIn(7_710_002)).toEqual([
      { chatId: '7710002', action: 'typing' },
      { chatId: '7710002', action: 'typing' },
    ]);
    expect(hand.pending()).toEqual([]);
  } finally {
    sandbox.setAnswerDelayMs(0);
  }
}, 60_000);
