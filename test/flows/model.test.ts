import { describe, expect, it } from 'vitest';
import type { FlowId } from '../../flows/index.js';
import type { FlowStartInput } from '../../src/conversation/flow.js';
import { renderPrompt } from '../../src/conversation/index.js';
import { en } from '../../src/conversation/locales/en.js';
import type { Prompt } from '../../src/conversation/prompt.js';
import {
  actorNames,
  FLOW_IDS,
  inputFor,
  otherInputsFor,
  pushedReplies,
  salient,
  TEXTS,
  variantsOf,
  worldMachine,
} from './fixtures.js';
import { apiErrors, promptProblems, stateId, step, visibleStates, walk } from './harness.js';

const hasKey = (key: string) => Object.hasOwn(en, key);

const walked = new Map<FlowId, ReturnType<typeof walk>>();
/** The typical world's walk of a flow, computed once and shared by the tests below. */
function typicalPaths(flow: FlowId) {
  const known = walked.get(flow);
  if (known) return known;
  const paths = walk(worldMachine(flow), inputFor(flow), {
    texts: TEXTS,
    extra: pushedReplies,
    serialize: salient(flow),
  });
  walked.set(flow, paths);
  return paths;
}

describe.each(FLOW_IDS)('the %s flow, walked state by state', (flow) => {
  it('reaches every waiting and final state, each showing a well-formed Prompt', () => {
    const input = inputFor(flow);
    const worlds: {
      name: string;
      machine: ReturnType<typeof worldMachine>;
      input?: FlowStartInput;
    }[] = [
      { name: 'typical', machine: worldMachine(flow) },
      ...otherInputsFor(flow).map((other) => ({ ...other, machine: worldMachine(flow) })),
      ...variantsOf(flow).map((variant) => ({
        name: variant,
        machine: worldMachine(flow, { variant }),
      })),
      {
        name: 'insurer down',
        machine: worldMachine(flow, { failing: actorNames(flow), error: apiErrors.serverError }),
      },
    ];
    const reached = new Set<string>();
    let walked = 0;
    for (const world of worlds) {
      const paths =
        world.name === 'typical'
          ? typicalPaths(flow)
          : walk(world.machine, world.input ?? input, {
              texts: TEXTS,
              extra: pushedReplies,
              serialize: salient(flow),
            });
      walked += paths.length;
      for (const path of paths) {
        reached.add(stateId(path.state.value));
        const problems = promptProblems(path.state, hasKey);
        expect(problems, `${world.name} → ${stateId(path.state.value)}`).toEqual([]);
      }
    }
    console.log(`${flow}: walked ${walked} paths in ${worlds.length} worlds`);
    expect([...reached].sort()).toEqual(expect.arrayContaining(visibleStates(worldMachine(flow))));
  });

  it('keeps every screen within one USSD page and every snapshot within 2 KB', () => {
    for (const path of typicalPaths(flow)) {
      const { status, output, context } = path.state;
      const prompt = status === 'done' ? (output as { prompt?: Prompt }).prompt : context.prompt;
      // The staff desk only runs on Slack, whose answers are Block Kit, not USSD pages.
      if (prompt && flow !== 'staff-desk') {
        const shown = renderPrompt(prompt);
        const screen = [shown.text, ...shown.choices.map((c, i) => `${i + 1}. ${c.label}`)];
        expect(screen.join('\n').length, prompt.key).toBeLessThanOrEqual(182);
      }
      expect(JSON.stringify(path.state).length, stateId(path.state.value)).toBeLessThanOrEqual(
        2048,
      );
    }
  });

  it('offers Back on every screen', () => {
    const machine = worldMachine(flow);
    for (const id of visibleStates(machine)) {
      const node = machine.getStateNodeById(`${machine.id}.${id}`);
      if (node.type === 'final') continue;
      expect(Object.keys(node.on), id).toContain('user.back');
    }
  });

  it('lets the user cancel on every screen, ending politely', () => {
    const machine = worldMachine(flow);
    const input = inputFor(flow);
    for (const path of typicalPaths(flow).filter((p) => p.state.status === 'active')) {
      const after = step(machine, input, path.state, { type: 'user.cancel' });
      expect(after.status).toBe('done');
      expect((after.output as { prompt?: { key: string } }).prompt?.key).toBe('flow.end.cancelled');
    }
  });
});
