import type {
  ChannelAddress,
  SessionGlance,
  TurnEngine,
  TurnMiddleware,
} from '../conversation/index.js';

/**
 * A handoff's read of a conversation (its flow, step and answers, for the staff's thread),
 * handed to the engine's `peek` as its `channelRequest`; {@link handoffMiddleware} fills it.
 */
export class ConversationRead {
  /** The conversation as the engine holds it; undefined until read. */
  glance: SessionGlance | undefined = undefined;
}

/**
 * The handoff's engine middleware: a {@link ConversationRead} takes the session as the engine
 * read it under its lock and leaves it as it was (no flow started, none advanced); every other
 * turn passes through. src/server adds it with `engine.use`.
 */
export const handoffMiddleware: TurnMiddleware = (context, next) => {
  const read = context.options.channelRequest;
  if (!(read instanceof ConversationRead)) return next();
  read.glance = context.session;
  return context.keep(context.session.state);
};

/**
 * The conversation as the engine holds it, read under its lock without touching the flow;
 * undefined when the engine has no {@link handoffMiddleware} (or nothing to read).
 */
export async function readConversation(
  engine: Pick<TurnEngine, 'peek'>,
  sessionKey: string,
  address: ChannelAddress,
): Promise<SessionGlance | undefined> {
  const read = new ConversationRead();
  await engine.peek(sessionKey, { address, audience: 'policyholder', channelRequest: read });
  return read.glance;
}
