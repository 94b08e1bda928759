import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeyedQueue } from '../../src/conversation/keyed-queue.js';

describe('KeyedQueue', () => {
  // The queue's waits are timers: simulated, so a test takes no wall-clock time.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets entrants for one key in one at a time, in arrival order', async () => {
    const queue = new KeyedQueue();
    const order: number[] = [];
    const all = Promise.all(
      [1, 2, 3, 4].map(async (n) => {
        const leave = await queue.enter('k', 10_000);
        order.push(n);
        await new Promise((resolve) => setTimeout(resolve, 5 - n));
        leave?.();
      }),
    );
    await vi.advanceTimersByTimeAsync(10);
    await all;
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it('turns an entrant away when the wait runs out, without letting the next one jump ahead', async () => {
    const queue = new KeyedQueue();
    const first = await queue.enter('k', 0);
    const second = queue.enter('k', 10);
    await vi.advanceTimersByTimeAsync(10);
    expect(await second).toBeUndefined();
    let thirdIn = false;
    const third = queue.enter('k', 10_000).then((leave) => {
      thirdIn = true;
      return leave;
    });
    await vi.advanceTimersByTimeAsync(20);
    expect(thirdIn).toBe(false);
    first?.();
    expect(await third).toBeTypeOf('function');
  });

  it('does not hold one key up for another', async () => {
    const queue = new KeyedQueue();
    await queue.enter('a', 0);
    expect(await queue.enter('b', 0)).toBeTypeOf('function');
  });
});

describe('KeyedQueue.tryEnter', () => {
  it('lets an entrant in at once when nobody holds the key, and refuses while someone does', () => {
    const queue = new KeyedQueue();
    const leave = queue.tryEnter('k');
    expect(leave).toBeTypeOf('function');
    expect(queue.tryEnter('k')).toBeUndefined();
    leave?.();
    expect(queue.tryEnter('k')).toBeTypeOf('function');
  });

  it('hands the key to the entrant waiting behind, not to a newcomer', async () => {
    const queue = new KeyedQueue();
    const first = queue.tryEnter('k');
    const second = queue.enter('k', 10_000);
    first?.();
    expect(queue.tryEnter('k')).toBeUndefined();
    const leave = await second;
    leave?.();
    leave?.();
    expect(queue.tryEnter('k')).toBeTypeOf('function');
  });
});
