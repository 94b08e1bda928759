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
 * through. A tap counts only on the keyboard of the screen the conversation is on (or one it has
 * not shown yet); on an older one it answers the current step, and with no conversation it opens
 * the menu.
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
  if (context.session.unseen || promptToken(shown) === request.token) return next();
  request.stale = true;
  return context.keep(context.session.state);
};
