import { shortDigest } from '../../storage/index.js';
import { ENGINE_PROMPTS } from '../engine-prompts.js';
import type { Unfinished } from '../flow.js';
import type { LastLocales } from '../language.js';
import type { Prompt } from '../prompt.js';
import type { Reply } from '../reply.js';
import type { BackstopOutcome } from '../turn-backstop.js';
import type { ChannelName, SessionGlance } from '../turn-engine.js';
import type { TurnContext } from '../turn-middleware.js';
import { answered, type KeypadMemo, keypadMemo, readMemo } from './keypad-memo.js';
import {
  type KeypadDecision,
  type KeypadHeard,
  KeypadRequest,
  keypadDefault,
} from './keypad-request.js';

/**
 * What a keypad channel gives its turns, shared by every request: how it lays out what it shows
 * (its renderer) and reads what the caller types (its parser).
 */
export interface KeypadChannel {
  readonly name: ChannelName;
  /** A Prompt as the channel's screens in `locale`, a long one paged. */
  screensOf(prompt: Prompt, locale: string): string[];
  /** The "Continue / Start again" offer, naming what is unfinished when the flow says. */
  resumeScreensOf(locale: string, unfinished?: Unfinished): string[];
  /** What `typed` means on the screen `shown`, from the phone `msisdn`. */
  replyOf(typed: string, shown: Prompt, msisdn: string): Reply;
  /** The keys that page a long screen on (`more`) and back. */
  readonly more: string;
  readonly back: string;
  /** The keys of the resume offer's choices. */
  readonly resumeKeys: { readonly continue: string; readonly restart: string };
  /** The language each caller was last seen in (for what is shown before it is read). */
  readonly locales: LastLocales;
}

/** One request of a call, as the channel parsed it. */
export interface KeypadCall {
  /** The platform's id for this call; a new id from the same phone means the last call dropped. */
  readonly sessionId: string;
  /** The caller's MSISDN, normalised (`260971234567`). */
  readonly msisdn: string;
  /** The newest thing the caller typed; `undefined` on the dial that opens a call. */
  readonly input: string | undefined;
  /** What identifies this request within the call, so that a retry of it is known. */
  readonly history?: string | undefined;
}

/**
 * What a request shows when it answers on its own (undefined: the engine's Prompt, from its first
 * page): a page of `screens` laid out here (`ends`: the last page ends the call; `paged`: a
 * conversation's screen, not the resume offer), or the answer a retry gets again.
 */
type KeypadShown =
  | {
      readonly screens: string[];
      readonly page: number;
      readonly ends: boolean;
      readonly paged: boolean;
    }
  | { readonly text: string; readonly end: boolean }
  | undefined;

/**
 * What a request decided about the session, once read:
 * - `reply`: apply it as a normal turn; the memo is laid out from the Prompt the engine answers;
 * - `restart`: drop the conversation and start the entry menu afresh, likewise, or with `memo`
 *   when the channel shows a screen of its own over the menu started underneath;
 * - `keep`: answer without the flow (a page of the same screen) with the new state (a closing
 *   screen is forgotten once `state` is undefined).
 */
type KeypadStep =
  | { readonly kind: 'reply'; readonly reply: Reply }
  | { readonly kind: 'restart'; readonly memo?: string }
  | { readonly kind: 'keep'; readonly state: string | undefined };

/**
 * The Reply a dial sends. The engine starts the entry menu on it when it holds no conversation
 * (the reply itself is dropped) and re-shows a result the caller has not seen yet.
 */
export const KEYPAD_DIAL: Reply = { type: 'user.text', text: '' };
/** What a request knows of the session before the engine has shown it anything. */
const NOTHING_HELD: SessionGlance = {
  prompt: undefined,
  unseen: false,
  resumable: false,
  state: undefined,
};
const ENGINE_NOTES: ReadonlySet<string> = new Set(Object.values(ENGINE_PROMPTS));
const OWN: KeypadHeard = { kind: 'own' };
const DIALLED: KeypadHeard = { kind: 'dial' };

/**
 * One request of a keypad channel (USSD) and the caller's place in the call, kept as the
 * channel state of the engine's record: a gateway's retry gets the same answer, paging keys move
 * through a long screen, a re-dial is offered to resume, and what the keypad policies decided is
 * shown; a keypress for the flow goes to it as a Reply. The channel reads the keys and lays out
 * the screens ({@link KeypadChannel}). One object per request carries
 * what would otherwise be a closure or a small object per step: the policies and the channel's
 * middleware run it, the answer backstop holds it, and it keeps the layout of the Prompt it
 * shows, which the memo (after the engine's `next()`) and the answer both read: laid out once.
 */
