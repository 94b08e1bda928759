import { afterEach, expect, it } from 'vitest';
import { setup } from 'xstate';
import { z } from 'zod';
import {
  AWAITING_INPUT,
  type ConversationEngine,
  createTurnEngine,
  type FlowDefinition,
  type FlowStartInput,
  type Reply,
} from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import { MemorySessionStore } from '../../src/session/index.js';
import { menuMachine, registry } from './test-flows.js';

/*
 * Issue 39: the engine takes opaque flow ids and a start each flow validates with its own schema;
 * the flow sees what its schema read, never what it was handed.
 */

const KEY = 'telegram:42';

/** A flow that shows the start it was given, whole, as its prompt's params. */
const echoMachine = setup({
  types: { events: {} as Reply, input: {} as FlowStartInput },
}).createMachine({
  id: 'echo',
  context: ({ input }) => ({
    prompt: {
      key: 'test.echo',
      input: 'text' as const,
      final: false,
      params: { start: JSON.stringify(input.start ?? null) },
    },
  }),
  initial: 'showing',
  states: { showing: { tags: [AWAITING_INPUT] } },
});

const Counted = z.object({ count: z.number().int() });
const menu: Omit<FlowDefinition, 'id'> = { version: 1, machine: menuMachine };
const checked: Omit<FlowDefinition, 'id'> = { version: 1, machine: echoMachine, start: Counted };
const unchecked: Omit<FlowDefinition, 'id'> = { version: 1, machine: echoMachine };
const engines: ConversationEngine[] = [];

afterEach(async () => {
  for (const created of engines.splice(0)) await created.close();
});

function engine(): ConversationEngine {
  const created = createTurnEngine({
    store: new MemorySessionStore(),
    flows: registry(menu, { 'motor-quote': checked, 'travel-issue': unchecked }),
    logger: createLogger({ level: 'silent' }),
  });
  engines.push(created);
  return created;
}

it('hands a flow the start its schema read, without the fields the schema does not know', async () => {
  const prompt = await engine().start(KEY, 'motor-quote', { start: { count: 3, other: 'x' } });
  expect(prompt.params).toEqual({ start: '{"count":3}' });
});

it('refuses a start the flow schema refuses, and shows the engine error', async () => {
  const prompt = await engine().start(KEY, 'motor-quote', { start: { count: 'three' } });
  expect(prompt.key).toBe('engine.error');
});

it('starts a flow that takes no start without the one it was handed', async () => {
  const prompt = await engine().start(KEY, 'travel-issue', { start: { count: 3 } });
  expect(prompt.params).toEqual({ start: 'null' });
});
