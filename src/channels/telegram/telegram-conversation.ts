import { AsyncLocalStorage } from 'node:async_hooks';
import type { Api, Context } from 'grammy';
import {
  type ChannelAddress,
  type ChatInput,
  ChatUpdate,
  type ChatUpdateOptions,
  type Prompt,
  supportedLocaleOf,
  type TurnEngine,
} from '../../conversation/index.js';
import { type RenderPrompt, renderKey } from '../shared/index.js';
import type { ChatTyping, TelegramSender } from './bot-api/index.js';
import { toTelegramMessage } from './render-telegram-message.js';
import type { KeyboardTap } from './telegram-engine-middleware.js';

const SESSION_PREFIX = 'tg:';

/**
 * What the update handlers share: a chat's session and turn options, the update's language, and
 * the one engine call a handler makes, with what it answers rendered back.
 */
export interface TelegramConversation {
  /** One message key's text in the update's language. */
  say(key: string): string;
  /** Sends a Prompt pushed to a user (a payment's outcome) into their chat, in their language. */
  push(api: Api, address: ChannelAddress, prompt: Prompt): Promise<void>;
  /** Answers with one message key's text, no keyboard. */
  notice(ctx: Context, key: string): Promise<void>;
  /**
   * Hands what the user sent to the engine (one call; the conversation policies decide what it
   * means) and renders the answer in the language they decided; a `flow` answer to a `tap` goes
   * in place of the tapped message. `filesBehind`: see `ChatUpdateOptions.filesBehind`.
   */
  update(
    ctx: Context,
    input: ChatInput,
    tap?: KeyboardTap,
    filesBehind?: ChatUpdateOptions['filesBehind'],
  ): Promise<void>;
}

/** How {@link createTelegramConversation} reaches the engine and the chat. */
interface TelegramConversationOptions {
  readonly engine: TurnEngine;
  readonly render: RenderPrompt;
  readonly sender: TelegramSender;
  readonly defaultLocale: string;
  readonly deadlineMs: number;
  /** Called once a user chose a language, in it (the chat's "/" menu). */
  readonly onLanguage: (ctx: Context, chatId: number) => Promise<void>;
  /** Runs a turn with "typing" shown in the chat while it is slow. */
  readonly typing: ChatTyping;
}

/** Creates the {@link TelegramConversation} the handlers share. */
export function createTelegramConversation(
  options: TelegramConversationOptions,
): TelegramConversation {
  const { engine, render, sender, defaultLocale, deadlineMs } = options;
  const updateLocale = new AsyncLocalStorage<string>();
  const locale = (): string => updateLocale.getStore() ?? defaultLocale;
  const say = (key: string, params?: Prompt['params']) => renderKey(render, key, locale(), params);
  const messageOf = (prompt: Prompt, before: readonly string[] = []) =>
    toTelegramMessage(prompt, render, locale(), { before: [...before] });
  const sendPrompt = (api: Api, chatId: string | number, prompt: Prompt) =>
    sender.send(api, chatId, messageOf(prompt));

  /** Renders what the engine answered, as the policies said to show it. */
  async function answer(
    ctx: Context,
    chatId: number,
    update: ChatUpdate,
    prompt: Prompt,
    tap: KeyboardTap | undefined,
  ): Promise<void> {
    const lead = update.lead ? say(update.lead.key, update.lead.params) : undefined;
    switch (update.answer) {
      case 'none':
        return;
      case 'notice':
        await ctx.reply(lead ?? '');
        return;
      case 'step': {
        if (prompt.final) {
          // No conversation to continue: how to begin one.
          const first = lead?.replace(/:$/, '.');
          await ctx.reply([...(first ? [first] : []), say('telegram.expect.start')].join(' '));
          return;
        }
        const line =
          lead && update.hint ? `${lead} ${say(`telegram.expect.${prompt.input}`)}` : lead;
        await sender.send(ctx.api, chatId, messageOf(prompt, line ? [line] : []));
        return;
      }
      case 'flow':
        if (tap) {
          const before = tap.stale ? [say('telegram.menuExpired')] : [];
          await sender.edit(ctx.api, chatId, tap.messageId, messageOf(prompt, before));
          return;
        }
        // A shared contact answered the step: its keyboard goes, whatever the next screen has.
        await sender.send(ctx.api, chatId, {
          ...messageOf(prompt),
          removeKeyboard: update.input.kind === 'contact',
        });
        return;
      case 'screen':
        await sendPrompt(ctx.api, chatId, prompt);
        return;
    }
  }

  return {
    say,
    push: (api, address, prompt) =>
      updateLocale.run(address.locale, () => sendPrompt(api, address.address, prompt)),
    async notice(ctx, key) {
      await ctx.reply(say(key));
    },
    async update(ctx, input, tap, filesBehind) {
      const chatId = ctx.chat?.id;
      if (chatId === undefined) return;
      const update = new ChatUpdate(input, {
        channel: 'telegram',
        address: String(chatId),
        platformLocale: supportedLocaleOf(ctx.from?.language_code),
        fallbackLocale: defaultLocale,
        repeatStep: false,
        own: tap,
        filesBehind,
      });
      const prompt = await options.typing(ctx.api, chatId, () =>
        engine.turn(
          `${SESSION_PREFIX}${chatId}`,
          update.reply,
          update.turnOptions({ deadlineMs, audience: 'policyholder' }),
        ),
      );
      await updateLocale.run(update.locale, async () => {
        await answer(ctx, chatId, update, prompt, tap);
        // After the answer, so the user never waits on it.
        if (update.languageChanged) await options.onLanguage(ctx, chatId);
      });
    },
  };
}
