// A flow that loops forever on one question, for measuring cost against conversation length.
import { assign, setup } from 'xstate';
import type { FlowId } from '../flows/index.js';
import type { Prompt, Reply } from '../src/conversation/index.js';
import {
  AUDIENCES,
  AWAITING_INPUT,
  type FlowContextBase,
  type FlowDefinition,
  type FlowInput,
  type FlowOutput,
  type FlowRegistry,
} from '../src/conversation/index.js';

interface LoopContext extends FlowContextBase {
  total: number;
  turns: number;
}

const promptFor = (total: number): Prompt => ({
  key: 'bench.loop',
  params: { total },
  input: 'amount',
  final: false,
});

/** Asks for a number, adds it up, asks again; cancel ends it. */
export const loopMachine = setup({
  types: {
    context: {} as LoopContext,
    events: {} as Reply,
    input: {} as FlowInput,
    output: {} as FlowOutput,
  },
}).createMachine({
  id: 'main-menu',
  context: () => ({ prompt: promptFor(0), total: 0, turns: 0 }),
  initial: 'asking',
  states: {
    asking: {
      tags: [AWAITING_INPUT],
      on: {
        'user.text': {
          target: 'asking',
          reenter: true,
          actions: assign(({ context, event }) => {
            const total = context.total + (Number(event.text) || 0);
            return { total, turns: context.turns + 1, prompt: promptFor(total) };
          }),
        },
        'user.cancel': 'done',
      },
    },
    done: { type: 'final' },
  },
  output: () => ({}),
});

const ids: readonly FlowId[] = [
  'main-menu',
  'motor-quote',
  'travel-issue',
  'claim-intimation',
  'cover-status',
  'staff-desk',
];

/** A registry where every entry is the loop, so a fresh session starts on it. */
export const loopRegistry: FlowRegistry = Object.fromEntries(
  ids.map((id): [FlowId, FlowDefinition] => [
    id,
    {
      id,
      version: 1,
      machine: loopMachine,
      ...(id === 'main-menu' ? { entryFor: AUDIENCES } : {}),
    },
  ]),
) as Record<FlowId, FlowDefinition>;
