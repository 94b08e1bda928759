import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LATE, TurnBackstop } from '../../src/conversation/index.js';

/** A watched turn: when it started, and where its outcome goes. */
const turnAt = (startedAt: number) => ({ startedAt, resolve: undefined });

describe('the answer backstop', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("answers a turn's outcome, or its failure, as it comes", async () => {
    const backstop = new TurnBackstop<string>(1_000);
    await expect(backstop.watch(turnAt(Date.now()), Promise.resolve('done'))).resolves.toBe('done');
    const error = new Error('down');
    await expect(backstop.watch(turnAt(Date.now()), Promise.reject(error))).resolves.toEqual({
      failed: error,
    });
    await backstop.idle();
  });

  it('answers LATE past answerWithinMs, and is idle only once the work has finished', async () => {
    const backstop = new TurnBackstop<string>(100);
    let finish!: (value: string) => void;
    const outcome = backstop.watch(
      turnAt(Date.now()),
      new Promise<string>((resolve) => (finish = resolve)),
    );
    await vi.advanceTimersByTimeAsync(110);
    await expect(outcome).resolves.toBe(LATE);
    let idle = false;
    const waiting = backstop.idle().then(() => (idle = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(idle).toBe(false);
    finish('done');
    await waiting;
    expect(idle).toBe(true);
  });
});
