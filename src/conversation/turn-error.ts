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
export class TurnError extends Error {
  override readonly name = 'TurnError';
  readonly code: TurnErrorCode;

  constructor(code: TurnErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
