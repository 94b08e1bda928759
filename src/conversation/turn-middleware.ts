import type { FlowStart } from './flow.js';
import type { Prompt } from './prompt.js';
import type { Reply } from './reply.js';
import type { SessionGlance, TurnOptions } from './turn-engine.js';

/**
 * What a request asks of a session: apply a Reply, show what it waits on, start a flow, or drop
 * the conversation and open the entry menu afresh (`restart`).
 */
export type TurnRequest =
  | {
      readonly kind: 'reply';
      readonly reply: Reply;
      /**
       * The user has the session's unseen prompt already (a channel pushed it to them), so the
       * reply answers it instead of showing it again.
       */
      readonly seen?: boolean;
    }
  | { readonly kind: 'peek' }
  | { readonly kind: 'start'; readonly flowId: string; readonly start?: FlowStart | undefined }
  | { readonly kind: 'restart' };

/**
 * One request as engine middleware sees it, under the session lock, with the session already
 * read (so middleware costs no store round trip of its own).
 */
export interface TurnContext {
  readonly sessionKey: string;
  readonly options: TurnOptions;
  /** What `next()` will do; middleware may replace it first (a keypress read as a Reply). */
  request: TurnRequest;
  /** The session as read under the lock. */
  readonly session: SessionGlance;
  /**
   * What the channel keeps with the Prompt `next()` answered (its paging state), set once
   * `next()` has answered: the engine writes the record after the chain returns, this with it,
   * in the same commit. Undefined keeps none (a closing screen then ends the session at once).
   */
  channelState: string | undefined;
  /**
   * Ends the turn without the flow: the record is kept as it is with `state` as the channel's
   * (a closing screen whose state is undefined is forgotten). Answers the record's Prompt.
   */
  keep(state: string | undefined): Promise<Prompt>;
}

/**
 * Engine middleware, composed like grammY's: it may change the request, answer on its own
 * (`keep`, or returning a Prompt of its own, which writes nothing) or call `next()` and look at
 * (or replace) what the rest of the chain answered. `next()` answers the Prompt the turn will
 * write before it is written, so what a middleware sets in `channelState` after it is committed
 * with it. A turn ends once: `next` or `keep`, not both.
 */
export type TurnMiddleware = (context: TurnContext, next: () => Promise<Prompt>) => Promise<Prompt>;

/** Composes middleware around `last` (grammY's `Composer`): the first registered runs first. */
export function composeMiddleware(
  middleware: readonly TurnMiddleware[],
  last: () => Promise<Prompt>,
): (context: TurnContext) => Promise<Prompt> {
  return (context) => dispatch(middleware, last, context, 0);
}

// A module function, not a closure named per turn: the bench server runs through tsx, whose
// keepNames gives every named closure a defineProperty call (~5k instructions) each time it is made.
function dispatch(
  middleware: readonly TurnMiddleware[],
  last: () => Promise<Prompt>,
  context: TurnContext,
  index: number,
): Promise<Prompt> {
  const current = middleware[index];
  if (!current) return last();
  return current(context, () => dispatch(middleware, last, context, index + 1));
}
