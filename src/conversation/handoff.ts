import type { ChannelAddress, SessionGlance } from './turn-engine.js';

/**
 * The main-menu choice that asks for a person. Channels take it before the flow sees it: a
 * handoff lives beside the session, the flow only shows the entry.
 */
export const TALK_TO_A_PERSON = 'person';

/** What asking for a person came to. */
export type HandoffOpening =
  /** A thread was opened for staff. */
  | 'opened'
  /** The customer already waits for (or talks to) a person. */
  | 'already'
  /** No one takes handoffs here (none configured). */
  | 'unavailable'
  /** Staff could not be reached just now; nothing was opened. */
  | 'failed';

/** What became of a customer's message during a handoff. */
export type HandoffForward = 'forwarded' | 'none' | 'failed';

/** A request to hand a conversation to a person. */
export interface HandoffRequest {
  readonly sessionKey: string;
  readonly address: ChannelAddress;
  /**
   * The conversation as the engine holds it, when the caller already read it under the session
   * lock (USSD); without it the handoff reads it itself.
   */
  readonly glance?: SessionGlance;
}

/**
 * The channels' side of a human handoff: a conversation paused while a person talks to the
 * customer, resumed where it stopped once the handoff ends. Implemented by src/handoff.
 */
export interface Handoff {
  /** True while the session is with a person. */
  active(sessionKey: string): Promise<boolean>;
  open(request: HandoffRequest): Promise<HandoffOpening>;
  /** Passes a customer's message to the person; `none` when the session is not with one. */
  forward(sessionKey: string, text: string): Promise<HandoffForward>;
  /** The customer ends the handoff; true when there was one to end. */
  end(sessionKey: string): Promise<boolean>;
}
