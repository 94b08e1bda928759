import {
  type ActorLogic,
  type AnyStateMachine,
  createActor,
  type PromiseActorLogic,
  type Snapshot,
} from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { ApiError, ApiTimeoutError } from '../../src/api/index.js';
import type { FlowStartInput } from '../../src/conversation/flow.js';
import { Prompt } from '../../src/conversation/prompt.js';
import type { Reply } from '../../src/conversation/reply.js';

/**
 * A promise actor that settles synchronously: the parent sees `xstate.done.actor.*` (or the error)
 * within the same `send`, so a whole conversation runs without awaiting anything.
 */
export function syncActor<TOutput, TInput>(
  fn: (input: TInput) => TOutput,
): PromiseActorLogic<TOutput, TInput> {
  const logic = {
    config: fn,
    transition: (snapshot: unknown) => snapshot,
    getInitialSnapshot: (_scope: unknown, input: TInput) => {
      try {
        return { status: 'done', output: fn(input), error: undefined, input: undefined };
      } catch (error) {
        return { status: 'error', output: undefined, error, input: undefined };
      }
    },
    getPersistedSnapshot: (snapshot: unknown) => snapshot,
    restoreSnapshot: (snapshot: unknown) => snapshot,
  };
  return logic as unknown as PromiseActorLogic<TOutput, TInput>;
}

/** The client's own errors, for failure tests: flows classify them by class. */
export const apiErrors = {
  timeout: new ApiTimeoutError({ operation: 'test', timeoutMs: 10 }),
  serverError: new ApiError({ status: 500, operation: 'test', rawBody: '' }),
  fieldErrors: new ApiError({
    status: 422,
    operation: 'test',
    rawBody: JSON.stringify({
      status: 422,
      message: 'Validation failed',
      errors: { registrationNumber: ['is invalid'] },
    }),
  }),
} as const;

/** A persisted machine snapshot as the graph walk sees it. */
export interface FlowSnapshot {
  status: 'active' | 'done' | 'error' | 'stopped';
  value: unknown;
  context: { prompt: Prompt; answers?: Record<string, unknown> } & Record<string, unknown>;
  tags?: string[];
  output?: unknown;
  error?: unknown;
}

/** Runs `machine` from a persisted snapshot, sends `event`, returns the settled persisted snapshot. */
export function step(
  machine: AnyStateMachine,
  input: FlowStartInput,
  snapshot: FlowSnapshot | undefined,
  event?: Reply,
): FlowSnapshot {
  const actor = createActor(
    machine,
    snapshot ? { input, snapshot: snapshot as unknown as Snapshot<unknown> } : { input },
  );
  let thrown: unknown;
  actor.subscribe({ error: (error) => (thrown = error) });
  actor.start();
  if (event) actor.send(event);
  const live = actor.getSnapshot();
  if (thrown !== undefined) throw thrown;
  const persisted = actor.getPersistedSnapshot() as unknown as FlowSnapshot;
  actor.stop();
  return { ...persisted, tags: [...(live.tags as Set<string>)] };
}

/** The machine as graph-walkable logic whose every state is a settled (waiting or done) snapshot. */
export function settledLogic(
  machine: AnyStateMachine,
  input: FlowStartInput,
): ActorLogic<FlowSnapshot & Snapshot<unknown>, Reply, FlowStartInput> {
  const logic = {
    config: machine,
    transition: (snapshot: FlowSnapshot, event: Reply) =>
      snapshot.status === 'active' ? step(machine, input, snapshot, event) : snapshot,
    getInitialSnapshot: () => step(machine, input, undefined),
    getPersistedSnapshot: (snapshot: FlowSnapshot) => snapshot,
  };
  return logic as unknown as ActorLogic<FlowSnapshot & Snapshot<unknown>, Reply, FlowStartInput>;
}

/** Sample answers per input kind: one the flow accepts and one it must reject. */
export const DEFAULT_SAMPLES: Record<string, string[]> = {
  nrc: ['479974111', '12/34'],
  phone: ['0971234567', '12345'],
  date: ['2099-01-15', '31/02/2020'],
  amount: ['150000', '-3'],
  text: ['Toyota', '!!'],
  photo: [],
  choice: [],
  contact: [],
  none: [],
};

/** Which replies the walk tries on a screen: every choice, sample texts, Back and Cancel. */
export function repliesFor(
  snapshot: FlowSnapshot,
  options: { texts?: Record<string, string[]>; extra?: (s: FlowSnapshot) => Reply[] } = {},
): Reply[] {
  if (snapshot.status !== 'active') return [];
  const prompt = snapshot.context.prompt;
  const texts = options.texts?.[prompt.key] ?? DEFAULT_SAMPLES[prompt.input] ?? [];
  return [
    ...(prompt.choices ?? []).map((c): Reply => ({ type: 'user.choice', id: c.id })),
    ...texts.map((text): Reply => ({ type: 'user.text', text })),
    ...(prompt.input === 'photo'
      ? [{ type: 'user.photo', url: 'https://files.test/f/1?sig=x' } as const]
      : []),
    ...(prompt.input === 'phone' || prompt.input === 'contact'
      ? [{ type: 'user.contact', phone: '260971234567' } as const]
      : []),
    ...(options.extra?.(snapshot) ?? []),
    { type: 'user.back' },
    { type: 'user.cancel' },
  ];
}

/** Serialises a settled snapshot for the walk: state value and context (tries included). */
export function serialize(snapshot: FlowSnapshot): string {
  return JSON.stringify({ s: snapshot.status, v: snapshot.value, c: snapshot.context });
}

