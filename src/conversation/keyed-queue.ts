/**
 * First-come-first-served turns per key inside one process. The session lock serialises
 * turns across processes; this queue adds arrival order within a process and keeps waiting
 * turns off the lock's polling loop.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Waits until every earlier entrant for `key` has left, up to `waitMs`. Resolves to the
   * function that lets the next entrant in, or undefined when the wait ran out (the caller
   * then never held the key, and the next entrant still waits for the earlier ones).
   */
  enter(key: string, waitMs: number): Promise<(() => void) | undefined> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let leave!: () => void;
    const mine = new Promise<void>((resolve) => {
      leave = resolve;
    });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          leave();
          resolve(undefined);
        },
        Math.max(0, waitMs),
      );
      void previous.then(() => {
        clearTimeout(timer);
        resolve(leave);
      });
    });
  }
}
