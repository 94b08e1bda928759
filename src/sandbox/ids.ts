import { createHash } from 'node:crypto';

/** Issues deterministic hashed-looking ids, so seeded data is the same on every start. */
export interface IdSource {
  /** A hashed string id such as `pol_3f9a1c0b7e2d`. */
  next(prefix: string): string;
  /** The next integer of a named sequence, starting at 1. */
  seq(name: string): number;
}

/** Creates an id source; `salt` separates id spaces of sandboxes living side by side. */
export function createIdSource(salt = 'insurechat-sandbox'): IdSource {
  const counters = new Map<string, number>();
  const bump = (name: string): number => {
    const value = (counters.get(name) ?? 0) + 1;
    counters.set(name, value);
    return value;
  };
  return {
    next(prefix) {
      const n = bump(`id:${prefix}`);
      const hash = createHash('sha256').update(`${salt}:${prefix}:${n}`).digest('hex');
      return `${prefix.toLowerCase()}_${hash.slice(0, 12)}`;
    },
    seq: bump,
  };
}
