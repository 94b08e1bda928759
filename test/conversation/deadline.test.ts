import { describe, expect, it } from 'vitest';
import { assign, fromPromise, setup } from 'xstate';
import { isSettled, settleWithin, startWatched } from '../../src/conversation/deadline.js';
import { AWAITING_INPUT } from '../../src/conversation/index.js';

/** Waits for input; `go` calls `work` and comes back to wait once it settles. */
function machineCalling(work: () => Promise<void>) {
  return setup({
    actors: { work: fromPromise(work) },
  }).createMachine({
    initial: 'waiting',
    context: { calls: 0 },
    states: {
      waiting: { tags: [AWAITING_INPUT], on: { go: 'calling' } },
      calling: {
        invoke: {
          src: 'work',
          onDone: {
            target: 'waiting',
            actions: assign({ calls: ({ context }) => context.calls + 1 }),
          },
        },
      },
    },
  });
}

describe('settleWithin', () => {
  it('answers at once, without a promise, for an actor that is waiting for input', () => {
    const actor = startWatched(
      machineCalling(async () => undefined),
      { input: {} },
    );
    expect(settleWithin(actor, 1_000)).toBe(true);
  });

  it('resolves true when the call settles before the time is up, on the actor’s one subscription', async () => {
    let finish!: () => void;
    const actor = startWatched(
      machineCalling(() => new Promise<void>((resolve) => (finish = resolve))),
      { input: {} },
    );
    for (let turn = 0; turn < 3; turn += 1) {
      actor.send({ type: 'go' });
      expect(isSettled(actor)).toBe(false);
      const settled = settleWithin(actor, 10_000);
      finish();
      expect(await settled).toBe(true);
    }
    expect(actor.getSnapshot().context.calls).toBe(3);
  });

  it('resolves false when the time runs out first, and can wait again after', async () => {
    let finish!: () => void;
    const actor = startWatched(
      machineCalling(() => new Promise<void>((resolve) => (finish = resolve))),
      { input: {} },
    );
    actor.send({ type: 'go' });
    expect(await settleWithin(actor, 5)).toBe(false);
    const again = settleWithin(actor, 10_000);
    finish();
    expect(await again).toBe(true);
  });
});
