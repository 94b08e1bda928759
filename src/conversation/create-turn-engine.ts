import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { type Actor, type AnyStateMachine, createActor, type Snapshot } from 'xstate';
import { z } from 'zod';
import type { Logger } from '../log/index.js';
import type { AcquireResult, SessionLease, SessionStore } from '../session/index.js';
import {
  AWAITING_INPUT,
  type FlowDefinition,
  type FlowId,
  type FlowInput,
  type FlowRegistry,
} from './flow.js';
import { KeyedQueue } from './keyed-queue.js';
import { Prompt } from './prompt.js';
import { Reply } from './reply.js';
import { flowInputOf, parseSessionRecord, type SessionRecord } from './session-record.js';
import type { ChannelStateOf, SessionGlance, TurnEngine, TurnOptions } from './turn-engine.js';
import { validateMsisdn } from './validators.js';

/** Options of {@link createTurnEngine}. */
export interface TurnEngineOptions {
  readonly store: SessionStore;
  /** Flows by id, actors provided; a fresh session starts `main-menu`. */
  readonly flows: FlowRegistry;
  readonly logger: Logger;
  /** Clock for `updatedAt`, epoch ms. Default `Date.now`. */
  readonly now?: () => number;
  /** Deadline of a turn when the channel gives none. Default 4000 ms (USSD). */
  readonly defaultDeadlineMs?: number;
  /**
   * In-process LRU of live actors by session and record version, so a turn on the instance
   * that wrote the latest version skips the restore. `false` disables it. Default
   * `{ max: 1000 }`.
   */
  readonly cache?: false | { readonly max?: number };
  /** Longest a turn may run past its deadline before it is abandoned. Default 120 000 ms. */
  readonly maxTurnMs?: number;
  /** Lock lifetime, extended while a turn runs past its deadline. Default 30 000 ms. */
  readonly lockTtlMs?: number;
}

/** The turn engine plus process-level controls. */
export interface ConversationEngine extends TurnEngine {
  /** Resolves once every turn still running past its deadline has persisted or given up. */
  idle(): Promise<void>;
  /** Stops cached actors; in-flight turns finish on their own. */
  close(): void;
}

/** Prompt keys the engine itself produces; channels and payments may test for them. */
export const ENGINE_PROMPTS = {
  stillWorking: 'engine.stillWorking',
  busy: 'engine.busy',
  interrupted: 'engine.interrupted',
  restarted: 'engine.restarted',
  error: 'engine.error',
  sessionEnded: 'engine.sessionEnded',
  goodbye: 'engine.goodbye',
} as const;

const MAX_HANDOVERS = 5;

const FlowOutputSchema = z
  .object({ prompt: Prompt.optional(), next: z.string().optional() })
  .optional();

/** Why a turn failed inside the engine; logged, never shown to the user. */
export type TurnErrorCode =
  | 'flow_failed'
  | 'bad_prompt'
  | 'write_refused'
  | 'handover_loop'
  | 'turn_abandoned'
  | 'bad_reply';

/** Raised inside a turn when a flow breaks the engine's contract or a write is refused. */
export class TurnError extends Error {
  override readonly name = 'TurnError';
  readonly code: TurnErrorCode;

