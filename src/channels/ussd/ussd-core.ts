import {
  closesCall,
  type Handoff,
  KEYPAD_DIAL,
  KeypadTurn,
  LATE,
  LastLocales,
  type Prompt,
  TurnBackstop,
  type TurnEngine,
  type TurnMiddleware,
  t,
} from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import { createMemoryStore, type KeyValueStore } from '../../storage/index.js';
import type { RenderPrompt } from '../shared/index.js';
import type { UssdRequest, UssdResponse } from './gateway/ussd-wire.js';
import { ussdSessionKey } from './ussd-input.js';
import { UssdKeypad } from './ussd-keypad.js';
import { UssdPages } from './ussd-pages.js';

/**
 * The USSD engine middleware, after the keypad policies: a request of this channel (its
 * `KeypadTurn`, handed to the engine as `TurnOptions.channelRequest`) shows under the session
 * lock what the policies decided, or what the keypress means on its screen, and keeps the
 * caller's place with the record; every other turn passes through.
 */
export const ussdMiddleware: TurnMiddleware = (context, next) => {
  const turn = context.options.channelRequest;
  return turn instanceof KeypadTurn ? turn.run(context, next) : next();
};

/** Options of {@link createUssdCore}. */
interface UssdCoreOptions {
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
  const { engine, handoff, logger } = options;
  const deadlineMs = options.deadlineMs ?? 4000;
  const answerWithinMs = options.answerWithinMs ?? 10_000;
  const keypad = new UssdKeypad(options.render, new LastLocales(options.locale ?? 'en'));
  const backstop = new TurnBackstop<Prompt>(answerWithinMs);
  const pages = new UssdPages(
    options.pages?.store ?? createMemoryStore(),
    `${options.pages?.keyPrefix ?? ''}ussd-pages:`,
    logger,
  );
  const handle = async (request: UssdRequest): Promise<UssdResponse> => {
    // A paging key on a long screen is answered from its kept pages: no engine call.
    // (Checked here first: any other request costs no promise of its own.)
    const paged = UssdPages.mayPage(request) ? await pages.turn(request) : undefined;
    if (paged && 'text' in paged) return paged;
    const sessionKey = ussdSessionKey(request.msisdn);
    // One read per call, on its dial, while the engine takes the session lock.
    const withPerson =
      handoff && request.input === undefined
        ? handoff.active(sessionKey).catch(() => false)
        : undefined;
    const turn = new KeypadTurn(keypad, sessionKey, request, withPerson, paged?.onPage);
    const work = engine.turn(sessionKey, KEYPAD_DIAL, {
      deadlineMs,
      audience: 'policyholder',
      address: turn.address,
      caller: { kind: 'phone', phone: request.msisdn },
      channelRequest: turn,
    });
    const outcome = await backstop.watch(turn, work);
    if (outcome === LATE) {
      logger.warn(
        { channel: 'ussd', gatewaySessionId: request.sessionId, answerWithinMs },
        'ussd turn still running at the answer backstop',
      );
      return { text: t('ussd.stillWorking', undefined, turn.locale), end: true };
    }
    if ('failed' in outcome) {
      logger.error(
        { err: outcome.failed, channel: 'ussd', gatewaySessionId: request.sessionId },
        'ussd turn failed',
      );
      return { text: t('ussd.sorry', undefined, turn.locale), end: true };
    }
    const shown = turn.current;
    if (shown && 'text' in shown) return shown; // a retry's answer again
    // A busy session (another turn holds it past this request's deadline) shows its "still
    // working, Check again" screen and keeps the call open: that turn is past its own deadline
    // too, so it answered "still working" and keeps its result as unseen, which the caller's next
    // keypress is shown whatever it is. Issue 25: a slow insurer never hangs up on the caller.
    const screens = shown ? shown.screens : turn.screensOf(outcome);
    const page = shown ? shown.page : 0;
    // A screen that lets the call go (the PIN prompt needs the handset) ends it like a closing one.
    const ends = shown ? shown.ends : closesCall(outcome);
    // Checked here first: a screen of one page costs no promise of its own.
    if (screens.length > 1 && shown?.paged !== false)
      await pages.shown(request, screens, page, ends);
    return { text: screens[page] ?? '', end: ends && page === screens.length - 1 };
  };
  return { handle, idle: () => backstop.idle() };
}
