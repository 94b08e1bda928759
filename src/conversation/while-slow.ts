// Showing progress ("typing") while a turn is slow: paced by how long turns take, as the turn
// deadline is, so it sits with the engine; a channel says only how to show it (a chat action).

/**
 * How long a turn may run before the chat shows "typing": under the second after which a user
 * notices a wait, and above what a turn without an insurer call takes (tens of milliseconds),
 * so a fast answer never costs a chat action or a flicker.
 */
export const TYPING_AFTER_MS = 800;
/** How often "typing" is sent again: Telegram shows it for 5 s, less the call's round trip. */
export const TYPING_EVERY_MS = 4_500;

/** The timers the typing indicator is paced by; tests pass ones they fire by hand. */
export interface TypingTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** When the chat shows "typing" during a slow turn. */
export interface TypingOptions {
  /** How long a turn runs before "typing" is sent; default {@link TYPING_AFTER_MS}. */
  readonly afterMs?: number;
  /** How often it is sent again while the turn still runs; default {@link TYPING_EVERY_MS}. */
  readonly everyMs?: number;
  /** Default Node's timers, unreferenced so they never keep the process up. */
  readonly timers?: TypingTimers;
}

const nodeTimers: TypingTimers = {
  set: (run, ms) => setTimeout(run, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Runs turns with a typing indicator shown only while one is slow: `show` is called once a turn
 * has run `afterMs`, then every `everyMs` until it ends. A failed `show` goes to `onError` and
 * never to the turn. The turn's result is handed on once a `show` in flight has ended, so the
 * indicator never reaches the chat after the answer.
 */
export function createTyping(options: TypingOptions, onError: (error: unknown) => void) {
  const timers = options.timers ?? nodeTimers;
  const afterMs = options.afterMs ?? TYPING_AFTER_MS;
  const everyMs = options.everyMs ?? TYPING_EVERY_MS;
  return async function whileSlow<T>(
    show: () => Promise<unknown>,
    turn: () => Promise<T>,
  ): Promise<T> {
    let running = true;
    let inFlight: Promise<unknown> = Promise.resolve();
    let handle: unknown;
    const tick = () => {
      if (!running) return;
      inFlight = Promise.resolve().then(show).catch(onError);
      handle = timers.set(tick, everyMs);
    };
    handle = timers.set(tick, afterMs);
    try {
      return await turn();
    } finally {
      running = false;
      timers.clear(handle);
      await inFlight;
    }
  };
}
