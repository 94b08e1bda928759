import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../payments/support.js';
import { answerMotorStep, telegramChat } from './telegram-webhook-chat.js';
import { startTestServer, type TestServer } from './test-server.js';

/*
 * Customers on Telegram, through the whole server in webhook mode: their updates posted with the
 * secret token, the bot's answers read from the Bot API emulator it calls.
 */

const SECRET = 'telegram-journeys-secret';

let emulator: TelegramServer;
let app: TestServer;

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  app = await startTestServer({
    TELEGRAM_BOT_TOKEN: '515151:telegram-journeys',
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_ROOT: emulator.config.apiURL,
    PUBLIC_URL: 'https://insurechat.example.test',
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await emulator?.stop();
});

it('pays a motor policy by card on Telegram: the 3-D Secure page is a URL button, and the outcome is pushed into the chat once the insurer settles it', async () => {
  const chat = telegramChat({
    emulator,
    serverUrl: `http://127.0.0.1:${app.server.info.bound?.port}`,
    secret: SECRET,
    chatId: 7_700_001,
  });
  let screen = await chat.command('/start');
  const seen: string[] = [];
  let cardUrl: string | undefined;
  for (let step = 0; step < 30 && cardUrl === undefined; step += 1) {
    const text = screen.message.text ?? '';
    seen.push(text.split('\n')[0] ?? '');
    const motor = answerMotorStep(chat, screen);
    if (motor) screen = await motor;
    else if (/first name/i.test(text)) screen = await chat.type('Mwila');
    else if (/last name/i.test(text)) screen = await chat.type('Banda');
    else if (/e-?mail/i.test(text)) screen = await chat.type('mwila@example.com');
    else if (/Correct\?/i.test(text)) screen = await chat.tap(screen, /yes|correct/i);
    else if (/Pay with/i.test(text)) {
      expect(text).toMatch(/ZMW [\d,]+\.\d\d/);
      screen = await chat.tap(screen, /card/i);
    } else if (chat.buttonsOf(screen).some((button) => button.url)) {
      cardUrl = chat.buttonsOf(screen).find((button) => button.url)?.url;
    } else throw new Error(`unexpected screen: ${text}\nafter: ${seen.join(' | ')}`);
  }

  expect(screen.message.text).toMatch(/card/i);
  expect(cardUrl).toMatch(/\/3ds\//);
  // The customer completes the insurer's 3-D Secure page in the browser, and taps nothing more.
  expect((await fetch(cardUrl ?? '')).status).toBe(200);

  const paid = () => chat.sent().filter((sent) => /^Paid ZMW/.test(sent.message.text ?? ''));
  await eventually('the outcome was pushed into the chat', () => paid().length > 0);
  expect(paid()).toHaveLength(1);
  expect(paid()[0]?.message.text).toMatch(/BCE 7781.*Your policy number is MTR-/s);
}, 90_000);

it('buys travel cover on Telegram: the premium of each package is on screen before paying, and the paid outcome names the trip', async () => {
  const chat = telegramChat({
    emulator,
    serverUrl: `http://127.0.0.1:${app.server.info.bound?.port}`,
    secret: SECRET,
    chatId: 9_900_001,
  });
  const start = new Date(Date.now() + 10 * 86_400_000);
  const typedStart = `${String(start.getUTCDate()).padStart(2, '0')}/${String(start.getUTCMonth() + 1).padStart(2, '0')}/${start.getUTCFullYear()}`;
  let screen = await chat.command('/start');
  const seen: string[] = [];
  let priced = '';
  for (
    let step = 0;
    step < 30 && !/Approve|will tell you/i.test(screen.message.text ?? '');
    step++
  ) {
    const text = screen.message.text ?? '';
    seen.push(text.split('\n')[0] ?? '');
    if (/What would you like/i.test(text)) screen = await chat.tap(screen, /travel/i);
    else if (/Destination/i.test(text)) screen = await chat.type('South Africa');
    else if (/start date/i.test(text)) screen = await chat.type(typedStart);
    else if (/how many days|days/i.test(text)) screen = await chat.type('14');
    else if (/NRC/i.test(text)) screen = await chat.type('479974/11/1');
    else if (/full name|your name|name/i.test(text) && !/traveller/i.test(text))
      screen = await chat.type('Mwila Banda');
    else if (/Travellers so far/i.test(text)) screen = await chat.tap(screen, /continue/i);
    else if (/package|cover/i.test(text) && chat.buttonsOf(screen).length > 1) {
      priced =
        chat
          .buttonsOf(screen)
          .map((button) => button.text)
          .join(' | ') + text;
      screen = await chat.tap(screen, /./);
    } else if (/Pay with/i.test(text)) screen = await chat.tap(screen, /another/i);
    else if (/number to pay/i.test(text)) screen = await chat.shareOwnContact('+260971234567');
    else if (/Correct\?|Confirm/i.test(text))
      screen = await chat.tap(screen, /yes|correct|confirm|pay/i);
    else throw new Error(`unexpected screen: ${text}\nafter: ${seen.join(' | ')}`);
  }
  // Every package was shown with its premium before the traveller chose one.
  expect(priced).toMatch(/ZMW [\d,]+\.\d\d/);
  const asked = /ZMW ([\d,]+\.\d\d)/.exec(screen.message.text ?? '')?.[1];
  expect(asked).toBeDefined();

  const paid = () => chat.sent().filter((sent) => /^Paid ZMW/.test(sent.message.text ?? ''));
  await eventually('the outcome was pushed into the chat', () => paid().length > 0);
  expect(paid()[0]?.message.text).toContain(`Paid ZMW ${asked}`);
  expect(paid()[0]?.message.text).toMatch(/South Africa/);
}, 90_000);
