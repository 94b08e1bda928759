import { NOBODY, principalOf } from '../access/index.js';
import type { Logger } from '../log/index.js';
import type { AcquireResult, SessionLease, SessionStore } from '../session/index.js';
import type { ActorCache, CachedActor, FlowActor, RecordHead } from './actor-cache.js';
import { settleWithin, startWatched } from './deadline.js';
import {
  ENGINE_PROMPTS,
  sessionEndedPrompt,
  stillWorkingPrompt,
  withNotes,
} from './engine-prompts.js';
import {
  AWAITING_INPUT,
  type FlowDefinition,
  type FlowId,
  type FlowInput,
  type FlowRegistry,
  type FlowStart,
} from './flow.js';
import { isPrompt, type Prompt } from './prompt.js';
import { isReply, type Reply } from './reply.js';
import { flowInputOf, parseSessionRecord, type SessionRecord } from './session-record.js';
import type { ChannelStateOf, SessionGlance, TurnOptions } from './turn-engine.js';
import { TurnError } from './turn-error.js';
import { validateMsisdn } from './validators.js';

/** One running turn: its lease, deadline and the way to answer the channel once. */
export interface TurnContext {
  readonly sessionKey: string;
  /** A non-reversible id of the session for logs (session keys hold phone numbers). */
  readonly sessionId: string;
  readonly lease: SessionLease;
  readonly deadlineAt: number;
  readonly options: TurnOptions;
  /** True once the channel got "still working"; the result is then stored as unseen. */
  late: boolean;
  /**
   * A system event (a payment outcome) drives this turn: its user is told out of turn, so the
   * result is stored as unseen too, and their next reply (meant for the screen they still see)
   * shows it instead of being applied to it.
   */
  readonly system: boolean;
  /** The channel's state to store with the answered Prompt, when the channel keeps one. */
  stateOf: ChannelStateOf | undefined;
  answer(prompt: Prompt): void;
}

