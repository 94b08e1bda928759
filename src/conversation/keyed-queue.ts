/** One entrant waiting behind the key's holder. */
interface Waiter {
  /** Lets the waiter in (it now holds the key). */
  admit(): void;
}

/**
 * First-come-first-served turns per key inside one process. The session lock serialises
 * turns across processes; this queue adds arrival order within a process and keeps waiting
 * turns off the lock's polling loop.
 *
 * An uncontended key costs one Map entry: no promise and no timer. Only an entrant that finds
 * the key held waits, with a promise and a timer of its own.
 */
export class KeyedQueue {
  /** Keys held by someone, with the entrants waiting behind the holder in arrival order. */
  private readonly held = new Map<string, Waiter[]>();

  /**
   * Enters `key` when nobody holds it: the function that lets the next entrant in, at once, with
   * no promise and no timer. Undefined when the key is held (then {@link enter} to wait).
   */
  tryEnter(key: string): (() => void) | undefined {
    if (this.held.has(key)) return undefined;
    this.held.set(key, []);
    return this.leaverOf(key);
  }

  /**
   * Waits until every earlier entrant for `key` has left, up to `waitMs`. Resolves to the
   * function that lets the next entrant in, or undefined when the wait ran out (the caller
   * then never held the key, and the entrants behind it still wait for the earlier ones).
   */
  enter(key: string, waitMs: number): Promise<(() => void) | undefined> {
    const waiting = this.held.get(key);
    if (waiting === undefined) return Promise.resolve(this.tryEnter(key));
    return new Promise((resolve) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timer);
          resolve(this.leaverOf(key));
        },
      };
      const timer = setTimeout(
        () => {
          const at = waiting.indexOf(waiter);
          if (at !== -1) waiting.splice(at, 1);
          resolve(undefined);
        },
        Math.max(0, waitMs),
      );
      waiting.push(waiter);
    });
  }

  /** The holder's way out: hands the key to the first waiter, or frees it. Idempotent. */
  private leaverOf(key: string): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const waiting = this.held.get(key);
      const next = waiting?.shift();
      if (next) next.admit();
      else this.held.delete(key);
    };
  }
}
