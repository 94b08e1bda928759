import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../support/eventually.js';
import { answerMotorStep, type Sent, telegramChat } from './telegram-webhook-chat.js';
import { startTestServer, type TestServer } from './test-server.js';

/*
 * Screens pushed into a Telegram chat out of turn (a payment's outcome), through the whole server
 * in webhook mode: the customer's first tap on one of their buttons is the one that counts.
 */

const SECRET = 'telegram-pushed-secret';

let emulator: TelegramServer;
let app: TestServer;

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  app = await startTestServer({
    TELEGRAM_BOT_TOKEN: '525252:telegram-pushed',
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_ROOT: emulator.config.apiURL,
    PUBLIC_URL: 'https://insurechat.example.test',
  });
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

it('answers the first tap on "Pay again" of a declined payment pushed into the chat with the pay screen', async () => {
  const chat = chatOf(7_400_001);
  let screen = await chat.command('/start');
  const seen: string[] = [];
  for (let step = 0; step < 30 && !/^Approve ZMW/.test(screen.message.text ?? ''); step += 1) {
    const text = screen.message.text ?? '';
    seen.push(text.split('\n')[0] ?? '');
    const motor = answerMotorStep(chat, screen);
    if (motor) screen = await motor;
    else if (/first name|full name/i.test(text)) screen = await chat.type('Mwila Banda');
    else if (/last name/i.test(text)) screen = await chat.type('Banda');
    else if (/e-?mail/i.test(text)) screen = await chat.type('mwila@example.com');
    else if (/on record with another phone/i.test(text))
      screen = await chat.tap(screen, /new holder/i);
    else if (/Correct\?/i.test(text)) screen = await chat.tap(screen, /yes|correct/i);
    else if (/Pay with/i.test(text)) screen = await chat.tap(screen, /another/i);
    // The sandbox's payer whose number ends in 1 declines the prompt.
    else if (/number to pay/i.test(text)) screen = await chat.type('0971234561');
    else throw new Error(`unexpected screen: ${text}\nafter: ${seen.join(' | ')}`);
  }
  expect(screen.message.text).toMatch(/^Approve ZMW/);

  const declined = await eventually('the declined outcome was pushed into the chat', () =>
    chat.sent().find((sent: Sent) => /did not go through/.test(sent.message.text ?? '')),
  );
  expect(chat.buttonsOf(declined).map((button) => button.text)).toEqual(['Pay again', 'End']);
  // One tap: the pushed screen is the one the customer answers, not shown to them again.
  const payWith = await chat.tap(declined, /Pay again/);
  expect(payWith.message.text).toMatch(/Pay with/);
}, 90_000);
