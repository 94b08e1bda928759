import { describe, expect, it } from 'vitest';
import { createActor, type Snapshot } from 'xstate';
import {
  again,
  answered,
  chosenFrom,
  clockTime,
  newPayment,
  type PayingContext,
  paymentFailedPrompt,
  paymentPhonePrompt,
  paymentWaitPrompt,
} from '../../flows/payment-machine.js';
import type { Reply } from '../../src/conversation/reply.js';
import { inputFor, worldMachine } from './fixtures.js';

const fresh = () =>
  newPayment(
    { kind: 'quote', quoteId: 'q_1' },
    'quote:q_1.k',
    'Motor Comprehensive for ABC 123',
    13125,
    'ZMW',
  );

const context = (over: Partial<PayingContext> = {}): PayingContext => ({
  prompt: { key: 'x', input: 'none', final: false },
  tries: 0,
  callerPhone: '260971234567',
  route: null,
  pay: fresh(),
  ...over,
});

describe('the payment machine', () => {
  it('shows the amount due, formatted with thousands, on the wait screen', () => {
    const pay = { ...fresh(), method: { method: 'mobileMoney' as const, msisdn: '260971234567' } };
    expect(paymentWaitPrompt(pay)).toMatchObject({
      key: 'pay.waitPhone',
      params: { amount: '13,125.00', currency: 'ZMW' },
    });
  });

  it('asks for the number to pay from with the amount it will have to approve', () => {
    expect(paymentPhonePrompt(fresh())).toMatchObject({
      key: 'pay.askPhone',
      input: 'phone',
      params: { amount: '13,125.00', currency: 'ZMW' },
    });
  });

  it('gives the card page as a link on the card wait screen', () => {
    const pay = { ...fresh(), method: { method: 'card' as const }, redirectUrl: 'https://pay/3ds' };
    expect(paymentWaitPrompt(pay).attachments).toEqual([
      { kind: 'link', url: 'https://pay/3ds', label: 'pay.cardLink' },
    ]);
  });

  it('says since when it waits once a check found the payment still pending', () => {
    const started = answered(fresh(), {
      reference: 'R1',
      status: 'pending',
      startedAt: '2026-11-23T08:42:00Z',
    });
    const checked = answered(started, { reference: 'R1', status: 'pending' });
    expect(paymentWaitPrompt(started).notes).toBeUndefined();
    expect(paymentWaitPrompt(checked).notes).toEqual([
      { key: 'pay.note.stillPending', params: { since: '10:42' } },
    ]);
  });

  it('names the purchase, the amount and the reason on the failure screen', () => {
    const failed = { ...fresh(), status: 'failed' as const, reason: 'Declined by the payer' };
    expect(paymentFailedPrompt(failed)).toMatchObject({
      key: 'pay.failed',
      params: { what: 'Motor Comprehensive for ABC 123', amount: '13,125.00' },
      notes: [{ key: 'pay.note.reason', params: { reason: 'Declined by the payer' } }],
    });
  });

  it('starts a new attempt only after the insurer confirmed a failure', () => {
    const pending = { ...fresh(), status: 'pending' as const, reference: 'R1' };
    expect(again(pending)?.attempt).toBe(1);
    const next = again({ ...pending, status: 'failed' });
    expect(next).toMatchObject({ attempt: 2, status: 'unpaid', reference: undefined });
  });

  it('takes the caller own number, a typed number or card as the way to pay', () => {
    expect(chosenFrom(context(), { type: 'user.choice', id: 'own' })?.method).toEqual({
      method: 'mobileMoney',
      msisdn: '260971234567',
    });
    expect(chosenFrom(context(), { type: 'user.text', text: '0977123456' })?.method).toEqual({
      method: 'mobileMoney',
      msisdn: '260977123456',
    });
    expect(chosenFrom(context(), { type: 'user.choice', id: 'card' })?.method).toEqual({
      method: 'card',
    });
  });

  it('formats times in Lusaka time and nothing for no time', () => {
    expect(clockTime('2026-11-23T22:05:00Z')).toBe('00:05');
    expect(clockTime(null)).toBe('');
  });
});

