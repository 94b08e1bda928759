import { ownRequestOf, type TurnMiddleware } from '../../conversation/index.js';
import { promptToken } from './render-telegram-message.js';

/**
 * A tap on an inline keyboard, with the token of the screen the keyboard was sent with (none on
 * keyboards sent before screens carried one) and the message it sits on; handed to the engine
 * as the update's own request. `stale` says, once answered, that the tap was on an older screen
 * and the answer is the current one instead.
 */
export class KeyboardTap {
  stale = false;

  constructor(
    readonly token: string | undefined,
    readonly messageId: number | undefined,
  ) {}
}

/**
 * Telegram's engine middleware (src/server adds it with `engine.use`, after the conversation
 * policies): decides under the session lock what a {@link KeyboardTap} means; other turns pass
 * through. A tap counts only on the keyboard of the screen the conversation is on; on an older one
 * it answers the current step, and with no conversation it opens the menu. A screen the engine
 * holds as unseen was pushed into the chat (a payment's outcome) or is a late result: a tap on
 * its own keyboard answers it (the user has it), a tap on an older one shows it.
 */
export const telegramEngineMiddleware: TurnMiddleware = (context, next) => {
  const request = ownRequestOf(context.options);
  if (!(request instanceof KeyboardTap) || context.request.kind !== 'reply') return next();
  if (request.token === undefined) return next();
  const shown = context.session.prompt;
  if (!shown) {
    request.stale = true;
    context.request = { kind: 'restart' };
    return next();
  }
  const current = promptToken(shown) === request.token;
  if (current && context.session.unseen) {
    // Its keyboard is only on the message pushed to the user: they read it, so the tap answers it.
    context.request = { ...context.request, seen: true };
    return next();
  }
  if (current || context.session.unseen) return next();
  request.stale = true;
  return context.keep(context.session.state);
};
