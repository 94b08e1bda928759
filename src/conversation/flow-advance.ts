import { lusakaToday } from '../clock/index.js';
import type { Logger } from '../log/index.js';
import type { SessionStore } from '../session/index.js';
import type { ActorCache, CachedActor, FlowActor, RecordHead } from './actor-cache.js';
import { settleWithin, startWatched } from './deadline.js';
import { ENGINE_PROMPTS, stillWorkingPrompt, withNotes } from './engine-prompts.js';
import {
  type Audience,
  AWAITING_INPUT,
  type FlowDefinition,
  type FlowInput,
  type FlowRegistry,
  type FlowStart,
  type FlowStartInput,
  flowStartOf,
} from './flow.js';
import { isPrompt, type Prompt } from './prompt.js';
import type { RunningTurn } from './running-turn.js';
import { flowInputOf, type SessionRecord } from './session-record.js';
import { TurnError } from './turn-error.js';

/** What advancing flows needs from the engine around it. */
export interface FlowAdvanceOptions {
  readonly store: SessionStore;
  readonly flows: FlowRegistry;
  readonly logger: Logger;
  readonly cache: ActorCache;
  /** Clock for `updatedAt`, epoch ms. */
  readonly now: () => number;
  /** Longest a turn may run past its deadline before it is abandoned. */
  readonly maxTurnMs: number;
  /** Lock lifetime, extended while a turn runs past its deadline. */
  readonly lockTtlMs: number;
}

const MAX_HANDOVERS = 5;

/**
 * The flow's side of a turn: finds a flow in the registry (the entry flow of an audience is the
 * one that says so), starts or restores it, and advances it until it waits for input, answering
 * "still working" at the deadline, then commits the record (or removes it when the flow ended).
 */
