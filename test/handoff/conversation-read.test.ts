import { describe, expect, it } from 'vitest';
import { createTurnEngine, type FlowDefinition } from '../../src/conversation/index.js';
import { readConversation } from '../../src/handoff/conversation-read.js';
import { handoffMiddleware } from '../../src/handoff/index.js';
import { createLogger } from '../../src/log/index.js';
import { MemorySessionStore } from '../../src/session/index.js';
import { counterMachine, menuMachine, registry } from '../conversation/test-flows.js';

const KEY = 'telegram:7';
const address = { channel: 'telegram', address: '7', locale: 'en' } as const;
const counter: Omit<FlowDefinition, 'id'> = { version: 1, machine: counterMachine };

function engineOver(store: MemorySessionStore) {
  return createTurnEngine({
    store,
    flows: registry({ version: 1, machine: menuMachine }, { 'motor-quote': counter }),
    logger: createLogger({ level: 'silent' }),
  }).use(handoffMiddleware);
}

describe("the handoff's read of a conversation", () => {
  it('reads the flow and step without advancing it, and starts nothing on an empty session', async () => {
    const store = new MemorySessionStore();
    const engine = engineOver(store);
    expect(await readConversation(engine, KEY, address)).toMatchObject({ prompt: undefined });
    expect(await store.read(KEY)).toBeUndefined();

    await engine.turn(KEY, { type: 'user.text', text: 'hi' }, { address });
    await engine.turn(KEY, { type: 'user.choice', id: 'go' }, { address });
    const glance = await readConversation(engine, KEY, address);
    expect(glance).toMatchObject({ flowId: 'motor-quote', prompt: { key: 'test.count' } });
    expect((await engine.turn(KEY, { type: 'user.text', text: '1' }, { address })).params).toEqual({
      count: 1,
      inOrder: 'yes',
    });
    await engine.idle();
    engine.close();
  });

  it('lets every other peek through to the engine', async () => {
    const engine = engineOver(new MemorySessionStore());
    expect((await engine.peek(KEY, { address })).key).toBe('test.menu');
    await engine.idle();
    engine.close();
  });
});
