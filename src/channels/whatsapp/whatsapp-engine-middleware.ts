import { ownRequestOf, type TurnMiddleware } from '../../conversation/index.js';

/**
 * A customer's message, handed to the engine as the update's own request. WhatsApp turns run
 * to the end within the deadline, so a screen the engine counts as unseen was pushed to them
 * (a payment's outcome): the reply answers it, and after a pushed closing screen they get the
 * menu afresh.
 */
export class ChatReply {}

/**
 * WhatsApp's engine middleware (src/server adds it with `engine.use`, after the conversation
 * policies): decides under the session lock what a reply in a {@link ChatReply} means; other
 * turns pass through.
 */
export const whatsappEngineMiddleware: TurnMiddleware = (context, next) => {
  const { session } = context;
  if (ownRequestOf(context.options) instanceof ChatReply && context.request.kind === 'reply') {
    context.request =
      session.unseen && session.prompt?.final
        ? { kind: 'restart' }
        : { ...context.request, seen: session.unseen };
  }
  return next();
};
