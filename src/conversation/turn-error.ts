import { CodedError } from '../errors/index.js';

/** Why a turn failed inside the engine; logged, never shown to the user. */
export type TurnErrorCode =
  | 'flow_failed'
  | 'bad_prompt'
  | 'write_refused'
  | 'handover_loop'
  | 'turn_abandoned'
  | 'bad_reply'
  | 'bad_middleware';

/** Raised inside a turn when a flow breaks the engine's contract or a write is refused. */
export class TurnError extends CodedError<TurnErrorCode> {
  override readonly name = 'TurnError';
}