export class KeypadTurn extends KeypadRequest {
  /** What the request shows when it answers on its own. */
  current: KeypadShown = undefined;
  readonly startedAt = Date.now();
  /** Hands the engine's outcome (or the backstop's) to the waiting request; set by the backstop. */
  resolve: ((outcome: BackstopOutcome<Prompt>) => void) | undefined = undefined;
  /** The caller's language: the last one seen until the session is read, then theirs. */
  locale: string;
  /** The turn's address, handed to the engine, in the caller's language once it is read. */
  readonly address: { channel: ChannelName; address: string; locale: string };
  private glance = NOTHING_HELD;
  private memo: KeypadMemo | undefined = undefined;
  private h: string | undefined = undefined;
  /** What the request means on its screen, once read from the session. */
  private heardAs: KeypadHeard | undefined = undefined;
  /** What the request answers on its own (`own`): a retry, a page. */
  private own: KeypadStep | undefined = undefined;
  /** The screen a keypress was read against. */
  private shown: Prompt | undefined = undefined;
  private laidOut: Prompt | undefined = undefined;
  private screens: string[] = [];

  constructor(
    private readonly channel: KeypadChannel,
    readonly sessionKey: string,
    readonly request: KeypadCall,
    /** For a dial: whether a person has the caller's request. */
    readonly withPerson: Promise<boolean> | undefined,
    /**
     * The page on screen when the channel knows it better than the record (pages it answered
     * without the engine leave the record's page behind).
     */
    private readonly onPage?: number,
  ) {
    super();
    this.locale = channel.locales.of(request.msisdn);
    this.address = { channel: channel.name, address: request.msisdn, locale: this.locale };
  }

