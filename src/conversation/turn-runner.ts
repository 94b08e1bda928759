import type { AcquireResult } from '../session/index.js';
import type { CachedActor, RecordHead } from './actor-cache.js';
import { ENGINE_PROMPTS } from './engine-prompts.js';
import { createFlowAdvance, type FlowAdvanceOptions } from './flow-advance.js';
import type { Prompt } from './prompt.js';
import { createRecordWrites } from './record-writes.js';
import { isReply, type Reply } from './reply.js';
import type { RunningTurn } from './running-turn.js';
import { flowInputOf, parseSessionRecord, type SessionRecord } from './session-record.js';
import type { SessionGlance } from './turn-engine.js';
import { TurnError } from './turn-error.js';
import { freshInput, glanceOf, withContact } from './turn-input.js';
import {
  composeMiddleware,
  type TurnContext,
  type TurnMiddleware,
  type TurnRequest,
} from './turn-middleware.js';

/** What the runner needs from the engine around it. */
interface TurnRunnerOptions extends FlowAdvanceOptions {
  /** Middleware around every turn, first registered outermost; the engine's `use` appends. */
  readonly middleware: readonly TurnMiddleware[];
}

/** Runs one turn once its lock is held; see {@link createTurnRunner}. */
type TurnRunner = (
  turn: RunningTurn,
  acquired: AcquireResult & { status: 'acquired' },
  cached: CachedActor | undefined,
  request: TurnRequest,
) => Promise<void>;

/** The session as the lock read it: the stored record, parsed unless the cache had it. */
interface HeldSession {
  readonly acquired: AcquireResult & { status: 'acquired' };
  readonly parsed: SessionRecord | undefined;
  readonly record: RecordHead | undefined;
  readonly cached: CachedActor | undefined;
}

/**
 * The turn runner: everything a turn does once it holds the lock. Middleware first decides what
 * the request means (a page of the same screen, a restart, a reply); the runner then applies it
 * (a fresh session, an unseen result, a stale record), advances the flow until it waits for
 * input (answering "still working" at the deadline), and ends with exactly one store write —
 * commit, remove or release — answering the channel once.
 */
