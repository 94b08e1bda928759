import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowId } from '../../src/conversation/flow.js';
import { en } from '../../src/conversation/locales/en.js';
import type { Prompt } from '../../src/conversation/prompt.js';
import type { Reply } from '../../src/conversation/reply.js';
import {
  FLOW_IDS,
  inputFor,
  pushedReplies,
  salient,
  TEXTS,
  variantsOf,
  worldMachine,
} from './fixtures.js';
import { type FlowSnapshot, stateId, step, walk } from './harness.js';
import { type SandboxWorld, startSandboxWorld } from './sandbox-world.js';

// The model walk's shortest path to every state, replayed through the real turn engine against
// the sandbox insurer. Choices are replayed by position (the sandbox has its own ids), answers as
// typed. Where the sandbox's data differ from the test world (a record the sandbox does not
// have), the conversation legitimately goes elsewhere: it must still show a well-formed screen.

let world: SandboxWorld;
beforeAll(async () => {
  world = await startSandboxWorld();
});
afterAll(async () => {
  await world.close();
});

/** How a user reaches each flow from the entry menu. */
const ENTRY: Record<FlowId, { audience: 'policyholder' | 'staff'; replies: Reply[] }> = {
  'main-menu': { audience: 'policyholder', replies: [] },
  'motor-quote': { audience: 'policyholder', replies: [{ type: 'user.choice', id: 'motor' }] },
  'travel-issue': { audience: 'policyholder', replies: [{ type: 'user.choice', id: 'travel' }] },
  'claim-intimation': { audience: 'policyholder', replies: [{ type: 'user.choice', id: 'claim' }] },
  'cover-status': { audience: 'policyholder', replies: [{ type: 'user.choice', id: 'policies' }] },
  'staff-desk': { audience: 'staff', replies: [{ type: 'user.choice', id: 'desk' }] },
};

/**
 * Per test world: answers rewritten so the sandbox's records match the world (its seeded funeral
 * principal; a plate, phone and NRC it does not know), and the USSD caller's number.
 */
const SANDBOX_WORLD: Record<string, { texts?: Record<string, string>; caller?: string }> = {
  'cover-status:typical': { texts: { '479974111': '123456101' } },
  'staff-desk:typical': { texts: { 'household 479974/11/1': 'household 123456/10/1' } },
  'motor-quote:unknownVehicleAndHolder': {
    texts: { 'AJQ 1909': 'ABZ 4321', '479974111': '111111111' },
    caller: '0977000009',
  },
  'motor-quote:vehicleWithoutCategory': { caller: '0977000001' },
  'travel-issue:failedAtOnce': { caller: '0977000001' },
};

type Move = { reply: Reply; choiceIndex?: number };

function movesOf(path: { steps: { event: Reply; state: FlowSnapshot }[] }, first: FlowSnapshot) {
  const moves: Move[] = [];
  let before = first;
  for (const step of path.steps) {
    const event = step.event;
    // The walk's first step is the machine's own start event, not a reply.
    if (!event.type.startsWith('user.')) continue;
    if (event.type === 'user.choice') {
      const index = (before.context.prompt.choices ?? []).findIndex((c) => c.id === event.id);
      moves.push(index >= 0 ? { reply: event, choiceIndex: index } : { reply: event });
    } else {
      moves.push({ reply: event });
    }
    before = step.state;
  }
  return moves;
}

function visible(snapshot: FlowSnapshot): Prompt | undefined {
  return snapshot.status === 'done'
    ? (snapshot.output as { prompt?: Prompt } | undefined)?.prompt
    : snapshot.context.prompt;
}

function problemsOf(prompt: Prompt): string[] {
  const problems: string[] = [];
  if (!Object.hasOwn(en, prompt.key)) problems.push(`unknown key ${prompt.key}`);
  if (prompt.key.startsWith('engine.')) problems.push(`engine screen ${prompt.key}`);
  if (prompt.input === 'choice' && (prompt.choices?.length ?? 0) === 0) problems.push('no choices');
  if (prompt.final !== (prompt.input === 'none')) problems.push('final and input disagree');
  return problems;
}

const WORLDS = FLOW_IDS.flatMap((flow) =>
  ['typical', ...variantsOf(flow)].map((variant) => [flow, variant] as const),
);

describe.each(WORLDS)(
  'the %s flow (%s world) through the engine against the sandbox',
  (flow, variant) => {
    it('shows a well-formed screen at the end of every walked path', async () => {
      const machine = variant === 'typical' ? worldMachine(flow) : worldMachine(flow, { variant });
      const rewrite = SANDBOX_WORLD[`${flow}:${variant}`] ?? {};
      const paths = walk(machine, inputFor(flow), {
        texts: TEXTS,
        extra: pushedReplies,
        serialize: salient(flow),
      });
      // One path per state (the shortest); payment pushes need a live reference, so skip them.
      const byState = new Map<string, (typeof paths)[number]>();
      for (const path of paths) {
        if (path.steps.some((s) => s.event.type === 'payment.settled')) continue;
        const id = stateId(path.state.value);
        const known = byState.get(id);
        if (!known || known.steps.length > path.steps.length) byState.set(id, path);
      }
      const first = step(machine, inputFor(flow), undefined);
      let same = 0;
      let index = 0;
      for (const [id, path] of byState) {
        const key = `test:walk:${flow}:${variant}:${index++}`;
        const { audience } = ENTRY[flow];
        // A USSD caller: the engine vouches for the number, so "my number" is offered as modelled.
        const options = {
          audience,
          deadlineMs: 10_000,
          address: { channel: 'ussd', address: rewrite.caller ?? '0971234567', locale: 'en' },
        } as const;
        let shown = await world.engine.handle(key, { type: 'user.text', text: 'hi' }, options);
        for (const reply of ENTRY[flow].replies)
          shown = await world.engine.handle(key, reply, options);
        for (const move of movesOf(path, first)) {
          if (shown.final) break;
          const reply: Reply =
            move.choiceIndex !== undefined
              ? { type: 'user.choice', id: shown.choices?.[move.choiceIndex]?.id ?? 'none' }
              : move.reply.type === 'user.text'
                ? { type: 'user.text', text: rewrite.texts?.[move.reply.text] ?? move.reply.text }
                : move.reply;
          shown = await world.engine.handle(key, reply, options);
        }
        expect(problemsOf(shown), `${flow} → ${id}: ${shown.key}`).toEqual([]);
        const modelled = visible(path.state);
        // A hand-over ends the menu; the engine then shows the next flow's first screen.
        if (modelled ? shown.key === modelled.key : !shown.final) same += 1;
        else if (process.env.FLOW_TEST_LOG) console.log(flow, id, modelled?.key, shown.key);
      }
      console.log(
        `${flow} (${variant}): replayed ${byState.size} paths through the engine; ${same} reached the modelled screen`,
      );
    });
  },
);
