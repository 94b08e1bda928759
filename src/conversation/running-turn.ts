import type { SessionLease } from '../session/index.js';
import type { Prompt } from './prompt.js';
import type { TurnOptions } from './turn-engine.js';

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
  /**
   * The channel state a system event (a payment outcome) writes: the record's, as the user's
   * last request left it, whatever the middleware set.
   */
  kept: string | undefined;
  /**
   * Hands the Prompt this turn will write to the middleware (their `next()` answers it) and
   * resolves, once the chain returned, with the channel state to write with it. The write and
   * the answer (`answer`) follow.
   */
  present(prompt: Prompt): Promise<string | undefined>;
  /** Answers the request; middleware points it at its own `next()` while the flow runs. */
  answer: (prompt: Prompt) => void;
  /**
   * Answers the channel at once, ahead of the turn's result (the deadline's "still working"):
   * the middleware still sees the result through `next()` when the flow settles.
   */
  answerAhead: (prompt: Prompt) => void;
}
