import type {
  KeypadDecision,
  KeypadHeard,
  Prompt,
  SessionGlance,
  TurnContext,
  TurnMiddleware,
} from '../../conversation/index.js';
import { DIAL, type UssdDecision, type UssdRequest, type UssdTurnDeps } from './ussd-decision.js';
import { ussdInputToReply } from './ussd-input.js';
import { historyDigest, readMemo, ussdMemo } from './ussd-memo.js';
import { UssdPosition } from './ussd-position.js';
import { USSD_BACK_KEY, USSD_MORE_KEY } from './ussd-screens.js';

/**
 * The USSD engine middleware, after the keypad policies: a request of this channel (its
 * {@link UssdTurn}, handed to the engine as `TurnOptions.channelRequest`) shows under the session
 * lock what the policies decided, or what the keypress means on its screen; every other turn
 * passes through.
 */
export const ussdMiddleware: TurnMiddleware = (context, next) => {
  const turn = context.options.channelRequest;
  return turn instanceof UssdTurn ? turn.run(context, next) : next();
};

const OWN: KeypadHeard = { kind: 'own' };
const DIALLED: KeypadHeard = { kind: 'dial' };

/**
 * One request: what it asked, what the engine showed it (`current`), and its decision under the
 * session lock. One object per request carries what would otherwise be a closure or a small
 * object per step: the policies and the middleware run it, the answer backstop holds it while it
 * runs, and it keeps the layout of the Prompt it shows, which the memo (after the engine's
 * `next()`) and the answer both read: laid out once.
 */
export class UssdTurn extends UssdPosition {
  /** What the request means on its screen, once read from the session. */
  private heardAs: KeypadHeard | undefined = undefined;
  /** What the channel answers on its own (`own`): a retry, a page, the resume menu. */
  private own: UssdDecision | undefined = undefined;
  /** The screen a keypress was read against. */
  private shown: Prompt | undefined = undefined;

  constructor(
    deps: UssdTurnDeps,
    request: UssdRequest,
    /** For a dial: whether a person has the caller's request. */
    readonly withPerson: Promise<boolean> | undefined,
    /**
     * The page on screen when the kept pages know it (paging keys answered without the engine
     * leave the record's page behind).
     */
    private readonly onPage?: number,
  ) {
    super(deps, request);
  }

  /**
   * The USSD middleware's work for this request: shows what the keypad policies decided, else
   * what the keypress means on its screen (an answer for the flow, a page of the same screen, the
   * resume menu); the memo of the screen the engine answers is laid out once, here, and written
   * with it.
   */
  async run(context: TurnContext, next: () => Promise<Prompt>): Promise<Prompt> {
    // Heard here when no keypad policy read it first (an engine without them).
    const heard = this.heardAs ?? this.heard(context.session);
    const decided = this.decision;
    let decision: UssdDecision;
    if (decided) decision = this.show(decided);
    else if (heard.kind === 'own') decision = this.own ?? this.answer(DIAL);
    else if (heard.kind === 'dial') decision = this.dial();
    else decision = this.answer(heard.reply);
    if (decision.kind === 'keep') return context.keep(decision.state);
    let memo: string | undefined;
    if (decision.kind === 'restart') {
      memo = decision.memo;
      context.request = { kind: 'restart' };
    } else {
      context.request = { kind: 'reply', reply: decision.reply };
    }
    const shown = await next();
    context.channelState = memo ?? this.memoFor(shown);
    return shown;
  }

  /**
   * What the request means on the screen the engine holds (read once): the gateway's retry, a
   * page, a choice on the resume menu and a stray key on a closing screen are the channel's own;
   * a dial and any other keypress go past the keypad policies first.
   */
  heard(glance: SessionGlance): KeypadHeard {
    if (this.heardAs) return this.heardAs;
    this.heardAs = this.hear(glance);
    return this.heardAs;
  }

