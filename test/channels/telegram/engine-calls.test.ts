import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTelegramChannel,
  type TelegramChannel,
} from '../../../src/channels/telegram/index.js';
import { LANGUAGE_CHOICE_PREFIX } from '../../../src/conversation/index.js';
import { CountingEngine } from '../../support/counting-engine.js';
import { createRealStack, type RealStack } from './real-stack.js';
import { silentLogger, testRender, textUpdate } from './test-support.js';

const TOKEN = '246810:engine-calls';
const SECRET = 'engine-calls-secret';
const CHAT_ID = 31;

interface SentMessage {
  readonly reply_markup?: string | { inline_keyboard?: { callback_data?: string }[][] };
}

/** A Bot API that answers every method with a message and records what the bot sent. */
async function recordingBotApi(sent: SentMessage[]) {
  const server = Fastify();
  server.post('/bot:token/:method', async (request) => {
    sent.push(request.body as SentMessage);
    const message = { message_id: sent.length, date: 0, chat: { id: CHAT_ID, type: 'private' } };
    return { ok: true, result: message };
  });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  return { server, url };
}

/** The callback data of the first button of the latest keyboard the bot sent. */
function latestButton(sent: readonly SentMessage[]): string {
  for (const message of [...sent].reverse()) {
    const markup =
      typeof message.reply_markup === 'string'
        ? (JSON.parse(message.reply_markup) as SentMessage['reply_markup'])
        : message.reply_markup;
    const data = typeof markup === 'object' ? markup.inline_keyboard?.[0]?.[0]?.callback_data : '';
    if (data) return data;
  }
  throw new Error('no keyboard sent');
}

const tapUpdate = (updateId: number, data: string) => ({
  update_id: updateId,
  callback_query: {
    id: String(updateId),
    from: { id: CHAT_ID, is_bot: false, first_name: 'A' },
    chat_instance: 'ci',
    message: {
      message_id: 1,
      date: 0,
      chat: { id: CHAT_ID, type: 'private', first_name: 'A' },
      text: 'menu',
    },
    data,
  },
});

const messageUpdate = (updateId: number, content: Record<string, unknown>) => {
  const { text: _text, ...message } = textUpdate(CHAT_ID, updateId, '').message;
  return { update_id: updateId, message: { ...message, ...content } };
};

// Issue 26: a channel only carries messages; it calls the engine once per inbound update.
describe('Telegram channel: one engine call per inbound update', () => {
  const sent: SentMessage[] = [];
  let stack: RealStack;
  let api: { server: FastifyInstance; url: string };
  let engine: CountingEngine;
  let channel: TelegramChannel;
  let server: FastifyInstance;
  let updateId = 100;

  beforeAll(async () => {
    stack = await createRealStack();
    api = await recordingBotApi(sent);
    engine = new CountingEngine(stack.engine);
    channel = createTelegramChannel({
      token: TOKEN,
      webhookSecret: SECRET,
      engine,
      render: testRender,
      logger: silentLogger,
      apiRoot: api.url,
      throttle: false,
    });
    server = Fastify();
    channel.registerWebhook(server);
    await server.ready();
  });

  afterAll(async () => {
    await server?.close();
    await channel?.stop();
    await api?.server.close();
    await stack?.close();
  });

  /** Posts one update to the webhook and returns how many engine calls it caused. */
  async function callsFor(update: (id: number) => object): Promise<number> {
    engine.reset();
    updateId += 1;
    const response = await server.inject({
      method: 'POST',
      url: '/telegram/webhook',
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
      payload: update(updateId),
    });
    expect(response.statusCode).toBe(200);
    return engine.calls;
  }

  it.each([
    ['/start', (id: number) => textUpdate(CHAT_ID, id, '/start')],
    ['a tap on the menu', (id: number) => tapUpdate(id, latestButton(sent))],
    ['a tap on an expired keyboard', (id: number) => tapUpdate(id, 'AAAAAAAA~motor')],
    ['typed text', (id: number) => textUpdate(CHAT_ID, id, 'hello')],
    ['/status', (id: number) => textUpdate(CHAT_ID, id, '/status')],
    ['a sticker', (id: number) => messageUpdate(id, { sticker: { file_id: 's' } })],
    ['/human without handoff', (id: number) => textUpdate(CHAT_ID, id, '/human')],
    ['/done', (id: number) => textUpdate(CHAT_ID, id, '/done')],
    [
      'a shared contact',
      (id: number) =>
        messageUpdate(id, {
          contact: { phone_number: '260971234567', first_name: 'A', user_id: CHAT_ID },
        }),
    ],
    ['a language picked', (id: number) => tapUpdate(id, `${LANGUAGE_CHOICE_PREFIX}bem`)],
    ['a reminder shortcut', (id: number) => tapUpdate(id, 'reminders-off')],
    ['/cancel', (id: number) => textUpdate(CHAT_ID, id, '/cancel')],
    // Issue 39: a photo or a document is one turn, the step's policy deciding under the lock.
    [
      'a photo',
      (id: number) =>
        messageUpdate(id, {
          photo: [{ file_id: 'p', file_unique_id: 'p', width: 9, height: 9, file_size: 99 }],
        }),
    ],
    [
      'a document',
      (id: number) =>
        messageUpdate(id, { document: { file_id: 'd', file_unique_id: 'd', file_size: 99 } }),
    ],
    ['/language', (id: number) => textUpdate(CHAT_ID, id, '/language')],
  ])('%s: one engine call', async (_name, update) => {
    expect(await callsFor(update)).toBe(1);
  });
});
