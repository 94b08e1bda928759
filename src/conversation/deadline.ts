import { type AnyStateMachine, createActor, type Snapshot } from 'xstate';
import type { FlowActor } from './actor-cache.js';
import { AWAITING_INPUT } from './flow.js';

/** The one listener an actor keeps for its whole life; a waiting turn plugs into it. */
interface Watch {
  /** The waiting turn's resolve, while one waits. */
  resolve: ((settled: boolean) => void) | undefined;
  timer: NodeJS.Timeout | undefined;
}

const watches = new WeakMap<FlowActor, Watch>();

/**
 * Creates and starts a flow actor with the single subscription a turn's wait needs (and which
 * keeps a flow's error from being thrown as unhandled): no subscription per turn.
 */
export function startWatched(
  machine: AnyStateMachine,
  options: { readonly input: unknown; readonly snapshot?: Snapshot<unknown> },
): FlowActor {
  const actor: FlowActor = createActor(machine, options);
  const watch: Watch = { resolve: undefined, timer: undefined };
  const wake = () => {
    if (watch.resolve !== undefined && isSettled(actor)) finish(watch, true);
  };
  actor.subscribe({ next: wake, error: wake, complete: wake });
  watches.set(actor, watch);
  actor.start();
  return actor;
}

/** True once the actor waits for input, finished or failed: nothing it runs is still going. */
export function isSettled(actor: FlowActor): boolean {
  const snapshot = actor.getSnapshot();
  return snapshot.status !== 'active' || snapshot.hasTag(AWAITING_INPUT);
}

/**
 * Waits until the actor settles (true) or `ms` pass (false). Answers at once, without a promise
 * or a timer, when it has settled already (a turn that called nothing); otherwise one timer.
 */
export function settleWithin(actor: FlowActor, ms: number): boolean | Promise<boolean> {
  if (isSettled(actor)) return true;
  if (ms <= 0) return false;
  const watch = watches.get(actor);
  if (!watch) throw new Error('settleWithin needs an actor made by startWatched');
  // No closure per wait: the actor's one listener and the timer find the waiting turn in its
  // watch (tsx's keepNames would wrap every named closure made here in a defineProperty).
  return new Promise((resolve) => {
    watch.resolve = resolve;
    watch.timer = setTimeout(timedOut, ms, actor, watch);
  });
}

/** Ends the wait in `watch`, if any, with `settled`. */
function finish(watch: Watch, settled: boolean): void {
  const resolve = watch.resolve;
  clearTimeout(watch.timer);
  watch.resolve = undefined;
  watch.timer = undefined;
  resolve?.(settled);
}

function timedOut(actor: FlowActor, watch: Watch): void {
  finish(watch, isSettled(actor));
}