export function createTurnRunner(options: TurnRunnerOptions): TurnRunner {
  const { store, logger, cache } = options;
  const { lookupFlow, restore, startFlow, startEntry, settleAndPersist } =
    createFlowAdvance(options);
  const { endWithoutFlow, keep, reshow } = createRecordWrites(options);
  const isEntry = (flowId: string): boolean => lookupFlow(flowId)?.entryFor !== undefined;
  const unfinishedIn = (flowId: string, answers: unknown) =>
    lookupFlow(flowId)?.unfinished?.(answers);

  const run: TurnRunner = (turn, acquired, cached, request) => {
    const { record: stored } = acquired;
    // A cache hit keeps the record's head; the snapshot is the live actor's.
    const parsed = cached || !stored ? undefined : parseSessionRecord(stored.data);
    const record: RecordHead | undefined = cached?.record ?? parsed;
    const session: HeldSession = { acquired, parsed, record, cached };
    const { middleware } = options;
    if (middleware.length === 0) return apply(turn, session, request);
    const glance = glanceOf(record, cached, isEntry, unfinishedIn);
    // Methods, not arrow properties: tsx's keepNames names each arrow property with a
    // defineProperty call (~5k instructions) every turn; a method keeps its name for free.
    // (`apply` and `keep` inside them are the runner's own, not these methods.)
    return runMiddleware(turn, request, glance, middleware, {
      apply(asked) {
        return apply(turn, session, asked);
      },
      keep(state) {
        return keep(turn, record, cached, state);
      },
      async release() {
        await store.release(turn.lease);
        if (cached) cache.put(turn.sessionKey, cached);
      },
    });
  };

  /** Does what the request asks, the middleware done. */
  const apply = async (
    turn: RunningTurn,
    session: HeldSession,
    request: TurnRequest,
  ): Promise<void> => {
    const { record, cached } = session;
    switch (request.kind) {
      case 'reply':
        return applyReply(turn, session, request.reply, request.seen === true);
      case 'peek':
        return peek(turn, record, cached);
      case 'start': {
        cached?.actor.stop();
        const input = freshInput(turn.options);
        const started = request.start ? { ...input, start: request.start } : input;
        return startFlow(turn, request.flowId, started, []);
      }
      case 'restart':
        cached?.actor.stop();
        return startEntry(turn, freshInput(turn.options), []);
    }
  };

  /**
   * Answers with the Prompt the session waits on, writing nothing; a session with nothing (or
   * nothing readable) opens the entry menu, as a fresh turn would.
   */
  const peek = async (
    turn: RunningTurn,
    record: RecordHead | undefined,
    cached: CachedActor | undefined,
  ): Promise<void> => {
    if (!record) {
      cached?.actor.stop();
      return startEntry(turn, freshInput(turn.options), []);
    }
    await store.release(turn.lease);
    // The version is unchanged: the live actor is still the record's.
    if (cached) cache.put(turn.sessionKey, cached);
    turn.answer(record.ended ? { ...record.prompt, final: true } : record.prompt);
  };

  /** Applies a Reply: to the flow, or to a fresh, unseen, ended or stale session as each needs. */
  const applyReply = async (
    turn: RunningTurn,
    session: HeldSession,
    reply: Reply,
    seen: boolean,
  ): Promise<void> => {
    const { acquired, parsed, record, cached } = session;
    const isUserReply = reply.type.startsWith('user.');
    // System events (a payment outcome) continue a conversation; they never start one.
    if (!acquired.record && !cached) {
      if (!isUserReply) return endWithoutFlow(turn);
      return startEntry(turn, freshInput(turn.options), []);
    }
    if (!record && !isUserReply) return endWithoutFlow(turn);
    if (!record) {
      logger.warn({ event: 'turn.restarted', sessionId: turn.sessionId, reason: 'corrupt' });
      return startEntry(turn, freshInput(turn.options), [ENGINE_PROMPTS.restarted]);
    }
    if (record.ended) {
      // The closing screen of a flow that finished late: show it once, then forget the session;
      // a channel that pages through it (a long USSD outcome) keeps it until its last page.
      if (!isUserReply) return endWithoutFlow(turn);
      const { unseen: _shown, ...seen } = record;
      const closing: Prompt = { ...record.prompt, final: true };
      return keep(turn, { ...seen, prompt: closing }, cached, await turn.present(closing));
    }
    const definition = lookupFlow(record.flowId);
    const current = definition?.version === record.flowVersion;
    if (!current && !isUserReply) return endWithoutFlow(turn);
    if (!definition || !current) {
      logger.warn({
        event: 'turn.restarted',
        sessionId: turn.sessionId,
        reason: 'version',
        flowId: record.flowId,
        flowVersion: record.flowVersion,
      });
      return startEntry(turn, flowInputOf(record), [ENGINE_PROMPTS.restarted]);
    }
    const interrupted = acquired.interrupted;
    if (isUserReply && (interrupted || (record.unseen && !seen) || turn.options.resume)) {
      // Interrupted: the last turn died mid-way, so its effect is unknown and the user's retry
      // is guarded by idempotency downstream. Unseen: the user has not read this prompt yet.
      // Resume: a re-dial carries no answer to the current question. System events (a
      // payment outcome) still go to the flow: they answer no question on the screen.
      return reshow(turn, record, cached, interrupted ? [ENGINE_PROMPTS.interrupted] : []);
    }
    if (!isUserReply && record.channel !== undefined) {
      // A system event (a payment outcome) leaves the channel's state as the user's last request
      // left it: a gateway's retry of that request still gets its answer, and their next one the
      // outcome (stored unseen).
      turn.kept = record.channel;
    }
    const actor = cached?.actor ?? (parsed && restore(definition, parsed));
    if (!actor && !isUserReply) return endWithoutFlow(turn);
    if (!actor) {
      logger.warn({
        event: 'turn.restarted',
        sessionId: turn.sessionId,
        reason: 'restore',
        flowId: record.flowId,
      });
      return startEntry(turn, flowInputOf(record), [ENGINE_PROMPTS.restarted]);
    }
    actor.send(reply);
    await settleAndPersist(turn, definition, actor, withContact(flowInputOf(record), reply), [], 0);
  };

  return run;
}

