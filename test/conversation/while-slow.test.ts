import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createTyping, TYPING_AFTER_MS, TYPING_EVERY_MS } from '../../src/conversation/index.js';

/*
 * The typing indicator's pacing on its own, with its default Node timers under vitest's fake
 * clock: a turn is a promise the test settles when it wants.
 */

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A turn the test ends by hand. */
function heldTurn() {
  let end: (value: string) => void = () => undefined;
  const turn = new Promise<string>((resolve) => {
    end = resolve;
  });
  return { turn: () => turn, end: (value: string) => end(value) };
}

it('shows nothing for a turn that ends before the delay', async () => {
  const shows: number[] = [];
  const whileSlow = createTyping({}, () => undefined);
  const held = heldTurn();
  const result = whileSlow(async () => shows.push(Date.now()), held.turn);
  await vi.advanceTimersByTimeAsync(TYPING_AFTER_MS - 1);
  held.end('answer');
  expect(await result).toBe('answer');
  await vi.advanceTimersByTimeAsync(10 * TYPING_EVERY_MS);
  expect(shows).toEqual([]);
}, 10_000);

it('shows typing after the delay and again every interval until the turn ends', async () => {
  const start = Date.now();
  const shows: number[] = [];
  const whileSlow = createTyping({}, () => undefined);
  const held = heldTurn();
  const result = whileSlow(async () => shows.push(Date.now() - start), held.turn);
  await vi.advanceTimersByTimeAsync(TYPING_AFTER_MS + 2 * TYPING_EVERY_MS);
  held.end('answer');
  expect(await result).toBe('answer');
  await vi.advanceTimersByTimeAsync(10 * TYPING_EVERY_MS);
  expect(shows).toEqual([
    TYPING_AFTER_MS,
    TYPING_AFTER_MS + TYPING_EVERY_MS,
    TYPING_AFTER_MS + 2 * TYPING_EVERY_MS,
  ]);
}, 10_000);

it('hands on the answer of a turn whose typing call failed, and reports the failure', async () => {
  const failures: unknown[] = [];
  const whileSlow = createTyping({}, (error) => failures.push(error));
  const held = heldTurn();
  const result = whileSlow(() => Promise.reject(new Error('Bot API down')), held.turn);
  await vi.advanceTimersByTimeAsync(TYPING_AFTER_MS);
  held.end('answer');
  expect(await result).toBe('answer');
  expect(failures).toHaveLength(1);
}, 10_000);

it('hands on the answer only once a typing call in flight has ended', async () => {
  const order: string[] = [];
  let finishShow: () => void = () => undefined;
  const whileSlow = createTyping({}, () => undefined);
  const held = heldTurn();
  const result = whileSlow(
    () =>
      new Promise<void>((resolve) => {
        finishShow = () => {
          order.push('typing sent');
          resolve();
        };
      }),
    held.turn,
  );
  await vi.advanceTimersByTimeAsync(TYPING_AFTER_MS);
  held.end('answer');
  void result.then(() => order.push('answer handed on'));
  await vi.advanceTimersByTimeAsync(0);
  expect(order).toEqual([]);
  finishShow();
  await result;
  expect(order).toEqual(['typing sent', 'answer handed on']);
}, 10_000);
