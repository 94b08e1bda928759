import type { Prompt } from '../prompt.js';
import type { TurnContext } from '../turn-middleware.js';
import type { ChatNotice, ChatUpdate } from './chat-update.js';

/**
 * What a policy answers when the channel shows nothing (the user's words went to a person); never
 * rendered, and nothing is written.
 */
export const NOTHING_SHOWN: Prompt = { key: 'chat.nothing', input: 'none', final: false };

/**
 * Answers with the step the conversation waits on, kept as it is, under `lead`. With none open
 * (or only its closing screen) the menu opens when `menu` says so; otherwise the closing screen
 * (or nothing) comes back final and the channel says how to begin.
 */
export function showStep(
  context: TurnContext,
  next: () => Promise<Prompt>,
  update: ChatUpdate,
  options: {
    readonly lead?: ChatNotice | undefined;
    readonly hint?: boolean;
    readonly menu: boolean;
  },
): Promise<Prompt> {
  update.answer = 'step';
  update.lead = options.lead;
  update.hint = options.hint === true;
  const { prompt, state } = context.session;
  if (prompt && !prompt.final) return context.keep(state);
  if (!options.menu) return context.keep(state);
  context.request = { kind: 'restart' };
  return next();
}

/** Answers with only `lead` (no screen), writing nothing. */
export function noticeOnly(update: ChatUpdate, lead: ChatNotice): Prompt {
  update.answer = 'notice';
  update.lead = lead;
  return {
    key: lead.key,
    ...(lead.params ? { params: lead.params } : {}),
    input: 'none',
    final: false,
  };
}
