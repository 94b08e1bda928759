import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { FlowId } from '../../flows/index.js';
import { ApiError } from '../../src/api/index.js';
import type { Prompt } from '../../src/conversation/prompt.js';
import type { Reply } from '../../src/conversation/reply.js';
import { inputFor, worldMachine } from './fixtures.js';
import { apiErrors } from './harness.js';

const choose = (id: string): Reply => ({ type: 'user.choice', id });
const type = (text: string): Reply => ({ type: 'user.text', text });

/**
 * Per flow: the first API call a user reaches, and the replies that reach it. My data calls no
 * insurer (its own failure screen is walked by the model tests).
 */
const FIRST_CALL: Record<
  Exclude<FlowId, 'main-menu' | 'my-data'>,
  { actor: string; replies: Reply[] }
> = {
  'motor-quote': { actor: 'listProducts', replies: [choose('new')] },
  'travel-issue': { actor: 'listPackages', replies: [] },
  'claim-intimation': {
    actor: 'intimateClaim',
    replies: [
      choose('credit-life'),
      type('pol_1'),
      type('L1'),
      choose('t0'),
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
  Exclude<FlowId, 'main-menu' | 'my-data'>,
  (typeof FIRST_CALL)[keyof typeof FIRST_CALL],
][];

/**
 * Runs the flow with `actor` failing `failures` times, then behaving; returns the actor. `call`
 * names a later call and the replies that reach it (default the flow's first call).
 */
function start(
  flow: Exclude<FlowId, 'main-menu' | 'my-data'>,
  failures: number,
  error: unknown,
  call: { actor: string; replies: Reply[] } = FIRST_CALL[flow],
) {
  const { actor: name, replies } = call;
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

/** The insurer's 422 naming one field by its path, with its words for the user. */
const refusal = (path: string, said: string) =>
  new ApiError({
    status: 422,
    operation: 'test',
    rawBody: JSON.stringify({
      status: 422,
      message: 'Validation failed',
      errors: { [path]: [said] },
    }),
  });

const TRAVEL_ANSWERS = [
  type('South Africa'),
  type('15/01/2099'),
  type('7'),
  type('Mwila Banda'),
  type('479974/11/1'),
  choose('continue'),
];

/**
 * Per flow: a call the insurer refuses on a field it names, the replies that reach it, the
 * question that asked for that field, and an answer given elsewhere that must still be held.
 */
const REFUSALS = [
  {
    flow: 'travel-issue',
    actor: 'quoteTravel',
    replies: TRAVEL_ANSWERS,
    path: 'destination',
    question: 'travel.askDestination',
    kept: { name: 'Mwila Banda', nrc: '479974/11/1', days: '7' },
  },
  {
    flow: 'travel-issue',
    actor: 'quoteTravel',
    replies: TRAVEL_ANSWERS,
    path: 'policyHolder.idNumber',
    question: 'travel.askNrc',
    kept: { destination: 'South Africa', name: 'Mwila Banda' },
  },
  {
    flow: 'claim-intimation',
    actor: 'intimateClaim',
    replies: FIRST_CALL['claim-intimation'].replies,
    path: 'lossDate',
    question: 'claim.askDate.credit-life',
    kept: { policyId: 'pol_1', subject: 'L1', details: 'Accident on the road' },
  },
  {
    flow: 'claim-intimation',
    actor: 'intimateClaim',
    replies: FIRST_CALL['claim-intimation'].replies,
    path: 'description',
    question: 'claim.askDetails',
    kept: { policyId: 'pol_1', subject: 'L1', eventDate: '2025-01-10' },
  },
  {
    flow: 'claim-intimation',
    actor: 'intimateClaim',
    replies: FIRST_CALL['claim-intimation'].replies,
    path: 'partnerLoanReference',
    question: 'claim.ask.partnerLoanReference',
    kept: { policyId: 'pol_1', eventDate: '2025-01-10', details: 'Accident on the road' },
  },
  {
    flow: 'cover-status',
    actor: 'lookupCover',
    replies: FIRST_CALL['cover-status'].replies,
    path: 'NrcNumber',
    question: 'cover.askNrc',
    kept: {},
  },
  {
    flow: 'staff-desk',
    actor: 'transactionStatus',
    replies: FIRST_CALL['staff-desk'].replies,
    path: 'reference',
    question: 'staff.ask.txn',
    kept: { topic: 'txn' },
  },
] as const;

describe('an answer the insurer refuses', () => {
  /** The flow on the failure screen after the insurer refused the row's field. */
  const refusedAt = (row: (typeof REFUSALS)[number]) =>
    start(row.flow, 1, refusal(row.path, 'That value is not accepted.'), {
      actor: row.actor,
      replies: [...row.replies],
    });

  it.each(REFUSALS)(
    '$flow: "Change my answer" after a refused $path asks $question again, other answers kept',
    (row) => {
      const actor = refusedAt(row);
      const refused = prompt(actor);
      expect(refused.key).toBe('flow.failed.rejected');
      expect(refused.notes?.[0]).toEqual({
        key: 'flow.failed.said',
        params: { said: 'That value is not accepted.' },
      });
      expect(refused.choices?.map((c) => c.id)).toEqual(['back', 'end']);

      actor.send(choose('back'));
      expect(prompt(actor).key).toBe(row.question);
      expect(actor.getSnapshot().context.answers).toMatchObject(row.kept);

      const viaBack = refusedAt(row);
      viaBack.send({ type: 'user.back' });
      expect(prompt(viaBack).key).toBe(row.question);
    },
  );

  it('travel: the corrected destination is quoted with every other answer as given', () => {
    const actor = start('travel-issue', 1, refusal('destination', 'That value is not accepted.'), {
      actor: 'quoteTravel',
      replies: TRAVEL_ANSWERS,
    });
    actor.send(choose('back'));
    for (const reply of [type('Namibia'), ...TRAVEL_ANSWERS.slice(1)]) actor.send(reply);
    expect(prompt(actor).key).toBe('travel.pickPackage');
    expect(actor.getSnapshot().context.answers).toMatchObject({
      destination: 'Namibia',
      name: 'Mwila Banda',
    });
  });
});
