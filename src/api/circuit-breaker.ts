import { z } from 'zod';

/**
 * Where a circuit stands: `closed` lets calls through, `open` fails them at once, `half-open`
 * lets a trial call through whose outcome closes or re-opens the circuit.
 */
export type CircuitState = 'closed' | 'open' | 'half-open';

/**
 * Tuning of the Partner API client's circuit breaker; each name is both the zod schema and its
 * input type. Defaults: `failureThreshold` 5 consecutive upstream failures, `openMs` 30 000,
 * `halfOpenMaxCalls` 1.
 */
export const CircuitBreakerOptions = z.object({
  /** Consecutive upstream failures (network, timeout, 5xx) that open the circuit. */
  failureThreshold: z.int().min(1).default(5),
  /** How long the circuit stays open before a trial call may test the insurer again. */
  openMs: z.number().finite().min(0).default(30_000),
  /** Trial calls let through while half-open; all must succeed to close the circuit. */
  halfOpenMaxCalls: z.int().min(1).default(1),
});
/** Tuning of the Partner API client's circuit breaker; every field is optional. */
export type CircuitBreakerOptions = z.input<typeof CircuitBreakerOptions>;

/** A change of state, reported to the owner so it can log it. */
export interface CircuitTransition {
  readonly from: CircuitState;
  readonly to: CircuitState;
  /** Consecutive failures counted when the change happened. */
  readonly consecutiveFailures: number;
  /** The failure that opened (or re-opened) the circuit, when one did. */
  readonly cause: unknown;
}

/** The right to make one attempt; settle it exactly once (later settlements are ignored). */
export interface CircuitPermit {
  /** The insurer answered (even with a 4xx): it is up. */
  success(): void;
  /** The insurer failed (network, timeout, 5xx). */
  failure(cause: unknown): void;
  /** The attempt says nothing about the insurer (e.g. the caller aborted it). */
  release(): void;
}

/** The breaker's answer to "may I call now?". */
type CircuitAdmission =
  | { readonly admitted: true; readonly permit: CircuitPermit }
  | {
      readonly admitted: false;
      /** Time until a trial may run; 0 while a trial is under way and will decide soon. */
      readonly retryAfterMs: number;
      /** The failure that opened the circuit. */
      readonly lastFailure: unknown;
    };

/** A consecutive-failure circuit breaker driven by an injectable clock. */
interface CircuitBreaker {
  /** The current state; moves an expired `open` circuit to `half-open`. */
  state(): CircuitState;
  /** Asks to make one attempt. */
  admit(): CircuitAdmission;
}

/**
 * Creates a circuit breaker. `now` is the clock (milliseconds), injectable so tests need no
 * waiting; `onTransition` hears every change of state.
 */
export function createCircuitBreaker(
  settings: z.output<typeof CircuitBreakerOptions>,
  deps: { readonly now: () => number; readonly onTransition: (change: CircuitTransition) => void },
): CircuitBreaker {
  let current: CircuitState = 'closed';
  // Bumped on every change so an attempt admitted under an earlier state cannot move this one:
  // a slow failure from before the circuit opened must not re-open a half-open trial's circuit.
  let generation = 0;
  let consecutiveFailures = 0;
  let openedAt = 0;
  let lastFailure: unknown;
  let trialsStarted = 0;
  let trialsSucceeded = 0;

  function moveTo(to: CircuitState, cause?: unknown): void {
    const from = current;
    current = to;
    generation++;
    if (to === 'open') {
      openedAt = deps.now();
      lastFailure = cause;
    } else if (to === 'half-open') {
      trialsStarted = 0;
      trialsSucceeded = 0;
    } else {
      consecutiveFailures = 0;
      lastFailure = undefined;
    }
    deps.onTransition({ from, to, consecutiveFailures, cause });
  }

  function state(): CircuitState {
    if (current === 'open' && deps.now() - openedAt >= settings.openMs) moveTo('half-open');
    return current;
  }

  // One small object per attempt, no closures: admit() runs on every call, so it stays cheap.
  class Permit implements CircuitPermit {
    #settled = false;
    constructor(
      private readonly admittedIn: number,
      private readonly trial: boolean,
    ) {}

    /** Settles once; an attempt admitted under an earlier state no longer counts. */
    #claim(): boolean {
      if (this.#settled) return false;
      this.#settled = true;
      return this.admittedIn === generation;
    }

    success(): void {
      if (!this.#claim()) return;
      if (!this.trial) {
        consecutiveFailures = 0;
        return;
      }
      trialsSucceeded++;
      if (trialsSucceeded >= settings.halfOpenMaxCalls) moveTo('closed');
    }

    failure(cause: unknown): void {
      if (!this.#claim()) return;
      consecutiveFailures++;
      if (this.trial || consecutiveFailures >= settings.failureThreshold) moveTo('open', cause);
    }

    release(): void {
      // Give the trial slot back so another call can test the insurer.
      if (this.#claim() && this.trial) trialsStarted--;
    }
  }

  function admit(): CircuitAdmission {
    const now = state();
    if (now === 'closed') return { admitted: true, permit: new Permit(generation, false) };
    if (now === 'half-open' && trialsStarted < settings.halfOpenMaxCalls) {
      trialsStarted++;
      return { admitted: true, permit: new Permit(generation, true) };
    }
    const retryAfterMs = now === 'open' ? Math.max(0, openedAt + settings.openMs - deps.now()) : 0;
    return { admitted: false, retryAfterMs, lastFailure };
  }

  return { state, admit };
}
