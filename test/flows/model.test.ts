import { describe, expect, it, vi } from 'vitest';
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
import {
  apiErrors,
  type FlowSnapshot,
  PAYMENT_SCREEN_IDS,
  paymentScreenId,
  promptProblems,
  stateId,
  step,
  visibleStates,
  walk,
} from './harness.js';

// CPU-bound walks of every flow: two test files share two cores, so each gets room beyond
// the suite's 30 s (a ceiling against a hang, not a measure of speed).
vi.setConfig({ testTimeout: 120_000 });

const hasKey = (key: string) => Object.hasOwn(en, key);

/** Flows with a failure screen per stage rather than one for every call (issue 39). */
const STAGED_FAILURES: ReadonlySet<FlowId> = new Set(['motor-quote', 'travel-issue']);

const walked = new Map<FlowId, ReturnType<typeof walk>>();

/** The flows that pay: each runs the payment child (flows/payment-machine.ts). */
const PAYING: readonly FlowId[] = ['motor-quote', 'travel-issue'];

type WalkedPath = ReturnType<typeof walk>[number];

/** The screen a settled snapshot shows. */
function shownBy(snapshot: FlowSnapshot): Prompt | undefined {
  return snapshot.status === 'done'
    ? (snapshot.output as { prompt?: Prompt } | undefined)?.prompt
    : snapshot.context.prompt;
}

/** A failed payment's screen after the call was let go, with `reason`, offering these ways on. */
const failedAfterCall = (reason: string) => (path: WalkedPath) => {
  const prompt = shownBy(path.state);
  return (
    prompt?.key === 'pay.failed' &&
    (prompt.choices ?? []).map((c) => c.id).join(' ') === 'retry card end' &&
    JSON.stringify(prompt.notes ?? []).includes(reason)
  );
};

/**
 * What paying on a handset meets since issue 38 (the call let go before the PIN prompt, the pay
 * request sent later by `payment.proceed`), each a predicate on a walked path. The sandbox's payer
 * numbers end in 1 (declined), 2 (insufficient funds) or 3 (the prompt expires).
 */
const PAY_SITUATIONS: Record<string, (path: WalkedPath, flow: FlowId) => boolean> = {
  'END before the PIN prompt': (path) => {
    const prompt = shownBy(path.state);
    return prompt?.key === 'pay.released' && prompt.endsCall === true;
  },
  'the pay request once payment.proceed came': (path) =>
    path.steps.at(-1)?.event.type === 'payment.proceed' && path.state.status === 'active',
  'declined, then Pay again / Card / End': failedAfterCall('declined'),
  'insufficient funds, then Pay again / Card / End': failedAfterCall('Insufficient funds'),
  'the prompt expired, then Pay again / Card / End': failedAfterCall('expired'),
  'the price changed at pay time': (path) => shownBy(path.state)?.key === 'motor.confirmRepriced',
  'the insurer refused at pay time': (path) => {
    const failure = (path.state.context as { failure?: { op?: string; kind?: string } | null })
      .failure;
    return path.state.status === 'active' && failure?.op === 'pay' && failure.kind === 'rejected';
  },
  'a redial while the PIN prompt waits': (path) => {
    const prompt = shownBy(path.state);
    return prompt?.key === 'pay.waitHandset' && prompt.endsCall === true;
  },
};

/** Card offered by a handset's failure screen: the card page of a new attempt follows. */
const CARD_AFTER_FAILURE = 'Card chosen after a failure on the handset: the card page';

/** Per paying flow: the payment screens and pay situations its walks reached. */
const payReached = new Map<FlowId, Set<string>>();
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
      // A flow whose stages each own a failure screen: one call down at a time reaches each.
      ...(STAGED_FAILURES.has(flow) ? actorNames(flow) : []).map((actor) => ({
        name: `${actor} down`,
        machine: worldMachine(flow, { failing: [actor], error: apiErrors.serverError }),
      })),
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
      const pay = payReached.get(flow) ?? new Set<string>();
      payReached.set(flow, pay);
      for (const path of paths) {
        reached.add(stateId(path.state.value));
        const screen = paymentScreenId(path.state);
        if (screen) pay.add(screen);
        // The state after Card is one the walk reaches sooner by another way: stepped here.
        if (screen === 'payment/failed (call let go)') {
          const after = step(world.machine, world.input ?? input, path.state, {
            type: 'user.choice',
            id: 'card',
          });
          if (shownBy(after)?.key === 'pay.waitCard') pay.add(CARD_AFTER_FAILURE);
        }
        for (const [name, met] of Object.entries(PAY_SITUATIONS)) {
          if (met(path, flow)) pay.add(name);
        }
        const problems = promptProblems(path.state, hasKey);
        expect(problems, `${world.name} → ${stateId(path.state.value)}`).toEqual([]);
      }
    }
    const states = visibleStates(worldMachine(flow));
    console.log(
      `${flow}: walked ${walked} paths in ${worlds.length} worlds; states ${states.filter((id) => reached.has(id)).length}/${states.length}`,
    );
    expect([...reached].sort()).toEqual(expect.arrayContaining(states));
  });

  it.runIf(PAYING.includes(flow))(
    'reaches every payment screen and every way a handset payment goes since the call ends before the PIN prompt',
    () => {
      const pay = payReached.get(flow) ?? new Set<string>();
      // Travel is quoted before its pay screen: its price cannot change at the pay step.
      const wanted = [
        ...PAYMENT_SCREEN_IDS,
        ...Object.keys(PAY_SITUATIONS),
        CARD_AFTER_FAILURE,
      ].filter((id) => flow === 'motor-quote' || id !== 'the price changed at pay time');
      const missing = wanted.filter((id) => !pay.has(id));
      console.log(
        `${flow}: payment screens and situations ${wanted.length - missing.length}/${wanted.length}${missing.length ? ` (missing: ${missing.join('; ')})` : ''}`,
      );
      expect(missing).toEqual([]);
    },
  );

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
