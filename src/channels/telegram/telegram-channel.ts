import { AsyncLocalStorage } from 'node:async_hooks';
import { autoRetry } from '@grammyjs/auto-retry';
import { type APIThrottlerOptions, apiThrottler } from '@grammyjs/transformer-throttler';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type Api,
  Bot,
  type BotError,
  type Context,
  GrammyError,
  InlineKeyboard,
  webhookCallback,
} from 'grammy';
import type { BotCommand, Update } from 'grammy/types';
import { z } from 'zod';
import {
  type CallerLanguages,
  CHOOSE_LANGUAGE,
  type ChannelStateHook,
  type Handoff,
  LANGUAGE_PROMPT,
  localeOfChoice,
  type Prompt,
  type Reply,
  renderPrompt,
  supportedLocaleOf,
  TALK_TO_A_PERSON,
  type TurnEngine,
  type TurnOptions,
} from '../../conversation/index.js';
import type { FileStore } from '../../files/index.js';
import type { Logger } from '../../log/index.js';
import { subjectId } from '../../privacy/index.js';
import { isMenuShortcut } from '../../reminders/index.js';
import type { Notifier } from '../index.js';
import { MemoryOnceSet, type OnceSet } from '../shared/index.js';
import {
  parseCallbackData,
  promptToken,
  type RenderPrompt,
  renderKey,
  type TelegramDocument,
  type TelegramMessage,
  toTelegramMessage,
} from './render-telegram-message.js';
import { TypedInputFile, typedUploads } from './typed-upload.js';

/** Raised when a claim file cannot be fetched from Telegram. */
export class TelegramFileError extends Error {
  override readonly name = 'TelegramFileError';
  readonly code = 'TELEGRAM_FILE_UNAVAILABLE';
}

/** Raised when a webhook body carrying the right secret is not a Telegram update. */
export class TelegramUpdateError extends Error {
  override readonly name = 'TelegramUpdateError';
  readonly code = 'TELEGRAM_UPDATE_INVALID';
}

/** The commands the bot offers in Telegram's "/" menu, registered with `setMyCommands`. */
export const TELEGRAM_COMMANDS = [
  'start',
  'help',
  'cancel',
  'status',
  'human',
  'language',
] as const;

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
  /** Stores claim photos; without it a photo gets a "cannot take files here" answer. */
  readonly files?: Pick<FileStore, 'put' | 'signedUrl'>;
  /** Bot API root; default `https://api.telegram.org`. Tests point it at telegram-test-api. */
  readonly apiRoot?: string;
  /** Remembers handled update ids; default in memory (pass a `RedisOnceSet` when Redis is up). */
  readonly seenUpdates?: OnceSet;
  /**
   * Locale of a user whose Telegram language is none of ours (and who chose none); default
   * `en`.
   */
  readonly locale?: string;
  /**
   * The language each user chose with `/language` or the menu's "Language"; without a choice a
   * user gets their Telegram `language_code` when it is one of ours.
   */
  readonly languages?: CallerLanguages;
  /** How long a turn may take before the engine answers "still working"; default 8 000 ms. */
  readonly turnDeadlineMs?: number;
  /** Largest claim file accepted; default 20 MB, the Bot API's own getFile limit. */
  readonly maxFileBytes?: number;
  /**
   * Outgoing rate limits (Bottleneck settings per global/group/private chat); default the
   * throttler's own, which match Telegram's published limits. `false` only for tests.
   */
  readonly throttle?: APIThrottlerOptions | false;
  /**
   * Human handoff: `/human` and the menu's "Talk to a person" open it, the customer's messages
   * then go to the person instead of the flow, and `/done` ends it. Without it they say no one
   * is available.
   */
  readonly handoff?: Handoff;
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
const SESSION_PREFIX = 'tg:';
// The policyholder menu's entry for "my policies and cover" (flows/main-menu.ts), which /status
// opens directly.
const STATUS_MENU_CHOICE = 'policies';

// Only `update_id` is checked here; grammY's filters read the rest defensively.
const UpdateEnvelope = z.looseObject({ update_id: z.number().int().nonnegative() });

/**
 * grammY's webhook adapter for fastify, with the body checked once the secret token has been:
 * a wrong token gets 401 before the body is read, a body that is no update gets 400.
 */
