import type {
  Prompt,
  Reply,
  StartOptions,
  TurnEngine,
  TurnOptions,
} from '../../src/conversation/index.js';

/**
 * Wraps a TurnEngine and counts the calls a channel makes to it (issue 26: one engine call per
 * inbound message); `reset` before each message.
 */
export class CountingEngine implements TurnEngine {
  calls = 0;

  constructor(private readonly inner: TurnEngine) {}

  reset(): void {
    this.calls = 0;
  }

  turn(sessionKey: string, reply: Reply, options?: TurnOptions): Promise<Prompt> {
    this.calls += 1;
    return this.inner.turn(sessionKey, reply, options);
  }

  peek(sessionKey: string, options?: TurnOptions): Promise<Prompt> {
    this.calls += 1;
    return this.inner.peek(sessionKey, options);
  }

  start(sessionKey: string, flowId: string, options?: StartOptions): Promise<Prompt> {
    this.calls += 1;
    return this.inner.start(sessionKey, flowId, options);
  }

  handle(sessionKey: string, reply: Reply, options?: TurnOptions): Promise<Prompt> {
    this.calls += 1;
    return this.inner.handle(sessionKey, reply, options);
  }
}
