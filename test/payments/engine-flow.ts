import { assign, setup } from 'xstate';
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

const waiting: Prompt = { key: 'test.awaitingPayment', input: 'none', final: false };

/**
 * A small flow for the real turn engine: it waits for `payment.settled` and shows the policy
 * number, a retry choice or a check-again choice, like the real payment steps do.
 */
export const paymentTestMachine = setup({
  types: {
    context: {} as { prompt: Prompt },
    events: {} as Reply,
    input: {} as FlowInput,
  },
  guards: {
    paid: ({ event }) => event.type === 'payment.settled' && event.outcome === 'paid',
    failed: ({ event }) => event.type === 'payment.settled' && event.outcome === 'failed',
    pending: ({ event }) => event.type === 'payment.settled' && event.outcome === 'pending',
  },
}).createMachine({
  id: 'main-menu',
  context: { prompt: waiting },
  initial: 'awaitingPayment',
  states: {
    awaitingPayment: {
      tags: [AWAITING_INPUT],
      on: {
        'payment.settled': [
          { guard: 'paid', target: 'paid' },
          { guard: 'failed', target: 'failed' },
          { guard: 'pending', target: 'stillPending' },
        ],
      },
    },
    paid: {
      tags: [AWAITING_INPUT],
      entry: assign({
        prompt: ({ event }) => ({
          key: 'payment.paid',
          params: {
            policyNumber: event.type === 'payment.settled' ? (event.policyNumber ?? '') : '',
          },
          input: 'none' as const,
          final: false,
        }),
      }),
    },
    failed: {
      tags: [AWAITING_INPUT],
      entry: assign({
        prompt: {
          key: 'payment.failed',
          input: 'choice',
          final: false,
          choices: [{ id: 'retry', label: 'payment.retry' }],
        },
      }),
    },
    stillPending: {
      tags: [AWAITING_INPUT],
      entry: assign({
        prompt: {
          key: 'payment.still-pending',
          input: 'choice',
          final: false,
          choices: [{ id: 'check', label: 'engine.checkAgain' }],
        },
      }),
      on: {
        'payment.settled': [
          { guard: 'paid', target: 'paid' },
          { guard: 'failed', target: 'failed' },
        ],
      },
    },
  },
});

const definition: FlowDefinition = {
  id: 'main-menu',
  version: 1,
  machine: paymentTestMachine,
  entryFor: AUDIENCES,
};

const FLOW_IDS: readonly FlowId[] = [
  'main-menu',
  'motor-quote',
  'travel-issue',
  'claim-intimation',
  'cover-status',
  'staff-desk',
];

/** Every flow id served by the test flow (a fresh session always starts `main-menu`). */
export const paymentTestFlows = Object.fromEntries(
  FLOW_IDS.map((id) => [id, definition]),
) as FlowRegistry;
