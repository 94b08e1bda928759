import type { Logger } from '../log/index.js';
import type { Config } from './config.js';
import type { ServerDeps, ServerInfo } from './create-server.js';

/** Shutdown steps; {@link createServer}'s close runs them last-registered first. */
interface Closers {
  /** Runs `close` before the steps pushed earlier: a part closes before what it was built on. */
  readonly push: (close: () => Promise<void>) => void;
  /** Runs `close` after every other (the outer parts: schedulers, channels, payments). */
  readonly last: (close: () => Promise<void>) => void;
  /** Every step in the order to run them. */
  readonly inOrder: () => Array<() => Promise<void>>;
}

/** Creates an empty {@link Closers}. */
export function createClosers(): Closers {
  const steps: Array<() => Promise<void>> = [];
  return {
    push: (close) => void steps.push(close),
    last: (close) => void steps.unshift(close),
    inOrder: () => [...steps].reverse(),
  };
}

/** What every builder of the server reads: its configuration, log, key prefix and shutdown. */
export interface ServerContext {
  readonly config: Config;
  readonly deps: ServerDeps;
  readonly logger: Logger;
  /** Prefix of every Redis key this server writes. */
  readonly keyPrefix: string;
  readonly info: ServerInfo;
  readonly closers: Closers;
  /** The base URL links are signed for: PUBLIC_URL, else where the server listens. */
  readonly publicUrl: () => string;
}