/** Every settled state the machine can reach with these replies, with the shortest path to it. */
export function walk(
  machine: AnyStateMachine,
  input: FlowStartInput,
  options: Parameters<typeof repliesFor>[1] & {
    limit?: number;
    /** Projects a snapshot onto what matters for coverage (bounds the walk); default: all. */
    serialize?: (snapshot: FlowSnapshot) => string;
    stopWhen?: (snapshot: FlowSnapshot) => boolean;
  } = {},
) {
  const project = options.serialize ?? serialize;
  // The graph asks for a state's key once when it maps the transitions and again when it finds
  // the shortest paths; a settled snapshot is never changed, so its key is worked out once.
  const keys = new WeakMap<FlowSnapshot, string>();
  return getShortestPaths(settledLogic(machine, input), {
    events: (snapshot) => repliesFor(snapshot, options),
    serializeState: (snapshot) => {
      let key = keys.get(snapshot);
      if (key === undefined) {
        key = project(snapshot);
        keys.set(snapshot, key);
      }
      return key;
    },
    ...(options.stopWhen ? { stopWhen: options.stopWhen } : {}),
    limit: options.limit ?? 50_000,
  });
}

/** Every leaf state id of a machine that waits for input or ends (what a user can ever see). */
export function visibleStates(machine: AnyStateMachine): string[] {
  const out: string[] = [];
  const visit = (node: AnyStateMachine['root'], path: string[]) => {
    const children = Object.entries(node.states);
    if (children.length === 0) {
      if (node.type === 'final' || node.tags.includes('awaitingInput')) out.push(path.join('.'));
      return;
    }
    for (const [key, child] of children) visit(child, [...path, key]);
  };
  visit(machine.root, []);
  return out;
}

/** The dotted id of a snapshot's (single, leaf) state value. */
export function stateId(value: unknown): string {
  if (typeof value === 'string') return value;
  const [key, child] = Object.entries(value as Record<string, unknown>)[0] ?? ['', ''];
  return `${key}.${stateId(child)}`;
}

/** Problems with one Prompt: unknown keys, duplicate choice ids, a final flag that lies. */
export function promptProblems(snapshot: FlowSnapshot, hasKey: (key: string) => boolean): string[] {
  const problems: string[] = [];
  const done = snapshot.status === 'done';
  const output = (snapshot.output ?? {}) as { prompt?: unknown; next?: string };
  if (done && output.next !== undefined) return output.prompt ? ['hand-over with a prompt'] : [];
  const parsed = Prompt.safeParse(done ? output.prompt : snapshot.context.prompt);
  if (!parsed.success) return [`prompt does not parse: ${parsed.error.message}`];
  const prompt = parsed.data;
  if (!prompt.key || !hasKey(prompt.key)) problems.push(`missing key ${prompt.key}`);
  for (const note of prompt.notes ?? []) {
    if (!hasKey(note.key)) problems.push(`missing note key ${note.key}`);
  }
  const ids = new Set<string>();
  for (const c of prompt.choices ?? []) {
    if (ids.has(c.id)) problems.push(`duplicate choice ${c.id}`);
    ids.add(c.id);
    if (!c.literal && !hasKey(c.label)) problems.push(`missing choice key ${c.label}`);
  }
  if (prompt.input === 'choice' && ids.size === 0) problems.push('choice prompt without choices');
  if (prompt.final !== done) problems.push(`final=${prompt.final} but status=${snapshot.status}`);
  if (!done && !snapshot.tags?.includes('awaitingInput')) problems.push('settled without tag');
  return problems;
}

/** The payment child's snapshot inside a paying flow's persisted snapshot, if it runs one. */
interface PaymentChildView {
  value?: unknown;
  context?: {
    handset?: boolean;
    proceedId?: string;
    pay?: { released?: boolean; reference?: string; method?: { method?: string } };
  };
}

/** The payment child of a flow's persisted snapshot (see flows/payment-machine.ts), if any. */
export function paymentChild(snapshot: FlowSnapshot): PaymentChildView | undefined {
  const children = (snapshot as { children?: Record<string, { snapshot?: PaymentChildView }> })
    .children;
  return children?.payment?.snapshot;
}

/**
 * The payment child's screens, each a state of flows/payment-machine.ts; a handset's call let go
 * before the PIN prompt (issue 38) has screens of its own: where the payment stands on a redial,
 * and its failure offering Card.
 */
export const PAYMENT_SCREEN_IDS = [
  'payment/confirm',
  'payment/phone',
  'payment/released',
  'payment/wait',
  'payment/wait (call let go)',
  'payment/failed',
  'payment/failed (call let go)',
] as const;

/** Which of {@link PAYMENT_SCREEN_IDS} a flow shows, when its payment child waits on one. */
export function paymentScreenId(snapshot: FlowSnapshot): string | undefined {
  const child = paymentChild(snapshot);
  if (snapshot.status !== 'active' || typeof child?.value !== 'string') return undefined;
  const id = `payment/${child.value}`;
  if (!(PAYMENT_SCREEN_IDS as readonly string[]).includes(id)) return undefined;
  const letGo = child.context?.handset === true && child.context.pay?.released === true;
  const own =
    letGo &&
    (child.value === 'failed' ||
      (child.value === 'wait' && child.context?.pay?.method?.method === 'mobileMoney'));
  return own ? `${id} (call let go)` : id;
}