/** What the runner needs from the engine around it. */
export interface TurnRunnerOptions {
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

/**
 * What a turn asks of the session: apply a Reply, show what it waits on, or start a flow afresh.
 */
export type TurnRequest =
  | { readonly kind: 'reply'; readonly reply: Reply }
  | { readonly kind: 'peek' }
  | { readonly kind: 'start'; readonly flowId: string; readonly start?: FlowStart | undefined };

/** Runs one turn once its lock is held; see {@link createTurnRunner}. */
export type TurnRunner = (
  context: TurnContext,
  acquired: AcquireResult & { status: 'acquired' },
  cached: CachedActor | undefined,
  request: TurnRequest,
) => Promise<void>;

const MAX_HANDOVERS = 5;
/** The flow a fresh session opens on. */
const ENTRY_FLOW = 'main-menu';

/**
 * The turn runner: everything a turn does once it holds the lock. It decides what the reply
 * means (a channel's decision, a fresh session, an unseen result, a stale record), advances the
 * flow until it waits for input (answering "still working" at the deadline), and ends with
 * exactly one store write — commit, remove or release — then answers the channel once.
 */
export function createTurnRunner(options: TurnRunnerOptions): TurnRunner {
  const { store, flows, logger, cache, now, maxTurnMs, lockTtlMs } = options;

  const run: TurnRunner = async (context, acquired, cached, request) => {
    const { record: stored, interrupted } = acquired;
    // A cache hit keeps the record's head; the snapshot is the live actor's.
    const parsed = cached || !stored ? undefined : parseSessionRecord(stored.data);
    const record: RecordHead | undefined = cached?.record ?? parsed;
    if (request.kind === 'start') {
      cached?.actor.stop();
      const input = freshInput(context.options);
      const started = request.start ? { ...input, start: request.start } : input;
      await startFlow(context, request.flowId, started, []);
      return;
    }
    if (request.kind === 'peek') return peek(context, record, cached);
    let reply = request.reply;
    const hook = context.options.channelState;
    if (hook) {
      // Channels decide synchronously (USSD does): awaited only when they answer a promise.
      const decided = hook.decide(glanceOf(record, cached));
      const decision = decided instanceof Promise ? await decided : decided;
      if (decision.kind === 'keep') return keep(context, record, cached, decision.state);
      context.stateOf = decision.state;
      if (decision.kind === 'restart') {
        cached?.actor.stop();
        await startFlow(context, ENTRY_FLOW, freshInput(context.options), []);
        return;
      }
      if (!isReply(decision.reply)) {
        throw new TurnError('bad_reply', 'The channel decided a bad Reply');
      }
      reply = decision.reply;
    }
    const isUserReply = reply.type.startsWith('user.');
    // System events (a payment outcome) continue a conversation; they never start one.
    if (!stored && !cached) {
      if (!isUserReply) return endWithoutFlow(context);
      await startFlow(context, ENTRY_FLOW, freshInput(context.options), []);
      return;
    }
    if (!record && !isUserReply) return endWithoutFlow(context);
    if (!record) {
      logger.warn({ event: 'turn.restarted', sessionId: context.sessionId, reason: 'corrupt' });
      await startFlow(context, ENTRY_FLOW, freshInput(context.options), [ENGINE_PROMPTS.restarted]);
      return;
    }
    if (record.ended) {
      // The closing screen of a flow that finished late: show it once, then forget the session;
      // a channel that pages through it (a long USSD outcome) keeps it until its last page.
      if (!isUserReply) return endWithoutFlow(context);
      const { unseen: _shown, ...seen } = record;
      const closing: Prompt = { ...record.prompt, final: true };
      return keep(context, { ...seen, prompt: closing }, cached, context.stateOf?.(closing));
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
      await startFlow(context, ENTRY_FLOW, flowInputOf(record), [ENGINE_PROMPTS.restarted]);
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
    if (!isUserReply && record.channel !== undefined) {
      // A system event (a payment outcome) leaves the channel's state as the user's last request
      // left it: a gateway's retry of that request still gets its answer, and their next one the
      // outcome (stored unseen).
      const kept = record.channel;
      context.stateOf = () => kept;
    }
    const actor = cached?.actor ?? (parsed && restore(definition, parsed));
    if (!actor && !isUserReply) return endWithoutFlow(context);
    if (!actor) {
      logger.warn({
        event: 'turn.restarted',
        sessionId: context.sessionId,
        reason: 'restore',
        flowId: record.flowId,
      });
      await startFlow(context, ENTRY_FLOW, flowInputOf(record), [ENGINE_PROMPTS.restarted]);
      return;
    }
    actor.send(reply);
    await settleAndPersist(
      context,
      definition,
      actor,
      withContact(flowInputOf(record), reply),
      [],
      0,
    );
  };

  /**
   * A channel answers from the record without the flow (a page of the same screen): only its
   * state changes. A closing screen whose channel state is gone ends the session.
   */
  const keep = async (
    context: TurnContext,
    record: RecordHead | undefined,
    cached: CachedActor | undefined,
    state: string | undefined,
  ): Promise<void> => {
    if (!record) return endWithoutFlow(context);
    if (record.ended && state === undefined) {
      await store.remove(context.lease);
      context.answer({ ...record.prompt, final: true });
      return;
    }
    const { channel: _previous, snapshot: _stored, ...rest } = record as Partial<SessionRecord>;
    const next: RecordHead = {
      ...(rest as RecordHead),
      ...(state === undefined ? {} : { channel: state }),
      updatedAt: new Date(now()).toISOString(),
    };
    const data = JSON.stringify({ ...next, snapshot: snapshotOf(record, cached) });
    const result = await store.commit(context.lease, data);
    if (result.status !== 'committed') {
      cached?.actor.stop();
      throw new TurnError('write_refused', `Session write refused: ${result.status}`);
    }
    if (cached) cache.put(context.sessionKey, { ...cached, version: result.version, record: next });
    context.answer(record.prompt);
  };

  /**
   * Answers with the Prompt the session waits on, writing nothing; a session with nothing (or
   * nothing readable) opens the entry menu, as a fresh turn would.
   */
  const peek = async (
    context: TurnContext,
    record: RecordHead | undefined,
    cached: CachedActor | undefined,
  ): Promise<void> => {
    if (!record) {
      cached?.actor.stop();
      await startFlow(context, ENTRY_FLOW, freshInput(context.options), []);
      return;
    }
    await store.release(context.lease);
    // The version is unchanged: the live actor is still the record's.
    if (cached) cache.put(context.sessionKey, cached);
    context.answer(record.ended ? { ...record.prompt, final: true } : record.prompt);
  };

  /** Answers a system event that has no usable conversation to go to; nothing is written. */
  const endWithoutFlow = async (context: TurnContext): Promise<void> => {
    await store.release(context.lease);
    context.answer(sessionEndedPrompt);
  };

  const lookupFlow = (flowId: string): FlowDefinition | undefined =>
    Object.hasOwn(flows, flowId) ? flows[flowId as FlowId] : undefined;

  const restore = (definition: FlowDefinition, record: SessionRecord): FlowActor | undefined => {
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
  };

  const startFlow = async (
    context: TurnContext,
    flowId: string,
    input: FlowInput,
    notes: readonly string[],
    handovers = 0,
  ): Promise<void> => {
    const definition = lookupFlow(flowId);
    if (!definition) throw new TurnError('flow_failed', `Flow ${flowId} is not registered`);
    // The route goes to the flow, not into the record: the record keeps the address already.
    const address = context.options.address;
    const routed: FlowInput = address
      ? { ...input, route: { sessionKey: context.sessionKey, ...address } }
      : input;
    const actor = startWatched(definition.machine, { input: routed });
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
    const settled = settleWithin(actor, context.deadlineAt - Date.now());
    if (!(settled === true || (settled !== false && (await settled)))) {
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
      const output = flowOutputOf(snapshot.output);
      if (output === false) {
        throw new TurnError('bad_prompt', `Flow ${definition.id} output is not a FlowOutput`);
      }
      const next = output?.next;
      if (next !== undefined) {
        if (handovers >= MAX_HANDOVERS) {
          throw new TurnError('handover_loop', `Too many flow hand-overs from ${definition.id}`);
        }
        // The start point is for the flow handed over to only, never inherited further.
        const { start: _previous, ...base } = input;
        const nextInput: FlowInput = output?.start ? { ...base, start: output.start } : base;
        await startFlow(context, next, nextInput, notes, handovers + 1);
        return;
      }
      const closing: Prompt = withNotes(
        { ...(output?.prompt ?? { key: ENGINE_PROMPTS.goodbye, input: 'none' }), final: true },
        notes,
      );
      const channel = context.stateOf?.(closing);
      const unseen = context.late || context.system;
      // A closing screen that erased the user's data (or kept none) takes the session with it.
      if (output?.forget !== true && (unseen || channel !== undefined)) {
        // The user saw "still working" or was told out of turn: keep the closing screen for
        // their next turn. Or the channel pages through it: keep it until its last page.
        const flags = unseen
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
    const prompt: unknown = snapshot.context?.prompt;
    if (!isPrompt(prompt)) {
      actor.stop();
      throw new TurnError('bad_prompt', `Flow ${definition.id} context.prompt is not a Prompt`);
    }
    const snapshotJson = withoutPrompt(actor.getPersistedSnapshot() as Record<string, unknown>);
    const flags: { unseen?: true } = context.late || context.system ? { unseen: true } : {};
    const shown = withNotes(prompt, notes);
    let written: CachedActor;
    try {
      written = await persist(
        context,
        definition,
        snapshotJson,
        input,
        prompt,
        flags,
        actor,
        context.stateOf?.(shown),
      );
    } catch (error) {
      actor.stop();
      throw error;
    }
    cache.put(context.sessionKey, written);
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
    const record: RecordHead = {
      flowId: definition.id,
      flowVersion: definition.version,
      ...input,
      ...(address ? { address } : {}),
      prompt,
      ...flags,
      ...(channel === undefined ? {} : { channel }),
      updatedAt: new Date(now()).toISOString(),
    };
    const result = await store.commit(context.lease, JSON.stringify({ ...record, snapshot }));
    if (result.status !== 'committed') {
      throw new TurnError('write_refused', `Session write refused: ${result.status}`);
    }
    return { version: result.version, actor, record };
  };

  /** Shows the stored prompt again without touching the flow (whose cached actor stays). */
  const reshow = async (
    context: TurnContext,
    record: RecordHead,
    cached: CachedActor | undefined,
    notes: readonly string[],
  ): Promise<void> => {
    const {
      unseen: _shown,
      channel: _previous,
      snapshot: _stored,
      ...rest
    } = record as Partial<SessionRecord>;
    const address = context.options.address;
    const shown = withNotes(record.prompt, notes);
    const channel = context.stateOf?.(shown);
    const next: RecordHead = {
      ...(rest as RecordHead),
      ...(address ? { address } : {}),
      ...(channel === undefined ? {} : { channel }),
      updatedAt: new Date(now()).toISOString(),
    };
    const data = JSON.stringify({ ...next, snapshot: snapshotOf(record, cached) });
    const result = await store.commit(context.lease, data);
    if (result.status !== 'committed') {
      cached?.actor.stop();
      throw new TurnError('write_refused', `Session write refused: ${result.status}`);
    }
    if (cached) cache.put(context.sessionKey, { ...cached, version: result.version, record: next });
    context.answer(shown);
  };

  return run;
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
function withoutPrompt(snapshot: Record<string, unknown>): Record<string, unknown> {
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

/**
 * The snapshot to write again with a record's head: the record's own when it was read from the
 * store, the live actor's (at that same version) when it came from the cache.
 */
function snapshotOf(record: RecordHead, cached: CachedActor | undefined): Record<string, unknown> {
  if ('snapshot' in record) return (record as SessionRecord).snapshot;
  if (!cached) return {};
  return withoutPrompt(cached.actor.getPersistedSnapshot() as Record<string, unknown>);
}

/** What a channel's `decide` sees of a record (or of none). */
function glanceOf(record: RecordHead | undefined, cached: CachedActor | undefined): SessionGlance {
  return {
    prompt: record?.prompt,
    unseen: record?.unseen === true,
    // Only a conversation past the entry menu is worth a "Continue".
    resumable:
      record !== undefined &&
      record.ended !== true &&
      !record.prompt.final &&
      record.flowId !== ENTRY_FLOW,
    state: record?.channel,
    flowId: record?.flowId,
    // Read only when a channel asks (a handoff's context): most turns never do.
    get answers() {
      return answersOf(record, cached);
    },
  };
}

/** The flow's `context.answers`: from the stored snapshot, or the live actor on a cache hit. */
function answersOf(record: RecordHead | undefined, cached: CachedActor | undefined): unknown {
  if (!record) return undefined;
  const context: unknown =
    'snapshot' in record
      ? (record as SessionRecord).snapshot.context
      : cached?.actor.getSnapshot().context;
  if (typeof context !== 'object' || context === null) return undefined;
  return (context as { answers?: unknown }).answers;
}

function freshInput(options: TurnOptions): FlowInput {
  const audience = options.audience ?? 'policyholder';
  const locale = options.address?.locale ?? 'en';
  // Only the USSD gateway (and the simulator, which speaks through it) vouches for the caller's
  // number; a chat is nobody until it shares its own contact (see `withContact`).
  if (options.address?.channel === 'ussd') {
    const callerPhone = callerPhoneOf(options.address.address);
    if (callerPhone !== undefined) {
      return { audience, locale, principal: principalOf(callerPhone), callerPhone };
    }
  }
  // The Slack channel lets only its allow-list reach the staff menu: `team:channel:user`.
  if (options.address?.channel === 'slack' && audience === 'staff') {
    const member = options.address.address.split(':').at(-1) ?? '';
    return { audience, locale, principal: { kind: 'staff', member } };
  }
  return { audience, locale, principal: NOBODY };
}

/**
 * The input with the phone of a contact the user shared: channels pass on only a contact of the
 * sender's own (Telegram checks its `user_id`), so it verifies them for the rest of the session.
 * The flow that asked reads the contact itself; the flows it hands over to start with it.
 */
function withContact(input: FlowInput, reply: Reply): FlowInput {
  if (reply.type !== 'user.contact' || input.principal.kind !== 'nobody') return input;
  const phone = validateMsisdn(reply.phone);
  return phone.ok ? { ...input, principal: principalOf(phone.value) } : input;
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
