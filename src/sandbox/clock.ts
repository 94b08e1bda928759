/** Where the sandbox reads the time, so grace, lapse and expiry are testable without waiting. */
export interface Clock {
  now(): Date;
}

/** A clock a test moves by hand. */
export interface ManualClock extends Clock {
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Moves the clock forward by whole days. */
  advanceDays(days: number): void;
  /** Sets the clock to an exact instant. */
  set(at: Date): void;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

const DAY_MS = 86_400_000;

/** Creates a clock that stands still until a test moves it; starts at `start`. */
export function createManualClock(start: Date = new Date('2026-01-15T08:00:00.000Z')): ManualClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    advanceDays: (days) => {
      current += days * DAY_MS;
    },
    set: (at) => {
      current = at.getTime();
    },
  };
}
