import type { Prompt, Reply, TurnEngine, TurnOptions } from '../../src/conversation/index.js';

/** What a channel sent before the engine had `peek` and `start`: an empty answer. */
const EMPTY: Reply = { type: 'user.text', text: '' };

/**
 * Base of a TurnEngine test double written against `turn` alone (the subclass implements it):
 * `peek`/`start` are what the channels sent before the engine had them (an empty answer), so a
 * double scripted by replies answers them too.
 */
export abstract class TurnEngineDouble implements TurnEngine {
  abstract turn(sessionKey: string, reply: Reply, options?: TurnOptions): Promise<Prompt>;

  peek(sessionKey: string, options?: TurnOptions): Promise<Prompt> {
    return this.turn(sessionKey, EMPTY, options);
  }

  start(sessionKey: string, _flowId: string, options?: TurnOptions): Promise<Prompt> {
    return this.turn(sessionKey, EMPTY, options);
  }
}

/** A TurnEngine test double from a `turn` function alone; see {@link TurnEngineDouble}. */
export function engineOf(double: Pick<TurnEngine, 'turn'>): TurnEngine {
  return new (class extends TurnEngineDouble {
    override turn = double.turn;
  })();
}
