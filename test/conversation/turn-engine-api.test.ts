import { afterEach, describe, expect, it } from 'vitest';
import {
  type ConversationEngine,
  createTurnEngine,
  type FlowDefinition,
  type Prompt,
  type Reply,
} from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import { MemorySessionStore } from '../../src/session/index.js';
import { counterMachine, menuMachine, registry } from './test-flows.js';

const KEY = 'telegram:42';
const text = (value: string | number): Reply => ({ type: 'user.text', text: String(value) });
const counter: Omit<FlowDefinition, 'id'> = { version: 1, machine: counterMachine };
const menu: Omit<FlowDefinition, 'id'> = { version: 1, machine: menuMachine };
const engines: ConversationEngine[] = [];

function engine(store = new MemorySessionStore()): ConversationEngine {
  const created = createTurnEngine({
    store,
    flows: registry(menu, { 'motor-quote': counter }),
    logger: createLogger({ level: 'silent' }),
    defaultDeadlineMs: 20_000,
  });
  engines.push(created);
  return created;
}

afterEach(async () => {
  for (const created of engines.splice(0)) {
    await created.idle();
    created.close();
  }
});

describe('the engine API: turn, peek, start', () => {
  it('turn applies a reply', async () => {
    const turns = engine();
    await turns.turn(KEY, text('hi'));
    expect((await turns.turn(KEY, { type: 'user.choice', id: 'go' })).key).toBe('test.count');
  });

  it('peek shows the entry menu on an empty session and keeps it for the next turn', async () => {
    const store = new MemorySessionStore();
    const turns = engine(store);
    expect((await turns.peek(KEY)).key).toBe('test.menu');
    expect(await store.read(KEY)).toBeDefined();
    // The menu is now what the session waits on: a choice is applied to it.
    expect((await turns.turn(KEY, { type: 'user.choice', id: 'go' })).key).toBe('test.count');
  });

  it('peek shows what the session waits on without applying anything', async () => {
    const store = new MemorySessionStore();
    const turns = engine(store);
    await turns.turn(KEY, text('dial'));
    await turns.turn(KEY, { type: 'user.choice', id: 'go' });
    await turns.turn(KEY, text(1));
    const before = await store.read(KEY);
    expect((await turns.peek(KEY)).params).toEqual({ count: 1, inOrder: 'yes' });
    expect((await turns.peek(KEY)).params).toEqual({ count: 1, inOrder: 'yes' });
    expect(await store.read(KEY)).toEqual(before);
    expect((await turns.turn(KEY, text(2))).params).toEqual({ count: 2, inOrder: 'yes' });
  });

  it('peek reads a session another instance wrote', async () => {
    const store = new MemorySessionStore();
    await engine(store).turn(KEY, text('dial'));
    await engines[0]?.turn(KEY, { type: 'user.choice', id: 'go' });
    expect((await engine(store).peek(KEY)).key).toBe('test.count');
  });

  it('start drops the conversation and opens the flow asked for', async () => {
    const turns = engine();
    await turns.turn(KEY, text('dial'));
    await turns.turn(KEY, { type: 'user.choice', id: 'go' });
    await turns.turn(KEY, text(1));
    expect((await turns.start(KEY, 'main-menu')).key).toBe('test.menu');
    expect((await turns.start(KEY, 'motor-quote')).params).toEqual({ count: 0, inOrder: 'yes' });
    expect((await turns.turn(KEY, text(1))).params).toEqual({ count: 1, inOrder: 'yes' });
  });

  it('start on an empty session opens the flow at once', async () => {
    const turns = engine();
    expect((await turns.start(KEY, 'motor-quote')).params).toEqual({ count: 0, inOrder: 'yes' });
  });

  it('start answers engine.error for a flow that is not registered, keeping the session', async () => {
    const turns = engine();
    await turns.turn(KEY, text('dial'));
    expect((await turns.start(KEY, 'no-such-flow')).key).toBe('engine.error');
    expect((await turns.peek(KEY)).key).toBe('test.menu');
  });
});

describe('engine middleware', () => {
  it('runs middleware in the order added, around the turn, with the session it read', async () => {
    const turns = engine();
    const seen: string[] = [];
    turns.use(
      async (context, next) => {
        seen.push(`outer:${context.session.flowId ?? 'none'}`);
        const prompt = await next();
        seen.push(`outer:${prompt.key}`);
        return prompt;
      },
      async (_context, next) => {
        seen.push('inner');
        return next();
      },
    );
    await turns.turn(KEY, text('dial'));
    await turns.turn(KEY, { type: 'user.choice', id: 'go' });
    expect(seen).toEqual([
      'outer:none',
      'inner',
      'outer:test.menu',
      'outer:main-menu',
      'inner',
      'outer:test.count',
    ]);
  });

  it('lets middleware read the request as another Reply', async () => {
    const turns = engine();
    turns.use((context, next) => {
      const { request } = context;
      if (request.kind === 'reply' && request.reply.type === 'user.text') {
        context.request = { kind: 'reply', reply: { type: 'user.choice', id: request.reply.text } };
      }
      return next();
    });
    await turns.turn(KEY, text('dial'));
    expect((await turns.turn(KEY, text('go'))).key).toBe('test.count');
  });

  it('answers from middleware without the flow, writing nothing', async () => {
    const store = new MemorySessionStore();
    const turns = engine(store);
    await turns.turn(KEY, text('dial'));
    const before = await store.read(KEY);
    const own: Prompt = { key: 'test.own', input: 'none', final: false };
    turns.use(async () => own);
    expect(await turns.turn(KEY, { type: 'user.choice', id: 'go' })).toBe(own);
    expect(await store.read(KEY)).toEqual(before);
  });

  it('keeps the record with a channel state, and shows it to the next turn', async () => {
    const turns = engine();
    const states: (string | undefined)[] = [];
    turns.use(async (context, next) => {
      states.push(context.session.state);
      if (context.session.state === 'page-1') return context.keep('page-2');
      const shown = await next();
      context.channelState = 'page-1';
      return shown;
    });
    await turns.turn(KEY, text('dial'));
    expect((await turns.turn(KEY, text('more'))).key).toBe('test.menu');
    await turns.turn(KEY, text('again'));
    expect(states).toEqual([undefined, 'page-1', 'page-2']);
  });

  it('restarts the conversation on the entry menu when middleware asks', async () => {
    const turns = engine();
    await turns.turn(KEY, text('dial'));
    await turns.turn(KEY, { type: 'user.choice', id: 'go' });
    turns.use((context, next) => {
      context.request = { kind: 'restart' };
      return next();
    });
    expect((await turns.turn(KEY, text(1))).key).toBe('test.menu');
  });

  it('answers engine.error and frees the session when middleware throws', async () => {
    const turns = engine();
    let fail = true;
    turns.use((_context, next) => {
      if (fail) throw new Error('middleware broke');
      return next();
    });
    expect((await turns.turn(KEY, text('dial'))).key).toBe('engine.error');
    fail = false;
    expect((await turns.turn(KEY, text('dial'))).key).toBe('test.menu');
  });

  it('refuses a turn that middleware ends twice', async () => {
    const turns = engine();
    turns.use(async (_context, next) => {
      await next();
      return next();
    });
    expect((await turns.turn(KEY, text('dial'))).key).toBe('engine.error');
  });
});
