import { assign, fromPromise, setup } from 'xstate';
import type {
  FlowContextBase,
  FlowDefinition,
  FlowInput,
  FlowOutput,
  TurnRoute,
} from '../src/conversation/flow.js';
import type { Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import {
  type ErasureReason,
  NO_PERSONAL_DATA,
  type PersonalDataHeld,
} from '../src/privacy/index.js';
import {
  ask,
  CANCELLED,
  choice,
  chose,
  end,
  flowOutput,
  PICK_FROM_LIST,
  replyGuards,
  TO_MAIN_MENU,
} from './support.js';

/** Context of "My data": what the bot holds about the caller, and the erasure asked for. */
interface MyDataContext extends FlowContextBase {
  route: TurnRoute | null;
  held: PersonalDataHeld;
  reason: ErasureReason;
}

/**
 * "My data": what the bot holds, listed (the number and NRCs masked, the policy numbers, when
 * the notice was agreed) and counted; the insurer's records are theirs to keep. Read whole: on
 * USSD it pages with `98`, the choices after it.
 */
function overview(held: PersonalDataHeld, note: boolean): Prompt {
  const nrcs = held.nrcs ?? [];
  const prompt = ask('mydata.overview', 'choice', {
    params: {
      address: held.address ?? '-',
      nrcCount: nrcs.length,
      nrcs: nrcs.join(', '),
      policies: held.policies,
      numbered: (held.policyNumbers ?? []).length,
      policyNumbers: (held.policyNumbers ?? []).join(', '),
      card: held.reminderCard ? 1 : 0,
      consented: held.consentedOn ? 'yes' : 'no',
      agreedDate: held.consentedOn ?? '',
      handoffs: held.handoffs,
      files: held.files,
    },
    choices: [choice('delete', 'mydata.choice.delete'), choice('stop', 'mydata.choice.stop')],
    note: note ? PICK_FROM_LIST : null,
  });
  return { ...prompt, paged: true };
}

function confirmation(reason: ErasureReason, note: boolean): Prompt {
  return ask(reason === 'delete' ? 'mydata.confirmDelete' : 'mydata.confirmStop', 'choice', {
    choices: [
      choice('yes', reason === 'delete' ? 'mydata.choice.yesDelete' : 'mydata.choice.yesStop'),
    ],
    note: note ? PICK_FROM_LIST : null,
  });
}

/**
 * "My data" (Data Protection Act ss.58–65): what the bot holds about this phone or chat, "Delete
 * my data" and "Stop using my data" (consent withdrawn), each confirmed. The erasure's receipt goes
 * by SMS to a phone; this conversation's session ends with the flow.
 */
export const myDataMachine = setup({
  types: {
    context: {} as MyDataContext,
    events: {} as Reply,
    input: {} as FlowInput,
    output: {} as FlowOutput,
  },
  actors: {
    // Provided by createFlowRegistry (my-data-actors.ts); these stand in for tests without deps.
    held: fromPromise<PersonalDataHeld, { route: TurnRoute | null }>(async () => NO_PERSONAL_DATA),
    erase: fromPromise<
      { paymentsKept: number },
      { route: TurnRoute | null; reason: ErasureReason }
    >(async () => ({ paymentsKept: 0 })),
  },
  guards: replyGuards,
}).createMachine({
  id: 'my-data',
  context: ({ input }) => ({
    route: input.route ?? null,
    held: NO_PERSONAL_DATA,
    reason: 'delete',
    prompt: overview(NO_PERSONAL_DATA, false),
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'held',
        input: ({ context }) => ({ route: context.route }),
        onDone: {
          target: 'overview',
          actions: assign(({ event }) => ({
            held: event.output,
            prompt: overview(event.output, false),
          })),
        },
        onError: { target: 'failed' },
      },
    },
    overview: {
      tags: 'awaitingInput',
      on: {
        'user.choice': [
          {
            guard: chose('delete'),
            target: 'confirming',
            actions: assign({ reason: 'delete', prompt: confirmation('delete', false) }),
          },
          {
            guard: chose('stop'),
            target: 'confirming',
            actions: assign({ reason: 'withdraw', prompt: confirmation('withdraw', false) }),
          },
          { actions: assign({ prompt: ({ context }) => overview(context.held, true) }) },
        ],
        'user.text': { actions: assign({ prompt: ({ context }) => overview(context.held, true) }) },
        'user.back': 'mainMenu',
        'user.cancel': 'cancelled',
      },
    },
    confirming: {
      tags: 'awaitingInput',
      on: {
        'user.choice': [
          { guard: chose('yes'), target: 'erasing' },
          {
            actions: assign({ prompt: ({ context }) => confirmation(context.reason, true) }),
          },
        ],
        'user.text': {
          actions: assign({ prompt: ({ context }) => confirmation(context.reason, true) }),
        },
        'user.back': {
          target: 'overview',
          actions: assign({ prompt: ({ context }) => overview(context.held, false) }),
        },
        'user.cancel': 'cancelled',
      },
    },
    erasing: {
      invoke: {
        src: 'erase',
        input: ({ context }) => ({ route: context.route, reason: context.reason }),
        onDone: {
          target: 'erased',
          actions: assign(({ context, event }) => ({
            prompt: end(context.reason === 'delete' ? 'mydata.deleted' : 'mydata.stopped', {
              paymentsKept: event.output.paymentsKept,
            }),
          })),
        },
        onError: 'failed',
      },
    },
    erased: { type: 'final' },
    failed: { type: 'final', entry: assign({ prompt: end('mydata.failed') }) },
    mainMenu: { type: 'final', entry: assign({ prompt: TO_MAIN_MENU }) },
    cancelled: { type: 'final', entry: assign({ prompt: CANCELLED }) },
  },
  // Erased: the session goes with the closing screen (nothing is kept for a gateway's retry).
  output: (args): FlowOutput =>
    args.context.prompt.key === 'mydata.deleted' || args.context.prompt.key === 'mydata.stopped'
      ? { prompt: args.context.prompt, forget: true }
      : flowOutput(args),
});

/**
 * "My data" as the engine registers it. Version 2: its guards became named and parameterised; a
 * snapshot of version 1 restarts at the main menu with the engine's notice.
 */
export const myDataFlow: FlowDefinition<typeof myDataMachine> = {
  id: 'my-data',
  version: 2,
  machine: myDataMachine,
};