function fastifyAdapter(request: FastifyRequest, reply: FastifyReply) {
  const header = request.headers['x-telegram-bot-api-secret-token'];
  return {
    get update(): Update {
      const envelope = UpdateEnvelope.safeParse(request.body);
      if (!envelope.success) throw new TelegramUpdateError('not a Telegram update');
      return envelope.data as unknown as Update;
    },
    ...(typeof header === 'string' ? { header } : {}),
    end: () => void reply.send(''),
    respond: (json: string) => reply.type('application/json').send(json),
    unauthorized: () => reply.code(401).send({ error: 'unauthorized' }),
  };
}

/**
 * The error fields that are safe to log, flat (pino redacts any `name` field): never a message or
 * payload of ours, which could echo what the user typed; Telegram's own description is safe.
 */
function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof GrammyError) {
    return {
      errorName: error.name,
      apiMethod: error.method,
      errorCode: error.error_code,
      description: error.description,
    };
  }
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    return { errorName: error.name, ...(typeof code === 'string' ? { errorCode: code } : {}) };
  }
  return { errorName: typeof error };
}

/**
 * Creates the Telegram channel (grammY). Session key `tg:<chatId>`, audience policyholder.
 * Every update id is handled once; 429s wait and retry; one error boundary apologises and logs.
 */
