import { describe, expect, it } from 'vitest';
import {
  type CoverAnswer,
  coverStatusMachine,
  RENEW_WITHIN_DAYS,
} from '../../flows/cover-status.js';
import { daysAgo, inputFor } from './fixtures.js';
import { type FlowSnapshot, step, syncActor } from './harness.js';

/** My cover of a caller whose phone is vouched for, with one motor policy ending in `days`. */
function coverEndingIn(days: number, status = 'Active') {
  const answer: CoverAnswer = {
    access: 'full',
    truth: 'found',
    holdings: [
      {
        line: 'motor',
        number: 'MTR-0009',
        status,
        startDate: daysAgo(365 - days).iso,
        endDate: daysAgo(-days).iso,
        covers: 'BCD 4321',
        amount: 693,
        currency: 'ZMW',
        policyId: 'pol_9',
      },
    ],
  };
  const machine = coverStatusMachine.provide({
    actors: { lookupMine: syncActor((): CoverAnswer => answer) },
  });
  const input = {
    ...inputFor('cover-status'),
    principal: { kind: 'phone', phone: '260971234567' },
  } as const;
  const send = (snapshot: FlowSnapshot, id: string) =>
    step(machine, input, snapshot, { type: 'user.choice', id });
  const list = step(machine, input, undefined);
  return { detail: send(list, 'h0'), send };
}

const choiceIds = (snapshot: FlowSnapshot) =>
  (snapshot.context.prompt.choices ?? []).map((c) => c.id);

describe('My cover offers to renew a motor policy ending soon', () => {
  it(`offers Renew on a policy ending in 10 days, which opens the renewal of that policy`, () => {
    const { detail, send } = coverEndingIn(10);
    expect(choiceIds(detail)[0]).toBe('renew');
    const renewing = send(detail, 'renew');
    expect(renewing.status).toBe('done');
    expect(renewing.output).toEqual({
      next: 'motor-quote',
      start: { renewal: { policyId: 'pol_9', policyNumber: 'MTR-0009' } },
    });
  });

  it(`offers it up to ${RENEW_WITHIN_DAYS} days before the end, on the last day too`, () => {
    expect(choiceIds(coverEndingIn(RENEW_WITHIN_DAYS).detail)).toContain('renew');
    expect(choiceIds(coverEndingIn(0).detail)).toContain('renew');
    expect(choiceIds(coverEndingIn(RENEW_WITHIN_DAYS + 1).detail)).not.toContain('renew');
  });

  it('does not offer it on a policy not in force or already ended', () => {
    expect(choiceIds(coverEndingIn(10, 'Cancelled').detail)).not.toContain('renew');
    expect(choiceIds(coverEndingIn(-1).detail)).not.toContain('renew');
  });
});
