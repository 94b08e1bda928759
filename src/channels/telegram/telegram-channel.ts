import type { APIThrottlerOptions } from '@grammyjs/transformer-throttler';
import type { FastifyInstance } from 'fastify';
import type { Bot, BotError } from 'grammy';
import { renderPrompt, type TurnEngine } from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import type { Notifier } from '../index.js';
import { MemoryOnceSet, type OnceSet } from '../shared/index.js';
import type { RenderPrompt } from './render-telegram-message.js';
import { createTelegramBot } from './telegram-bot.js';
import { registerClaimFileHandler } from './telegram-claim-file-handler.js';
import {
  registerCommandMenu,
  registerTelegramCommands,
  setChatCommandMenu,
} from './telegram-commands.js';
import { createTelegramConversation, type TelegramConversation } from './telegram-conversation.js';
import { describeTelegramError } from './telegram-errors.js';
import { registerMessageHandlers } from './telegram-message-handlers.js';
import { useTelegramMiddleware } from './telegram-middleware.js';
import { createTelegramSender } from './telegram-sender.js';
import { registerTapHandler } from './telegram-tap-handler.js';
import { createTyping, type TypingOptions } from './telegram-typing.js';
import { registerTelegramWebhook } from './telegram-webhook.js';

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
  /**
   * Locale of a user whose Telegram language is none of ours (and who chose none); default
   * `en`.
   */
  readonly locale?: string;
  /** How long a turn may take before the engine answers "still working"; default 8 000 ms. */
  readonly turnDeadlineMs?: number;
  /**
   * Outgoing rate limits (Bottleneck settings per global/group/private chat); default the
   * throttler's own, which match Telegram's published limits. `false` only for tests.
   */
  readonly throttle?: APIThrottlerOptions | false;
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

const DEFAULT_API_ROOT = 'https://api.telegram.org';

/**
 * Creates the Telegram channel (grammY). Session key `tg:<chatId>`, audience policyholder.
 * Every update id is handled once; 429s wait and retry; one error boundary apologises and logs.
 * The handlers only parse and render: an update becomes one engine call with a neutral input
 * (the conversation policies, engine middleware, decide handoff, language, reminder buttons and
 * files), its answer a message.
 */
export function createTelegramChannel(options: TelegramChannelOptions): TelegramChannel {
  const apiRoot = options.apiRoot ?? DEFAULT_API_ROOT;
  const defaultLocale = options.locale ?? 'en';
  const deadlineMs = options.turnDeadlineMs ?? 8_000;
  const log = options.logger.child({ channel: 'telegram' });
  const bot = createTelegramBot({ token: options.token, apiRoot, throttle: options.throttle });
  const conversation: TelegramConversation = createTelegramConversation({
    engine: options.engine,
    render: options.render ?? renderPrompt,
    sender: createTelegramSender(log),
    defaultLocale,
    deadlineMs,
    onLanguage: (ctx, chatId) => setChatCommandMenu(ctx.api, chatId, conversation, log),
    whileSlow: createTyping(options.typing ?? {}, (error) =>
      log.warn(describeTelegramError(error), 'telegram typing action failed'),
    ),
  });

  useTelegramMiddleware(bot, {
    conversation,
    seen: options.seenUpdates ?? new MemoryOnceSet(),
    log,
  });
  registerTelegramCommands(bot, conversation);
  registerTapHandler(bot, conversation);
  registerMessageHandlers(bot, conversation);
  registerClaimFileHandler(bot, { conversation, apiRoot, token: options.token });
  // The boundary middleware answers every failure; this only catches what it could not.
  bot.catch((error: BotError) => {
    log.error(
      { ...describeTelegramError(error.error), updateId: error.ctx.update.update_id },
      'telegram update failed',
    );
  });

  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };
  let initialised: Promise<void> | undefined;
  const ensureInit = (): Promise<void> => {
    initialised ??= bot.init().catch((error: unknown) => {
      initialised = undefined;
      throw error;
    });
    return initialised;
  };
  let polling: Promise<void> | undefined;

  return {
    bot,
    registerWebhook(fastify, path = '/telegram/webhook') {
      const webhookSecret = options.webhookSecret;
      registerTelegramWebhook(fastify, path, { bot, webhookSecret, deadlineMs, track, log });
    },
    async setWebhook(url) {
      await bot.api.setWebhook(url, {
        secret_token: options.webhookSecret,
        allowed_updates: ['message', 'callback_query'],
      });
      await registerCommandMenu(bot, conversation, log);
    },
    async startPolling() {
      await ensureInit();
      await registerCommandMenu(bot, conversation, log);
      await new Promise<void>((resolve, reject) => {
        polling = bot.start({ onStart: () => resolve() }).catch((error: unknown) => {
          log.error(describeTelegramError(error), 'telegram polling stopped');
          reject(error);
        });
      });
    },
    notifier: {
      channel: 'telegram',
      notify: (address, prompt) =>
        track(
          conversation.inLocale(address.locale, () =>
            conversation.sendPrompt(bot.api, address.address, prompt),
          ),
        ),
    },
    async stop() {
      if (bot.isRunning()) await bot.stop();
      await polling;
      await Promise.allSettled([...inFlight]);
    },
  };
}