export function createFlowAdvance(options: FlowAdvanceOptions) {
  const { store, flows, logger, cache, now, maxTurnMs, lockTtlMs } = options;
  /** The entry flow of each audience, found once. */
  const entries = new Map<Audience, string>();
  const entryFlowOf = (audience: Audience): string => {
    let found = entries.get(audience);
    if (found === undefined) {
      const definition = Object.values(flows).find((flow) => flow.entryFor?.includes(audience));
      if (!definition) throw new TurnError('TURN_FLOW_FAILED', `No entry flow for ${audience}`);
      found = definition.id;
      entries.set(audience, found);
    }
    return found;
  };

  const lookupFlow = (flowId: string): FlowDefinition | undefined =>
    Object.hasOwn(flows, flowId)
      ? (flows as Readonly<Record<string, FlowDefinition>>)[flowId]
      : undefined;

  const startFlow = async (
    turn: RunningTurn,
    flowId: string,
    input: FlowInput,
    notes: readonly string[],
    handovers = 0,
  ): Promise<void> => {
    const definition = lookupFlow(flowId);
    if (!definition) throw new TurnError('TURN_FLOW_FAILED', `Flow ${flowId} is not registered`);
    // The route goes to the flow, not into the record: the record keeps the address already.
    const address = turn.options.address;
    const routed: FlowInput = address
      ? { ...input, route: { sessionKey: turn.sessionKey, ...address } }
      : input;
    // The flow gets its start as its own schema reads it; the record keeps what was handed over.
    const start = flowStartOf(definition, input.start);
    if (start === false)
      throw new TurnError('TURN_FLOW_FAILED', `Flow ${flowId} refused its start`);
    const { start: _handed, ...plain } = routed;
    const started: FlowStartInput = {
      ...plain,
      ...(start === undefined ? {} : { start }),
      today: lusakaToday(now()),
    };
    const actor = startWatched(definition.machine, { input: started });
    await settleAndPersist(turn, definition, actor, input, notes, handovers);
  };

  /** Starts the entry flow of the input's audience. */
  const startEntry = (turn: RunningTurn, input: FlowInput, notes: readonly string[]) =>
    startFlow(turn, entryFlowOf(input.audience), input, notes);

  /** Waits for the flow to settle (answering "still working" at the deadline), then persists. */
  const settleAndPersist = async (
    turn: RunningTurn,
    definition: FlowDefinition,
    actor: FlowActor,
    input: FlowInput,
    notes: readonly string[],
    handovers: number,
  ): Promise<void> => {
    const settled = settleWithin(actor, turn.deadlineAt - Date.now());
    if (!(settled === true || (settled !== false && (await settled)))) {
      turn.late = true;
      turn.answerAhead(stillWorkingPrompt(ENGINE_PROMPTS.stillWorking));
      const keepAlive = setInterval(
        () => void store.extend(turn.lease, lockTtlMs).catch(() => undefined),
        Math.max(1_000, Math.floor(lockTtlMs / 3)),
      );
      try {
        if (!(await settleWithin(actor, maxTurnMs))) {
          actor.stop();
          throw new TurnError('TURN_ABANDONED', `Flow ${definition.id} did not settle`);
        }
      } finally {
        clearInterval(keepAlive);
      }
    }
    const snapshot = actor.getSnapshot();
    if (snapshot.status === 'error') {
      throw new TurnError('TURN_FLOW_FAILED', `Flow ${definition.id} failed`, {
        cause: snapshot.error,
      });
    }
    if (snapshot.status === 'done') {
      const output = flowOutputOf(snapshot.output);
      if (output === false) {
        throw new TurnError('TURN_BAD_PROMPT', `Flow ${definition.id} output is not a FlowOutput`);
      }
      const next = output?.next;
      if (next !== undefined) {
        if (handovers >= MAX_HANDOVERS) {
          throw new TurnError(
            'TURN_HANDOVER_LOOP',
            `Too many flow hand-overs from ${definition.id}`,
          );
        }
        // The start point is for the flow handed over to only, never inherited further.
        const { start: _previous, ...base } = input;
        const nextInput: FlowInput = output?.start ? { ...base, start: output.start } : base;
        await startFlow(turn, next, nextInput, notes, handovers + 1);
        return;
      }
      const closing: Prompt = withNotes(
        { ...(output?.prompt ?? { key: ENGINE_PROMPTS.goodbye, input: 'none' }), final: true },
        notes,
      );
      const channel = await turn.present(closing);
      const unseen = turn.late || turn.system;
      // A closing screen that erased the user's data (or kept none) takes the session with it.
      if (output?.forget !== true && (unseen || channel !== undefined)) {
        // The user saw "still working" or was told out of turn: keep the closing screen for
        // their next turn. Or the channel pages through it: keep it until its last page.
        const flags = unseen
          ? { unseen: true as const, ended: true as const }
          : { ended: true as const };
        await persist(store, now, turn, definition, {}, input, closing, flags, actor, channel);
        actor.stop();
        if (!turn.late) turn.answer(closing);
        return;
      }
      const result = await store.remove(turn.lease);
      if (result.status !== 'deleted') {
        logger.warn({ event: 'turn.writeRefused', sessionId: turn.sessionId, ...result });
      }
      turn.answer(closing);
      return;
    }
    const prompt: unknown = snapshot.context?.prompt;
    if (!isPrompt(prompt)) {
      actor.stop();
      throw new TurnError('TURN_BAD_PROMPT', `Flow ${definition.id} turn.prompt is not a Prompt`);
    }
    const snapshotJson = withoutPrompt(actor.getPersistedSnapshot() as Record<string, unknown>);
    const flags: { unseen?: true } = turn.late || turn.system ? { unseen: true } : {};
    const shown = withNotes(prompt, notes);
    let written: CachedActor;
    try {
      const channel = await turn.present(shown);
      written = await persist(
        store,
        now,
        turn,
        definition,
        snapshotJson,
        input,
        prompt,
        flags,
        actor,
        channel,
      );
    } catch (error) {
      actor.stop();
      throw error;
    }
    cache.put(turn.sessionKey, written);
    turn.answer(shown);
  };

  return { lookupFlow, entryFlowOf, restore, startFlow, startEntry, settleAndPersist };
}

