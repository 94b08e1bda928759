// The package's default export is CommonJS-wrapped; the named class is the same server.
import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createTelegramChannel,
  type RenderPrompt,
  type TelegramChannel,
} from '../../../src/channels/telegram/index.js';
import { renderPrompt } from '../../../src/conversation/index.js';
import { eventually } from '../../support/eventually.js';
import { createRealStack, keyOf, type RealStack } from './real-stack.js';
import { freePort, pollOnUserUpdates, silentLogger } from './test-support.js';

const TOKEN = '987654:motor-purchase';
const CHAT_ID = 5150;
// Sandbox test numbers ending in 1, 2 or 3 fail; this one pays.
const PAYING_NUMBER = '260971234567';

interface BotMessage {
  readonly text?: string;
  readonly reply_markup?: {
    inline_keyboard?: { text: string; callback_data?: string; url?: string }[][];
    keyboard?: { text: string; request_contact?: boolean }[][];
  };
}

// The catalogue's words, prefixed with the message key so the test can follow the flow by key.
const keyedRender: RenderPrompt = (prompt, locale) => {
  const rendered = renderPrompt(prompt, locale);
  return { ...rendered, text: `[${prompt.key}] ${rendered.text}` };
};

let emulator: TelegramServer;
let stack: RealStack;
let channel: TelegramChannel;

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  stack = await createRealStack();
  channel = createTelegramChannel({
    token: TOKEN,
    webhookSecret: 'unused-in-polling',
    engine: stack.engine,
    render: keyedRender,
    logger: silentLogger,
    apiRoot: emulator.config.apiURL,
    // The emulator has no rate limits; Telegram's one message a second per chat would only
    // slow this 20-message conversation down.
    throttle: false,
  });
  pollOnUserUpdates(channel.bot, emulator);
  await channel.startPolling();
});

afterAll(async () => {
  await channel?.stop();
  await stack?.close();
  await emulator?.stop();
});

/** Buys a motor policy in chat `chatId`, paying by `method`; returns what the chat showed. */
async function buy(chatId: number, plate: string, method: 'other' | 'card') {
  const client = emulator.getClient(TOKEN, {
    chatId,
    userId: chatId,
    type: 'private',
    timeout: 10_000,
  });
  const inbox: BotMessage[] = [];
  const next = async (): Promise<BotMessage> =>
    eventually('the bot sent its next message', async () => {
      if (inbox.length === 0) {
        const updates = await client.getUpdates().catch(() => ({ result: [] }));
        for (const update of updates.result) inbox.push(update.message as BotMessage);
      }
      return inbox.shift();
    });
  const tap = (id: string) => client.sendCallback(client.makeCallbackQuery(id));
  const type = (text: string) => client.sendMessage(client.makeMessage(text));
  const shareContact = () =>
    client.sendMessage(
      client.makeMessage('', {
        contact: { phone_number: PAYING_NUMBER, first_name: 'Mwila', user_id: chatId },
      } as never),
    );
  const buttons = (message: BotMessage) =>
    (message.reply_markup?.inline_keyboard ?? []).flat().map((b) => b.callback_data);

  const seen: string[] = [];
  let cardPage: string | undefined;
  await client.sendCommand(client.makeCommand('/start'));
  let message = await next();
  for (let turn = 0; turn < 40 && keyOf(message.text ?? '') !== 'motor.done'; turn++) {
    const key = keyOf(message.text ?? '');
    seen.push(key);
    switch (key) {
      case 'menu.policyholder':
        await tap('motor');
        break;
      case 'motor.mode':
        await tap('new');
        break;
      case 'motor.pickProduct':
      case 'motor.pickCategory':
      case 'motor.pickDuration':
        await tap(buttons(message)[0] ?? '');
        break;
      case 'motor.askPlate':
        await type(plate);
        break;
      case 'motor.askVehicle':
        await type('Toyota Corolla 2018');
        break;
      case 'motor.askChassis':
        await type('JT123456789');
        break;
      case 'motor.askEngine':
        await type('1NZ1234567');
        break;
      case 'motor.askHolderPhone':
      case 'pay.askPhone':
        // Both ask for a phone number with Telegram's contact-request button.
        expect(message.reply_markup?.keyboard?.[0]?.[0]?.request_contact).toBe(true);
        await shareContact();
        break;
      case 'motor.confirmHolder':
        await tap('yes');
        break;
      case 'motor.confirmQuote':
        expect(message.text).toContain('ZMW');
        await tap(method);
        break;
      case 'pay.waitCard': {
        // The insurer's 3-D Secure page is a URL button; completing it settles the payment.
        const page = (message.reply_markup?.inline_keyboard ?? []).flat().find((b) => b.url);
        expect(page?.url).toMatch(/\/sandbox\/3ds\//);
        cardPage = page?.url;
        expect((await fetch(page?.url ?? '')).status).toBe(200);
        await tap('check');
        break;
      }
      case 'pay.waitPhone':
      case 'engine.stillWorking':
        await tap(buttons(message)[0] ?? '');
        break;
      default:
        throw new Error(`unexpected screen ${key}: ${message.text}`);
    }
    message = await next();
  }

  // The certificate follows: the emulator has no sendDocument, so it arrives as a link button.
  const certificate = await next();
  const link = certificate.reply_markup?.inline_keyboard?.[0]?.[0]?.url ?? '';
  return { done: message, seen, certificate: link, cardPage };
}

it('buys a motor policy through the Telegram Bot API emulator', async () => {
  const { done, seen, certificate } = await buy(CHAT_ID, 'ABZ 4321', 'other');
  expect(done.text).toMatch(
    /^\[motor\.done\] Paid ZMW [\d,]+\.\d\d\. .* for ABZ 4321, .* Your policy number is MTR-/,
  );
  expect(seen).toEqual(
    expect.arrayContaining([
      'menu.policyholder',
      'motor.pickProduct',
      'motor.askHolderPhone',
      'motor.confirmQuote',
      'pay.askPhone',
      'pay.waitPhone',
    ]),
  );
  // The certificate follows: the emulator has no sendDocument, so it arrives as a link button.
  expect(new URL(certificate).searchParams.get('sig')).toBeTruthy();
});

it('pays by card through the 3-D Secure page given as a URL button', async () => {
  const { done, seen, cardPage } = await buy(CHAT_ID + 2, 'ABZ 4322', 'card');
  expect(seen).toContain('pay.waitCard');
  expect(cardPage).toBeDefined();
  expect(done.text).toMatch(/^\[motor\.done\] Paid ZMW .* Your policy number is MTR-/);
});

it('opens the cover check with /status and starts over with /start, mid-conversation', async () => {
  const client = emulator.getClient(TOKEN, {
    chatId: CHAT_ID + 1,
    userId: CHAT_ID + 1,
    type: 'private',
    timeout: 10_000,
  });
  const nextKey = async (): Promise<string> =>
    eventually('the bot sent its next message', async () => {
      const updates = await client.getUpdates().catch(() => ({ result: [] }));
      const message = updates.result[0]?.message as BotMessage | undefined;
      return message ? keyOf(message.text ?? '') : undefined;
    });

  await client.sendCommand(client.makeCommand('/start'));
  expect(await nextKey()).toBe('menu.policyholder');
  await client.sendCallback(client.makeCallbackQuery('motor'));
  expect(await nextKey()).toBe('motor.mode');

  await client.sendCommand(client.makeCommand('/status'));
  expect(await nextKey()).toMatch(/^cover\./);

  await client.sendCommand(client.makeCommand('/start'));
  expect(await nextKey()).toBe('menu.policyholder');
});
