import { createHash } from 'node:crypto';
import type { Logger } from '../log/index.js';
import type { SessionLease, SessionStore } from '../session/index.js';
import { ActorCache } from './actor-cache.js';
import { ENGINE_PROMPTS, errorPrompt, stillWorkingPrompt } from './engine-prompts.js';
import type { FlowRegistry } from './flow.js';
import type { Prompt } from './prompt.js';
import { isReply } from './reply.js';
import type { RunningTurn } from './running-turn.js';
import type { TurnEngine, TurnOptions, TurnPrefetch } from './turn-engine.js';
import { TurnError } from './turn-error.js';
import { TurnGate } from './turn-gate.js';
import type { TurnMiddleware, TurnRequest } from './turn-middleware.js';
import { createTurnRunner } from './turn-runner.js';

export { ENGINE_PROMPTS } from './engine-prompts.js';
export { TurnError, type TurnErrorCode } from './turn-error.js';

/** Options of {@link createTurnEngine}. */
export interface TurnEngineOptions {
  readonly store: SessionStore;
  /** Flows by id, actors provided; a fresh session opens the one `entryFor` its audience. */
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
  /** Data read with the session for another part (the holder's renewal card). */
  readonly prefetch?: TurnPrefetch;
}

/** The turn engine plus process-level controls. */
export interface ConversationEngine extends TurnEngine {
  /** Resolves once every turn still running past its deadline has persisted or given up. */
  idle(): Promise<void>;
  /** Stops cached actors; in-flight turns finish on their own. */
  close(): void;
  /**
   * Adds middleware around every later turn, after those added before (grammY's `bot.use`):
   * what only one channel needs (USSD paging, a gateway's retry) or what stands in front of the
   * flows (a handoff). Returns the engine, for chaining.
   */
  use(...middleware: TurnMiddleware[]): ConversationEngine;
}