  constructor(code: TurnErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

type FlowActor = Actor<AnyStateMachine>;

interface CachedActor {
  readonly version: number;
  readonly actor: FlowActor;
  /** The record as committed at `version`, so a hit needs neither its bytes nor a parse. */
  readonly record: SessionRecord;
}

/** One running turn: its lease, deadline and the way to answer the channel once. */
interface TurnContext {
  readonly sessionKey: string;
  readonly sessionId: string;
  readonly lease: SessionLease;
  readonly deadlineAt: number;
  readonly options: TurnOptions;
  /** True once the channel got "still working"; the result is then stored as unseen. */
  late: boolean;
  /** The channel's state to store with the answered Prompt, when the channel keeps one. */
  stateOf: ChannelStateOf | undefined;
  answer(prompt: Prompt): void;
}

const stillWorkingPrompt = (key: string): Prompt => ({
  key,
  input: 'choice',
  final: false,
  choices: [{ id: 'refresh', label: 'engine.checkAgain' }],
});
const errorPrompt: Prompt = { key: ENGINE_PROMPTS.error, input: 'none', final: true };

/**
 * Creates the conversation engine: one Reply in, one Prompt out, with the session locked,
 * restored, advanced until its flow waits for input, and persisted in two store round trips.
 * Never throws to the channel: failures become an `engine.error` Prompt.
 *
 * What flows must honour: a state tagged `awaitingInput` invokes nothing and has no `after`
 * (a settled snapshot holds no running call, and delays would not survive a restore); API
 * calls happen in untagged states that move on when the call settles (`onDone`/`onError`).
 * A turn still running at `deadlineMs` answers `engine.stillWorking`, keeps the session
 * locked until the flow settles, and the user's next turn shows the result without sending
 * their reply to the flow. A busy session answers `engine.busy`: the Reply was not applied
 * (system events such as `payment.settled` must then be retried by their sender).
 */
export function createTurnEngine(options: TurnEngineOptions): ConversationEngine {
  const { store, flows, logger } = options;
  const now = options.now ?? Date.now;
  const defaultDeadlineMs = options.defaultDeadlineMs ?? 4_000;
  const maxTurnMs = options.maxTurnMs ?? 120_000;
  const lockTtlMs = options.lockTtlMs ?? 30_000;
  const queue = new KeyedQueue();
  const background = new Set<Promise<void>>();
  const cache =
    options.cache === false
      ? undefined
      : new LRUCache<string, CachedActor>({
          max: options.cache?.max ?? 1_000,
          dispose: (entry, _key, reason) => {
            // Entries are taken out with delete while a turn uses them; only drop the others.
            if (reason !== 'delete') entry.actor.stop();
          },
        });

  /** Takes a session's cached actor out while a turn runs, so no eviction can stop it. */
  const takeCached = (sessionKey: string): CachedActor | undefined => {
    const entry = cache?.get(sessionKey);
    if (entry) cache?.delete(sessionKey);
    return entry;
  };

  const handle: TurnEngine['handle'] = async (sessionKey, rawReply, turnOptions = {}) => {
    // Hashed only when something is logged: most turns log nothing.
    let hashed: string | undefined;
    const sessionIdOf = (): string => {
      hashed ??= hashKey(sessionKey);
      return hashed;
    };
    const parsedReply = Reply.safeParse(rawReply);
    if (!parsedReply.success) {
      logger.warn(
        { event: 'turn.badReply', sessionId: sessionIdOf() },
        'reply does not match the contract',
      );
      return errorPrompt;
    }
    const reply = parsedReply.data;
    const startedAt = Date.now();
    const deadlineMs = turnOptions.deadlineMs ?? defaultDeadlineMs;
    const deadlineAt = startedAt + deadlineMs;
    // Entering the local queue before any await keeps this process's turns in arrival order.
    const entered = queue.enter(sessionKey, deadlineMs);
    const leave = await entered;
    if (!leave) return stillWorkingPrompt(ENGINE_PROMPTS.busy);
    let leaveOnReturn = true;
    // Held by this turn until it commits; put back untouched when the lock is not ours.
    const held = takeCached(sessionKey);
    try {
      let acquired: AcquireResult;
      try {
        acquired = await store.acquire(sessionKey, {
          waitMs: Math.max(0, deadlineAt - Date.now()),
          lockTtlMs,
          ...(held ? { knownVersion: held.version } : {}),
        });
      } catch (error) {
        if (held) cache?.set(sessionKey, held);
        logger.error(
          { event: 'turn.storeFailed', sessionId: sessionIdOf(), err: error },
          'store unavailable',
        );
        return errorPrompt;
      }
      if (acquired.status === 'busy') {
        if (held) cache?.set(sessionKey, held);
        logger.info(
          { event: 'turn.busy', sessionId: sessionIdOf() },
          'session busy past the deadline',
        );
        return stillWorkingPrompt(ENGINE_PROMPTS.busy);
      }
      // A version this instance did not write: its cached actor is stale.
      const cached = acquired.unchanged ? held : undefined;
      if (held && !cached) held.actor.stop();

      let answer!: (prompt: Prompt) => void;
      const answered = new Promise<Prompt>((resolve) => {
        answer = resolve;
      });
      const context: TurnContext = {
        sessionKey,
        get sessionId() {
          return sessionIdOf();
        },
        lease: acquired.lease,
        deadlineAt,
        options: turnOptions,
        late: false,
        stateOf: undefined,
        answer,
      };
      const work = runTurn(context, acquired, cached, reply).catch(async (error: unknown) => {
        const code = error instanceof TurnError ? error.code : 'unexpected';
        logger.error(
          { event: 'turn.failed', sessionId: sessionIdOf(), code, err: error },
          'turn failed',
        );
        await store.release(acquired.lease).catch(() => undefined);
        answer(errorPrompt);
      });
      const tracked = work.finally(() => {
        background.delete(tracked);
        leave();
      });
      background.add(tracked);
      leaveOnReturn = false;
      return await answered;
    } finally {
      if (leaveOnReturn) leave();
    }
  };

  /** Everything after the lock is held: decide what the reply means and settle the flow. */
  const runTurn = async (
    context: TurnContext,
    acquired: AcquireResult & { status: 'acquired' },
    cached: CachedActor | undefined,
    reply: Reply,
  ): Promise<void> => {
    const { record: stored, interrupted } = acquired;
    const record = cached?.record ?? (stored ? parseSessionRecord(stored.data) : undefined);
    const hook = context.options.channelState;
    if (hook) {
      const decision = await hook.decide(glanceOf(record));
      if (decision.kind === 'keep') return keep(context, record, cached, decision.state);
      context.stateOf = decision.state;
      if (decision.kind === 'restart') {
        cached?.actor.stop();
        await startFlow(context, 'main-menu', freshInput(context.options), []);
        return;
      }
      const decided = Reply.safeParse(decision.reply);
      if (!decided.success) throw new TurnError('bad_reply', 'The channel decided a bad Reply');
      reply = decided.data;
    }
    const isUserReply = reply.type.startsWith('user.');
    // System events (a payment outcome) continue a conversation; they never start one.
    if (!stored && !cached) {
      if (!isUserReply) return endWithoutFlow(context);
      await startFlow(context, 'main-menu', freshInput(context.options), []);
      return;
    }
    if (!record && !isUserReply) return endWithoutFlow(context);
    if (!record) {
      logger.warn({ event: 'turn.restarted', sessionId: context.sessionId, reason: 'corrupt' });
      await startFlow(context, 'main-menu', freshInput(context.options), [
        ENGINE_PROMPTS.restarted,
      ]);
      return;
    }
    if (record.ended) {
      // The closing screen of a flow that finished late: show it once, then forget the session.
      if (!isUserReply) return endWithoutFlow(context);
      await store.remove(context.lease);
      context.answer({ ...record.prompt, final: true });
      return;
    }
    const definition = lookupFlow(record.flowId);
    const current = definition?.version === record.flowVersion;
    if (!current && !isUserReply) return endWithoutFlow(context);
    if (!definition || !current) {
      logger.warn({
        event: 'turn.restarted',
        sessionId: context.sessionId,
        reason: 'version',
        flowId: record.flowId,
        flowVersion: record.flowVersion,
      });
      await startFlow(context, 'main-menu', flowInputOf(record), [ENGINE_PROMPTS.restarted]);
      return;
    }
    if (isUserReply && (interrupted || record.unseen || context.options.resume)) {
      // Interrupted: the last turn died mid-way, so its effect is unknown and the user's retry
      // is guarded by idempotency downstream. Unseen: the user has not read this prompt yet.
      // Resume: a re-dial carries no answer to the current question. System events (a
      // payment outcome) still go to the flow: they answer no question on the screen.
      await reshow(context, record, cached, interrupted ? [ENGINE_PROMPTS.interrupted] : []);
      return;
    }
    const actor = cached?.actor ?? restore(definition, record);
    if (!actor && !isUserReply) return endWithoutFlow(context);
    if (!actor) {
      logger.warn({
        event: 'turn.restarted',
        sessionId: context.sessionId,
        reason: 'restore',
        flowId: record.flowId,
      });
      await startFlow(context, 'main-menu', flowInputOf(record), [ENGINE_PROMPTS.restarted]);
      return;
    }
    actor.send(reply);
    await settleAndPersist(context, definition, actor, flowInputOf(record), [], 0);
  };

  /**
   * A channel answers from the record without the flow (a page of the same screen): only its
   * state changes. A closing screen whose channel state is gone ends the session.
   */
  const keep = async (
    context: TurnContext,
    record: SessionRecord | undefined,
    cached: CachedActor | undefined,
    state: string | undefined,
  ): Promise<void> => {
    if (!record) return endWithoutFlow(context);
    if (record.ended && state === undefined) {
      await store.remove(context.lease);
      context.answer({ ...record.prompt, final: true });
      return;
    }
    const { channel: _previous, ...rest } = record;
    const next: SessionRecord = {
      ...rest,
      ...(state === undefined ? {} : { channel: state }),
      updatedAt: new Date(now()).toISOString(),
    };
    const result = await store.commit(context.lease, JSON.stringify(next));
    if (result.status !== 'committed') {
      cached?.actor.stop();
      throw new TurnError('write_refused', `Session write refused: ${result.status}`);
    }
    if (cached)
      cache?.set(context.sessionKey, { ...cached, version: result.version, record: next });
    context.answer(record.prompt);
  };

  /** Answers a system event that has no usable conversation to go to; nothing is written. */
  const endWithoutFlow = async (context: TurnContext): Promise<void> => {
    await store.release(context.lease);
    context.answer({ key: ENGINE_PROMPTS.sessionEnded, input: 'none', final: true });
  };

  const lookupFlow = (flowId: string): FlowDefinition | undefined =>
    Object.hasOwn(flows, flowId) ? flows[flowId as FlowId] : undefined;

  const restore = (definition: FlowDefinition, record: SessionRecord): FlowActor | undefined => {
    try {
      const actor = createActor(definition.machine, {
        snapshot: withPrompt(record.snapshot, record.prompt) as Snapshot<unknown>,
        input: flowInputOf(record),
      });
      actor.subscribe({ error: () => undefined });
      actor.start();
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
  };

  const startFlow = async (
    context: TurnContext,
    flowId: FlowId,
    input: FlowInput,
    notes: readonly string[],
    handovers = 0,
  ): Promise<void> => {
    const definition = lookupFlow(flowId);
    if (!definition) throw new TurnError('flow_failed', `Flow ${flowId} is not registered`);
    const actor = createActor(definition.machine, { input });
    actor.subscribe({ error: () => undefined });
    actor.start();
    await settleAndPersist(context, definition, actor, input, notes, handovers);
  };

  /** Waits for the flow to settle (answering "still working" at the deadline), then persists. */
  const settleAndPersist = async (
    context: TurnContext,
    definition: FlowDefinition,
    actor: FlowActor,
    input: FlowInput,
    notes: readonly string[],
    handovers: number,
  ): Promise<void> => {
    if (!(await settleWithin(actor, context.deadlineAt - Date.now()))) {
      context.late = true;
      context.answer(stillWorkingPrompt(ENGINE_PROMPTS.stillWorking));
      const keepAlive = setInterval(
        () => void store.extend(context.lease, lockTtlMs).catch(() => undefined),
        Math.max(1_000, Math.floor(lockTtlMs / 3)),
      );
      try {
        if (!(await settleWithin(actor, maxTurnMs))) {
          actor.stop();
          throw new TurnError('turn_abandoned', `Flow ${definition.id} did not settle`);
        }
      } finally {
        clearInterval(keepAlive);
      }
    }
    const snapshot = actor.getSnapshot();
    if (snapshot.status === 'error') {
      throw new TurnError('flow_failed', `Flow ${definition.id} failed`, {
        cause: snapshot.error,
      });
    }
    if (snapshot.status === 'done') {
      const output = FlowOutputSchema.safeParse(snapshot.output);
      if (!output.success) {
        throw new TurnError('bad_prompt', `Flow ${definition.id} output is not a FlowOutput`);
      }
      const next = output.data?.next;
      if (next !== undefined) {
        if (handovers >= MAX_HANDOVERS) {
          throw new TurnError('handover_loop', `Too many flow hand-overs from ${definition.id}`);
        }
        await startFlow(context, next as FlowId, input, notes, handovers + 1);
        return;
      }
      const closing: Prompt = withNotes(
        { ...(output.data?.prompt ?? { key: ENGINE_PROMPTS.goodbye, input: 'none' }), final: true },
        notes,
      );
      const channel = context.stateOf?.(closing);
      if (context.late || channel !== undefined) {
        // The user saw "still working": keep the closing screen for their next turn. Or the
        // channel pages through it: keep it until the channel has shown its last page.
        const flags = context.late
          ? { unseen: true as const, ended: true as const }
          : { ended: true as const };
        await persist(context, definition, {}, input, closing, flags, actor, channel);
        actor.stop();
        if (!context.late) context.answer(closing);
        return;
      }
      const result = await store.remove(context.lease);
      if (result.status !== 'deleted') {
        logger.warn({ event: 'turn.writeRefused', sessionId: context.sessionId, ...result });
      }
      context.answer(closing);
      return;
    }
    const prompt = Prompt.safeParse(snapshot.context?.prompt);
    if (!prompt.success) {
      actor.stop();
      throw new TurnError('bad_prompt', `Flow ${definition.id} context.prompt is not a Prompt`);
    }
    const snapshotJson = withoutPrompt(actor.getPersistedSnapshot() as Record<string, unknown>);
    const flags: { unseen?: true } = context.late ? { unseen: true } : {};
    const shown = withNotes(prompt.data, notes);
    let written: CachedActor;
    try {
      written = await persist(
        context,
        definition,
        snapshotJson,
        input,
        prompt.data,
        flags,
        actor,
        context.stateOf?.(shown),
      );
    } catch (error) {
      actor.stop();
      throw error;
    }
    cache?.set(context.sessionKey, written);
    context.answer(shown);
  };

  /** Commits the session record: what was written at which version, or a TurnError. */
  const persist = async (
    context: TurnContext,
    definition: FlowDefinition,
    snapshot: Record<string, unknown>,
    input: FlowInput,
    prompt: Prompt,
    flags: { unseen?: true; ended?: true },
    actor: FlowActor,
    channel: string | undefined,
  ): Promise<CachedActor> => {
    const address = context.options.address;
    const record: SessionRecord = {
      flowId: definition.id,
      flowVersion: definition.version,
      snapshot,
      ...input,
      ...(address ? { address } : {}),
      prompt,
      ...flags,
      ...(channel === undefined ? {} : { channel }),
      updatedAt: new Date(now()).toISOString(),
    };
    const result = await store.commit(context.lease, JSON.stringify(record));
    if (result.status !== 'committed') {
      throw new TurnError('write_refused', `Session write refused: ${result.status}`);
    }
    return { version: result.version, actor, record };
  };

  /** Shows the stored prompt again without touching the flow (whose cached actor stays). */
  const reshow = async (
    context: TurnContext,
    record: SessionRecord,
    cached: CachedActor | undefined,
    notes: readonly string[],
  ): Promise<void> => {
    const { unseen: _shown, channel: _previous, ...rest } = record;
    const address = context.options.address;
    const shown = withNotes(record.prompt, notes);
    const channel = context.stateOf?.(shown);
    const next: SessionRecord = {
      ...rest,
      ...(address ? { address } : {}),
      ...(channel === undefined ? {} : { channel }),
      updatedAt: new Date(now()).toISOString(),
    };
    const result = await store.commit(context.lease, JSON.stringify(next));
    if (result.status !== 'committed') {
      cached?.actor.stop();
      throw new TurnError('write_refused', `Session write refused: ${result.status}`);
    }
    if (cached)
      cache?.set(context.sessionKey, { ...cached, version: result.version, record: next });
    context.answer(shown);
  };

  return {
    handle,
    async idle() {
      while (background.size > 0) await Promise.all([...background]);
    },
    close() {
      cache?.clear();
    },
  };
}

/**
 * The persisted snapshot without `context.prompt`: the record keeps the same Prompt beside it,
 * and storing it twice would cost a few hundred bytes of every session.
 */
function withoutPrompt(snapshot: Record<string, unknown>): Record<string, unknown> {
  const context = snapshot.context;
  if (typeof context !== 'object' || context === null || !('prompt' in context)) return snapshot;
  const { prompt: _kept, ...rest } = context as Record<string, unknown>;
  return { ...snapshot, context: rest };
}

/** The persisted snapshot with the record's Prompt put back (older records still carry it). */
function withPrompt(snapshot: Record<string, unknown>, prompt: Prompt): Record<string, unknown> {
  const context = snapshot.context;
  if (typeof context !== 'object' || context === null || 'prompt' in context) return snapshot;
  return { ...snapshot, context: { ...context, prompt } };
}

/** What a channel's `decide` sees of a record (or of none). */
function glanceOf(record: SessionRecord | undefined): SessionGlance {
  return {
    prompt: record?.prompt,
    unseen: record?.unseen === true,
    // Only a conversation past the entry menu is worth a "Continue".
    resumable:
      record !== undefined &&
      record.ended !== true &&
      !record.prompt.final &&
      record.flowId !== 'main-menu',
    state: record?.channel,
  };
}

function freshInput(options: TurnOptions): FlowInput {
  const audience = options.audience ?? 'policyholder';
  const locale = options.address?.locale ?? 'en';
  // Only the USSD gateway vouches for the caller's number; chats do not carry one.
  if (options.address?.channel === 'ussd') {
    const callerPhone = callerPhoneOf(options.address.address);
    if (callerPhone !== undefined) return { audience, locale, callerPhone };
  }
  return { audience, locale };
}

/** Caller numbers already validated; cleared when full (a bound, not an LRU). */
const callerPhones = new Map<string, string | undefined>();
const MAX_CALLER_PHONES = 10_000;

/** The caller's number as a flow may use it; libphonenumber is not cheap, and callers redial. */
function callerPhoneOf(address: string): string | undefined {
  if (callerPhones.has(address)) return callerPhones.get(address);
  const phone = validateMsisdn(address);
  const value = phone.ok ? phone.value : undefined;
  if (callerPhones.size >= MAX_CALLER_PHONES) callerPhones.clear();
  callerPhones.set(address, value);
  return value;
}

function withNotes(prompt: Prompt, notes: readonly string[]): Prompt {
  if (notes.length === 0) return prompt;
  return { ...prompt, notes: [...(prompt.notes ?? []), ...notes.map((key) => ({ key }))] };
}

function isSettled(actor: FlowActor): boolean {
  const snapshot = actor.getSnapshot();
  return snapshot.status !== 'active' || snapshot.hasTag(AWAITING_INPUT);
}

/** Resolves true once the actor waits for input or stopped, false after `ms`. */
function settleWithin(actor: FlowActor, ms: number): Promise<boolean> {
  if (isSettled(actor)) return Promise.resolve(true);
  if (ms <= 0) return Promise.resolve(false);
  return new Promise((resolve) => {
    const finish = (settled: boolean) => {
      clearTimeout(timer);
      subscription.unsubscribe();
      resolve(settled);
    };
    const timer = setTimeout(() => finish(isSettled(actor)), ms);
    const subscription = actor.subscribe({
      next: () => {
        if (isSettled(actor)) finish(true);
      },
      error: () => finish(true),
      complete: () => finish(true),
    });
  });
}

/** A stable, non-reversible id for logs: session keys hold phone numbers. */
function hashKey(sessionKey: string): string {
  return createHash('sha256').update(sessionKey).digest('hex').slice(0, 16);
}
