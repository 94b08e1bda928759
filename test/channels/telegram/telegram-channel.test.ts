import Fastify, { type FastifyInstance } from 'fastify';
// The package's default export is CommonJS-wrapped; the named class is the same server.
import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTelegramChannel,
  type TelegramChannel,
} from '../../../src/channels/telegram/index.js';
import { eventually } from '../../support/eventually.js';
import { TEST_TELEGRAM_THROTTLE } from '../../support/telegram-throttle.js';
import {
  freePort,
  pollOnUserUpdates,
  ScriptedEngine,
  silentLogger,
  testRender,
} from './test-support.js';

const TOKEN = '123456:test-token';
const SECRET = 'webhook-secret-for-tests';
const CHAT_ID = 4242;

type Emulator = TelegramServer;
type EmulatorClient = ReturnType<Emulator['getClient']>;
interface BotMessage {
  readonly chat_id?: number | string;
  readonly text?: string;
  readonly reply_markup?: {
    inline_keyboard?: { text: string; callback_data?: string; url?: string }[][];
    keyboard?: { text: string; request_contact?: boolean }[][];
    remove_keyboard?: boolean;
  };
}

/** Reads the bot's messages to the client's chat until `count` arrived. */
async function botMessages(client: EmulatorClient, count: number): Promise<BotMessage[]> {
  const received: BotMessage[] = [];
  return eventually(`${count} bot messages arrived`, async () => {
    // The client's own getUpdates waits `timeout` ms and throws when nothing came; keep waiting.
    const updates = await client.getUpdates().catch(() => ({ result: [] }));
    for (const update of updates.result) received.push(update.message as BotMessage);
    return received.length >= count ? received : undefined;
  });
}