describe("the payment machine as a flow's child", () => {
  // Issue 26: a persisted flow restores with its payment child, which the outcome then reaches.
  it('waits on its screen through the flow, restores with it and takes the pushed outcome', () => {
    const machine = worldMachine('travel-issue');
    const input = inputFor('travel-issue');
    const first = createActor(machine, { input }).start();
    const replies: Reply[] = [
      { type: 'user.text', text: 'South Africa' },
      { type: 'user.text', text: '2099-01-15' },
      { type: 'user.text', text: '14' },
      { type: 'user.text', text: 'Mwila Banda' },
      { type: 'user.text', text: '479974/11/1' },
      { type: 'user.choice', id: 'continue' },
      { type: 'user.choice', id: '201' },
      { type: 'user.choice', id: 'own' },
    ];
    for (const reply of replies) first.send(reply);
    expect(first.getSnapshot().hasTag('awaitingInput')).toBe(true);
    expect(first.getSnapshot().context.prompt.key).toBe('pay.waitPhone');
    const persisted = JSON.parse(JSON.stringify(first.getPersistedSnapshot()));
    first.stop();

    const restored = createActor(machine, {
      input,
      snapshot: persisted as Snapshot<unknown>,
    }).start();
    restored.send({ type: 'user.choice', id: 'nonsense' });
    expect(restored.getSnapshot().context.prompt.notes).toEqual([
      { key: 'flow.note.pickFromList' },
    ]);
    restored.send({ type: 'payment.settled', reference: 'PAY-tq_1', outcome: 'paid' });
    expect(restored.getSnapshot().status).toBe('done');
    expect(restored.getSnapshot().output.prompt.key).toBe('travel.done');
  });
});

describe('mobile money chosen on a handset call (issue 38)', () => {
  const replies: Reply[] = [
    { type: 'user.text', text: 'South Africa' },
    { type: 'user.text', text: '2099-01-15' },
    { type: 'user.text', text: '14' },
    { type: 'user.text', text: 'Mwila Banda' },
    { type: 'user.text', text: '479974/11/1' },
    { type: 'user.choice', id: 'continue' },
    { type: 'user.choice', id: '201' },
  ];
  /** The travel flow whose payments start only once `payment.proceed` (id `go-1`) comes. */
  const deferred = () => {
    const started: unknown[] = [];
    const machine = worldMachine('travel-issue', {
      overrides: {
        payLater: () => ({ later: true, id: 'go-1' }),
        startPayment: (input: unknown) => {
          started.push(input);
          return { reference: 'PAY-tq_1', status: 'pending' };
        },
      },
    });
    return { machine, started };
  };

  it('lets the call go before the PIN prompt, and starts the payment once the event comes', () => {
    const { machine, started } = deferred();
    const input = inputFor('travel-issue');
    const first = createActor(machine, { input }).start();
    for (const reply of [...replies, { type: 'user.choice', id: 'own' } as const]) {
      first.send(reply);
    }
    const released = first.getSnapshot();
    expect(released.hasTag('awaitingInput')).toBe(true);
    expect(released.context.prompt).toMatchObject({ key: 'pay.released', endsCall: true });
    expect(released.context.prompt.final).toBe(false);
    expect(started).toHaveLength(0);

    // Restored as after a restart: a stray id changes nothing, the awaited one starts it once.
    const persisted = JSON.parse(JSON.stringify(first.getPersistedSnapshot()));
    first.stop();
    const restored = createActor(machine, { input, snapshot: persisted as Snapshot<unknown> });
    restored.start();
    restored.send({ type: 'payment.proceed', id: 'someone-else' });
    expect(restored.getSnapshot().context.prompt.key).toBe('pay.released');
    expect(started).toHaveLength(0);
    restored.send({ type: 'payment.proceed', id: 'go-1' });
    restored.send({ type: 'payment.proceed', id: 'go-1' });
    expect(started).toHaveLength(1);
    expect(restored.getSnapshot().context.prompt).toMatchObject({
      key: 'pay.waitHandset',
      endsCall: true,
    });
    restored.send({ type: 'payment.settled', reference: 'PAY-tq_1', outcome: 'paid' });
    expect(restored.getSnapshot().output.prompt.key).toBe('travel.done');
  });

  it('offers Pay again and Card after a failed payment, and lets the call go again for Pay again', () => {
    const { machine, started } = deferred();
    const actor = createActor(machine, { input: inputFor('travel-issue') }).start();
    for (const reply of [...replies, { type: 'user.choice', id: 'own' } as const]) {
      actor.send(reply);
    }
    actor.send({ type: 'payment.proceed', id: 'go-1' });
    actor.send({ type: 'payment.settled', reference: 'PAY-tq_1', outcome: 'failed' });
    const failed = actor.getSnapshot().context.prompt;
    expect(failed.key).toBe('pay.failed');
    expect(failed.choices?.map((choice: { id: string }) => choice.id)).toEqual([
      'retry',
      'card',
      'end',
    ]);
    actor.send({ type: 'user.choice', id: 'retry' });
    actor.send({ type: 'user.choice', id: 'own' });
    expect(actor.getSnapshot().context.prompt.key).toBe('pay.released');
    expect(started).toHaveLength(1);
  });

  it('pays at once, as in a chat, where nothing can send the event back', () => {
    const actor = createActor(worldMachine('travel-issue'), {
      input: inputFor('travel-issue'),
    }).start();
    for (const reply of [...replies, { type: 'user.choice', id: 'own' } as const]) {
      actor.send(reply);
    }
    expect(actor.getSnapshot().context.prompt.key).toBe('pay.waitPhone');
  });
});
