import type { Handoff, TurnEngine } from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import { createMemoryStore, type KeyValueStore } from '../../storage/index.js';
import {
  DIAL,
  LATE,
  type UssdOutcome,
  type UssdRequest,
  type UssdTurnDeps,
} from './ussd-decision.js';
import { ussdSessionKey } from './ussd-input.js';
import { type RenderPrompt, UssdLayout } from './ussd-layout.js';
import { UssdPages } from './ussd-pages.js';
import { UssdTurn } from './ussd-turn.js';

/** What the gateway shows: a screen, and whether the call ends with it. */
export interface UssdResponse {
  readonly text: string;
  readonly end: boolean;
}

/** Options of {@link createUssdCore}. */
export interface UssdCoreOptions {
  /**
   * The turn engine, with the keypad policies (`keypadPolicy`, the caller's language and a
   * person) and then {@link ussdMiddleware} added (`engine.use`): the caller's screen, page and
   * gateway session live in the engine's session record, decided under its lock, so a request
   * costs the turn's two store round trips.
   */
  readonly engine: TurnEngine;
  readonly render: RenderPrompt;
  readonly logger: Logger;
  /**
   * Locale of a caller who has not chosen one (gateways do not tell), and of every caller when
   * the keypad policy has no language store. Default `en`.
   */
  readonly locale?: string;
  /** The engine's deadline for a USSD turn. Default 4000 ms. */
  readonly deadlineMs?: number;
  /**
   * Backstop under the gateway's 15 s: if a turn has not answered by then the caller gets a
   * "we will SMS you" screen. Default 10 000 ms.
   */
  readonly answerWithinMs?: number;
  /**
   * Human handoff, only read here: whether a person has the caller's request, on a dial, while
   * the engine takes the session lock, for the keypad policy to decide with (which shows the
   * "a person will reply by SMS" screen).
   */
  readonly handoff?: Pick<Handoff, 'active'>;
  /**
   * Where the pages of a long screen are kept for the call, so `98 More` and `0 Back` cost no
   * engine call: the server's shared store (every instance answers any request of a call).
   * Default: this process only.
   */
  readonly pages?: { readonly store: KeyValueStore; readonly keyPrefix: string };
}

/** The channel-neutral USSD logic both gateway adapters call. */
export interface UssdCore {
  handle(request: UssdRequest): Promise<UssdResponse>;
  /** Resolves when every turn that is running has answered (graceful shutdown). */
  idle(): Promise<void>;
}

/**
 * Creates the USSD core over the turn engine. Each request is one engine turn: the engine reads
 * the session under its lock, the USSD middleware decides what the keypress means (an answer
 * for the flow, a page of the same screen, the resume menu), and the engine writes the record
 * with the channel's paging state in the same commit.
 */
export function createUssdCore(options: UssdCoreOptions): UssdCore {
  const deadlineMs = options.deadlineMs ?? 4000;
  const answerWithinMs = options.answerWithinMs ?? 10_000;
  const layout = new UssdLayout(options.render, options.locale ?? 'en');
  const handoff = options.handoff;
  const engine = options.engine;
  const pages = new UssdPages(
    options.pages?.store ?? createMemoryStore(),
    `${options.pages?.keyPrefix ?? ''}ussd-pages:`,
    options.logger,
  );
  const deps: UssdTurnDeps = { layout };
  const settle = (turn: UssdTurn, outcome: UssdOutcome): void => {
    inFlight.delete(turn);
    finishedOne();
    turn.resolve?.(outcome);
  };

  /**
   * The answer backstop without a timer per request: turns register here, and one sweep, running
   * only while turns are in flight, answers those past `answerWithinMs`.
   */
  const inFlight = new Set<UssdTurn>();
  const sweepEveryMs = Math.min(1_000, Math.max(10, Math.floor(answerWithinMs / 10)));
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () => {
    const overdue = Date.now() - answerWithinMs;
    for (const turn of inFlight) {
      if (turn.startedAt <= overdue) {
        inFlight.delete(turn);
        turn.resolve?.(LATE);
      }
    }
    if (inFlight.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  /** Turns whose engine work has not finished (answered late or not); `idle` waits for them. */
  let unfinished = 0;
  let whenIdle: Array<() => void> = [];
  const finishedOne = () => {
    unfinished -= 1;
    if (unfinished > 0) return;
    const waiting = whenIdle;
    whenIdle = [];
    for (const resolve of waiting) resolve();
  };
  const handle = async (request: UssdRequest): Promise<UssdResponse> => {
    // A paging key on a long screen is answered from its kept pages: no engine call.
    // (Checked here first: any other request costs no promise of its own.)
    const paged = UssdPages.mayPage(request) ? await pages.turn(request) : undefined;
    if (paged && 'text' in paged) return paged;
    // One read per call, on its dial, while the engine takes the session lock.
    const withPerson =
      handoff && request.input === undefined
        ? handoff.active(ussdSessionKey(request.msisdn)).catch(() => false)
        : undefined;
    const turn = new UssdTurn(deps, request, withPerson, paged?.onPage);
    const work = engine.turn(turn.sessionKey, DIAL, {
      deadlineMs,
      audience: 'policyholder',
      address: turn.address,
      caller: { kind: 'phone', phone: request.msisdn },
      channelRequest: turn,
    });
    unfinished += 1;
    const outcome = await new Promise<UssdOutcome>((resolve) => {
      turn.resolve = resolve;
      inFlight.add(turn);
      sweeper ??= setInterval(sweep, sweepEveryMs).unref();
      work.then(
        (prompt) => settle(turn, prompt),
        (error: unknown) => settle(turn, { failed: error }),
      );
    });
    if (outcome === LATE) {
      options.logger.warn(
        { channel: 'ussd', gatewaySessionId: request.sessionId, answerWithinMs },
        'ussd turn still running at the answer backstop',
      );
      return { text: layout.say('ussd.stillWorking', turn.locale), end: true };
    }
    if ('failed' in outcome) {
      options.logger.error(
        { err: outcome.failed, channel: 'ussd', gatewaySessionId: request.sessionId },
        'ussd turn failed',
      );
      return { text: layout.say('ussd.sorry', turn.locale), end: true };
    }
    const prompt = outcome;
    const shown = turn.current;
    if (shown.kind === 'replay') return { text: shown.text, end: shown.end };
    if (shown.kind === 'resume') {
      return { text: turn.resumeScreens()[shown.page] ?? '', end: false };
    }
    // A busy session (another turn holds it past this request's deadline) shows its "still
    // working, Check again" screen and keeps the call open: that turn is past its own deadline
    // too, so it answered "still working" and keeps its result as unseen, which the caller's next
    // keypress is shown whatever it is. Issue 25: a slow insurer never hangs up on the caller.
    const source = shown.kind === 'prompt' ? shown.prompt : prompt;
    const screens = turn.screensOf(source);
    const page = shown.kind === 'prompt' ? Math.min(shown.page, screens.length - 1) : 0;
    // A screen that lets the call go (the PIN prompt needs the handset) ends it like a closing one.
    const ends = source.final || source.endsCall === true;
    // Checked here first: a screen of one page costs no promise of its own.
    if (screens.length > 1) await pages.shown(request, screens, page, ends);
    return { text: screens[page] ?? '', end: ends && page === screens.length - 1 };
  };

  return {
    handle,
    idle() {
      if (unfinished === 0) return Promise.resolve();
      return new Promise<void>((resolve) => whenIdle.push(resolve));
    },
  };
}