describe('Telegram channel against the telegram-test-api emulator', () => {
  let emulator: Emulator;
  let client: EmulatorClient;
  let engine: ScriptedEngine;
  let channel: TelegramChannel;

  beforeEach(async () => {
    emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
    await emulator.start();
    client = emulator.getClient(TOKEN, {
      chatId: CHAT_ID,
      userId: CHAT_ID,
      type: 'private',
      timeout: 10_000,
    });
    engine = new ScriptedEngine();
    channel = createTelegramChannel({
      token: TOKEN,
      webhookSecret: SECRET,
      engine,
      render: testRender,
      logger: silentLogger,
      apiRoot: emulator.config.apiURL,
      throttle: TEST_TELEGRAM_THROTTLE,
    });
  });

  afterEach(async () => {
    await channel.stop();
    await emulator.stop();
  });

  describe('in long-polling mode', () => {
    beforeEach(async () => {
      pollOnUserUpdates(channel.bot, emulator);
      await channel.startPolling();
    });

    it('walks a conversation: /start menu, a button tap, a shared contact, the closing screen', async () => {
      await client.sendCommand(client.makeCommand('/start'));
      const [menu] = await botMessages(client, 1);
      expect(menu?.text).toBe('menu');
      expect(menu?.reply_markup?.inline_keyboard).toEqual([
        // Each button carries the screen's token before the choice id (stale taps are told apart).
        [
          {
            text: 'label:menu.motor',
            callback_data: expect.stringMatching(/^[\w-]{8}~motor-quote$/),
          },
        ],
        [
          {
            text: 'label:menu.cover',
            callback_data: expect.stringMatching(/^[\w-]{8}~cover-status$/),
          },
        ],
      ]);

      await client.sendCallback(client.makeCallbackQuery('motor-quote'));
      const [askPhone] = await botMessages(client, 1);
      expect(askPhone?.text).toBe('askPhone {"picked":"motor-quote"}');
      expect(askPhone?.reply_markup?.keyboard?.[0]?.[0]).toEqual({
        text: 'telegram.shareContact',
        request_contact: true,
      });

      const contact = client.makeMessage('', {
        contact: { phone_number: '260971234567', first_name: 'A', user_id: CHAT_ID },
      } as never);
      await client.sendMessage(contact);
      // The closing screen, then the certificate: the emulator has no sendDocument, so the
      // channel falls back to a link to the document.
      const [done, certificate] = await botMessages(client, 2);
      expect(done?.text).toBe('done {"via":"user.contact"}');
      // It came removing the contact keyboard, then got its buttons: read as the chat shows it now.
      const shown = (emulator.storage.botMessages as unknown as { message: BotMessage }[]).find(
        (stored) => stored.message.text === done?.text,
      )?.message;
      expect(shown?.reply_markup?.inline_keyboard).toEqual([
        [{ text: 'payByCard', url: 'https://pay.example.test/card/1' }],
      ]);
      expect(certificate?.text).toBe('certificate');
      expect(certificate?.reply_markup?.inline_keyboard?.[0]?.[0]?.url).toBe(
        'http://127.0.0.1:9/certificate.pdf',
      );

      const sessions = new Set(engine.calls.map((call) => call.sessionKey));
      expect(sessions).toEqual(new Set([`tg:${CHAT_ID}`]));
      expect(engine.calls.at(-1)?.options).toMatchObject({
        audience: 'policyholder',
        address: { channel: 'telegram', address: String(CHAT_ID) },
      });
    });

    it("refuses a contact card whose user_id is not the sender's own, and passes nothing on", async () => {
      await client.sendCommand(client.makeCommand('/start'));
      await botMessages(client, 1);
      await client.sendCallback(client.makeCallbackQuery('cover-status'));
      await botMessages(client, 1);

      const someoneElse = client.makeMessage('', {
        contact: { phone_number: '260966345678', first_name: 'B', user_id: CHAT_ID + 1 },
      } as never);
      await client.sendMessage(someoneElse);
      const [refusal] = await botMessages(client, 1);
      expect(refusal?.text).toBe('telegram.notYourContact');
      // The flow never saw the number: neither as a vouched contact nor as typed text.
      expect(engine.calls.at(-1)?.reply).toEqual({ type: 'user.choice', id: 'cover-status' });
      expect(JSON.stringify(engine.calls)).not.toContain('345678');
    });

    it('sends /cancel to the engine as user.cancel', async () => {
      await client.sendCommand(client.makeCommand('/cancel'));
      const [bye] = await botMessages(client, 1);
      expect(bye?.text).toBe('bye');
      expect(engine.calls.map((call) => call.reply)).toEqual([{ type: 'user.cancel' }]);
    });

    it('apologises instead of crashing when the engine fails', async () => {
      engine.failWith = new Error('engine down');
      await client.sendMessage(client.makeMessage('hello'));
      const [apology] = await botMessages(client, 1);
      expect(apology?.text).toBe('engine.error');

      engine.failWith = undefined;
      await client.sendMessage(client.makeMessage('hello again'));
      const [menu] = await botMessages(client, 1);
      expect(menu?.text).toBe('menu');
    });
  });

  describe('in webhook mode', () => {
    let server: FastifyInstance;

    beforeEach(async () => {
      server = Fastify();
      channel.registerWebhook(server);
      await server.ready();
    });

    afterEach(async () => {
      await server.close();
    });

    const update = (updateId: number) => ({
      update_id: updateId,
      message: {
        message_id: updateId,
        date: 1_700_000_000,
        chat: { id: CHAT_ID, type: 'private', first_name: 'A' },
        from: { id: CHAT_ID, is_bot: false, first_name: 'A' },
        text: 'hello',
      },
    });

    it('rejects a wrong secret token with 401 and leaves the session untouched', async () => {
      const response = await server.inject({
        method: 'POST',
        url: '/telegram/webhook',
        headers: { 'x-telegram-bot-api-secret-token': 'not-the-secret' },
        payload: update(1),
      });
      expect(response.statusCode).toBe(401);
      expect(engine.calls).toEqual([]);

      // The same update id is still handled when it arrives properly signed afterwards.
      const signed = await server.inject({
        method: 'POST',
        url: '/telegram/webhook',
        headers: { 'x-telegram-bot-api-secret-token': SECRET },
        payload: update(1),
      });
      expect(signed.statusCode).toBe(200);
      expect(engine.calls).toHaveLength(1);
    });

    it('rejects a missing secret token with 401', async () => {
      const response = await server.inject({
        method: 'POST',
        url: '/telegram/webhook',
        payload: update(2),
      });
      expect(response.statusCode).toBe(401);
      expect(engine.calls).toEqual([]);
    });

    it('handles a redelivered update_id once', async () => {
      for (let attempt = 0; attempt < 3; attempt++) {
        const response = await server.inject({
          method: 'POST',
          url: '/telegram/webhook',
          headers: { 'x-telegram-bot-api-secret-token': SECRET },
          payload: update(7),
        });
        expect(response.statusCode).toBe(200);
      }
      expect(engine.calls).toHaveLength(1);
      const [menu] = await botMessages(client, 1);
      expect(menu?.text).toBe('menu');
      expect(emulator.storage.botMessages).toHaveLength(1);
    });

    it('answers a body that is not an update with 400 and no engine call', async () => {
      const response = await server.inject({
        method: 'POST',
        url: '/telegram/webhook',
        headers: { 'x-telegram-bot-api-secret-token': SECRET },
        payload: { hello: 'world' },
      });
      expect(response.statusCode).toBe(400);
      expect(engine.calls).toEqual([]);
    });
  });

  it('notifies a chat outside a turn, with the certificate as a link when upload fails', async () => {
    await channel.notifier.notify(
      { channel: 'telegram', address: String(CHAT_ID), locale: 'en' },
      {
        key: 'payment.paid',
        params: { policyNumber: 'P-1' },
        input: 'none',
        final: true,
        attachments: [{ kind: 'document', url: 'http://127.0.0.1:9/c.pdf', label: 'certificate' }],
      },
    );
    const [paid, certificate] = await botMessages(client, 2);
    expect(paid?.text).toBe('payment.paid {"policyNumber":"P-1"}');
    expect(certificate?.text).toBe('certificate');
    expect(channel.notifier.channel).toBe('telegram');
  });
});
