import {
  KeypadRequest,
  type Prompt,
  type Reply,
  type SessionGlance,
} from '../../conversation/index.js';
import {
  ANSWERED,
  answered,
  DIAL,
  ENGINE_NOTES,
  NOTHING_HELD,
  type Screen,
  type UssdDecision,
  type UssdOutcome,
  type UssdRequest,
  type UssdTurnDeps,
} from './ussd-decision.js';
import { ussdSessionKey } from './ussd-input.js';
import { type UssdMemo, ussdMemo, writeMemo } from './ussd-memo.js';

/**
 * What one USSD request shows and keeps: the screen it decided on (`current`), its layout, the
 * memo written with the answered Prompt, and the decisions that only move through the record
 * (a page, the resume menu, a screen of the channel's own). {@link UssdTurn} decides which.
 */
export abstract class UssdPosition extends KeypadRequest {
  current: Screen = ANSWERED;
  readonly sessionKey: string;
  readonly startedAt = Date.now();
  /** Hands the engine's outcome (or the backstop's) to the waiting request; set by the core. */
  resolve: ((outcome: UssdOutcome) => void) | undefined = undefined;
  protected glance: SessionGlance = NOTHING_HELD;
  protected memo: UssdMemo | undefined = undefined;
  protected h: string | undefined = undefined;
  protected laidOut: Prompt | undefined = undefined;
  protected screens: string[] = [];
  private resumeLaidOut: { locale: string; screens: string[] } | undefined = undefined;
  /** The caller's language: the last one seen until the session is read, then theirs. */
  locale: string;
  /**
   * The turn's address, handed to the engine: its locale is the caller's once `decide` read
   * it, before the flow runs and the record (which routes payment outcome SMS) is written.
   */
  readonly address: { channel: 'ussd'; address: string; locale: string };

  constructor(
    protected readonly deps: UssdTurnDeps,
    readonly request: UssdRequest,
  ) {
    super();
    this.sessionKey = ussdSessionKey(request.msisdn);
    this.locale = deps.layout.localeHint(request.msisdn);
    this.address = { channel: 'ussd', address: request.msisdn, locale: this.locale };
  }

  screensOf(prompt: Prompt): string[] {
    // Prompts are never mutated once built, so a layout stays right for its object.
    if (prompt !== this.laidOut) {
      this.screens = this.deps.layout.screensOf(prompt, this.locale);
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
    this.deps.layout.rememberLocale(this.request.msisdn, locale);
  }

  /**
   * The memo to store with a Prompt shown from page 0. A closing screen of one page keeps none
   * (the session ends with it) unless the gateway can retry the request that got it.
   */
  memoFor(shown: Prompt): string | undefined {
    const h = this.h;
    const screens = this.screensOf(shown);
    const end = shown.final === true && screens.length <= 1;
    if (end && h === undefined) return undefined;
    // A screen that lets the call go keeps the conversation: its memo stays, saying it ended.
    const ends = end || (shown.endsCall === true && screens.length <= 1);
    const withEngineNotes = shown.notes?.some((note) => ENGINE_NOTES.has(note.key));
    const fresh = ussdMemo(this.request.sessionId, 'p', 0, withEngineNotes ? shown : undefined);
    return writeMemo(answered(fresh, 0, h, screens[0], ends));
  }

  protected answer(value: Reply): UssdDecision {
    this.current = ANSWERED;
    return { kind: 'reply', reply: value };
  }

  protected restart(): UssdDecision {
    this.current = ANSWERED;
    return { kind: 'restart' };
  }

  /** The resume offer's screens, naming what the caller left unfinished (read once a turn). */
  resumeScreens(): string[] {
    if (this.resumeLaidOut?.locale !== this.locale) {
      const screens = this.deps.layout.resumeScreensOf(this.locale, this.glance.unfinished);
      this.resumeLaidOut = { locale: this.locale, screens };
    }
    return this.resumeLaidOut.screens;
  }

  /** `next`'s position (mode, page, shown prompt) kept; what it answered is this request's. */
  protected keep(next: UssdMemo, shown: Prompt | undefined): UssdDecision {
    const h = this.h;
    if (next.m === 'r') {
      const resumeScreens = this.resumeScreens();
      const page = Math.min(next.p, resumeScreens.length - 1);
      this.current = { kind: 'resume', page };
      return {
        kind: 'keep',
        state: writeMemo(answered(next, page, h, resumeScreens[page], false)),
      };
    }
    const prompt = shown ?? this.glance.prompt;
    if (!prompt) return this.answer(DIAL);
    const screens = this.screensOf(prompt);
    const page = Math.min(next.p, screens.length - 1);
    this.current = { kind: 'prompt', prompt, page };
    // A closing screen is forgotten once its last page is on screen, unless the gateway may
    // retry the request that showed it.
    const done = prompt.final === true && page === screens.length - 1;
    const ends = done || (prompt.endsCall === true && page === screens.length - 1);
    if (done && h === undefined) return { kind: 'keep', state: undefined };
    return { kind: 'keep', state: writeMemo(answered(next, page, h, screens[page], ends)) };
  }

  /**
   * A screen of the channel's own (the handoff's), kept in the memo so the next keypress is
   * read against it; with no conversation held, the entry menu is started underneath.
   */
  protected showOwn(prompt: Prompt): UssdDecision {
    const own = ussdMemo(this.request.sessionId, 'p', 0, prompt);
    if (this.glance.prompt) return this.keep(own, prompt);
    this.current = { kind: 'prompt', prompt, page: 0 };
    const first = this.screensOf(prompt)[0];
    return { kind: 'restart', memo: writeMemo(answered(own, 0, this.h, first, false)) };
  }
}
