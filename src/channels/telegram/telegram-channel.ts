import type { FastifyInstance } from 'fastify';
import type { Bot } from 'grammy';
import { renderPrompt, type TurnEngine, type TypingOptions } from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import type { Notifier } from '../index.js';
import { MemoryOnceSet, type OnceSet, type RenderPrompt } from '../shared/index.js';
import {
  chatTyping,
  createTelegramBot,
  createTelegramSender,
  registerTelegramWebhook,
  setTelegramWebhook,
  startPolling,
  TELEGRAM_API_ROOT,
  type TelegramBotOptions,
} from './bot-api/index.js';
import { setTelegramCommandMenu } from './telegram-commands.js';
import { createTelegramConversation, type TelegramConversation } from './telegram-conversation.js';
import { handleTelegramUpdates } from './telegram-updates.js';

/** Options for {@link createTelegramChannel}. */
export interface TelegramChannelOptions {
  /** Bot token from @BotFather. Never logged. */
  readonly token: string;
  /** Secret Telegram echoes in `X-Telegram-Bot-Api-Secret-Token` on every webhook call. */
  readonly webhookSecret: string;
  readonly engine: TurnEngine;
  readonly logger: Logger;
  /** Renders Prompts; default the catalogue's `renderPrompt`. */
  readonly render?: RenderPrompt;
  /** Bot API root; default `https://api.telegram.org`. Tests point it at telegram-test-api. */
  readonly apiRoot?: string;
  /** Remembers handled update ids; default in memory (pass a `RedisOnceSet` when Redis is up). */
  readonly seenUpdates?: OnceSet;
  /** Locale of a user whose Telegram language is none of ours and who chose none; default `en`. */
  readonly locale?: string;
  /** How long a turn may take before the engine answers "still working"; default 8 000 ms. */
  readonly turnDeadlineMs?: number;
  /** Outgoing rate limits; default Telegram's published limits, `false` only for tests. */
  readonly throttle?: TelegramBotOptions['throttle'];
  /** When a slow turn shows "typing"; default after 800 ms, again every 4.5 s. */
  readonly typing?: TypingOptions;
}

/** A running Telegram channel: the grammY bot plus the ways to feed it updates. */
export interface TelegramChannel {
  readonly bot: Bot;
  /** Adds `POST path` (default `/telegram/webhook`) to the server; call before `listen`. */
  registerWebhook(fastify: FastifyInstance, path?: string): void;
  /**
   * Tells Telegram to deliver updates to `url` (the public URL of the webhook route) with the
   * secret token; call once the server is reachable there.
   */
  setWebhook(url: string): Promise<void>;
  /** Long polling for local use, when no public webhook URL exists. Resolves once polling began. */
  startPolling(): Promise<void>;
  /** Pushes payment outcomes into a chat. */
  readonly notifier: Notifier;
  /** Stops polling and waits for updates in flight. */
  stop(): Promise<void>;
}

/**
 * Creates the Telegram channel (grammY). Session key `tg:<chatId>`, audience policyholder.
 * Every update id is handled once; 429s wait and retry; one error boundary apologises and logs.
 * The handlers only parse and render: an update becomes one engine call with a neutral input
 * (the conversation policies, engine middleware, decide handoff, language, reminder buttons and
 * files), its answer a message.
 */
export function createTelegramChannel(options: TelegramChannelOptions): TelegramChannel {
  const apiRoot = options.apiRoot ?? TELEGRAM_API_ROOT;
  const deadlineMs = options.turnDeadlineMs ?? 8_000;
  const log = options.logger.child({ channel: 'telegram' });
  const bot = createTelegramBot({ token: options.token, apiRoot, throttle: options.throttle });
  const conversation: TelegramConversation = createTelegramConversation({
    engine: options.engine,
    render: options.render ?? renderPrompt,
    sender: createTelegramSender(log),
    defaultLocale: options.locale ?? 'en',
    deadlineMs,
    onLanguage: (ctx, chatId) => setTelegramCommandMenu(ctx.api, conversation, log, chatId),
    typing: chatTyping(options.typing ?? {}, log),
  });

  const seen = options.seenUpdates ?? new MemoryOnceSet();
  handleTelegramUpdates(bot, conversation, { seen, log, apiRoot, token: options.token });

  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };
  let polling: Promise<void> | undefined;

  return {
    bot,
    registerWebhook(fastify, path = '/telegram/webhook') {
      const webhookSecret = options.webhookSecret;
      registerTelegramWebhook(fastify, path, { bot, webhookSecret, deadlineMs, track, log });
    },
    async setWebhook(url) {
      await setTelegramWebhook(bot.api, url, options.webhookSecret);
      await setTelegramCommandMenu(bot.api, conversation, log);
    },
    async startPolling() {
      await bot.init();
      await setTelegramCommandMenu(bot.api, conversation, log);
      ({ ended: polling } = await startPolling(bot, log));
    },
    notifier: {
      channel: 'telegram',
      notify: (address, prompt) => track(conversation.push(bot.api, address, prompt)),
    },
    async stop() {
      if (bot.isRunning()) await bot.stop();
      await polling;
      await Promise.allSettled([...inFlight]);
    },
  };
}
