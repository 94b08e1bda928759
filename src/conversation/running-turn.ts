import type { SessionLease } from '../session/index.js';
import type { Prompt } from './prompt.js';
import type { ChannelStateOf, TurnOptions } from './turn-engine.js';

/** One running turn: its lease, deadline and the way to answer the channel once. */
export interface RunningTurn {
  readonly sessionKey: string;
  /** A non-reversible id of the session for logs (session keys hold phone numbers). */
  readonly sessionId: string;
  readonly lease: SessionLease;
  readonly deadlineAt: number;
  readonly options: TurnOptions;
  /** True once the channel got "still working"; the result is then stored as unseen. */
  late: boolean;
  /**
   * A system event (a payment outcome) drives this turn: its user is told out of turn, so the
   * result is stored as unseen too, and their next reply (meant for the screen they still see)
   * shows it instead of being applied to it.
   */
  readonly system: boolean;
  /** The channel's state to store with the answered Prompt, when the channel keeps one. */
  stateOf: ChannelStateOf | undefined;
  /** Answers the request; middleware points it at its own `next()` while the flow runs. */
  answer: (prompt: Prompt) => void;
}
