import { createRequire } from 'node:module';

/** The toggle addon (`toggle.c`): callgrind client requests made from JavaScript. */
export interface CallgrindAddon {
  /** Switches event collection on if off, off if on. */
  toggle(): void;
  /** Writes the counts so far to a dump of their own, labelled, and zeroes them. */
  dump(label: string): void;
}

/** Loads the addon the callgrind scripts built, from `CALLGRIND_ADDON`. */
export function loadCallgrindAddon(): CallgrindAddon {
  const addon = process.env.CALLGRIND_ADDON;
  if (!addon) throw new Error('CALLGRIND_ADDON: path of the built toggle addon');
  return createRequire(import.meta.url)(addon) as CallgrindAddon;
}

/** Node's `gc()`, present when node runs with `--expose-gc`. */
export function exposedGc(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run node with --expose-gc');
  return gc;
}
