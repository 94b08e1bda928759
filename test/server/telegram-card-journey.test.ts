import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../payments/support.js';
import { telegramChat } from './telegram-webhook-chat.js';
import { startTestServer, type TestServer } from './test-server.js';

const SECRET = 'card-journey-secret';

let emulator: TelegramServer;
let app: TestServer;

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  app = await startTestServer({
    TELEGRAM_BOT_TOKEN: '515151:card-journey',
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
    if (/What would you like/i.test(text)) screen = await chat.tap(screen, /motor/i);
    else if (/^Motor insurance/i.test(text)) screen = await chat.tap(screen, /new cover/i);
    else if (/^Choose cover|Vehicle use|Choose a period/i.test(text))
      screen = await chat.tap(screen, /./);
    else if (/number plate/i.test(text)) screen = await chat.type('BCE 7781');
    else if (/make/i.test(text)) screen = await chat.type('Toyota');
    else if (/model/i.test(text)) screen = await chat.type('Corolla');
    else if (/Year of manufacture/i.test(text)) screen = await chat.type('2017');
    else if (/Chassis/i.test(text)) screen = await chat.type('CH7781001');
    else if (/Engine number/i.test(text)) screen = await chat.type('EN7781001');
    else if (/mobile number/i.test(text)) screen = await chat.shareOwnContact('+260971234567');
    else if (/NRC/i.test(text)) screen = await chat.type('479974/11/1');
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
