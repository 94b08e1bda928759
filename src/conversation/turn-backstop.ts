/** The outcome of a turn still running at the backstop. */
export const LATE: unique symbol = Symbol('late');

/** What a watched turn came to: its answer, too late for the caller, or a failure. */
export type BackstopOutcome<T> = T | typeof LATE | { readonly failed: unknown };

/** A turn the backstop watches: the channel's own request object (no closure kept per turn). */
interface Watched<T> {
  readonly startedAt: number;
  /** Hands the outcome (the turn's, or the backstop's) to the waiting request; set here. */
  resolve: ((outcome: BackstopOutcome<T>) => void) | undefined;
}

/**
 * The answer backstop of a channel whose caller cannot wait past a platform's limit (a USSD
 * gateway's 15 s), under the engine's own deadline, without a timer per turn: turns register
 * here, and one sweep, running only while turns are in flight, answers those past
 * `answerWithinMs` with {@link LATE}. It also knows when every turn's work has finished, answered
 * late or not (graceful shutdown).
 */
export class TurnBackstop<T> {
  private readonly inFlight = new Set<Watched<T>>();
  private readonly sweepEveryMs: number;
  private sweeper: NodeJS.Timeout | undefined = undefined;
  /** Turns whose work has not finished (answered late or not); `idle` waits for them. */
  private unfinished = 0;
  private whenIdle: Array<() => void> = [];

  constructor(private readonly answerWithinMs: number) {
    this.sweepEveryMs = Math.min(1_000, Math.max(10, Math.floor(answerWithinMs / 10)));
  }

  /** `work`'s outcome for `turn`, or {@link LATE} once it has run `answerWithinMs`. */
  watch(turn: Watched<T>, work: Promise<T>): Promise<BackstopOutcome<T>> {
    this.unfinished += 1;
    return new Promise<BackstopOutcome<T>>((resolve) => {
      turn.resolve = resolve;
      this.inFlight.add(turn);
      this.sweeper ??= setInterval(this.sweep, this.sweepEveryMs).unref();
      work.then(
        (value) => this.settle(turn, value),
        (error: unknown) => this.settle(turn, { failed: error }),
      );
    });
  }

  /** Resolves when every turn watched has finished its work. */
  idle(): Promise<void> {
    if (this.unfinished === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.whenIdle.push(resolve));
  }

  private settle(turn: Watched<T>, outcome: BackstopOutcome<T>): void {
    this.inFlight.delete(turn);
    this.unfinished -= 1;
    if (this.unfinished <= 0) {
      const waiting = this.whenIdle;
      this.whenIdle = [];
      for (const resolve of waiting) resolve();
    }
    turn.resolve?.(outcome);
  }

  private readonly sweep = (): void => {
    const overdue = Date.now() - this.answerWithinMs;
    for (const turn of this.inFlight) {
      if (turn.startedAt <= overdue) {
        this.inFlight.delete(turn);
        turn.resolve?.(LATE);
      }
    }
    if (this.inFlight.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  };
}