/** The flow's actor restored from its record; undefined when it does not restore as written. */
function restore(definition: FlowDefinition, record: SessionRecord): FlowActor | undefined {
  try {
    const actor = startWatched(definition.machine, {
      snapshot: withPrompt(record.snapshot, record.prompt) as never,
      input: flowInputOf(record),
    });
    const snapshot = actor.getSnapshot();
    // A persisted snapshot is always settled; anything else did not restore as written.
    if (snapshot.status !== 'active' || !snapshot.hasTag(AWAITING_INPUT)) {
      actor.stop();
      return undefined;
    }
    return actor;
  } catch {
    return undefined;
  }
}

/** Commits the session record: what was written at which version, or a TurnError. */
async function persist(
  store: SessionStore,
  now: () => number,
  turn: RunningTurn,
  definition: FlowDefinition,
  snapshot: Record<string, unknown>,
  input: FlowInput,
  prompt: Prompt,
  flags: { unseen?: true; ended?: true },
  actor: FlowActor,
  channel: string | undefined,
): Promise<CachedActor> {
  const address = turn.options.address;
  // The optional fields set with `if`s, not conditional spreads (`...(x ? { x } : {})`: a small
  // object and a copy of it each, every turn), in the same key order as the literal gave: the
  // same JSON. `prompt` and `updatedAt` are set below, before anything reads it.
  const head = {
    flowId: definition.id,
    flowVersion: definition.version,
    ...input,
  } as { -readonly [K in keyof RecordHead]: RecordHead[K] };
  if (address) head.address = address;
  head.prompt = prompt;
  if (flags.unseen) head.unseen = true;
  if (flags.ended) head.ended = true;
  if (channel !== undefined) head.channel = channel;
  head.updatedAt = new Date(now()).toISOString();
  const record: RecordHead = head;
  const result = await store.commit(turn.lease, JSON.stringify({ ...record, snapshot }));
  if (result.status !== 'committed') {
    throw new TurnError('TURN_WRITE_REFUSED', `Session write refused: ${result.status}`);
  }
  return { version: result.version, actor, record };
}

/** A flow's output as the engine reads it: undefined when none, false when malformed. */
function flowOutputOf(output: unknown):
  | {
      readonly prompt?: Prompt;
      readonly next?: string;
      readonly start?: FlowStart;
      readonly forget?: true;
    }
  | undefined
  | false {
  if (output === undefined) return undefined;
  if (typeof output !== 'object' || output === null) return false;
  const { prompt, next, start, forget } = output as {
    prompt?: unknown;
    next?: unknown;
    start?: unknown;
    forget?: unknown;
  };
  if (prompt !== undefined && !isPrompt(prompt)) return false;
  if (next !== undefined && typeof next !== 'string') return false;
  if (start !== undefined && (typeof start !== 'object' || start === null)) return false;
  return {
    ...(prompt === undefined ? {} : { prompt }),
    ...(next === undefined ? {} : { next }),
    ...(start === undefined ? {} : { start: start as FlowStart }),
    ...(forget === true ? { forget } : {}),
  };
}

/**
 * The persisted snapshot without `context.prompt`: the record keeps the same Prompt beside it,
 * and storing it twice would cost a few hundred bytes of every session.
 */
export function withoutPrompt(snapshot: Record<string, unknown>): Record<string, unknown> {
  const context = snapshot.context;
  if (typeof context !== 'object' || context === null || !('prompt' in context)) return snapshot;
  // Only ever serialised: an undefined field is left out of the JSON as a removed one is, and a
  // spread copy is several times cheaper than a rest copy that excludes a key.
  return { ...snapshot, context: { ...context, prompt: undefined } };
}

/** The persisted snapshot with the record's Prompt put back (older records still carry it). */
function withPrompt(snapshot: Record<string, unknown>, prompt: Prompt): Record<string, unknown> {
  const context = snapshot.context;
  if (typeof context !== 'object' || context === null || 'prompt' in context) return snapshot;
  return { ...snapshot, context: { ...context, prompt } };
}
