import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CallerLanguages,
  LANGUAGE_CHOICE_PREFIX,
  type Prompt,
  renderPrompt,
} from '../../../src/conversation/index.js';
import { PolicyEngine } from '../../support/policy-engine.js';
import { silentLogger, webhookChannel } from './test-support.js';

const TOKEN = '123456:menu-token';
const SECRET = 'menu-webhook-secret';
const CHAT_ID = 4_242;

/** A Bot API that records every method called and answers each as Telegram would, minimally. */
async function recordingBotApi(calls: Array<{ method: string; body: unknown }>) {
  const server = Fastify();
  server.post<{ Params: { method: string } }>(`/bot${TOKEN}/:method`, async (request) => {
    const { method } = request.params;
    calls.push({ method, body: request.body });
    if (method === 'getMe') {
      return { ok: true, result: { id: 1, is_bot: true, first_name: 'Bot', username: 'bot' } };
    }
    if (method === 'sendMessage' || method === 'editMessageText') {
      const message = { message_id: calls.length, date: 0, chat: { id: CHAT_ID, type: 'private' } };
      return { ok: true, result: message };
    }
    return { ok: true, result: true };
  });
  return { server, url: await server.listen({ port: 0, host: '127.0.0.1' }) };
}

/** A conversation that waits on the main menu. */
const MENU: Prompt = { key: 'menu.welcome', input: 'choice', final: false, choices: [] };

describe('the Telegram "/" menu', () => {
  const calls: Array<{ method: string; body: unknown }> = [];
  const chosen = new Map<string, string>();
  const languages: CallerLanguages = {
    chosen: (holder) => chosen.get(holder.address),
    choose: async (holder, locale) => {
      chosen.set(holder.address, locale);
    },
  };
  let api: Awaited<ReturnType<typeof recordingBotApi>>;
  let webhook: FastifyInstance;
  let close: () => Promise<void>;

  beforeEach(async () => {
    calls.length = 0;
    api = await recordingBotApi(calls);
    ({ webhook, close } = await webhookChannel({
      token: TOKEN,
      webhookSecret: SECRET,
      // The language policy over the chats' chosen languages, as the server adds it.
      engine: new PolicyEngine({ languages, session: { prompt: MENU } }),
      render: renderPrompt,
      logger: silentLogger,
      apiRoot: api.url,
    }));
  });

  afterEach(async () => {
    await close();
    await api.server.close();
  });

  const tap = (data: string) =>
    webhook.inject({
      method: 'POST',
      url: '/telegram/webhook',
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
      payload: {
        update_id: 1,
        callback_query: {
          id: 'q1',
          chat_instance: 'c',
          data,
          from: { id: CHAT_ID, is_bot: false, first_name: 'A' },
          message: {
            message_id: 9,
            date: 0,
            chat: { id: CHAT_ID, type: 'private', first_name: 'A' },
            text: 'Language / Ululimi / Chiyankhulo:',
          },
        },
      },
    });

  it('gives a chat that picks Bemba its own "/" menu in Bemba, after the answer', async () => {
    expect((await tap(`${LANGUAGE_CHOICE_PREFIX}bem`)).statusCode).toBe(200);
    const methods = calls.map((call) => call.method);
    const menuAt = methods.indexOf('setMyCommands');
    expect(menuAt).toBeGreaterThan(methods.indexOf('sendMessage'));
    expect(calls[menuAt]?.body).toMatchObject({
      scope: { type: 'chat', chat_id: CHAT_ID },
      commands: expect.arrayContaining([
        {
          command: 'start',
          description: renderPrompt(
            { key: 'telegram.command.start', input: 'none', final: true },
            'bem',
          ).text,
        },
      ]),
    });
    const menu = calls[menuAt]?.body as { commands: Array<{ description: string }> } | undefined;
    const described = menu?.commands ?? [];
    const english = renderPrompt(
      { key: 'telegram.command.start', input: 'none', final: true },
      'en',
    ).text;
    expect(described.map((command) => command.description)).not.toContain(english);
    expect(chosen.get(String(CHAT_ID))).toBe('bem');
  });

  it('goes on without the menu when Telegram refuses it', async () => {
    await api.server.close();
    const refusing = Fastify();
    refusing.post<{ Params: { method: string } }>(
      `/bot${TOKEN}/:method`,
      async (request, reply) => {
        calls.push({ method: request.params.method, body: request.body });
        if (request.params.method === 'setMyCommands') {
          return reply.code(400).send({ ok: false, error_code: 400, description: 'Bad Request' });
        }
        const message = { message_id: 1, date: 0, chat: { id: CHAT_ID, type: 'private' } };
        return { ok: true, result: request.params.method === 'sendMessage' ? message : true };
      },
    );
    const port = Number(new URL(api.url).port);
    await refusing.listen({ port, host: '127.0.0.1' });
    api = { server: refusing, url: api.url };
    expect((await tap(`${LANGUAGE_CHOICE_PREFIX}ny`)).statusCode).toBe(200);
    expect(calls.map((call) => call.method)).toEqual(
      expect.arrayContaining(['sendMessage', 'setMyCommands']),
    );
    expect(chosen.get(String(CHAT_ID))).toBe('ny');
  });
});
