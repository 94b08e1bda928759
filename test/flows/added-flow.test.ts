import { afterAll, beforeAll, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { z } from 'zod';
import type { AddedFlow } from '../../flows/index.js';
import { ask, end } from '../../flows/support.js';
import {
  AWAITING_INPUT,
  addMessages,
  type FlowContextBase,
  type FlowDefinition,
  type FlowOutput,
  type FlowStartInput,
  type Reply,
} from '../../src/conversation/index.js';
import { startTestServer, type TestServer } from '../server/test-server.js';
import { type UssdCaller, ussdCaller } from '../server/ussd-caller.js';

/*
 * Issue 39: adding a flow touches only flows/, the locale catalogues and docs. This fixture
 * product is registered through createFlowRegistry's `added` (the server's `addedFlows`), brings
 * its own words, and is walked on USSD through the engine without editing either.
 */

/** What the fixture takes as its start: a pet already named (its own schema, like every flow's). */
const PetCoverStart = z.object({ pet: z.string().optional() });

interface PetCoverContext extends FlowContextBase {
  pet: string | null;
}

const petCoverMachine = setup({
  types: {
    context: {} as PetCoverContext,
    events: {} as Reply,
    input: {} as FlowStartInput<z.infer<typeof PetCoverStart>>,
    output: {} as FlowOutput,
  },
}).createMachine({
  id: 'pet-cover',
  context: ({ input }) => ({
    pet: input.start?.pet ?? null,
    prompt: ask('pet.name', 'text'),
  }),
  initial: 'naming',
  states: {
    naming: {
      tags: AWAITING_INPUT,
      on: {
        'user.text': {
          target: 'covered',
          actions: assign({
            pet: ({ event }) => event.text.trim(),
            prompt: ({ event }) => end('pet.covered', { pet: event.text.trim() }),
          }),
        },
      },
    },
    covered: { type: 'final' },
  },
  output: ({ context }) => ({ prompt: context.prompt }),
});

const petCover: FlowDefinition<typeof petCoverMachine> = {
  id: 'pet-cover',
  version: 1,
  machine: petCoverMachine,
  start: PetCoverStart,
};

const ADDED: AddedFlow = {
  definition: petCover,
  menu: { choice: 'pet', audiences: ['policyholder'] },
};

let app: TestServer;

beforeAll(async () => {
  addMessages('en', {
    'menu.choice.pet': 'Pet cover',
    'pet.name': "Your pet's name?",
    'pet.covered': '{pet} is covered.',
  });
  app = await startTestServer({}, { addedFlows: [ADDED] });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** The number of the choice on a USSD screen whose label matches. */
function numberOf(screen: string, label: RegExp): string {
  const line = screen.split('\n').find((row) => /^\d+\. /.test(row) && label.test(row));
  if (!line) throw new Error(`no choice ${label} on: ${screen}`);
  return line.split('.')[0] ?? '';
}

/** Answers a screen by the choice whose label matches. */
const choose = (caller: UssdCaller, screen: string, label: RegExp) =>
  caller.send(numberOf(screen, label));

it('lists a flow added through the registry on the USSD menu and walks it to its own closing screen', async () => {
  const caller = ussdCaller(() => app.url, 'added-flow');
  const menu = await caller.dial();
  expect(menu).toMatch(/^CON /);
  expect(menu).toContain('Pet cover');
  const picked = await choose(caller, menu, /Pet cover/);
  // Like every entry that asks for personal data, the privacy notice comes first when not agreed.
  const question = /Agree/.test(picked) ? await choose(caller, picked, /Agree/) : picked;
  expect(question).toBe("CON Your pet's name?");
  expect(await caller.send('Rex')).toBe('END Rex is covered.');
});

it('refuses to register a flow under an id the registry has already', async () => {
  const taken: AddedFlow = { definition: { ...petCover, id: 'motor-quote' } };
  await expect(startTestServer({}, { addedFlows: [taken] })).rejects.toThrow(
    'Flow motor-quote is registered already',
  );
});
