import type { TurnMiddleware } from '../../conversation/index.js';
import { promptToken } from './render-telegram-message.js';

/**
 * A tap on an inline keyboard, with the token of the screen the keyboard was sent with; handed
 * to the engine as the turn's `channelRequest`. `stale` says, once answered, that the tap was
 * on an older screen and the answer is the current one instead.
 */
export class KeyboardTap {
  stale = false;

  constructor(readonly token: string) {}
}

/** A read of the step a chat waits on, as it is: with no conversation, none is started. */
export class StepRead {}

/**
 * Telegram's engine middleware (src/server adds it with `engine.use`): decides under the session
 * lock what a {@link KeyboardTap} means and answers a {@link StepRead}; other turns pass through.
 * A tap counts only on the keyboard of the screen the conversation is on (or one it has not shown
 * yet); on an older one it answers the current step, and with no conversation it opens the menu.
 */
export const telegramEngineMiddleware: TurnMiddleware = (context, next) => {
  const request = context.options.channelRequest;
  if (request instanceof StepRead) return context.keep(context.session.state);
  if (!(request instanceof KeyboardTap) || context.request.kind !== 'reply') return next();
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
