import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../payments/support.js';
import { startTestServer, type TestServer } from './test-server.js';

const TOKEN = '515151:card-journey';
const SECRET = 'card-journey-secret';
const CHAT = 7_700_001;

interface Button {
  text: string;
  callback_data?: string;
  url?: string;
}
interface Sent {
  message: {
    chat_id: number | string;
    text?: string;
    reply_markup?: { inline_keyboard?: Button[][] };
  };
  messageId: number;
}

let emulator: TelegramServer;
let app: TestServer;
let local: string;

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  app = await startTestServer({
    TELEGRAM_BOT_TOKEN: TOKEN,
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_ROOT: emulator.config.apiURL,
    PUBLIC_URL: 'https://insurechat.example.test',
  });
  local = `http://127.0.0.1:${app.server.info.bound?.port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await emulator?.stop();
});

let updateId = 1;
async function post(update: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${local}/telegram/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
    body: JSON.stringify({ update_id: updateId++, ...update }),
  });
  expect(response.status).toBe(200);
}
const from = { id: CHAT, is_bot: false, first_name: 'Mwila' };
const chat = { id: CHAT, type: 'private' };
const type = (text: string) =>
  post({ message: { message_id: updateId, date: 0, chat, from, text } });
const command = (text: string) =>
  post({
    message: {
      message_id: updateId,
      date: 0,
      chat,
      from,
      text,
      entities: [{ type: 'bot_command', offset: 0, length: text.length }],
    },
  });
const shareOwnContact = () =>
  post({
    message: {
      message_id: updateId,
      date: 0,
      chat,
      from,
      contact: { phone_number: '+260971234567', first_name: 'Mwila', user_id: CHAT },
    },
  });
const tap = (sent: Sent, button: Button) =>
  post({
    callback_query: {
      id: String(updateId),
      from,
      chat_instance: 'c',
      data: button.callback_data,
      message: { message_id: sent.messageId, date: 0, chat, text: sent.message.text },
    },
  });

const mine = () =>
  (emulator.storage.botMessages as unknown as Sent[]).filter(
    (sent) => String(sent.message.chat_id) === String(CHAT),
  );
const fingerprint = () => JSON.stringify(mine().map((sent) => sent.message));
const buttonsOf = (sent: Sent) => (sent.message.reply_markup?.inline_keyboard ?? []).flat();

/** Waits for the chat to change, then returns its newest message. */
async function after(act: () => Promise<void>): Promise<Sent> {
  const before = fingerprint();
  await act();
  await eventually('the bot answered', () => fingerprint() !== before);
  // An edit in place changes an older message; the newest one is what the customer reads.
  return mine().at(-1) as Sent;
}

it('pays a motor policy by card on Telegram: the 3-D Secure page is a URL button, and the outcome is pushed into the chat once the insurer settles it', async () => {
  let screen = await after(() => command('/start'));
  const seen: string[] = [];
  let cardUrl: string | undefined;
  for (let step = 0; step < 30 && cardUrl === undefined; step += 1) {
    const text = screen.message.text ?? '';
    seen.push(text.split('\n')[0] ?? '');
    const pick = (label: RegExp) => {
      const button = buttonsOf(screen).find((b) => label.test(b.text));
      if (!button) throw new Error(`no ${label} on: ${text}`);
      return after(() => tap(screen, button));
    };
    if (/What would you like/i.test(text)) screen = await pick(/motor/i);
    else if (/^Motor insurance/i.test(text)) screen = await pick(/new cover/i);
    else if (/^Choose cover|Vehicle use|Choose a period/i.test(text)) screen = await pick(/./);
    else if (/number plate/i.test(text)) screen = await after(() => type('BCE 7781'));
    else if (/make/i.test(text)) screen = await after(() => type('Toyota'));
    else if (/model/i.test(text)) screen = await after(() => type('Corolla'));
    else if (/Year of manufacture/i.test(text)) screen = await after(() => type('2017'));
    else if (/Chassis/i.test(text)) screen = await after(() => type('CH7781001'));
    else if (/Engine number/i.test(text)) screen = await after(() => type('EN7781001'));
    else if (/mobile number/i.test(text)) screen = await after(shareOwnContact);
    else if (/NRC/i.test(text)) screen = await after(() => type('479974/11/1'));
    else if (/first name/i.test(text)) screen = await after(() => type('Mwila'));
    else if (/last name/i.test(text)) screen = await after(() => type('Banda'));
    else if (/e-?mail/i.test(text)) screen = await after(() => type('mwila@example.com'));
    else if (/Correct\?/i.test(text)) screen = await pick(/yes|correct/i);
    else if (/Pay with/i.test(text)) {
      expect(text).toMatch(/ZMW [\d,]+\.\d\d/);
      screen = await pick(/card/i);
    } else if (buttonsOf(screen).some((b) => b.url)) {
      cardUrl = buttonsOf(screen).find((b) => b.url)?.url;
    } else throw new Error(`unexpected screen: ${text}\nafter: ${seen.join(' | ')}`);
  }

  expect(screen.message.text).toMatch(/card/i);
  expect(cardUrl).toMatch(/\/3ds\//);
  // The customer completes the insurer's 3-D Secure page in the browser, and taps nothing more.
  expect((await fetch(cardUrl ?? '')).status).toBe(200);

  await eventually('the outcome was pushed into the chat', () =>
    mine().some((sent) => /^Paid ZMW/.test(sent.message.text ?? '')),
  );
  const paid = mine().filter((sent) => /^Paid ZMW/.test(sent.message.text ?? ''));
  expect(paid).toHaveLength(1);
  expect(paid[0]?.message.text).toMatch(/BCE 7781.*Your policy number is MTR-/s);
}, 90_000);
