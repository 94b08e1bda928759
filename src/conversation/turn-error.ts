import { CodedError } from '../errors/index.js';

/** Why a turn failed inside the engine; logged, never shown to the user. */
export type TurnErrorCode =
  | 'TURN_FLOW_FAILED'
  | 'TURN_BAD_PROMPT'
  | 'TURN_WRITE_REFUSED'
  | 'TURN_HANDOVER_LOOP'
  | 'TURN_ABANDONED'
  | 'TURN_BAD_REPLY'
  | 'TURN_BAD_MIDDLEWARE';

/** Raised inside a turn when a flow breaks the engine's contract or a write is refused. */
export class TurnError extends CodedError<TurnErrorCode> {
  override readonly name = 'TurnError';
}