  /**
   * The channel middleware's work for this request, after the keypad policies: shows what they
   * decided, else what the keypress means on its screen; the memo of the screen the engine
   * answers is laid out once, here, and written with it.
   */
  async run(context: TurnContext, next: () => Promise<Prompt>): Promise<Prompt> {
    // Heard here when no keypad policy read it first (an engine without them).
    const heard = this.heardAs ?? this.heard(context.session);
    let decision: KeypadStep;
    if (this.decision) decision = this.show(this.decision);
    else if (heard.kind === 'key') decision = this.answer(heard.reply);
    else if (heard.kind === 'own') decision = this.own ?? this.answer(KEYPAD_DIAL);
    else decision = this.show(keypadDefault(heard, this.glance));
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
   * What the request means on the screen the engine holds (read once): a retry, a page and a
   * stray key on a closing screen are the turn's own; a dial, a choice on the resume offer and
   * any other keypress go past the keypad policies first.
   */
  heard(glance: SessionGlance): KeypadHeard {
    this.heardAs ??= this.hear(glance);
    return this.heardAs;
  }

  private hear(glance: SessionGlance): KeypadHeard {
    const request = this.request;
    const read = readMemo(glance.state);
    const onPage = this.onPage;
    const memo = read && onPage !== undefined && read.m === 'p' ? { ...read, p: onPage } : read;
    const h = shortDigest(request.history);
    const sameCall = memo !== undefined && memo.g === request.sessionId;
    if (sameCall && h !== undefined && memo.h === h && memo.a !== undefined) {
      // The gateway sent the request it already had an answer to: the same answer, nothing else.
      this.current = { text: memo.a, end: memo.e === true };
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
    const channel = this.channel;
    if (memo.m === 'r') {
      const { resumeKeys } = channel;
      const choice =
        typed === resumeKeys.continue
          ? 'continue'
          : typed === resumeKeys.restart
            ? 'restart'
            : undefined;
      return { kind: 'resume', choice };
    }
    const shown = memo.s ?? glance.prompt;
    if (!shown) return this.ownAnswer(this.answer(KEYPAD_DIAL));
    this.shown = shown;
    // A result the caller has not seen yet: whatever they typed, the engine shows it first.
    if (!glance.unseen) {
      if (typed === channel.more && memo.p < this.screensOf(shown).length - 1)
        return this.ownAnswer(this.keep(keypadMemo(memo.g, memo.m, memo.p + 1, memo.s), shown));
      if (typed === channel.back && memo.p > 0)
        return this.ownAnswer(this.keep(keypadMemo(memo.g, memo.m, memo.p - 1, memo.s), shown));
      // Only paging keys move through a closing message; anything else shows the page again.
      if (shown.final || shown.endsCall) return this.ownAnswer(this.keep(memo, shown));
    }
    return { kind: 'key', typed, reply: channel.replyOf(typed, shown, request.msisdn), shown };
  }

  private ownAnswer(decision: KeypadStep): KeypadHeard {
    this.own = decision;
    return OWN;
  }

  /** What the keypad policies decided, as shown on the keypad. */
  private show(decided: KeypadDecision): KeypadStep {
    switch (decided.kind) {
      case 'screen':
        return this.showOwn(decided.prompt);
      case 'again':
        return this.memo ? this.keep(this.memo, this.shown) : this.answer(KEYPAD_DIAL);
      case 'flow':
        return this.answer(KEYPAD_DIAL);
      case 'step':
        return this.keep(keypadMemo(this.request.sessionId, 'p', 0), undefined);
      case 'resume':
        return this.keep(keypadMemo(this.request.sessionId, 'r', 0), undefined);
      case 'restart':
        return this.restart();
    }
  }

  /** The screens of `prompt` in the turn's language (a Prompt is never mutated once built). */
  screensOf(prompt: Prompt): string[] {
    if (prompt !== this.laidOut) {
      this.screens = this.channel.screensOf(prompt, this.locale);
      this.laidOut = prompt;
    }
    return this.screens;
  }

  /** Speaks `locale` from now on in this turn, and remembers it as the phone's hint. */
  useLocale(locale: string): void {
    if (locale !== this.locale) {
      this.locale = locale;
      this.address.locale = locale;
      this.laidOut = undefined;
    }
    this.channel.locales.remember(this.request.msisdn, locale);
  }

  /**
   * The memo to store with a Prompt shown from page 0. A closing screen of one page keeps none
   * (the session ends with it) unless the gateway can retry the request that got it.
   */
  private memoFor(shown: Prompt): string | undefined {
    const withEngineNotes = shown.notes?.some((note) => ENGINE_NOTES.has(note.key));
    const fresh = keypadMemo(this.request.sessionId, 'p', 0, withEngineNotes ? shown : undefined);
    return this.stateOn(fresh, shown, 0, this.screensOf(shown));
  }

  /**
   * `position` on `page` of `prompt` as the record's channel state: a closing screen is
   * forgotten once its last page is on screen, unless the gateway may retry the request that
   * showed it; a screen that lets the call go keeps the conversation, saying it ended.
   */
  private stateOn(
    position: KeypadMemo,
    prompt: Prompt,
    page: number,
    screens: string[],
  ): string | undefined {
    const last = page === screens.length - 1;
    const done = prompt.final === true && last;
    if (done && this.h === undefined) return undefined;
    return answered(
      position,
      page,
      this.h,
      screens[page],
      done || (prompt.endsCall === true && last),
    );
  }

  private answer(value: Reply): KeypadStep {
    this.current = undefined;
    return { kind: 'reply', reply: value };
  }

  private restart(): KeypadStep {
    this.current = undefined;
    return { kind: 'restart' };
  }

  /** `next`'s position (mode, page, shown prompt) kept; what it answered is this request's. */
  private keep(next: KeypadMemo, shown: Prompt | undefined): KeypadStep {
    if (next.m === 'r') {
      // Laid out each time: it names what the caller left unfinished.
      const screens = this.channel.resumeScreensOf(this.locale, this.glance.unfinished);
      const page = Math.min(next.p, screens.length - 1);
      this.current = { screens, page, ends: false, paged: false };
      return { kind: 'keep', state: answered(next, page, this.h, screens[page], false) };
    }
    const prompt = shown ?? this.glance.prompt;
    if (!prompt) return this.answer(KEYPAD_DIAL);
    const screens = this.screensOf(prompt);
    const page = Math.min(next.p, screens.length - 1);
    this.current = { screens, page, ends: closesCall(prompt), paged: true };
    return { kind: 'keep', state: this.stateOn(next, prompt, page, screens) };
  }

  /**
   * A screen of the policies' own (the handoff's, the language screen), kept in the memo so the
   * next keypress is read against it; with no conversation held, the entry menu is started
   * underneath.
   */
  private showOwn(prompt: Prompt): KeypadStep {
    const own = keypadMemo(this.request.sessionId, 'p', 0, prompt);
    if (this.glance.prompt) return this.keep(own, prompt);
    const screens = this.screensOf(prompt);
    this.current = { screens, page: 0, ends: closesCall(prompt), paged: true };
    return { kind: 'restart', memo: answered(own, 0, this.h, screens[0], false) };
  }
}

/** Whether the last page of `prompt` ends the call: a closing screen, or one that lets it go. */
export function closesCall(prompt: Prompt): boolean {
  return prompt.final || prompt.endsCall === true;
}
