/** Bad answers a flow accepts for one question; the third ends the conversation politely. */
export const MAX_TRIES = 3;

/** The slice of a flow's context that counts bad answers to the current question. */
export interface RetryContext {
  /** Bad answers so far to the current question; absent or 0 after a good answer. */
  tries?: number;
}

/**
 * Guard for a bad answer's transitions: true when this bad answer is the last one allowed
 * (the {@link MAX_TRIES}th), so the flow should end with `validation.tooManyTries` instead of
 * re-prompting. Use it before counting the try:
 *
 * ```ts
 * 'user.text': [
 *   { guard: 'isValid', target: 'next', actions: assign({ tries: 0 }) },
 *   { guard: ({ context }) => tooManyTries(context), target: 'tooManyTries' },
 *   { actions: assign({ tries: ({ context }) => nextTry(context) }) },
 * ]
 * ```
 */
export function tooManyTries(context: RetryContext, max: number = MAX_TRIES): boolean {
  return (context.tries ?? 0) + 1 >= max;
}

/** The try count after one more bad answer (for `assign`). */
export function nextTry(context: RetryContext): number {
  return (context.tries ?? 0) + 1;
}
