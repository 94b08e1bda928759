import { assign, fromPromise, setup } from 'xstate';
import type { FlowId } from '../../flows/index.js';
import {
  AUDIENCES,
  AWAITING_INPUT,
  type FlowDefinition,
  type FlowInput,
  type FlowRegistry,
  type Prompt,
  type Reply,
} from '../../src/conversation/index.js';

const textPrompt = (key: string, params?: Prompt['params']): Prompt =>
  params ? { key, params, input: 'text', final: false } : { key, input: 'text', final: false };

/**
 * Counts `user.text` answers and checks each carries the next number in sequence, so a lost,
 * repeated or reordered turn shows in `inOrder`. `user.cancel` ends it; `payment.settled`
 * shows the outcome.
 */
export const counterMachine = setup({
  types: {
    context: {} as { prompt: Prompt; count: number; inOrder: boolean; audience: string },
    events: {} as Reply,
    input: {} as FlowInput,
  },
}).createMachine({
  id: 'counter',
  context: ({ input }) => ({
    count: 0,
    inOrder: true,
    audience: input.audience,
    prompt: textPrompt('test.count', { count: 0, inOrder: 'yes' }),
  }),
  initial: 'counting',
  states: {
    counting: {
      tags: [AWAITING_INPUT],
      on: {
        'user.text': {
          actions: assign(({ context, event }) => {
            const count = context.count + 1;
            const inOrder = context.inOrder && Number(event.text) === count;
            return {
              count,
              inOrder,
              prompt: textPrompt('test.count', { count, inOrder: inOrder ? 'yes' : 'no' }),
            };
          }),
        },
        'user.cancel': 'finished',
        'payment.settled': {
          actions: assign({
            prompt: ({ event }) => ({
              key: 'test.paid',
              params: { outcome: event.outcome },
              input: 'none' as const,
              final: false,
            }),
          }),
        },
      },
    },
    finished: { type: 'final' },
  },
  output: ({ context }) => ({
    prompt: { key: 'test.bye', params: { count: context.count }, input: 'none', final: true },
  }),
});

/** Alternates between two states of equal size forever: a conversation that never grows. */
export const pingPongMachine = setup({
  types: { context: {} as { prompt: Prompt }, events: {} as Reply },
}).createMachine({
  id: 'ping-pong',
  context: { prompt: textPrompt('test.ping') },
  initial: 'ping',
  states: {
    ping: {
      tags: [AWAITING_INPUT],
      entry: assign({ prompt: textPrompt('test.ping') }),
      on: { 'user.text': 'pong' },
    },
    pong: {
      tags: [AWAITING_INPUT],
      entry: assign({ prompt: textPrompt('test.pong') }),
      on: { 'user.text': 'ping' },
    },
  },
});

/** A menu that hands over to `motor-quote` on any choice, or ends on cancel. */
export const menuMachine = setup({
  types: { context: {} as { prompt: Prompt; picked: boolean }, events: {} as Reply },
}).createMachine({
  id: 'main-menu',
  context: {
    picked: false,
    prompt: {
      key: 'test.menu',
      input: 'choice',
      final: false,
      choices: [{ id: 'go', label: 'test.go' }],
    },
  },
  initial: 'menu',
  states: {
    menu: {
      tags: [AWAITING_INPUT],
      on: {
        'user.choice': { target: 'done', actions: assign({ picked: true }) },
        'user.cancel': 'done',
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) =>
    context.picked
      ? { next: 'motor-quote' as const }
      : { prompt: { key: 'test.cancelled', input: 'none' as const, final: true } },
});

/**
 * A flow whose `slowWork` actor the test provides (a gate it opens when it wants): text runs it
 * and asks again, a choice runs it and ends.
 */
export const slowMachine = setup({
  types: { context: {} as { prompt: Prompt }, events: {} as Reply },
  actors: {
    slowWork: fromPromise<string>(async () => 'default'),
  },
}).createMachine({
  id: 'slow',
  context: { prompt: textPrompt('test.ask') },
  output: () => ({ prompt: { key: 'test.closed', input: 'none' as const, final: true } }),
  initial: 'asking',
  states: {
    asking: {
      tags: [AWAITING_INPUT],
      on: { 'user.text': 'working', 'user.choice': 'finishing' },
    },
    finishing: { invoke: { src: 'slowWork', onDone: 'closed' } },
    closed: { type: 'final' },
    working: {
      invoke: {
        src: 'slowWork',
        onDone: {
          target: 'asking',
          actions: assign({
            prompt: ({ event }) => textPrompt('test.result', { value: event.output }),
          }),
        },
      },
    },
  },
});

/** A flow state that is not tagged and calls nothing: it never settles. */
export const stuckMachine = setup({
  types: { context: {} as { prompt: Prompt }, events: {} as Reply },
}).createMachine({
  id: 'stuck',
  context: { prompt: textPrompt('test.ask') },
  initial: 'asking',
  states: {
    asking: { tags: [AWAITING_INPUT], on: { 'user.text': 'limbo' } },
    limbo: {},
  },
});

/** A flow whose call fails with no `onError`: the actor itself errors. */
export const failingMachine = setup({
  types: { context: {} as { prompt: Prompt }, events: {} as Reply },
  actors: {
    boom: fromPromise<string>(async () => {
      throw new Error('upstream exploded');
    }),
  },
}).createMachine({
  id: 'failing',
  context: { prompt: textPrompt('test.ask') },
  initial: 'asking',
  states: {
    asking: { tags: [AWAITING_INPUT], on: { 'user.text': 'calling' } },
    calling: { invoke: { src: 'boom', onDone: 'asking' } },
  },
});

const FLOW_IDS: readonly FlowId[] = [
  'main-menu',
  'motor-quote',
  'travel-issue',
  'claim-intimation',
  'cover-status',
  'staff-desk',
];

/** A registry where `main-menu` is `entry` and every other id is `others` (or `entry`). */
export function registry(
  entry: Omit<FlowDefinition, 'id'>,
  others: Partial<Record<FlowId, Omit<FlowDefinition, 'id'>>> = {},
): FlowRegistry {
  return Object.fromEntries(
    FLOW_IDS.map((id) => [
      id,
      { id, ...(id === 'main-menu' ? { ...entry, entryFor: AUDIENCES } : (others[id] ?? entry)) },
    ]),
  ) as Record<FlowId, FlowDefinition>;
}

/** A gate a test opens to let a slow call finish. */
export function gate<T>(): { promise: Promise<T>; open(value: T): void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
