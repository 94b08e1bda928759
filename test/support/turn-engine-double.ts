import type { Prompt, Reply, TurnEngine, TurnOptions } from '../../src/conversation/index.js';

/** What a channel sent before the engine had `peek` and `start`: an empty answer. */
const EMPTY: Reply = { type: 'user.text', text: '' };

/**
 * Base of a TurnEngine test double written against `handle` alone (the subclass declares it):
 * `turn` is `handle`, and `peek`/`start` are what the channels sent before the engine had them
 * (an empty answer).
 */
export class HandleEngine {
  private get legacy(): Pick<TurnEngine, 'handle'> {
    return this as unknown as Pick<TurnEngine, 'handle'>;
  }

  turn(sessionKey: string, reply: Reply, options?: TurnOptions): Promise<Prompt> {
    return this.legacy.handle(sessionKey, reply, options);
  }

  peek(sessionKey: string, options?: TurnOptions): Promise<Prompt> {
    return this.legacy.handle(sessionKey, EMPTY, options);
  }

  start(sessionKey: string, _flowId: string, options?: TurnOptions): Promise<Prompt> {
    return this.legacy.handle(sessionKey, EMPTY, options);
  }
}

/** A TurnEngine test double from a `handle` function alone; see {@link HandleEngine}. */
export function engineOf(double: Pick<TurnEngine, 'handle'>): TurnEngine {
  const engine = new HandleEngine();
  return Object.assign(engine, { handle: double.handle });
}