  private hear(glance: SessionGlance): KeypadHeard {
    const request = this.request;
    const read = readMemo(glance.state);
    const onPage = this.onPage;
    const memo = read && onPage !== undefined && read.m === 'p' ? { ...read, p: onPage } : read;
    const h = historyDigest(request.history);
    const sameCall = memo !== undefined && memo.g === request.sessionId;
    if (sameCall && h !== undefined && memo.h === h && memo.a !== undefined) {
      // The gateway sent the request it already had an answer to: the same answer, nothing else.
      this.current = { kind: 'replay', text: memo.a, end: memo.e === true };
      return this.ownAnswer({ kind: 'keep', state: glance.state });
    }
    this.glance = glance;
    this.memo = memo;
    this.h = h;

    if (request.input === undefined || !sameCall) {
      // A dial, or input for a call we hold nothing for (state expired, or a gateway that never
      // sent the dial): treat it as the dial rather than apply a keypress to a screen never shown.
      if (memo && sameCall) return this.ownAnswer(this.keep(memo, memo.s)); // the gateway repeated the opening request
      return DIALLED;
    }
    const typed = request.input.trim();
    if (memo.m === 'r') {
      if (typed === '1') {
        // "Continue": the screen the conversation waits on, as the engine holds it. An unseen
        // result would swallow the caller's next answer: let the engine mark it seen.
        if (!glance.prompt || glance.unseen) return this.ownAnswer(this.answer(DIAL));
        return this.ownAnswer(this.keep(ussdMemo(request.sessionId, 'p', 0), undefined));
      }
      if (typed === '2') return this.ownAnswer(this.restart());
      return this.ownAnswer(this.keep(memo, undefined));
    }
    const shown = memo.s ?? glance.prompt;
    if (!shown) return this.ownAnswer(this.answer(DIAL));
    this.shown = shown;
    // A result the caller has not seen yet: whatever they typed, the engine shows it first.
    if (!glance.unseen) {
      if (typed === USSD_MORE_KEY && memo.p < this.screensOf(shown).length - 1)
        return this.ownAnswer(this.keep(ussdMemo(memo.g, memo.m, memo.p + 1, memo.s), shown));
      if (typed === USSD_BACK_KEY && memo.p > 0)
        return this.ownAnswer(this.keep(ussdMemo(memo.g, memo.m, memo.p - 1, memo.s), shown));
      // Only paging keys move through a closing message; anything else shows the page again.
      if (shown.final || shown.endsCall) return this.ownAnswer(this.keep(memo, shown));
    }
    return { kind: 'key', typed, reply: ussdInputToReply(typed, shown, request.msisdn), shown };
  }

  private ownAnswer(decision: UssdDecision): KeypadHeard {
    this.own = decision;
    return OWN;
  }

  /** What the keypad policies decided, as this channel shows it. */
  private show(decided: KeypadDecision): UssdDecision {
    switch (decided.kind) {
      case 'screen':
        return this.showOwn(decided.prompt);
      case 'again':
        return this.memo ? this.keep(this.memo, this.shown) : this.answer(DIAL);
      case 'goOn':
        return this.goOn();
      case 'restart':
        return this.restart();
    }
  }

  /** After the handoff: where the conversation stopped, as after a dropped call. */
  private goOn(): UssdDecision {
    const glance = this.glance;
    if (glance.unseen) return this.answer(DIAL);
    const sessionId = this.request.sessionId;
    if (glance.resumable) return this.keep(ussdMemo(sessionId, 'r', 0), undefined);
    if (glance.prompt && !glance.prompt.final) {
      return this.keep(ussdMemo(sessionId, 'p', 0), undefined);
    }
    return this.restart();
  }

  private dial(): UssdDecision {
    const glance = this.glance;
    // A closing screen told out of turn (a payment's outcome, also sent by SMS) and not seen
    // yet: the dial shows it once, where the payment stands, before the menu.
    if (glance.unseen && glance.prompt?.final) return this.answer(DIAL);
    if (glance.resumable) return this.keep(ussdMemo(this.request.sessionId, 'r', 0), undefined);
    // A conversation not worth continuing (the entry menu) would take the dial as an answer.
    if (glance.prompt) return this.restart();
    return this.answer(DIAL);
  }
}
