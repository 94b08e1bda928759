import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup, waitFor } from 'xstate';
import { parseStaffCommand } from '../../flows/staff-desk.js';
import {
  answeredGuard,
  ask,
  describeFailure,
  type Failure,
  failedCallTo,
  failedTo,
  failurePrompt,
  failureScreen,
  flowOutput,
  menuOn,
  paymentOutcome,
  rejected,
  rejectedAnswer,
  TO_MAIN_MENU,
  unexpected,
} from '../../flows/support.js';
import {
  ApiError,
  ApiNetworkError,
  ApiTimeoutError,
  ApiUnavailableError,
  ValidationError,
} from '../../src/api/index.js';

describe('describeFailure', () => {
  it('tells the user the insurer is unreachable while the client circuit is open', () => {
    const error = new ApiUnavailableError({ operation: 'getMotorProducts', retryAfterMs: 30_000 });
    expect(describeFailure(error)).toEqual({ kind: 'unavailable' });
  });

  it('reads the client errors by kind', () => {
    expect(describeFailure(new ApiTimeoutError({ operation: 'x', timeoutMs: 10 }))).toEqual({
      kind: 'timeout',
    });
    expect(describeFailure(new ApiNetworkError({ operation: 'x', sent: false }))).toEqual({
      kind: 'unavailable',
    });
    expect(describeFailure(new ApiError({ status: 503, operation: 'x', rawBody: '' }))).toEqual({
      kind: 'unavailable',
    });
    expect(describeFailure(new ApiError({ status: 404, operation: 'x', rawBody: '' }))).toEqual({
      kind: 'notFound',
    });
  });

  it('names the first field the insurer rejected', () => {
    const body = JSON.stringify({
      status: 422,
      message: 'Validation failed',
      errors: { email: ['is invalid'] },
    });
    expect(describeFailure(new ApiError({ status: 422, operation: 'x', rawBody: body }))).toEqual({
      kind: 'rejected',
      field: 'email',
    });
    expect(describeFailure(new ValidationError({ field: 'lossDate', message: 'bad' }))).toEqual({
      kind: 'rejected',
      field: 'lossDate',
    });
  });

  it('maps a rejected field path to its question, with the insurer sentence in its own words', () => {
    const body = JSON.stringify({
      status: 422,
      message: 'Rule broken',
      errors: { 'risks.0.vehicleId': ['The vehicle is registered to another client'] },
    });
    expect(describeFailure(new ApiError({ status: 422, operation: 'x', rawBody: body }))).toEqual({
      kind: 'rejected',
      field: 'vehicleId',
      said: 'The vehicle is registered to another client.',
    });
    expect(
      describeFailure(new ValidationError({ field: 'risks.0.chassisNumber', message: 'x' })),
    ).toEqual({ kind: 'rejected', field: 'chassisNumber' });
  });

  it('never passes on an insurer message that holds a field path', () => {
    const body = JSON.stringify({ errors: { 'risks.0.sumInsured': ['Check risks.0.sumInsured'] } });
    expect(describeFailure(new ApiError({ status: 400, operation: 'x', rawBody: body }))).toEqual({
      kind: 'rejected',
      field: 'sumInsured',
    });
  });

  it('ignores errors that only look like the client errors: classification is by class', () => {
    const lookalike = Object.assign(new Error('x'), { name: 'ApiTimeoutError', status: 404 });
    expect(describeFailure(lookalike)).toEqual({ kind: 'unknown' });
  });

  it('treats anything else as unknown, without throwing', () => {
    expect(describeFailure(undefined)).toEqual({ kind: 'unknown' });
    expect(describeFailure('boom')).toEqual({ kind: 'unknown' });
  });
});

describe('failurePrompt', () => {
  it('names a known field in plain words and never shows an unknown field path', () => {
    expect(failurePrompt({ kind: 'rejected', field: 'email' }).notes).toEqual([
      { key: 'flow.field.email' },
    ]);
    expect(failurePrompt({ kind: 'rejected', field: 'colour' }).notes).toEqual([
      { key: 'flow.failed.check' },
    ]);
  });

  it('offers no "Try again" after a permanent failure, but does after a passing one', () => {
    const ids = (failure: Parameters<typeof failurePrompt>[0]) =>
      failurePrompt(failure).choices?.map((c) => c.id);
    expect(ids({ kind: 'rejected', field: 'vehicleId' })).toEqual(['back', 'end']);
    expect(ids({ kind: 'notFound' })).toEqual(['back', 'end']);
    expect(ids({ kind: 'denied' })).toEqual(['retry', 'back', 'end']);
    expect(ids({ kind: 'timeout' })).toEqual(['retry', 'back', 'end']);
    expect(ids({ kind: 'unavailable' })).toEqual(['retry', 'back', 'end']);
  });
});

