/**
 * Values handed over for the turn in progress, taken once: two generations of a Map, the older
 * dropped every `ttlMs`. Setting one is a Map write (every turn sets one; an LRU with a TTL cost
 * a measurable share of the turn), and what no menu took is gone within `2 × ttlMs`.
 */
export class TurnHandover<V> {
  private current = new Map<string, V>();
  private previous = new Map<string, V>();
  private rotatedAt: number;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {
    this.rotatedAt = now();
  }

  set(key: string, value: V): void {
    this.rotate();
    this.current.set(key, value);
  }

  /** The value handed over for `key`, removed. */
  take(key: string): V | undefined {
    this.rotate();
    const value = this.current.get(key) ?? this.previous.get(key);
    this.delete(key);
    return value;
  }

  delete(key: string): void {
    this.current.delete(key);
    this.previous.delete(key);
  }

  private rotate(): void {
    const now = this.now();
    const age = now - this.rotatedAt;
    if (age < this.ttlMs) return;
    this.previous = age < 2 * this.ttlMs ? this.current : new Map();
    this.current = new Map();
    this.rotatedAt = now;
  }
}
