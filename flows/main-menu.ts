import { assertEvent, assign, setup } from 'xstate';
import type {
  Audience,
  FlowContextBase,
  FlowDefinition,
  FlowId,
  FlowInput,
  FlowOutput,
} from '../src/conversation/flow.js';
import { TALK_TO_A_PERSON } from '../src/conversation/handoff.js';
import type { Choice, Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { ask, CANCELLED, choice, PICK_FROM_LIST } from './support.js';

/** Menu entries per audience: choice id → the flow it hands over to. */
const ENTRIES: Record<Audience, ReadonlyArray<readonly [string, FlowId]>> = {
  policyholder: [
    ['motor', 'motor-quote'],
    ['travel', 'travel-issue'],
    ['policies', 'cover-status'],
    ['claim', 'claim-intimation'],
  ],
  'funeral-member': [['household', 'cover-status']],
  staff: [['desk', 'staff-desk']],
};

/** Context of the main menu: the audience and the flow picked. */
export interface MainMenuContext extends FlowContextBase {
  audience: Audience;
  tries: number;
  answers: { next?: FlowId };
}

function menuPrompt(audience: Audience, note: boolean): Prompt {
  const choices: Choice[] = ENTRIES[audience].map(([id]) => choice(id, `menu.choice.${id}`));
  // Customers may always ask for a person; the channel takes that choice, not this flow.
  if (audience === 'policyholder') choices.push(choice(TALK_TO_A_PERSON, 'menu.choice.person'));
  return ask(`menu.${audience}`, 'choice', { choices, note: note ? PICK_FROM_LIST : null });
}

function picked(audience: Audience, event: Reply): FlowId | undefined {
  if (event.type !== 'user.choice') return undefined;
  return ENTRIES[audience].find(([id]) => id === event.id)?.[1];
}

/** The entry menu: lists what the audience can do and hands over to the flow picked. */
export const mainMenuMachine = setup({
  types: {
    context: {} as MainMenuContext,
    events: {} as Reply,
    input: {} as FlowInput,
    output: {} as FlowOutput,
  },
  guards: {
    isEntry: ({ context, event }) => picked(context.audience, event) !== undefined,
  },
}).createMachine({
  id: 'main-menu',
  context: ({ input }) => ({
    audience: input.audience,
    tries: 0,
    answers: {},
    prompt: menuPrompt(input.audience, false),
  }),
  initial: 'menu',
  states: {
    menu: {
      tags: 'awaitingInput',
      on: {
        'user.choice': [
          {
            guard: 'isEntry',
            target: 'handOver',
            actions: assign({
              answers: ({ context, event }) => {
                assertEvent(event, 'user.choice');
                const next = picked(context.audience, event);
                return next ? { next } : context.answers;
              },
            }),
          },
          {
            actions: assign({ prompt: ({ context }) => menuPrompt(context.audience, true) }),
          },
        ],
        'user.text': [
          {
            actions: assign({ prompt: ({ context }) => menuPrompt(context.audience, true) }),
          },
        ],
        // The menu is the first screen: Back shows it again.
        'user.back': {
          actions: assign({ prompt: ({ context }) => menuPrompt(context.audience, false) }),
        },
        'user.cancel': 'cancelled',
      },
    },
    handOver: { type: 'final' },
    cancelled: { type: 'final', entry: assign({ prompt: CANCELLED }) },
  },
  output: ({ context }): FlowOutput =>
    context.answers.next ? { next: context.answers.next } : { prompt: context.prompt },
});

/** The entry menu as the engine registers it. */
export const mainMenuFlow: FlowDefinition<typeof mainMenuMachine> = {
  id: 'main-menu',
  version: 1,
  machine: mainMenuMachine,
};
