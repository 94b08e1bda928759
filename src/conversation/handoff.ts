import type { IncomingFile } from './policy/chat-update.js';
import type { Prompt } from './prompt.js';
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
  | 'failed'
  /**
   * The customer has not agreed to the privacy notice: nothing was posted. The channel shows
   * {@link HANDOFF_CONSENT} and asks again with their answer (`HandoffRequest.consent`).
   */
  | 'consent'
  /** The customer declined: nothing was posted, the refusal was recorded. */
  | 'declined';

/** Choice id of "Agree" on {@link HANDOFF_CONSENT}: the handoff opens. */
export const HANDOFF_AGREE = 'person.agree';
/** Choice id of "Decline" on {@link HANDOFF_CONSENT}: nothing is posted. */
export const HANDOFF_DECLINE = 'person.decline';

/**
 * The screen asking a customer who has not agreed to the privacy notice before their words go
 * to a person (staff read them in Slack, NRCs and phones masked). Channels show it and take its
 * two choices themselves, as they take "Talk to a person".
 */
export const HANDOFF_CONSENT: Prompt = {
  key: 'handoff.consent',
  input: 'choice',
  final: false,
  // Read whole before agreeing: never shortened on a USSD screen.
  paged: true,
  choices: [
    { id: HANDOFF_AGREE, label: 'handoff.choice.agree' },
    { id: HANDOFF_DECLINE, label: 'handoff.choice.decline' },
  ],
};

/** What became of a customer's message during a handoff. */
export type HandoffForward = 'forwarded' | 'none' | 'failed';
/** What became of a customer's photo or file during a handoff: `tooLarge` is over the limit. */
export type HandoffFileForward = HandoffForward | 'tooLarge';

/** A request to hand a conversation to a person. */
export interface HandoffRequest {
  readonly sessionKey: string;
  readonly address: ChannelAddress;
  /**
   * The conversation as the engine holds it, when the caller already read it under the session
   * lock (USSD); without it the handoff reads it itself.
   */
  readonly glance?: SessionGlance;
  /** The customer's answer to {@link HANDOFF_CONSENT}, when they were asked. */
  readonly consent?: 'agreed' | 'declined';
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
  /**
   * Passes a customer's photo or file to the person, read only then (the chat's lazy download);
   * `none` when the session is not with one. Without it a file gets "a person has it".
   */
  forwardFile?(sessionKey: string, file: IncomingFile): Promise<HandoffFileForward>;
  /** The customer ends the handoff; true when there was one to end. */
  end(sessionKey: string): Promise<boolean>;
}
