import { describe, expect, it } from 'vitest';
import { KeyedQueue } from '../../src/conversation/keyed-queue.js';

describe('KeyedQueue', () => {
  it('lets entrants for one key in one at a time, in arrival order', async () => {
    const queue = new KeyedQueue();
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3, 4].map(async (n) => {
        const leave = await queue.enter('k', 10_000);
        order.push(n);
        await new Promise((resolve) => setTimeout(resolve, 5 - n));
        leave?.();
      }),
    );
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it('turns an entrant away when the wait runs out, without letting the next one jump ahead', async () => {
    const queue = new KeyedQueue();
    const first = await queue.enter('k', 0);
    expect(await queue.enter('k', 10)).toBeUndefined();
    let thirdIn = false;
    const third = queue.enter('k', 10_000).then((leave) => {
      thirdIn = true;
      return leave;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
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
