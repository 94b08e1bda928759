import { AsyncLocalStorage } from 'node:async_hooks';
import type { Api, Context } from 'grammy';
import type { Prompt, Reply, TurnEngine, TurnOptions } from '../../conversation/index.js';
import {
  type RenderPrompt,
  renderKey,
  type TelegramMessage,
  toTelegramMessage,
} from './render-telegram-message.js';
import { StepRead } from './telegram-engine-middleware.js';
import type { TelegramSender } from './telegram-sender.js';

const SESSION_PREFIX = 'tg:';
// The policyholder's entry menu (flows/main-menu.ts), which /start opens afresh.
const ENTRY_FLOW = 'main-menu';

/**
 * What the update handlers share: a chat's session and turn options, the update's language, and
 * the engine calls a handler makes (one per update) with the screen they answer sent back.
 */
export interface TelegramConversation {
  readonly engine: TurnEngine;
  readonly sender: TelegramSender;
  /** The language of the update being handled (see {@link inLocale}); else the default. */
  locale(): string;
  /** Runs `work` with `locale` as the update's language. */
  inLocale<T>(locale: string, work: () => Promise<T>): Promise<T>;
  /** One message key's text in the update's language. */
  say(key: string): string;
  /** The session key of a chat: `tg:<chatId>`. */
  sessionOf(chatId: number | string): string;
  /** The options of a turn for a chat: its address, audience policyholder, the deadline. */
  optionsOf(chatId: number | string): TurnOptions;
  /** A Prompt as a Telegram message in the update's language, `before` lines above its text. */
  messageOf(prompt: Prompt, before?: readonly string[]): TelegramMessage;
  sendPrompt(api: Api, chatId: string | number, prompt: Prompt): Promise<void>;
  /** Answers with one message key's text (with its `params`), no keyboard. */
  notice(ctx: Context, key: string, params?: Prompt['params']): Promise<void>;
  /** Applies `reply` to the chat's conversation and sends the screen it answers. */
  turn(ctx: Context, reply: Reply): Promise<void>;
  /** The step the chat's conversation waits on; undefined when there is none to continue. */
  currentStep(chatId: number): Promise<Prompt | undefined>;
  /**
   * Ends whatever conversation was open and opens the entry menu, taking `pick` there first when
   * given (a menu entry chosen from outside the menu).
   */
  startOver(chatId: number, pick?: string): Promise<Prompt>;
  /**
   * Answers something the bot cannot use (a sticker, a voice note, a location, a photo where none
   * is asked for): a short hint of what the current step expects, with that step again.
   */
  hint(ctx: Context, leadKey: string, current?: Prompt): Promise<void>;
}

/** How {@link createTelegramConversation} reaches the engine and the chat. */
export interface TelegramConversationOptions {
  readonly engine: TurnEngine;
  readonly render: RenderPrompt;
  readonly sender: TelegramSender;
  readonly defaultLocale: string;
  readonly deadlineMs: number;
}

/** Creates the {@link TelegramConversation} the handlers share. */
export function createTelegramConversation(
  options: TelegramConversationOptions,
): TelegramConversation {
  const { engine, render, sender, defaultLocale, deadlineMs } = options;
  const updateLocale = new AsyncLocalStorage<string>();
  const locale = (): string => updateLocale.getStore() ?? defaultLocale;
  const say = (key: string) => renderKey(render, key, locale());
  const sessionOf = (chatId: number | string) => `${SESSION_PREFIX}${chatId}`;
  const optionsOf = (chatId: number | string): TurnOptions => ({
    deadlineMs,
    address: { channel: 'telegram', address: String(chatId), locale: locale() },
    audience: 'policyholder',
  });
  const messageOf = (prompt: Prompt, before: readonly string[] = []) =>
    toTelegramMessage(prompt, render, locale(), { before: [...before] });
  const sendPrompt = (api: Api, chatId: string | number, prompt: Prompt) =>
    sender.send(api, chatId, messageOf(prompt));

  async function currentStep(chatId: number): Promise<Prompt | undefined> {
    // Read as it is: a chat with no conversation gets "send /start", not a menu opened for it.
    const options = { ...optionsOf(chatId), channelRequest: new StepRead() };
    const step = await engine.peek(sessionOf(chatId), options);
    return step.final ? undefined : step;
  }

  function startOver(chatId: number, pick?: string): Promise<Prompt> {
    return engine.start(sessionOf(chatId), ENTRY_FLOW, {
      ...optionsOf(chatId),
      ...(pick === undefined ? {} : { start: { pick } }),
    });
  }

  return {
    engine,
    sender,
    locale,
    inLocale: (spoken, work) => updateLocale.run(spoken, work),
    say,
    sessionOf,
    optionsOf,
    messageOf,
    sendPrompt,
    async notice(ctx, key, params) {
      await ctx.reply(renderKey(render, key, locale(), params));
    },
    async turn(ctx, reply) {
      const chatId = ctx.chat?.id;
      if (chatId === undefined) return;
      const prompt = await engine.turn(sessionOf(chatId), reply, optionsOf(chatId));
      await sendPrompt(ctx.api, chatId, prompt);
    },
    currentStep,
    startOver,
    async hint(ctx, leadKey, current) {
      const chatId = ctx.chat?.id;
      if (chatId === undefined) return;
      const step = current ?? (await currentStep(chatId));
      if (!step) {
        await ctx.reply([say(leadKey), say('telegram.expect.start')].join(' '));
        return;
      }
      const lead = `${say(leadKey)} ${say(`telegram.expect.${step.input}`)}`;
      await sender.send(ctx.api, chatId, messageOf(step, [lead]));
    },
  };
}
