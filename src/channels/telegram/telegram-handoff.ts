import type { Context } from 'grammy';
import { HANDOFF_CONSENT, type Handoff } from '../../conversation/index.js';
import type { TelegramConversation } from './telegram-conversation.js';

/** The channel's side of human handoff: asking for a person, and leaving them. */
export interface TelegramHandoff {
  /** Hands the conversation to a person; the flow waits where it is. */
  askForPerson(ctx: Context): Promise<void>;
  /** The customer's answer to the handoff's consent screen: it opens, or nothing is posted. */
  answerConsent(ctx: Context, answer: 'agreed' | 'declined'): Promise<void>;
  /**
   * True (and the customer told so) while a person has the conversation: the flow is paused,
   * so taps, contacts and files do not reach it.
   */
  withPerson(ctx: Context): Promise<boolean>;
  /** A command that leaves the person first: the customer chose the assistant again. */
  leavingPerson(handler: (ctx: Context) => Promise<void>): (ctx: Context) => Promise<void>;
  /** Ends the handoff of a chat; true when one was open. */
  end(chatId: number): Promise<boolean>;
  /**
   * Passes typed text to the person while one has the conversation: `forwarded`, `failed` (the
   * customer was told), or `flow` when it goes to the flow.
   */
  forward(ctx: Context, text: string): Promise<'forwarded' | 'failed' | 'flow'>;
}

/** Creates the {@link TelegramHandoff}; without `handoff` nobody is ever available. */
export function createTelegramHandoff(
  conversation: TelegramConversation,
  handoff: Handoff | undefined,
): TelegramHandoff {
  const { sessionOf, notice } = conversation;
  const ask = async (ctx: Context, consent?: 'agreed' | 'declined') => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return;
    const opening = handoff
      ? await handoff.open({
          sessionKey: sessionOf(chatId),
          address: {
            channel: 'telegram',
            address: String(chatId),
            locale: conversation.locale(),
          },
          ...(consent ? { consent } : {}),
        })
      : 'unavailable';
    if (opening === 'opened' || opening === 'already') {
      await notice(ctx, `handoff.${opening}`);
      return;
    }
    // Not agreed to the notice yet: asked first, nothing posted.
    if (opening === 'consent') {
      await conversation.sendPrompt(ctx.api, chatId, HANDOFF_CONSENT);
      return;
    }
    await conversation.hint(ctx, `handoff.${opening}`);
  };
  return {
    // A command handler: grammY's second argument (`next`) is not an answer.
    askForPerson: (ctx) => ask(ctx),
    answerConsent: (ctx, answer) => ask(ctx, answer),
    async withPerson(ctx) {
      const chatId = ctx.chat?.id;
      if (chatId === undefined || !(await handoff?.active(sessionOf(chatId)))) return false;
      await notice(ctx, 'handoff.already');
      return true;
    },
    leavingPerson: (handler) => async (ctx) => {
      const chatId = ctx.chat?.id;
      if (chatId !== undefined) await handoff?.end(sessionOf(chatId));
      await handler(ctx);
    },
    async end(chatId) {
      return (await handoff?.end(sessionOf(chatId))) ?? false;
    },
    async forward(ctx, text) {
      const chatId = ctx.chat?.id;
      if (chatId === undefined) return 'flow';
      // While a person has the conversation, what the customer writes is for them, not the flow.
      const forwarded = await handoff?.forward(sessionOf(chatId), text);
      if (forwarded === 'forwarded') return 'forwarded';
      if (forwarded === 'failed') {
        await notice(ctx, 'handoff.forwardFailed');
        return 'failed';
      }
      return 'flow';
    },
  };
}