/**
 * Creates the conversation engine: one Reply in, one Prompt out, with the session locked,
 * restored, advanced until its flow waits for input, and persisted in two store round trips.
 * Never throws to the channel: failures become an `engine.error` Prompt.
 *
 * Its parts, each with its own contract: the {@link TurnGate} (ordering and lock), the
 * {@link ActorCache} (live actors by session), the turn runner (what a turn does under the
 * lock, `turn-runner.ts`, with the middleware added by `use` around it, `turn-middleware.ts`),
 * the flows' side of a turn (`flow-advance.ts`) and the deadline (`deadline.ts`: settle or
 * answer "still working"). Channels call `turn`, `peek` and `start`; what only one channel
 * needs (USSD paging, a gateway's retry) is middleware, not a callback into the channel.
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
  const { store, logger, prefetch } = options;
  const defaultDeadlineMs = options.defaultDeadlineMs ?? 4_000;
  const lockTtlMs = options.lockTtlMs ?? 30_000;
  const gate = new TurnGate({ store, lockTtlMs });
  const cache = new ActorCache(options.cache);
  const middleware: TurnMiddleware[] = [];
  const runTurn = createTurnRunner({
    middleware,
    store,
    flows: options.flows,
    logger,
    cache,
    now: options.now ?? Date.now,
    maxTurnMs: options.maxTurnMs ?? 120_000,
    lockTtlMs,
  });
  /** Turns still running, past their answer or not; `idle` waits for them. */
  const background = new Set<Promise<void>>();

  const turn: TurnEngine['turn'] = (sessionKey, reply, turnOptions = {}) => {
    if (!isReply(reply)) {
      logger.warn(
        { event: 'turn.badReply', sessionId: hashKey(sessionKey) },
        'reply does not match the contract',
      );
      return Promise.resolve(errorPrompt);
    }
    return underLock(sessionKey, { kind: 'reply', reply }, turnOptions);
  };

  /** Runs one request under the session's lock: ordered, locked, run, answered once. */
  const underLock = async (
    sessionKey: string,
    request: TurnRequest,
    turnOptions: TurnOptions,
  ): Promise<Prompt> => {
    const deadlineAt = Date.now() + (turnOptions.deadlineMs ?? defaultDeadlineMs);
    const ordered = gate.order(sessionKey, deadlineAt);
    const leave = typeof ordered === 'function' ? ordered : await ordered;
    if (!leave) return stillWorkingPrompt(ENGINE_PROMPTS.busy);
    // Held by this turn until it commits; put back untouched when the lock is not ours.
    const held = cache.take(sessionKey);
    const address = turnOptions.address;
    const prefetched = address ? prefetch?.keyOf(sessionKey, address) : undefined;
    const also = address ? prefetch?.alsoKeysOf?.(address) : undefined;
    const acquired = await gate.lock(sessionKey, deadlineAt, held?.version, prefetched, also);
    if (acquired.status !== 'acquired') {
      leave();
      if (held) cache.put(sessionKey, held);
      if (acquired.status === 'failed') {
        logger.error(
          {
            event: 'turn.storeFailed',
            sessionId: hashKey(sessionKey),
            err: acquired.error,
          },
          'store unavailable',
        );
        return errorPrompt;
      }
      logger.info(
        { event: 'turn.busy', sessionId: hashKey(sessionKey) },
        'session busy past the deadline',
      );
      return stillWorkingPrompt(ENGINE_PROMPTS.busy);
    }
    if (address && acquired.peeked) prefetch?.deliver(address, acquired.peeked);
    for (const [key, fields] of acquired.alsoPeeked ?? []) prefetch?.deliverAlso?.(key, fields);
    // A version this instance did not write: its cached actor is stale.
    const cached = acquired.unchanged ? held : undefined;
    if (held && !cached) held.actor.stop();

    let answer!: (prompt: Prompt) => void;
    const answered = new Promise<Prompt>((resolve) => {
      answer = resolve;
    });
    const context = new Turn(
      sessionKey,
      acquired.lease,
      deadlineAt,
      turnOptions,
      request.kind === 'reply' && !request.reply.type.startsWith('user.'),
      answer,
    );
    const work: Promise<void> = runTurn(context, acquired, cached, request).then(
      () => {
        background.delete(work);
        leave();
      },
      async (error: unknown) => {
        const code = error instanceof TurnError ? error.code : 'TURN_UNEXPECTED';
        logger.error(
          { event: 'turn.failed', sessionId: context.sessionId, code, err: error },
          'turn failed',
        );
        await store.release(acquired.lease).catch(() => undefined);
        answer(errorPrompt);
        background.delete(work);
        leave();
      },
    );
    background.add(work);
    return answered;
  };

  const engine: ConversationEngine = {
    turn,
    peek: (sessionKey, turnOptions = {}) => underLock(sessionKey, { kind: 'peek' }, turnOptions),
    start: (sessionKey, flowId, { start, ...turnOptions } = {}) =>
      underLock(sessionKey, { kind: 'start', flowId, start }, turnOptions),
    async idle() {
      while (background.size > 0) await Promise.all([...background]);
    },
    close() {
      cache.clear();
    },
    use(...added) {
      middleware.push(...added);
      return engine;
    },
  };
  return engine;
}

/**
 * One turn's context. A class rather than an object literal with a getter: a turn builds one
 * object of a known shape, and its session id is hashed only when something is logged (most
 * turns log nothing).
 */
class Turn implements RunningTurn {
  late = false;
  kept: string | undefined = undefined;
  private hashed: string | undefined = undefined;

  constructor(
    readonly sessionKey: string,
    readonly lease: SessionLease,
    readonly deadlineAt: number,
    readonly options: TurnOptions,
    readonly system: boolean,
    public answer: (prompt: Prompt) => void,
  ) {}

  /** Without middleware nothing but a system event's kept state goes with the Prompt. */
  present(_prompt: Prompt): Promise<string | undefined> {
    return Promise.resolve(this.kept);
  }

  answerAhead(prompt: Prompt): void {
    this.answer(prompt);
  }

  get sessionId(): string {
    this.hashed ??= hashKey(this.sessionKey);
    return this.hashed;
  }
}

/** A stable, non-reversible id for logs: session keys hold phone numbers. */
function hashKey(sessionKey: string): string {
  return createHash('sha256').update(sessionKey).digest('hex').slice(0, 16);
}
