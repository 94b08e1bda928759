import type { TurnMiddleware } from '../../conversation/index.js';
import { ClaimUpload } from './claim-upload.js';

/**
 * A customer's reply, handed to the engine as the turn's `channelRequest`. WhatsApp turns run
 * to the end within the deadline, so a screen the engine counts as unseen was pushed to them
 * (a payment's outcome): the reply answers it, and after a pushed closing screen they get the
 * menu afresh.
 */
export class ChatReply {}

/** A read of the step a chat waits on: shown again as it is, or the menu when none is open. */
export class StepShow {}

/**
 * WhatsApp's engine middleware (src/server adds it with `engine.use`): decides under the session
 * lock what a {@link ChatReply}, a {@link StepShow} or a {@link ClaimUpload} means, so each
 * inbound message costs one engine call; other turns pass through.
 */
export const whatsappEngineMiddleware: TurnMiddleware = async (context, next) => {
  const request = context.options.channelRequest;
  const { session } = context;
  if (request instanceof ChatReply && context.request.kind === 'reply') {
    context.request =
      session.unseen && session.prompt?.final
        ? { kind: 'restart' }
        : { ...context.request, seen: session.unseen };
    return next();
  }
  if (request instanceof StepShow) {
    if (session.prompt && !session.prompt.final) return context.keep(session.state);
    context.request = { kind: 'restart' };
    return next();
  }
  if (request instanceof ClaimUpload) {
    const decided = await request.requestFor(session);
    if (!decided) return context.keep(session.state);
    context.request = decided;
    return next();
  }
  return next();
};
