import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTelegramChannel,
  type TelegramChannel,
} from '../../../src/channels/telegram/index.js';
import { chatFilesOf, createClaimFiles } from '../../../src/claim-documents/index.js';
import { renderPrompt } from '../../../src/conversation/index.js';
import type { Prompt } from '../../../src/conversation/prompt.js';
import { createFileStore, type FileStore } from '../../../src/files/index.js';
import { createLogger } from '../../../src/log/index.js';
import { tinyJpeg, windowsExecutable } from '../../support/document-bytes.js';
import { eventually } from '../../support/eventually.js';
import { PolicyEngine } from '../../support/policy-engine.js';
import { engineOf } from '../../support/turn-engine-double.js';
import { silentLogger, testRender, textUpdate, webhookChannel } from './test-support.js';

const TOKEN = '123456:files-token';
const SECRET = 'files-webhook-secret';
const CHAT_ID = 77;
const PHOTO_BYTES = tinyJpeg();
/** What the fake Bot API serves as the file's bytes. */
let downloaded: Buffer = PHOTO_BYTES;

/**
 * An engine whose conversation waits on `step`, with the real conversation policies over the
 * claim files: a reply that reaches the flow is answered with a thank-you.
 */
class StepEngine extends PolicyEngine {
  constructor(files: FileStore) {
    super({
      files: chatFilesOf(createClaimFiles({ files })),
      session: { prompt: { key: 'claim.askDocument', input: 'photo', final: false } },
      answer: () => ({ key: 'thanks', input: 'none', final: true }),
    });
  }

  set step(prompt: Prompt) {
    this.session = { ...this.session, prompt };
  }
}

/**
 * The Bot API methods a claim photo needs (getMe, getFile, the file download, sendMessage).
 * telegram-test-api has no getFile, so this one test uses a minimal fake of those four.
 */
async function fakeBotApi(sent: unknown[]): Promise<{ server: FastifyInstance; url: string }> {
  const server = Fastify();
  server.post(`/bot${TOKEN}/getMe`, async () => ({
    ok: true,
    result: { id: 1, is_bot: true, first_name: 'Bot', username: 'bot' },
  }));
  server.post(`/bot${TOKEN}/getFile`, async (request, reply) => {
    // The Bot API serves files up to 20 MB: a bigger one is refused by getFile itself.
    if ((request.body as { file_id?: string } | undefined)?.file_id === 'huge') {
      return reply
        .code(400)
        .send({ ok: false, error_code: 400, description: 'Bad Request: file is too big' });
    }
    return {
      ok: true,
      result: { file_id: 'f1', file_unique_id: 'u1', file_path: 'photos/file_1.jpg' },
    };
  });
  server.get(`/file/bot${TOKEN}/photos/file_1.jpg`, async (_request, reply) =>
    reply.type('image/jpeg').send(downloaded),
  );
  server.post(`/bot${TOKEN}/setWebhook`, async (request) => {
    sent.push({ setWebhook: request.body });
    return { ok: true, result: true };
  });
  server.post(`/bot${TOKEN}/setMyCommands`, async (request) => {
    sent.push({ setMyCommands: request.body });
    return { ok: true, result: true };
  });
  server.post(`/bot${TOKEN}/sendMessage`, async (request) => {
    sent.push(request.body);
    return {
      ok: true,
      result: { message_id: sent.length, date: 0, chat: { id: CHAT_ID, type: 'private' } },
    };
  });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  return { server, url };
}