/** How a turn under middleware ends: the request applied, the record kept, or nothing written. */
interface TurnEnds {
  apply(request: TurnRequest): Promise<void>;
  keep(state: string | undefined): Promise<void>;
  release(): Promise<void>;
}

/**
 * Runs the middleware around the request. A middleware that answers on its own writes
 * nothing (the lock is released); `next` and `keep` each end the turn, once. `next()` answers
 * the Prompt the turn is about to write (the runner's `present`), so what the middleware set in
 * `channelState` once it returned is written with it, in the same commit. The channel gets the
 * chain's answer once the turn's write is done (or "still working" at the deadline, ahead); a
 * failure of the chain or the write is the turn's.
 */
async function runMiddleware(
  turn: RunningTurn,
  request: TurnRequest,
  session: SessionGlance,
  middleware: readonly TurnMiddleware[],
  ends: TurnEnds,
): Promise<void> {
  const answer = turn.answer;
  const ending = new TurnEnding(turn);
  // Method and argument functions only: none of them is named per turn (see `run` above).
  const context: TurnContext = {
    sessionKey: turn.sessionKey,
    options: turn.options,
    request,
    session,
    channelState: undefined,
    keep(state) {
      return ending.end(() => ends.keep(state));
    },
  };
  turn.answerAhead = answer;
  // Bound, not an arrow: tsx's keepNames would name an arrow property every turn (see `run`).
  turn.present = ending.present.bind(ending);
  ending.context = context;
  const chain = composeMiddleware(middleware, () =>
    ending.end(async () => {
      const asked = context.request;
      if (asked.kind === 'reply' && !isReply(asked.reply)) {
        throw new TurnError('TURN_BAD_REPLY', 'Middleware made a bad Reply');
      }
      await ends.apply(asked);
    }),
  )(context);
  ending.chainReturns(chain);
  let prompt: Prompt;
  try {
    prompt = await chain;
  } catch (error) {
    await ending.work?.catch(() => undefined);
    throw error;
  }
  if (!ending.work) {
    await ends.release();
    answer(prompt);
    return;
  }
  await ending.work;
  answer(prompt);
}

/**
 * A middleware turn's one end: its work once `next` reached the request or `keep` ran, and the
 * hand-over of the Prompt it writes to the chain (`present`).
 */
class TurnEnding {
  work: Promise<void> | undefined;
  context: TurnContext | undefined;
  private returned: Promise<Prompt> | undefined;
  private settleReturned: ((chain: Promise<Prompt>) => void) | undefined;

  constructor(private readonly turn: RunningTurn) {}

  /** Starts `step` as the turn's end and answers what it answers; a second end is refused. */
  end(step: () => Promise<void>): Promise<Prompt> {
    if (this.work)
      return Promise.reject(new TurnError('TURN_BAD_MIDDLEWARE', 'A turn ended twice'));
    return new Promise<Prompt>((resolve, reject) => {
      this.turn.answer = resolve;
      const work = step();
      this.work = work;
      work.catch(reject);
    });
  }

  /** The chain's answer, once it is known (the work may present before the chain is built). */
  chainReturns(chain: Promise<Prompt>): void {
    if (this.settleReturned) this.settleReturned(chain);
    else this.returned = chain;
  }

  /**
   * `next()` answers `prompt`; once the chain returned, the channel state it set (a system
   * event's kept one first) goes to the write.
   */
  async present(prompt: Prompt): Promise<string | undefined> {
    this.turn.answer(prompt);
    const returned =
      this.returned ??
      new Promise<Prompt>((resolve) => {
        this.settleReturned = resolve;
      });
    await returned;
    return this.turn.kept ?? this.context?.channelState;
  }
}
