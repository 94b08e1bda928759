import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { FlowId } from '../../src/conversation/flow.js';
import type { Prompt } from '../../src/conversation/prompt.js';
import type { Reply } from '../../src/conversation/reply.js';
import { inputFor, worldMachine } from './fixtures.js';
import { apiErrors } from './harness.js';

const choose = (id: string): Reply => ({ type: 'user.choice', id });
const type = (text: string): Reply => ({ type: 'user.text', text });

/** Per flow: the first API call a user reaches, and the replies that reach it. */
const FIRST_CALL: Record<Exclude<FlowId, 'main-menu'>, { actor: string; replies: Reply[] }> = {
  'motor-quote': { actor: 'listProducts', replies: [choose('new')] },
  'travel-issue': { actor: 'listPackages', replies: [] },
  'claim-intimation': {
    actor: 'intimateClaim',
    replies: [
      choose('credit-life'),
      type('pol_1'),
      type('L1'),
      choose('death'),
      type('10/01/2025'),
      type('Accident on the road'),
      choose('submit'),
    ],
  },
  'cover-status': { actor: 'lookupCover', replies: [type('479974111')] },
  'staff-desk': { actor: 'transactionStatus', replies: [type('txn REF1')] },
};

const ERRORS = [
  {
    name: 'a timeout',
    error: apiErrors.timeout,
    key: 'flow.failed.timeout',
    choices: ['retry', 'back', 'end'],
  },
  {
    name: 'a 500',
    error: apiErrors.serverError,
    key: 'flow.failed.unavailable',
    choices: ['retry', 'back', 'end'],
  },
  // Sending the same answers again can only be refused again: no "Try again".
  {
    name: 'a 422 with field errors',
    error: apiErrors.fieldErrors,
    key: 'flow.failed.rejected',
    choices: ['back', 'end'],
  },
] as const;

const flows = Object.entries(FIRST_CALL) as [
  Exclude<FlowId, 'main-menu'>,
  (typeof FIRST_CALL)[keyof typeof FIRST_CALL],
][];

/** Runs the flow with `actor` failing `failures` times, then behaving; returns the actor. */
function start(flow: Exclude<FlowId, 'main-menu'>, failures: number, error: unknown) {
  const { actor: name, replies } = FIRST_CALL[flow];
  const typical = worldMachine(flow);
  const failing = worldMachine(flow, { failing: [name], error });
  let calls = 0;
  // Fails the first `failures` calls, then answers as the typical insurer does.
  const flaky = failing.provide({
    actors: {
      [name]: {
        ...typical.implementations.actors[name],
        getInitialSnapshot: (scope: unknown, input: unknown) => {
          calls += 1;
          const logic = (calls <= failures ? failing : typical).implementations.actors[name] as {
            getInitialSnapshot: (s: unknown, i: unknown) => unknown;
          };
          return logic.getInitialSnapshot(scope, input);
        },
      },
    },
  } as Parameters<typeof failing.provide>[0]);
  const actor = createActor(flaky, { input: inputFor(flow) }).start();
  for (const reply of replies) actor.send(reply);
  return actor;
}

const prompt = (actor: ReturnType<typeof start>): Prompt => actor.getSnapshot().context.prompt;

describe.each(flows)('the %s flow when the insurer fails', (flow) => {
  it.each(ERRORS)(
    'explains $name in plain words and offers $choices',
    ({ error, key, choices }) => {
      const actor = start(flow, 1, error);
      const shown = prompt(actor);
      expect(shown.key).toBe(key);
      expect(shown.choices?.map((c) => c.id)).toEqual(choices);
      if (error === apiErrors.fieldErrors) {
        // "is invalid" is a fragment, not words for a user: only the question is named.
        expect(shown.notes).toEqual([{ key: 'flow.field.registrationNumber' }]);
      }
    },
  );

  it('moves on when Retry succeeds', () => {
    const actor = start(flow, 1, apiErrors.serverError);
    actor.send(choose('retry'));
    expect(prompt(actor).key).not.toMatch(/^flow\.failed\./);
    expect(actor.getSnapshot().hasTag('awaitingInput')).toBe(true);
  });

  it('goes back to a question, or ends politely, when the insurer stays down', () => {
    const back = start(flow, 99, apiErrors.timeout);
    back.send(choose('back'));
    const snapshot = back.getSnapshot();
    const shown = snapshot.status === 'done' ? snapshot.output.prompt : snapshot.context.prompt;
    expect(shown.key).not.toMatch(/^flow\.failed\./);

    const end = start(flow, 99, apiErrors.timeout);
    end.send(choose('end'));
    expect(end.getSnapshot().status).toBe('done');
    expect(end.getSnapshot().output.prompt.final).toBe(true);
  });
});
