import { createServer } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Bot } from 'grammy';
import type { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import {
  createTelegramChannel,
  type RenderPrompt,
  type TelegramChannel,
  type TelegramChannelOptions,
} from '../../../src/channels/telegram/index.js';
import type { Prompt } from '../../../src/conversation/prompt.js';
import type { Reply } from '../../../src/conversation/reply.js';
import type { TurnEngine, TurnOptions } from '../../../src/conversation/turn-engine.js';
import { createLogger } from '../../../src/log/index.js';
import { TEST_TELEGRAM_THROTTLE } from '../../support/telegram-throttle.js';
import { TurnEngineDouble } from '../../support/turn-engine-double.js';

/** A free TCP port: telegram-test-api cannot listen on port 0. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/** Renders a Prompt as its key plus params, so tests can read what was shown. */
export const testRender: RenderPrompt = (prompt) => ({
  text: prompt.params ? `${prompt.key} ${JSON.stringify(prompt.params)}` : prompt.key,
  choices: (prompt.choices ?? []).map((choice) => ({
    id: choice.id,
    label: `label:${choice.label}`,
  })),
});

/** A logger that writes nowhere. */
export const silentLogger = createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** One recorded call to the engine. */
export interface EngineCall {
  readonly sessionKey: string;
  readonly reply: Reply;
  readonly options: TurnOptions | undefined;
}

/**
 * A small scripted engine for channel tests: menu → choice → contact → final with a card link and
 * a certificate document. It stands in for the real engine only where the test is about the
 * channel's translation, not the flows.
 */
export class ScriptedEngine extends TurnEngineDouble implements TurnEngine {
  readonly calls: EngineCall[] = [];
  readonly #step = new Map<string, number>();
  failWith: Error | undefined;

  override async turn(sessionKey: string, reply: Reply, options?: TurnOptions): Promise<Prompt> {
    this.calls.push({ sessionKey, reply, options });
    if (this.failWith) throw this.failWith;
    if (reply.type === 'user.cancel') {
      this.#step.delete(sessionKey);
      return { key: 'bye', input: 'none', final: true };
    }
    const step = this.#step.get(sessionKey) ?? 0;
    if (step === 0) {
      this.#step.set(sessionKey, 1);
      return {
        key: 'menu',
        input: 'choice',
        final: false,
        choices: [
          { id: 'motor-quote', label: 'menu.motor' },
          { id: 'cover-status', label: 'menu.cover' },
        ],
      };
    }
    if (step === 1 && reply.type === 'user.choice') {
      this.#step.set(sessionKey, 2);
      return { key: 'askPhone', params: { picked: reply.id }, input: 'contact', final: false };
    }
    if (step === 2 && (reply.type === 'user.contact' || reply.type === 'user.text')) {
      this.#step.delete(sessionKey);
      return {
        key: 'done',
        params: { via: reply.type },
        input: 'none',
        final: true,
        attachments: [
          { kind: 'link', url: 'https://pay.example.test/card/1', label: 'payByCard' },
          {
            kind: 'document',
            url: 'http://127.0.0.1:9/certificate.pdf',
            label: 'certificate',
            fileName: 'certificate.pdf',
          },
        ],
      };
    }
    return { key: 'again', input: 'text', final: false };
  }
}

/** The emulator's events for an update a user sent (a message, a command, a button tap). */
const USER_UPDATES = ['AddedUserMessage', 'AddedUserCommand', 'AddedUserCallbackQuery'] as const;

/** What the poll loop's abort signal offers (grammY passes a shim's, not the DOM type). */
interface PollSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Resolves at the emulator's next user update, or when `signal` aborts (the bot stopping). */
function nextUserUpdate(emulator: TelegramServer, signal: PollSignal): Promise<void> {
  // One may have arrived between the emulator's empty answer and now.
  if (emulator.storage.userMessages.some((update) => !update.isRead)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      for (const name of USER_UPDATES) emulator.off(name, done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    for (const name of USER_UPDATES) emulator.on(name, done);
    signal.addEventListener('abort', done);
    if (signal.aborted) done();
  });
}

/**
 * Paces the bot's long polling on the emulator, which answers getUpdates at once even when it
 * holds nothing: after an empty answer the bot asks again only once a user has sent something
 * (or it is stopping), rather than spinning or sleeping between polls.
 */
export function pollOnUserUpdates(bot: Bot, emulator: TelegramServer): void {
  bot.api.config.use(async (prev, method, payload, signal) => {
    const result = await prev(method, payload, signal);
    // Only the poll loop's calls carry a signal: `bot.stop()`'s last getUpdates, which saves
    // the offset, has none and must come back at once.
    if (method === 'getUpdates' && signal !== undefined && result.ok) {
      if (Array.isArray(result.result) && result.result.length === 0) {
        await nextUserUpdate(emulator, signal);
      }
    }
    return result;
  });
}

/** A private-chat text message update, as Telegram posts it to the webhook. */
export function textUpdate(chatId: number, updateId: number, text: string, firstName = 'A') {
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: 0,
      chat: { id: chatId, type: 'private', first_name: firstName },
      from: { id: chatId, is_bot: false, first_name: firstName },
      text,
    },
  };
}

/**
 * A Telegram channel in webhook mode, its webhook on a Fastify app of its own (ready for
 * `inject`), with the test throttle unless `options` says otherwise; `close` stops both.
 */
export async function webhookChannel(options: TelegramChannelOptions): Promise<{
  channel: TelegramChannel;
  webhook: FastifyInstance;
  close(): Promise<void>;
}> {
  const channel = createTelegramChannel({ throttle: TEST_TELEGRAM_THROTTLE, ...options });
  const webhook = Fastify();
  channel.registerWebhook(webhook);
  await webhook.ready();
  return {
    channel,
    webhook,
    close: async () => {
      await channel.stop();
      await webhook.close();
    },
  };
}
