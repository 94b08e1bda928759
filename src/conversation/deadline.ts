import { type AnyStateMachine, createActor, type Snapshot } from 'xstate';
import type { FlowActor } from './actor-cache.js';
import { AWAITING_INPUT } from './flow.js';

/** The one listener an actor keeps for its whole life; a waiting turn plugs into it. */
interface Watch {
  wake: (() => void) | undefined;
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
  const watch: Watch = { wake: undefined };
  const wake = () => watch.wake?.();
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
  return new Promise((resolve) => {
    const finish = (settled: boolean) => {
      clearTimeout(timer);
      watch.wake = undefined;
      resolve(settled);
    };
    const timer = setTimeout(() => finish(isSettled(actor)), ms);
    watch.wake = () => {
      if (isSettled(actor)) finish(true);
    };
  });
}
