import { describe, expect, it } from 'vitest';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { motorQuoteMachine } from '../../flows/motor-quote.js';
import { travelIssueMachine } from '../../flows/travel-issue.js';

/*
 * The shape of a paying flow's machine, read from its state nodes' own config: guards named in
 * setup (never a closure written in a transition), targets relative within a stage (a `#flow.…`
 * id only to leave it), and no state that is a goto table of guarded transitions.
 */

/** One transition as written in a state's config. */
interface WrittenTransition {
  guard?: unknown;
  target?: unknown;
}

/** The transitions a state's config writes: `on`, `always`, `after` and its invokes' events. */
function writtenTransitions(node: AnyStateNode): WrittenTransition[] {
  const config = node.config;
  const groups: unknown[] = [...Object.values(config.on ?? {}), config.always];
  groups.push(...Object.values(config.after ?? {}));
  const invokes = config.invoke === undefined ? [] : [config.invoke].flat();
  for (const invoke of invokes as Record<string, unknown>[]) {
    groups.push(invoke.onDone, invoke.onError, invoke.onSnapshot);
  }
  return groups
    .filter((group) => group !== undefined)
    .flatMap((group) => [group].flat())
    .map((one) => (typeof one === 'string' ? { target: one } : (one as WrittenTransition)));
}

/**
 * The closures among a guard's parts: a named guard (a string, or `{ type, params }`) has none;
 * `and`/`or`/`not` are functions XState marks with the `guards` they combine, read part by part.
 */
function inlineGuards(guard: unknown): number {
  if (guard === undefined || typeof guard === 'string') return 0;
  if (typeof guard === 'function') {
    const parts = (guard as { guards?: unknown[] }).guards;
    return parts ? parts.reduce<number>((sum, part) => sum + inlineGuards(part), 0) : 1;
  }
  return typeof (guard as { type?: unknown }).type === 'string' ? 0 : 1;
}

/** Every state node of a machine, the root included. */
function statesOf(machine: AnyStateMachine): AnyStateNode[] {
  const all: AnyStateNode[] = [];
  const visit = (node: AnyStateNode) => {
    all.push(node);
    for (const child of Object.values(node.states)) visit(child);
  };
  visit(machine.root);
  return all;
}

/** What the acceptance of issue 39 counts of a flow machine. */
function machineShape(machine: AnyStateMachine) {
  const absolute = `#${machine.id}.`;
  let absoluteTargets = 0;
  let inline = 0;
  let maxGuarded = { state: '', count: 0 };
  for (const node of statesOf(machine)) {
    const transitions = writtenTransitions(node);
    for (const transition of transitions) {
      const targets = [transition.target ?? []].flat();
      absoluteTargets += targets.filter(
        (target) => typeof target === 'string' && target.startsWith(absolute),
      ).length;
      inline += inlineGuards(transition.guard);
    }
    const guarded = transitions.filter((transition) => transition.guard !== undefined).length;
    if (guarded > maxGuarded.count) maxGuarded = { state: node.id, count: guarded };
  }
  return { absoluteTargets, inline, maxGuarded };
}

describe.each([
  ['motor-quote', motorQuoteMachine],
  ['travel-issue', travelIssueMachine],
] as const)('the %s machine', (name, machine) => {
  const shape = machineShape(machine);

  it('names every guard in its setup, never a closure in a transition', () => {
    console.log(`${name}: ${JSON.stringify(shape)}`);
    expect(shape.inline).toBe(0);
  });

  it('leaves a stage by its absolute id at most 30 times; within one, targets are relative', () => {
    expect(shape.absoluteTargets).toBeLessThanOrEqual(30);
  });

  it('has no state with more than 20 guarded transitions', () => {
    expect(shape.maxGuarded.count, shape.maxGuarded.state).toBeLessThanOrEqual(20);
  });
});