describe('Telegram channel against a minimal Bot API fake', () => {
  let api: { server: FastifyInstance; url: string };
  let files: FileStore;
  let engine: StepEngine;
  let channel: TelegramChannel;
  let webhook: FastifyInstance;
  let close: () => Promise<void>;
  const sent: unknown[] = [];

  beforeEach(async () => {
    sent.length = 0;
    downloaded = PHOTO_BYTES;
    api = await fakeBotApi(sent);
    files = await createFileStore({ signingSecret: 'file-secret', publicUrl: 'https://bot.test' });
    engine = new StepEngine(files);
    ({ channel, webhook, close } = await webhookChannel({
      token: TOKEN,
      webhookSecret: SECRET,
      engine,
      render: testRender,
      logger: silentLogger,
      apiRoot: api.url,
    }));
  });

  afterEach(async () => {
    await close();
    await api.server.close();
    await files.close();
  });

  it('stores a photo and hands the engine a signed URL as user.photo', async () => {
    const response = await webhook.inject({
      method: 'POST',
      url: '/telegram/webhook',
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
      payload: {
        update_id: 1,
        message: {
          message_id: 1,
          date: 0,
          chat: { id: CHAT_ID, type: 'private', first_name: 'A' },
          from: { id: CHAT_ID, is_bot: false, first_name: 'A' },
          photo: [
            { file_id: 'small', file_unique_id: 'us', width: 90, height: 90, file_size: 100 },
            { file_id: 'f1', file_unique_id: 'u1', width: 800, height: 600, file_size: 200 },
          ],
        },
      },
    });
    expect(response.statusCode).toBe(200);

    const reply = engine.replies()[0];
    expect(reply).toMatchObject({ type: 'user.photo', fileName: 'file_1.jpg' });
    const url = new URL(reply?.type === 'user.photo' ? reply.url : 'about:blank');
    expect(url.origin).toBe('https://bot.test');
    expect(url.searchParams.get('sig')).toBeTruthy();

    const id = url.pathname.split('/').at(-1) ?? '';
    const opened = await files.open(id);
    const chunks: Buffer[] = [];
    for await (const chunk of opened.body) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks)).toEqual(PHOTO_BYTES);
    await eventually('the bot answered', () => sent.length > 0);
  });

  it('refuses a file larger than the limit without downloading it', async () => {
    await webhook.inject({
      method: 'POST',
      url: '/telegram/webhook',
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
      payload: {
        update_id: 2,
        message: {
          message_id: 2,
          date: 0,
          chat: { id: CHAT_ID, type: 'private', first_name: 'A' },
          from: { id: CHAT_ID, is_bot: false, first_name: 'A' },
          document: { file_id: 'big', file_unique_id: 'ub', file_size: 50 * 1024 * 1024 },
        },
      },
    });
    expect(engine.replies()).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      chat_id: CHAT_ID,
      text: 'files.refused.tooLarge {"mb":20}',
    });
  });

  it.each([
    ['en', 'That file is too large: each file may be at most 20 MB.'],
    ['bem', 'Ifayilo yakula sana: ifayilo imo te kucila pa 20 MB.'],
    ['ny', 'Fayilo ndi yaikulu kwambiri: fayilo iliyonse isapitirire 20 MB.'],
  ])(
    'refuses a file Telegram will not serve (over 20 MB, its size unsaid) naming the limit in the user’s language (%s), never "Sorry" (issue 40)',
    async (language, words) => {
      const spoken = await webhookChannel({
        token: TOKEN,
        webhookSecret: SECRET,
        engine,
        render: renderPrompt,
        logger: silentLogger,
        apiRoot: api.url,
      });
      await spoken.webhook.inject({
        method: 'POST',
        url: '/telegram/webhook',
        headers: { 'x-telegram-bot-api-secret-token': SECRET },
        payload: {
          update_id: 40,
          message: {
            message_id: 40,
            date: 0,
            chat: { id: CHAT_ID, type: 'private', first_name: 'A' },
            from: { id: CHAT_ID, is_bot: false, first_name: 'A', language_code: language },
            document: { file_id: 'huge', file_unique_id: 'uh', file_name: 'scan.pdf' },
          },
        },
      });
      await spoken.close();
      expect(engine.replies()).toEqual([]);
      expect(sent).toEqual([expect.objectContaining({ chat_id: CHAT_ID, text: words })]);
    },
  );

  it.each([
    ['en', 'Only photos (JPEG, PNG, WebP, HEIC) and PDF files can be sent.'],
    ['bem', 'Ifikope (JPEG, PNG, WebP, HEIC) na mafayilo ya PDF fye e fingatumwa.'],
    ['ny', 'Zithunzi (JPEG, PNG, WebP, HEIC) ndi mafayilo a PDF okha ndi amene angatumizidwe.'],
  ])(
    'refuses a file that is no photo or PDF by its bytes in the user’s language (%s)',
    async (language, words) => {
      // The channel as the server renders it, the user's Telegram app in `language`.
      const spoken = await webhookChannel({
        token: TOKEN,
        webhookSecret: SECRET,
        engine,
        render: renderPrompt,
        logger: silentLogger,
        apiRoot: api.url,
      });
      downloaded = windowsExecutable();
      await spoken.webhook.inject({
        method: 'POST',
        url: '/telegram/webhook',
        headers: { 'x-telegram-bot-api-secret-token': SECRET },
        payload: {
          update_id: 30,
          message: {
            message_id: 30,
            date: 0,
            chat: { id: CHAT_ID, type: 'private', first_name: 'A' },
            from: { id: CHAT_ID, is_bot: false, first_name: 'A', language_code: language },
            document: {
              file_id: 'f1',
              file_unique_id: 'u1',
              file_name: 'invoice.jpg',
              file_size: 44,
            },
          },
        },
      });
      await spoken.close();
      expect(engine.replies()).toEqual([]);
      expect(sent).toEqual([expect.objectContaining({ chat_id: CHAT_ID, text: words })]);
    },
  );

  it('answers a photo sent where none is asked for with a hint, without downloading it', async () => {
    engine.step = {
      key: 'motor.pickProduct',
      input: 'choice',
      final: false,
      choices: [{ id: 'p1', label: 'product' }],
    };
    await webhook.inject({
      method: 'POST',
      url: '/telegram/webhook',
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
      payload: {
        update_id: 4,
        message: {
          message_id: 4,
          date: 0,
          chat: { id: CHAT_ID, type: 'private', first_name: 'A' },
          from: { id: CHAT_ID, is_bot: false, first_name: 'A' },
          photo: [{ file_id: 'f1', file_unique_id: 'u1', width: 800, height: 600, file_size: 200 }],
        },
      },
    });
    expect(engine.replies()).toEqual([]);
    expect(sent).toEqual([
      expect.objectContaining({
        chat_id: CHAT_ID,
        text: 'chat.unexpectedFile telegram.expect.choice\n\nmotor.pickProduct',
      }),
    ]);
  });

  it.each([
    [
      'sticker',
      {
        sticker: {
          file_id: 's',
          file_unique_id: 's',
          type: 'regular',
          width: 1,
          height: 1,
          is_animated: false,
          is_video: false,
        },
      },
    ],
    ['voice note', { voice: { file_id: 'v', file_unique_id: 'v', duration: 2 } }],
    ['location', { location: { latitude: -15.4, longitude: 28.3 } }],
  ])('answers a %s with what the current step expects', async (_kind, content) => {
    engine.step = { key: 'motor.askPlate', input: 'text', final: false };
    const response = await webhook.inject({
      method: 'POST',
      url: '/telegram/webhook',
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
      payload: {
        update_id: 5,
        message: {
          message_id: 5,
          date: 0,
          chat: { id: CHAT_ID, type: 'private', first_name: 'A' },
          from: { id: CHAT_ID, is_bot: false, first_name: 'A' },
          ...content,
        },
      },
    });
    expect(response.statusCode).toBe(200);
    expect(engine.replies()).toEqual([]);
    expect(sent).toEqual([
      expect.objectContaining({
        text: 'chat.unsupported telegram.expect.text\n\nmotor.askPlate',
      }),
    ]);
  });

  it('registers its webhook with the secret token and its commands for the "/" menu', async () => {
    await channel.setWebhook('https://bot.example.com/telegram/webhook');
    expect(sent).toEqual([
      {
        setWebhook: {
          url: 'https://bot.example.com/telegram/webhook',
          secret_token: SECRET,
          allowed_updates: ['message', 'callback_query'],
        },
      },
      {
        setMyCommands: {
          commands: [
            { command: 'start', description: 'telegram.command.start' },
            { command: 'help', description: 'telegram.command.help' },
            { command: 'cancel', description: 'telegram.command.cancel' },
            { command: 'status', description: 'telegram.command.status' },
            { command: 'human', description: 'telegram.command.human' },
            { command: 'language', description: 'telegram.command.language' },
          ],
        },
      },
    ]);
  });

  it('logs a failed turn without what the user typed or the engine said', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    });
    const failing = createTelegramChannel({
      token: TOKEN,
      webhookSecret: SECRET,
      engine: engineOf({
        turn: async () => Promise.reject(new Error('no session for 0971234567')),
      }),
      render: testRender,
      logger,
      apiRoot: api.url,
    });
    const hook = Fastify();
    failing.registerWebhook(hook);
    const response = await hook.inject({
      method: 'POST',
      url: '/telegram/webhook',
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
      payload: textUpdate(CHAT_ID, 3, 'my NRC is 479974/11/1', 'Mwila'),
    });
    await failing.stop();
    await hook.close();

    expect(response.statusCode).toBe(200);
    const log = lines.join('');
    expect(log).toContain('telegram update failed');
    expect(log).not.toMatch(/479974|0971234567|Mwila/);
    // The user still heard back: the apology.
    expect(sent).toEqual([expect.objectContaining({ chat_id: CHAT_ID })]);
  });
});
