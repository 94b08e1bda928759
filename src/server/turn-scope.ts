import { AsyncLocalStorage } from 'node:async_hooks';
import type { ChannelAddress, TurnEngine } from '../conversation/index.js';

/** The turn a piece of work runs for: which session, and where its user can be reached. */
export interface TurnScope {
  readonly sessionKey: string;
  readonly address: ChannelAddress | undefined;
}

const storage = new AsyncLocalStorage<TurnScope>();

/** The turn the current async work belongs to, if any (actors invoked during a turn see it). */
export function currentTurn(): TurnScope | undefined {
  return storage.getStore();
}

/**
 * Wraps a TurnEngine so every call it makes during a turn — including the flow's invoked API
 * actors — knows the turn's session and address. That is how a payment started deep inside a
 * flow is routed back to the right chat without the flows knowing channels exist.
 */
export function scopeEngine(engine: TurnEngine): TurnEngine {
  return {
    handle(sessionKey, reply, options) {
      return storage.run({ sessionKey, address: options?.address }, () =>
        engine.handle(sessionKey, reply, options),
      );
    },
  };
}