export function createTelegramChannel(options: TelegramChannelOptions): TelegramChannel {
  const apiRoot = options.apiRoot ?? DEFAULT_API_ROOT;
  const defaultLocale = options.locale ?? 'en';
  /** The language of the update being handled (see the middleware that sets it). */
  const updateLocale = new AsyncLocalStorage<string>();
  const locale = (): string => updateLocale.getStore() ?? defaultLocale;
  const deadlineMs = options.turnDeadlineMs ?? 8_000;
  const maxFileBytes = options.maxFileBytes ?? 20 * 1024 * 1024;
  const seen = options.seenUpdates ?? new MemoryOnceSet();
  const { engine, logger } = options;
  const render = options.render ?? renderPrompt;
  const log = logger.child({ channel: 'telegram' });

  const bot = new Bot(options.token, { client: { apiRoot } });
  // Innermost: documents go out with their content type (application/pdf), which grammY's own
  // multipart cannot say; the throttler and auto-retry below wrap these calls like any other.
  bot.api.config.use(typedUploads(apiRoot, options.token));
  // Throttle first so bursts stay under Telegram's limits; auto-retry then absorbs any 429 that
  // still comes back. Network errors fail the call instead of retrying forever: the update is then
  // answered by the error boundary.
  if (options.throttle !== false) bot.api.config.use(apiThrottler(options.throttle ?? {}));
  bot.api.config.use(
    autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 60, rethrowHttpErrors: true }),
  );

  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };

  const optionsOf = (chatId: number | string): TurnOptions => ({
    deadlineMs,
    address: { channel: 'telegram', address: String(chatId), locale: locale() },
    audience: 'policyholder',
  });
  const sessionOf = (chatId: number | string) => `${SESSION_PREFIX}${chatId}`;
  const say = (key: string) => renderKey(render, key, locale());

  async function sendText(api: Api, chatId: string | number, message: TelegramMessage) {
    const replyMarkup = message.replyMarkup;
    try {
      await api.sendMessage(chatId, message.text, replyMarkup ? { reply_markup: replyMarkup } : {});
    } catch (error) {
      // Telegram refuses URL buttons it cannot open (a local sandbox URL); the links then go into
      // the text so the user still gets them.
      if (!(error instanceof GrammyError) || error.error_code !== 400 || message.links.length === 0)
        throw error;
      const text = [message.text, ...message.links.map((link) => `${link.label}: ${link.url}`)];
      await api.sendMessage(chatId, text.join('\n'));
    }
  }

  async function sendDocuments(
    api: Api,
    chatId: string | number,
    documents: readonly TelegramDocument[],
  ): Promise<void> {
    for (const document of documents) {
      try {
        // Named `<policy-number>-certificate.pdf` and typed `application/pdf`, where a URL's last
        // segment would be a bare id and grammY would say `application/octet-stream`.
        await api.sendDocument(
          chatId,
          new TypedInputFile(new URL(document.url), document.fileName),
          {
            caption: document.caption,
          },
        );
      } catch (error) {
        // The certificate must reach the user even when the upload fails: fall back to a link.
        log.warn(describeError(error), 'telegram document upload failed; sending a link');
        await api.sendMessage(chatId, document.caption, {
          reply_markup: new InlineKeyboard().url(document.caption, document.url),
        });
      }
    }
  }

  async function send(api: Api, chatId: string | number, message: TelegramMessage): Promise<void> {
    await sendText(api, chatId, message);
    await sendDocuments(api, chatId, message.documents);
  }

  /**
   * Shows the next screen in place of the message whose button was tapped: one
   * `editMessageText` with the next inline keyboard. A screen that needs the contact keyboard, or
   * a message Telegram will not edit (too old, deleted), is sent as a new message instead.
   */
  async function edit(
    api: Api,
    chatId: number,
    messageId: number | undefined,
    message: TelegramMessage,
  ): Promise<void> {
    if (messageId === undefined || !message.editable) return send(api, chatId, message);
    const markup = message.replyMarkup;
    const inline = markup && 'inline_keyboard' in markup ? { reply_markup: markup } : {};
    try {
      await api.editMessageText(chatId, messageId, message.text, inline);
    } catch (error) {
      // The same screen again (a re-shown step) leaves nothing to change.
      const unchanged = error instanceof GrammyError && /not modified/i.test(error.description);
      if (!unchanged) {
        log.info(describeError(error), 'telegram edit refused; sending the screen anew');
        await sendText(api, chatId, message);
      }
    }
    await sendDocuments(api, chatId, message.documents);
  }

  async function sendPrompt(api: Api, chatId: string | number, prompt: Prompt): Promise<void> {
    await send(api, chatId, toTelegramMessage(prompt, render, locale()));
  }

  async function sendNotice(ctx: Context, key: string): Promise<void> {
    await ctx.reply(say(key));
  }

  async function turn(ctx: Context, reply: Reply): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const prompt = await engine.handle(sessionOf(chatId), reply, optionsOf(chatId));
    await sendPrompt(ctx.api, chatId, prompt);
  }

  /**
   * The step the chat's conversation waits on, read under the session lock without touching the
   * flow (the engine's `keep` decision); undefined when there is none to continue.
   */
  async function currentStep(chatId: number): Promise<Prompt | undefined> {
    let current: Prompt | undefined;
    const peek: ChannelStateHook = {
      decide: (glance) => {
        current = glance.prompt;
        return { kind: 'keep', state: glance.state };
      },
    };
    await engine.handle(
      sessionOf(chatId),
      { type: 'user.text', text: '' },
      { ...optionsOf(chatId), channelState: peek },
    );
    return current?.final ? undefined : current;
  }

  /**
   * Answers something the bot cannot use (a sticker, a voice note, a location, a photo where none
   * is asked for): a short hint of what the current step expects, with that step again.
   */
  async function hint(ctx: Context, leadKey: string, current?: Prompt): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const step = current ?? (await currentStep(chatId));
    if (!step) {
      await ctx.reply([say(leadKey), say('telegram.expect.start')].join(' '));
      return;
    }
    const lead = `${say(leadKey)} ${say(`telegram.expect.${step.input}`)}`;
    await send(ctx.api, chatId, toTelegramMessage(step, render, locale(), { before: [lead] }));
  }

  /** The one error boundary: logs without message text and apologises to the user. */
  async function apologise(error: unknown, ctx: Context): Promise<void> {
    log.error(
      { ...describeError(error), updateId: ctx.update.update_id },
      'telegram update failed',
    );
    try {
      await sendNotice(ctx, 'engine.error');
    } catch (apologyError) {
      log.error(describeError(apologyError), 'telegram apology failed');
    }
  }

  // First middleware: whether updates come by webhook or by polling, a failure is answered here.
  bot.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      await apologise(error, ctx);
    }
  });

  // Telegram redelivers an update it thinks failed; the id is claimed before any effect.
  bot.use(async (ctx, next) => {
    if (!(await seen.claim(String(ctx.update.update_id)))) {
      log.info({ updateId: ctx.update.update_id }, 'telegram update already handled');
      return;
    }
    await next();
  });

  // The update's language: the one the user chose, else their Telegram app's when it is ours.
  bot.use(async (ctx, next) => {
    const chatId = ctx.chat?.id;
    let chosen: string | undefined;
    if (chatId !== undefined && options.languages) {
      try {
        chosen = await options.languages.chosen({ channel: 'telegram', address: String(chatId) });
      } catch (error) {
        log.warn(describeError(error), 'telegram user language could not be read');
      }
    }
    const spoken = chosen ?? supportedLocaleOf(ctx.from?.language_code) ?? defaultLocale;
    await updateLocale.run(spoken, next);
  });

  // Private chats only: a group would share one session between its members.
  bot.chatType(['group', 'supergroup', 'channel']).use(() => undefined);

  /**
   * Ends whatever conversation was open and returns the entry menu. On a session that exists the
   * cancel closes it (its closing screen is not shown) and the next turn opens the menu; on a
   * fresh session the cancel itself opens the menu.
   */
  async function startOver(ctx: Context): Promise<Prompt> {
    const chatId = ctx.chat?.id ?? 0;
    const key = sessionOf(chatId);
    const options = optionsOf(chatId);
    const closing = await engine.handle(key, { type: 'user.cancel' }, options);
    if (!closing.final) return closing;
    return engine.handle(key, { type: 'user.text', text: '' }, options);
  }

  /** Hands the conversation to a person; the flow waits where it is. */
  async function askForPerson(ctx: Context): Promise<void> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const opening = options.handoff
      ? await options.handoff.open({
          sessionKey: sessionOf(chatId),
          address: { channel: 'telegram', address: String(chatId), locale: locale() },
        })
      : 'unavailable';
    if (opening === 'opened' || opening === 'already') {
      await sendNotice(ctx, `handoff.${opening}`);
      return;
    }
    await hint(ctx, `handoff.${opening}`);
  }

  /**
   * True (and the customer told so) while a person has the conversation: the flow is paused,
   * so taps, contacts and files do not reach it.
   */
  async function withPerson(ctx: Context): Promise<boolean> {
    const chatId = ctx.chat?.id;
    if (chatId === undefined || !(await options.handoff?.active(sessionOf(chatId)))) return false;
    await sendNotice(ctx, 'handoff.already');
    return true;
  }

  /** A command that leaves the person first: the customer chose the assistant again. */
  const leavingPerson =
    (handler: (ctx: Context) => Promise<void>) =>
    async (ctx: Context): Promise<void> => {
      const chatId = ctx.chat?.id;
      if (chatId !== undefined) await options.handoff?.end(sessionOf(chatId));
      await handler(ctx);
    };

  bot.command(
    'start',
    leavingPerson(async (ctx) => {
      await sendPrompt(ctx.api, ctx.chat?.id ?? 0, await startOver(ctx));
    }),
  );
  bot.command('help', (ctx) => sendNotice(ctx, 'telegram.help'));
  bot.command(
    'cancel',
    leavingPerson((ctx) => turn(ctx, { type: 'user.cancel' })),
  );
  bot.command(
    'status',
    leavingPerson(async (ctx) => {
      await startOver(ctx);
      await turn(ctx, { type: 'user.choice', id: STATUS_MENU_CHOICE });
    }),
  );
  bot.command('human', askForPerson);
  bot.command('language', (ctx) => sendPrompt(ctx.api, ctx.chat.id, LANGUAGE_PROMPT));
  // Back to the assistant: the step the conversation waits on, answers kept.
  bot.command('done', async (ctx) => {
    const ended = (await options.handoff?.end(sessionOf(ctx.chat.id))) ?? false;
    const lead = say(ended ? 'handoff.back' : 'handoff.notOpen');
    const step = await currentStep(ctx.chat.id);
    if (!step) {
      await ctx.reply([lead.replace(/:$/, '.'), say('telegram.expect.start')].join(' '));
      return;
    }
    await send(ctx.api, ctx.chat.id, toTelegramMessage(step, render, locale(), { before: [lead] }));
  });

  bot.on('callback_query:data', async (ctx) => {
    // Stops the button's spinner at once; it carries no chat id, so the per-chat throttle
    // leaves it alone and the edit below is the tap's only call in that queue.
    await ctx.answerCallbackQuery();
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const { token, id } = parseCallbackData(ctx.callbackQuery.data);
    if (id === CHOOSE_LANGUAGE && options.languages) {
      await edit(ctx.api, chatId, ctx.callbackQuery.message?.message_id, languageMessage());
      return;
    }
    const picked = localeOfChoice(id);
    if (picked !== undefined) {
      await chooseLanguage(ctx, chatId, picked);
      return;
    }
    if (id === TALK_TO_A_PERSON) {
      await askForPerson(ctx);
      return;
    }
    if (await withPerson(ctx)) return;
    const choice = { type: 'user.choice', id } as const;
    if (isMenuShortcut(id)) {
      // A reminder's "Renew now" or "Stop reminders" belongs to no step of the conversation: it
      // opens the menu afresh and picks there, in a new message under the reminder.
      await startOver(ctx);
      await turn(ctx, choice);
      return;
    }
    let stale = false;
    // A tap counts only on the keyboard of the screen the conversation is on (or one it has not
    // shown yet); a tap on an older message is answered with the current step instead.
    const current: ChannelStateHook = {
      decide: (glance) => {
        if (!glance.prompt) {
          stale = true;
          return { kind: 'restart', state: () => undefined };
        }
        if (glance.unseen || promptToken(glance.prompt) === token) {
          return { kind: 'reply', reply: choice, state: () => undefined };
        }
        stale = true;
        return { kind: 'keep', state: glance.state };
      },
    };
    const prompt = await engine.handle(sessionOf(chatId), choice, {
      ...optionsOf(chatId),
      // Keyboards sent before screens carried a token are taken as they are.
      ...(token === undefined ? {} : { channelState: current }),
    });
    const before = stale ? [say('telegram.menuExpired')] : [];
    const message = toTelegramMessage(prompt, render, locale(), { before });
    await edit(ctx.api, chatId, ctx.callbackQuery.message?.message_id, message);
  });

  function languageMessage() {
    return toTelegramMessage(LANGUAGE_PROMPT, render, locale());
  }

  /**
   * Remembers the user's language, then shows where their conversation is (or the menu), in it.
   * Not remembered (the store failed): this answer is still in it, the next one as before.
   */
  async function chooseLanguage(ctx: Context, chatId: number, picked: string): Promise<void> {
    try {
      await options.languages?.choose({ channel: 'telegram', address: String(chatId) }, picked);
    } catch (error) {
      log.warn(describeError(error), 'telegram user language could not be saved');
    }
    await updateLocale.run(picked, async () => {
      const lead = say('language.changed');
      const step = await currentStep(chatId);
      if (step) {
        await send(ctx.api, chatId, toTelegramMessage(step, render, locale(), { before: [lead] }));
        return;
      }
      await ctx.reply(lead);
      await sendPrompt(ctx.api, chatId, await startOver(ctx));
    });
  }

  bot.on('message:contact', async (ctx) => {
    if (await withPerson(ctx)) return;
    const contact = ctx.message.contact;
    // Only the sender's own number is vouched for by Telegram. Someone else's contact card
    // (forwarded, or picked from the address book) would let a caller speak as that person's
    // phone, so it is refused and never reaches the flow.
    if (contact.user_id !== undefined && contact.user_id === ctx.from.id) {
      await turn(ctx, { type: 'user.contact', phone: contact.phone_number });
    } else {
      await sendNotice(ctx, 'telegram.notYourContact');
    }
  });

  bot.on(
    [
      'message:sticker',
      'message:voice',
      'message:audio',
      'message:video',
      'message:video_note',
      'message:animation',
      'message:location',
      'message:venue',
      'message:poll',
      'message:dice',
    ],
    (ctx) => hint(ctx, 'telegram.unsupported'),
  );

  bot.on(['message:photo', 'message:document'], async (ctx) => {
    if (await withPerson(ctx)) return;
    const files = options.files;
    if (!files) {
      await sendNotice(ctx, 'telegram.filesUnavailable');
      return;
    }
    const photo = ctx.message.photo?.at(-1);
    const document = ctx.message.document;
    const source = photo ?? document;
    if (!source) return;
    if ((source.file_size ?? 0) > maxFileBytes) {
      await sendNotice(ctx, 'telegram.fileTooLarge');
      return;
    }
    // Only a step that asks for a file gets one: nothing is downloaded or kept otherwise.
    const step = await currentStep(ctx.chat.id);
    if (step?.input !== 'photo') {
      await hint(ctx, 'telegram.unexpectedFile', step);
      return;
    }
    const file = await ctx.api.getFile(source.file_id);
    if (!file.file_path) throw new TelegramFileError('Telegram returned no file_path');
    // The download URL embeds the bot token: it is never logged.
    const response = await fetch(`${apiRoot}/file/bot${options.token}/${file.file_path}`);
    if (!response.ok) {
      throw new TelegramFileError(`Telegram file download answered ${response.status}`);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength > maxFileBytes) {
      await sendNotice(ctx, 'telegram.fileTooLarge');
      return;
    }
    const fileName = document?.file_name ?? file.file_path.split('/').at(-1) ?? 'photo.jpg';
    const contentType = document?.mime_type ?? 'image/jpeg';
    // Owned by the chat, so "Delete my data" finds it.
    const owner = subjectId({ channel: 'telegram', address: String(ctx.chat.id) });
    const stored = await files.put(bytes, { contentType, fileName, owner });
    const url = files.signedUrl(stored.id);
    await turn(ctx, { type: 'user.photo', url, fileName });
  });

  bot.on('message:text', async (ctx) => {
    // While a person has the conversation, what the customer writes is for them, not the flow.
    const forwarded = await options.handoff?.forward(sessionOf(ctx.chat.id), ctx.message.text);
    if (forwarded === 'forwarded') return;
    if (forwarded === 'failed') {
      await sendNotice(ctx, 'handoff.forwardFailed');
      return;
    }
    await turn(ctx, { type: 'user.text', text: ctx.message.text });
  });

  // The boundary middleware above answers every failure; this only catches what it could not.
  bot.catch((error: BotError) => {
    log.error(
      { ...describeError(error.error), updateId: error.ctx.update.update_id },
      'telegram update failed',
    );
  });

  let initialised: Promise<void> | undefined;
  const ensureInit = (): Promise<void> => {
    initialised ??= bot.init().catch((error: unknown) => {
      initialised = undefined;
      throw error;
    });
    return initialised;
  };

  /** Fills Telegram's "/" menu; best effort (a Bot API without it still serves the bot). */
  async function registerCommands(): Promise<void> {
    const commands: BotCommand[] = TELEGRAM_COMMANDS.map((command) => ({
      command,
      description: say(`telegram.command.${command}`),
    }));
    try {
      await bot.api.setMyCommands(commands);
    } catch (error) {
      log.warn(describeError(error), 'telegram commands not registered');
    }
  }

  let polling: Promise<void> | undefined;
  let onWebhook: ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) | undefined;

  return {
    bot,
    registerWebhook(fastify, path = '/telegram/webhook') {
      fastify.post(path, async (request, reply) => {
        // In polling mode updates come by getUpdates; a webhook call then has nothing to do.
        if (bot.isRunning()) return reply.code(409).send({ error: 'bot is polling' });
        // grammY's own webhook handling: the secret-token check (401, nothing read), then the
        // update through the bot; created on first use because it disables long polling.
        if (!onWebhook) {
          const callback = webhookCallback(bot, fastifyAdapter, {
            secretToken: options.webhookSecret,
            // Telegram waits; answering before a slow turn ends beats a redelivery.
            onTimeout: 'return',
            timeoutMilliseconds: deadlineMs + 1_000,
          });
          onWebhook = async (req, res) => {
            await callback(req, res);
          };
        }
        const handle = onWebhook;
        try {
          await track(handle(request, reply));
        } catch (error) {
          if (!(error instanceof TelegramUpdateError)) throw error;
          return reply.code(400).send({ error: 'not a Telegram update' });
        }
        if (reply.statusCode === 401) log.warn('telegram webhook with a wrong secret token');
        return reply;
      });
    },
    async setWebhook(url) {
      await bot.api.setWebhook(url, {
        secret_token: options.webhookSecret,
        allowed_updates: ['message', 'callback_query'],
      });
      await registerCommands();
    },
    async startPolling() {
      await ensureInit();
      await registerCommands();
      await new Promise<void>((resolve, reject) => {
        polling = bot.start({ onStart: () => resolve() }).catch((error: unknown) => {
          log.error(describeError(error), 'telegram polling stopped');
          reject(error);
        });
      });
    },
    notifier: {
      channel: 'telegram',
      notify: (address, prompt) =>
        track(updateLocale.run(address.locale, () => sendPrompt(bot.api, address.address, prompt))),
    },
    async stop() {
      if (bot.isRunning()) await bot.stop();
      await polling;
      await Promise.allSettled([...inFlight]);
    },
  };
}
