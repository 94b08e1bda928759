import {
  HANDOFF_AGREE,
  HANDOFF_CONSENT,
  HANDOFF_DECLINE,
  type Handoff,
  TALK_TO_A_PERSON,
} from '../handoff.js';
import type { Prompt } from '../prompt.js';
import type { TurnContext, TurnMiddleware } from '../turn-middleware.js';
import { type ChatUpdate, chatUpdateOf } from './chat-update.js';
import { NOTHING_SHOWN, noticeOnly, showStep } from './show-step.js';

/**
 * The handoff policy, one home for every chat channel: "talk to a person" (a command, or the
 * menu's choice) opens a handoff, asking consent first; while a person has the conversation what
 * the user writes, and the photos and files they send, go to them, and taps and contacts do not
 * reach the flow; "done" (and
 * going back to the menu, or cancelling) ends it. Without `handoff` nobody is ever available.
 * `handoffOf` may answer later than the engine is built (the handoff reads conversations through
 * it). Runs under the session lock, so the staff's thread reads the conversation from the turn's own
 * glance (no second engine call).
 */
export function handoffPolicy(handoffOf: () => Handoff | undefined): TurnMiddleware {
  return async (context, next) => {
    const update = chatUpdateOf(context.options);
    if (!update) return next();
    const handoff = handoffOf();
    const { input } = update;
    if (input.kind === 'command') {
      if (input.command === 'person') return open(context, next, update, handoff);
      const ended = (await handoff?.end(context.sessionKey)) ?? false;
      if (input.command !== 'done') return next();
      // Back to the assistant: the step the conversation waits on, answers kept.
      const lead = { key: ended ? 'handoff.back' : 'handoff.notOpen' };
      return showStep(context, next, update, { lead, menu: update.options.repeatStep });
    }
    if (input.kind === 'choice') {
      if (input.id === TALK_TO_A_PERSON) return open(context, next, update, handoff);
      if (input.id === HANDOFF_AGREE) return open(context, next, update, handoff, 'agreed');
      if (input.id === HANDOFF_DECLINE) return open(context, next, update, handoff, 'declined');
    }
    if (input.kind === 'text') {
      // While a person has the conversation, what the user writes is for them, not the flow.
      const forwarded = await handoff?.forward(context.sessionKey, input.text);
      if (forwarded === 'forwarded') {
        update.answer = 'none';
        return NOTHING_SHOWN;
      }
      if (forwarded === 'failed') return noticeOnly(update, { key: 'handoff.forwardFailed' });
      return next();
    }
    if (input.kind === 'file' && handoff?.forwardFile) {
      // A photo or file for the person goes into their thread, read (downloaded) only now.
      const forwarded = await handoff.forwardFile(context.sessionKey, input.file);
      if (forwarded === 'forwarded') {
        update.answer = 'none';
        return NOTHING_SHOWN;
      }
      if (forwarded === 'tooLarge') return noticeOnly(update, { key: 'handoff.fileTooLarge' });
      if (forwarded === 'failed') return noticeOnly(update, { key: 'handoff.forwardFailed' });
      return next();
    }
    if (input.kind === 'look' || !handoff) return next();
    // A tap or a contact: the flow is paused while a person has the conversation.
    if (await handoff.active(context.sessionKey)) {
      return noticeOnly(update, { key: 'handoff.already' });
    }
    return next();
  };
}

/** Asks for a person; not agreed to the notice yet, the user is asked first. */
async function open(
  context: TurnContext,
  next: () => Promise<Prompt>,
  update: ChatUpdate,
  handoff: Handoff | undefined,
  consent?: 'agreed' | 'declined',
): Promise<Prompt> {
  const opening = handoff
    ? await handoff.open({
        sessionKey: context.sessionKey,
        address: update.address,
        // Read under this turn's lock: the handoff must not ask the engine again.
        glance: context.session,
        ...(consent ? { consent } : {}),
      })
    : 'unavailable';
  if (opening === 'opened' || opening === 'already') {
    return noticeOnly(update, { key: `handoff.${opening}` });
  }
  if (opening === 'consent') {
    update.answer = 'screen';
    return HANDOFF_CONSENT;
  }
  const lead = { key: `handoff.${opening}` };
  return showStep(context, next, update, { lead, hint: true, menu: update.options.repeatStep });
}