describe('parseStaffCommand', () => {
  it('reads each command with its arguments', () => {
    expect(parseStaffCommand('policy ABC123')).toEqual({
      ok: true,
      value: { topic: 'policy', args: ['ABC123'] },
    });
    expect(parseStaffCommand('/policy ajq 1909')).toEqual({
      ok: true,
      value: { topic: 'policy', args: ['AJQ 1909'] },
    });
    expect(parseStaffCommand('household 479974111')).toEqual({
      ok: true,
      value: { topic: 'household', args: ['479974/11/1'] },
    });
    expect(parseStaffCommand('batch P1 B7')).toEqual({
      ok: true,
      value: { topic: 'batch', args: ['P1', 'B7'] },
    });
    expect(parseStaffCommand('claims')).toEqual({ ok: true, value: { topic: 'claims', args: [] } });
  });

  it('explains how to use a command typed wrongly', () => {
    expect(parseStaffCommand('batch P1')).toEqual({ ok: false, reason: 'staff.note.usage.batch' });
    expect(parseStaffCommand('txn')).toEqual({ ok: false, reason: 'staff.note.usage.txn' });
    expect(parseStaffCommand('hello')).toEqual({ ok: false, reason: 'staff.note.unknownCommand' });
  });
});

describe('payments', () => {
  it('maps status words of different rails to paid, failed or pending', () => {
    expect(['Success', 'COMPLETED', 'successful'].map(paymentOutcome)).toEqual([
      'paid',
      'paid',
      'paid',
    ]);
    expect(['Failed', 'expired', 'Rejected'].map(paymentOutcome)).toEqual([
      'failed',
      'failed',
      'failed',
    ]);
    expect(paymentOutcome('Pending')).toBe('pending');
  });
});

describe('state-shape builders', () => {
  it("builds a call's onError transition: the failure screen, the failure tagged or not", async () => {
    const error = new ApiTimeoutError({ operation: 'x', timeoutMs: 10 });
    const failing = (onError: object) =>
      setup({
        types: { context: {} as { failure: (Failure & { op?: 'quote' }) | null } },
        actors: { call: fromPromise<never>(() => Promise.reject(error)) },
      }).createMachine({
        context: { failure: null },
        initial: 'calling',
        states: { calling: { invoke: { src: 'call', onError } }, failed: {} },
      });
    type Tagged = { failure: (Failure & { op: 'quote' }) | null };
    const run = async (onError: object) => {
      const actor = createActor(failing(onError)).start();
      return (await waitFor(actor, (s) => s.matches('failed'))).context.failure;
    };
    expect(await run(failedCallTo<Tagged, { type: 'x' }>('failed')('quote'))).toEqual({
      kind: 'timeout',
      op: 'quote',
    });
    expect(await run(failedTo<{ failure: Failure | null }, { type: 'x' }>('failed'))).toEqual({
      kind: 'timeout',
    });
  });

  it('shows the failure screen, or the unknown one when nothing was recorded', () => {
    expect(failureScreen({ context: { failure: null } }).key).toBe('flow.failed.unknown');
    expect(failureScreen({ context: { failure: { kind: 'denied' } } }).key).toBe(
      'flow.failed.denied',
    );
  });

  it('re-asks a typed answer that fails its check with the check reason, one try used', () => {
    const context = { prompt: ask('x.ask', 'text'), tries: 1 };
    const check = (text: string) =>
      text === 'ok' ? { ok: true as const, value: text } : { ok: false as const, reason: 'x.bad' };
    const checks = { answer: check };
    const text = (typed: string) => ({ type: 'user.text', text: typed }) as const;
    const params = { field: 'answer' } as const;
    expect(answeredGuard(checks)({ context, event: text('ok') }, params)).toBe(true);
    expect(answeredGuard(checks)({ context, event: text('no') }, params)).toBe(false);
    expect(rejectedAnswer(checks)({ context, event: text('no') }, params)).toEqual({
      prompt: { ...context.prompt, notes: [{ key: 'x.bad' }] },
      tries: 2,
    });
  });

  it('explains the ways out with the third bad answer in a row and starts the count over', () => {
    const prompt = ask('travel.askStartDate', 'date');
    const second = rejected({ prompt, tries: 1 }, 'validation.date.format');
    expect(second).toEqual({
      prompt: { ...prompt, notes: [{ key: 'validation.date.format' }] },
      tries: 2,
    });
    const third = rejected({ prompt, tries: 2 }, 'validation.date.format');
    expect(third.tries).toBe(0);
    expect(third.prompt.final).toBe(false);
    expect(third.prompt.notes).toEqual([
      { key: 'validation.date.format' },
      { key: 'flow.note.stuck' },
    ]);
    const stray = unexpected({ prompt: ask('menu.x', 'choice'), tries: 2 });
    expect(stray.prompt.notes).toEqual([
      { key: 'flow.note.pickFromList' },
      { key: 'flow.note.stuck' },
    ]);
  });

  it('hands over to the main menu when a flow ends on Back from its first screen', () => {
    expect(flowOutput({ context: { prompt: TO_MAIN_MENU } })).toEqual({ next: 'main-menu' });
    const closing = { key: 'flow.end.cancelled', input: 'none', final: true } as const;
    expect(flowOutput({ context: { prompt: closing } })).toEqual({ prompt: closing });
  });

  it('tries menu choices in the order listed and sends Back to its state', () => {
    const on = menuOn({ retry: 'again', back: 'before', end: 'done' }, 'before');
    expect(on['user.choice'].map((t) => t.target)).toEqual(['again', 'before', 'done']);
    expect(on['user.choice'][0]?.guard).toEqual({ type: 'chose', params: { id: 'retry' } });
    expect(on['user.back']).toBe('before');
  });

  it('refuses numeric choice ids, whose order JavaScript would change', () => {
    expect(() => menuOn({ b: 'x', '12': 'y' }, 'x')).toThrow(/reordered/);
  });
});
