import {
  type CallerLanguages,
  CHOOSE_LANGUAGE,
  type ChannelDecision,
  type ChannelStateHook,
  type ChannelStateOf,
  ENGINE_PROMPTS,
  type Handoff,
  LANGUAGE_PROMPT,
  localeOfChoice,
  type MessageKey,
  type Prompt,
  type Reply,
  type SessionGlance,
  TALK_TO_A_PERSON,
  type TurnEngine,
  t,
} from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import { historyDigest, readMemo, type UssdMemo, ussdMemo, writeMemo } from './ussd-memo.js';
import {
  type RenderedPrompt,
  toUssdScreens,
  USSD_BACK_KEY,
  USSD_MORE_KEY,
} from './ussd-screens.js';

/** Renders a Prompt through the locale catalogue (src/conversation's `renderPrompt`). */
export type RenderPrompt = (prompt: Prompt, locale: string) => RenderedPrompt;

/** One gateway request, already authenticated and reduced to what the core needs. */
export interface UssdRequest {
  /** The gateway's id for this call; a new id from the same phone means the last call dropped. */
  readonly sessionId: string;
  /** The caller's MSISDN, normalised (`260971234567`). */
  readonly msisdn: string;
  /** The newest thing the user typed; `undefined` on the dial that opens a call. */
  readonly input: string | undefined;
  /**
   * What identifies this request within the call, so that a gateway's retry of it is known:
   * Africa's Talking's whole `*`-joined history, Hubtel's sequence number with the message.
   * Undefined where the gateway gives nothing that tells a retry from a new keypress.
   */
  readonly history?: string | undefined;
}

/** What the gateway shows: a screen, and whether the call ends with it. */
export interface UssdResponse {
  readonly text: string;
  readonly end: boolean;
}

/** Options of {@link createUssdCore}. */
export interface UssdCoreOptions {
  /**
   * The turn engine. It must honour `TurnOptions.channelState` (the engine from
   * `createTurnEngine` does): the caller's screen, page and gateway session live in the
   * engine's session record, so a request costs the turn's two store round trips.
   */
  readonly engine: TurnEngine;
  readonly render: RenderPrompt;
  readonly logger: Logger;
  /**
   * Locale of a caller who has not chosen one (gateways do not tell), and of every caller
   * without `languages`. Default `en`.
   */
  readonly locale?: string;
  /**
   * The language each caller chose. With it, the first dial from a phone that never chose asks
   * (one screen, 1 English 2 Ichibemba 3 Chinyanja) and the menu's "Language" changes it; the
   * choice is read with the session (no round trip of its own when the card is prefetched).
   */
  readonly languages?: CallerLanguages;
  /** False: a phone's first dial goes straight to the menu (in `locale`). Default true. */
  readonly askLanguage?: boolean;
  /** The engine's deadline for a USSD turn. Default 4000 ms. */
  readonly deadlineMs?: number;
  /**
   * Backstop under the gateway's 15 s: if a turn has not answered by then the caller gets a
   * "we will SMS you" screen. Default 10 000 ms.
   */
  readonly answerWithinMs?: number;
  /**
   * Human handoff: the menu's "Talk to a person" opens it; while it lasts a dial shows a short
   * "a person will reply by SMS" screen whose one choice ends it and goes on. Without it the
   * choice reaches the flow like any other.
   */
  readonly handoff?: Handoff;
}

/** The channel-neutral USSD logic both gateway adapters call. */
export interface UssdCore {
  handle(request: UssdRequest): Promise<UssdResponse>;
  /** Resolves when every turn that is running has answered (graceful shutdown). */
  idle(): Promise<void>;
}

const ENGINE_NOTES: ReadonlySet<string> = new Set(Object.values(ENGINE_PROMPTS));

/**
 * The Reply a dial sends. The engine starts the entry menu on it when it holds no conversation
 * (the reply itself is dropped) and re-shows a result the caller has not seen yet.
 */
const DIAL: Reply = { type: 'user.text', text: '' };
/** Choice id of the extra "Use this number" line on a contact prompt. */
const USE_CALLER_NUMBER = 'ussd.useCallerNumber';
/** Choice id of "End it and carry on" on the handoff screen. */
const END_HANDOFF = 'handoff.end';
/** A screen while a person has the caller's request: its one choice ends the handoff. */
const handoffScreen = (key: string): Prompt => ({
  key,
  input: 'choice',
  final: false,
  choices: [{ id: END_HANDOFF, label: 'handoff.ussd.end' }],
});
const WAITING_FOR_PERSON = handoffScreen('handoff.ussd.waiting');
const SENT_TO_PERSON = handoffScreen('handoff.ussd.sent');
const NOT_SENT_TO_PERSON = handoffScreen('handoff.ussd.notSent');
const HANDOFF_SCREENS: ReadonlySet<string> = new Set(
  [WAITING_FOR_PERSON, SENT_TO_PERSON, NOT_SENT_TO_PERSON].map((screen) => screen.key),
);
/** Shorter input on a handoff screen is a stray key, not a message for the person. */
const MIN_MESSAGE_CHARS = 3;

/** The session key of a USSD caller. */
export function ussdSessionKey(msisdn: string): string {
  return `ussd:${msisdn}`;
}

/** Maps what the caller typed to a Reply for the Prompt on screen. */
export function ussdInputToReply(input: string, prompt: Prompt, msisdn: string): Reply {
  const typed = input.trim();
  if (typed === '00' || typed === '#') return { type: 'user.cancel' };
  if (typed === USSD_BACK_KEY) return { type: 'user.back' };
  const choices = prompt.choices ?? [];
  if (/^\d{1,2}$/.test(typed)) {
    const position = Number(typed);
    const picked = choices[position - 1];
    if (picked) return { type: 'user.choice', id: picked.id };
    if (prompt.input === 'contact' && position === choices.length + 1) {
      // The gateway vouches for the caller's number, as Telegram's contact share does.
      return { type: 'user.contact', phone: msisdn };
    }
  }
  return { type: 'user.text', text: typed };
}

/** What one request showed, as decided under the session lock. */
type Screen =
  | { readonly kind: 'answer' }
  | { readonly kind: 'prompt'; readonly prompt: Prompt; readonly page: number }
  | { readonly kind: 'resume'; readonly page: number }
  | { readonly kind: 'replay'; readonly text: string; readonly end: boolean };

/** The request went to the flow (or the entry menu): the engine's Prompt is the screen. */
const ANSWERED: Screen = { kind: 'answer' };
/** What a request knows of the session before the engine has shown it anything. */
const NOTHING_HELD: SessionGlance = {
  prompt: undefined,
  unseen: false,
  resumable: false,
  state: undefined,
};

/**
 * Creates the USSD core over the turn engine. Each request is one engine turn: the engine reads
 * the session under its lock, this core decides what the keypress means (an answer for the
 * flow, a page of the same screen, the resume menu), and the engine writes the record with the
 * core's paging state in the same commit.
 */
export function createUssdCore(options: UssdCoreOptions): UssdCore {
  const defaultLocale = options.locale ?? 'en';
  const deadlineMs = options.deadlineMs ?? 4000;
  const answerWithinMs = options.answerWithinMs ?? 10_000;
  const say = (key: `ussd.${string}` & MessageKey, locale: string): string =>
    t(key, undefined, locale);
  const handoff = options.handoff;
  const languages = options.languages;
  const askLanguage = options.askLanguage ?? true;
  const engine = options.engine;
  /**
   * The language each phone was last seen in on this instance: a hint for the screens shown
   * before (or without) the session being read, a busy or late answer. Bounded, not an LRU.
   */
  const lastLocales = new Map<string, string>();
  const localeHint = (msisdn: string): string => lastLocales.get(msisdn) ?? defaultLocale;

  const renderForUssd = (prompt: Prompt, locale: string): RenderedPrompt => {
    const rendered = options.render(prompt, locale);
    if (prompt.input !== 'contact') return rendered;
    return {
      text: rendered.text,
      choices: [
        ...rendered.choices,
        { id: USE_CALLER_NUMBER, label: say('ussd.useMyNumber', locale) },
      ],
    };
  };
  /** The resume menu's pages per locale, laid out once each. */
  const resumeLayouts = new Map<string, string[]>();
  const resumeScreensOf = (locale: string): string[] => {
    let screens = resumeLayouts.get(locale);
    if (!screens) {
      const resumeMenu: RenderedPrompt = {
        text: say('ussd.resumeTitle', locale),
        choices: [
          { id: 'continue', label: say('ussd.resumeContinue', locale) },
          { id: 'restart', label: say('ussd.resumeRestart', locale) },
        ],
      };
      screens = toUssdScreens(resumeMenu, locale);
      resumeLayouts.set(locale, screens);
    }
    return screens;
  };
  /** What a request answered, kept so that the gateway's retry of it gets the same screen. */
  const answered = (
    position: UssdMemo,
    page: number,
    h: string | undefined,
    text: string | undefined,
    end: boolean,
  ): UssdMemo =>
    h === undefined || text === undefined
      ? ussdMemo(position.g, position.m, page, position.s)
      : ussdMemo(position.g, position.m, page, position.s, h, text, end ? true : undefined);

  const LATE = Symbol('late');
  type Outcome = Prompt | typeof LATE | { readonly failed: unknown };

  /**
   * One request: what it asked, what the engine showed it (`current`), and the channel's hook
   * into the engine's turn. One object per request carries what would otherwise be a closure or
   * a small object per step: the engine calls its `decide`, the answer backstop holds it while
   * it runs, and it keeps the layout of the Prompt it shows, which a request lays out up to
   * three times (paging check, memo, answer).
   */
  class UssdTurn implements ChannelStateHook {
    current: Screen = ANSWERED;
    readonly sessionKey: string;
    readonly startedAt = Date.now();
    resolve: ((outcome: Outcome) => void) | undefined = undefined;
    private glance: SessionGlance = NOTHING_HELD;
    private memo: UssdMemo | undefined = undefined;
    private h: string | undefined = undefined;
    private stateOf: ChannelStateOf | undefined = undefined;
    private laidOut: Prompt | undefined = undefined;
    private screens: string[] = [];
    /** The caller's language: the last one seen until the session is read, then theirs. */
    locale: string;
    /**
     * The turn's address, handed to the engine: its locale is the caller's once `decide` read
     * it, before the flow runs and the record (which routes payment outcome SMS) is written.
     */
    readonly address: { channel: 'ussd'; address: string; locale: string };
    /** Whether the caller has yet to choose a language (the first dial from a phone). */
    private unchosen = false;

    constructor(
      readonly request: UssdRequest,
      /** For a dial: whether a person has the caller's request. */
      private readonly withPerson: Promise<boolean> | undefined,
    ) {
      this.sessionKey = ussdSessionKey(request.msisdn);
      this.locale = localeHint(request.msisdn);
      this.address = { channel: 'ussd', address: request.msisdn, locale: this.locale };
    }

    screensOf(prompt: Prompt): string[] {
      // Prompts are never mutated once built, so a layout stays right for its object.
      if (prompt !== this.laidOut) {
        this.screens = toUssdScreens(renderForUssd(prompt, this.locale), this.locale);
        this.laidOut = prompt;
      }
      return this.screens;
    }

    /** Speaks `locale` from now on in this turn, and remembers it as the phone's hint. */
    private useLocale(locale: string): void {
      if (locale !== this.locale) {
        this.locale = locale;
        this.address.locale = locale;
        this.laidOut = undefined;
      }
      if (lastLocales.get(this.request.msisdn) === locale) return;
      if (lastLocales.size >= 10_000) lastLocales.clear();
      lastLocales.set(this.request.msisdn, locale);
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
      const withEngineNotes = shown.notes?.some((note) => ENGINE_NOTES.has(note.key));
      const fresh = ussdMemo(this.request.sessionId, 'p', 0, withEngineNotes ? shown : undefined);
      return writeMemo(answered(fresh, 0, h, screens[0], end));
    }

    private memoOf(): ChannelStateOf {
      this.stateOf ??= (shown) => this.memoFor(shown);
      return this.stateOf;
    }

    /**
     * Decides what the request means from what the engine holds, in the caller's language (read
     * with the session when the card is prefetched, else with one read of its own).
     */
    decide(glance: SessionGlance): ChannelDecision | Promise<ChannelDecision> {
      if (!languages) return this.decideHeard(glance);
      let chosen: ReturnType<CallerLanguages['chosen']>;
      try {
        chosen = languages.chosen(this.address);
      } catch (err) {
        return this.unreadLanguage(err, glance);
      }
      if (!(chosen instanceof Promise)) return this.withLanguage(chosen, glance);
      return chosen.then(
        (read) => this.withLanguage(read, glance),
        (err: unknown) => this.unreadLanguage(err, glance),
      );
    }

    private withLanguage(
      chosen: string | undefined,
      glance: SessionGlance,
    ): ChannelDecision | Promise<ChannelDecision> {
      if (chosen === undefined) this.unchosen = askLanguage;
      else this.useLocale(chosen);
      return this.decideHeard(glance);
    }

    /** The language could not be read: the caller goes on in the last one seen, not asked. */
    private unreadLanguage(
      err: unknown,
      glance: SessionGlance,
    ): ChannelDecision | Promise<ChannelDecision> {
      options.logger.warn({ err, channel: 'ussd' }, 'caller language could not be read');
      return this.decideHeard(glance);
    }

    private decideHeard(glance: SessionGlance): ChannelDecision | Promise<ChannelDecision> {
      const request = this.request;
      const memo = readMemo(glance.state);
      const h = historyDigest(request.history);
      const sameCall = memo !== undefined && memo.g === request.sessionId;
      if (sameCall && h !== undefined && memo.h === h && memo.a !== undefined) {
        // The gateway sent the request it already had an answer to: the same answer, nothing else.
        this.current = { kind: 'replay', text: memo.a, end: memo.e === true };
        return { kind: 'keep', state: glance.state };
      }
      this.glance = glance;
      this.memo = memo;
      this.h = h;

      if (request.input === undefined || !sameCall) {
        // A dial, or input for a call we hold nothing for (state expired, or a gateway that never
        // sent the dial): treat it as the dial rather than apply a keypress to a screen never shown.
        if (memo && sameCall) return this.keep(memo, memo.s); // the gateway repeated the opening request
        // A phone that never chose a language is asked first, in one screen.
        if (this.unchosen) return this.showOwn(LANGUAGE_PROMPT);
        const withPerson = this.withPerson;
        if (!withPerson) return this.dial();
        return withPerson.then((active) =>
          active ? this.showOwn(WAITING_FOR_PERSON) : this.dial(),
        );
      }
      const typed = request.input.trim();
      if (memo.m === 'r') {
        if (typed === '1') {
          // "Continue": the screen the conversation waits on, as the engine holds it. An unseen
          // result would swallow the caller's next answer: let the engine mark it seen.
          if (!glance.prompt || glance.unseen) return this.reply(DIAL);
          return this.keep(ussdMemo(request.sessionId, 'p', 0), undefined);
        }
        if (typed === '2') return this.restart();
        return this.keep(memo, undefined);
      }
      const shown = memo.s ?? glance.prompt;
      if (!shown) return this.reply(DIAL);
      if (shown.key === LANGUAGE_PROMPT.key) return this.pickLanguage(typed, memo, shown);
      // A handoff screen: its one choice ends the handoff, words go to the person, a stray key
      // shows it again.
      if (HANDOFF_SCREENS.has(shown.key)) {
        const picked = ussdInputToReply(typed, shown, request.msisdn);
        if (picked.type === 'user.choice') return this.reply(picked);
        if (!handoff || typed.length < MIN_MESSAGE_CHARS) return this.keep(memo, shown);
        return handoff.forward(this.sessionKey, typed).then((forwarded) => {
          // Staff ended it meanwhile: the caller goes on.
          if (forwarded === 'none') return this.goOn();
          return this.showOwn(forwarded === 'forwarded' ? SENT_TO_PERSON : NOT_SENT_TO_PERSON);
        });
      }
      // A result the caller has not seen yet: whatever they typed, the engine shows it first.
      if (glance.unseen) return this.reply(ussdInputToReply(typed, shown, request.msisdn));
      if (typed === USSD_MORE_KEY && memo.p < this.screensOf(shown).length - 1)
        return this.keep(ussdMemo(memo.g, memo.m, memo.p + 1, memo.s), shown);
      if (typed === USSD_BACK_KEY && memo.p > 0)
        return this.keep(ussdMemo(memo.g, memo.m, memo.p - 1, memo.s), shown);
      // Only paging keys move through a closing message; anything else shows the page again.
      if (shown.final) return this.keep(memo, shown);
      return this.reply(ussdInputToReply(typed, shown, request.msisdn));
    }

    private answer(value: Reply): ChannelDecision {
      this.current = ANSWERED;
      return { kind: 'reply', reply: value, state: this.memoOf() };
    }

    /**
     * A keypress on the language screen: a language is remembered and the caller goes on where
     * they were (the entry menu on a first dial), now in it; anything else shows the screen again.
     */
    private pickLanguage(
      typed: string,
      memo: UssdMemo,
      shown: Prompt,
    ): ChannelDecision | Promise<ChannelDecision> {
      const picked = ussdInputToReply(typed, shown, this.request.msisdn);
      const locale = picked.type === 'user.choice' ? localeOfChoice(picked.id) : undefined;
      if (!locale || !languages) return this.keep(memo, shown);
      const goOnIn = () => {
        this.useLocale(locale);
        return this.goOn();
      };
      return languages.choose(this.address, locale).then(goOnIn, (err: unknown) => {
        // Not remembered: this call still goes on in it; the next dial asks again.
        options.logger.warn({ err, channel: 'ussd' }, 'caller language could not be saved');
        return goOnIn();
      });
    }

    /** Handoff and language choices are the channel's to act on: the flow never sees them. */
    private reply(value: Reply): ChannelDecision | Promise<ChannelDecision> {
      if (languages && value.type === 'user.choice' && value.id === CHOOSE_LANGUAGE) {
        return this.showOwn(LANGUAGE_PROMPT);
      }
      if (handoff && value.type === 'user.choice') {
        if (value.id === TALK_TO_A_PERSON) return this.openHandoff();
        if (value.id === END_HANDOFF) return handoff.end(this.sessionKey).then(() => this.goOn());
      }
      return this.answer(value);
    }

    private restart(): ChannelDecision {
      this.current = ANSWERED;
      return { kind: 'restart', state: this.memoOf() };
    }

    /** `next`'s position (mode, page, shown prompt) kept; what it answered is this request's. */
    private keep(next: UssdMemo, shown: Prompt | undefined): ChannelDecision {
      const h = this.h;
      if (next.m === 'r') {
        const resumeScreens = resumeScreensOf(this.locale);
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
      if (done && h === undefined) return { kind: 'keep', state: undefined };
      return { kind: 'keep', state: writeMemo(answered(next, page, h, screens[page], done)) };
    }

    /**
     * A screen of the channel's own (the handoff's), kept in the memo so the next keypress is
     * read against it; with no conversation held, the entry menu is started underneath.
     */
    private showOwn(prompt: Prompt): ChannelDecision {
      const own = ussdMemo(this.request.sessionId, 'p', 0, prompt);
      if (this.glance.prompt) return this.keep(own, prompt);
      this.current = { kind: 'prompt', prompt, page: 0 };
      const first = this.screensOf(prompt)[0];
      const h = this.h;
      return { kind: 'restart', state: () => writeMemo(answered(own, 0, h, first, false)) };
    }

    private async openHandoff(): Promise<ChannelDecision> {
      const { request, sessionKey } = this;
      const glance = this.glance;
      const address = { channel: 'ussd' as const, address: request.msisdn, locale: this.locale };
      const opening = await handoff?.open({ sessionKey, address, glance });
      if (opening === 'opened' || opening === 'already') return this.showOwn(WAITING_FOR_PERSON);
      // No one to talk to: the same screen again, with a word why.
      const here = this.memo?.s ?? glance.prompt;
      if (!here) return this.restart();
      return this.showOwn({
        ...here,
        notes: [...(here.notes ?? []), { key: `handoff.${opening ?? 'unavailable'}` }],
      });
    }

    /** After the handoff: where the conversation stopped, as after a dropped call. */
    private goOn(): ChannelDecision | Promise<ChannelDecision> {
      const glance = this.glance;
      if (glance.unseen) return this.reply(DIAL);
      const sessionId = this.request.sessionId;
      if (glance.resumable) return this.keep(ussdMemo(sessionId, 'r', 0), undefined);
      if (glance.prompt && !glance.prompt.final) {
        return this.keep(ussdMemo(sessionId, 'p', 0), undefined);
      }
      return this.restart();
    }

    private dial(): ChannelDecision | Promise<ChannelDecision> {
      const glance = this.glance;
      if (glance.resumable) return this.keep(ussdMemo(this.request.sessionId, 'r', 0), undefined);
      // A conversation not worth continuing (the entry menu) would take the dial as an answer.
      if (glance.prompt) return this.restart();
      return this.reply(DIAL);
    }

    /** The engine's work ended: hand its outcome to the request, unless the backstop did first. */
    settle(outcome: Outcome): void {
      inFlight.delete(this);
      finishedOne();
      this.resolve?.(outcome);
    }
  }

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
    // One read per call, on its dial, while the engine takes the session lock.
    const withPerson =
      handoff && request.input === undefined
        ? handoff.active(ussdSessionKey(request.msisdn)).catch(() => false)
        : undefined;
    const turn = new UssdTurn(request, withPerson);
    const work = engine.handle(turn.sessionKey, DIAL, {
      deadlineMs,
      audience: 'policyholder',
      address: turn.address,
      channelState: turn,
    });
    unfinished += 1;
    const outcome = await new Promise<Outcome>((resolve) => {
      turn.resolve = resolve;
      inFlight.add(turn);
      sweeper ??= setInterval(sweep, sweepEveryMs).unref();
      work.then(
        (prompt) => turn.settle(prompt),
        (error: unknown) => turn.settle({ failed: error }),
      );
    });
    if (outcome === LATE) {
      options.logger.warn(
        { channel: 'ussd', gatewaySessionId: request.sessionId, answerWithinMs },
        'ussd turn still running at the answer backstop',
      );
      return { text: say('ussd.stillWorking', turn.locale), end: true };
    }
    if ('failed' in outcome) {
      options.logger.error(
        { err: outcome.failed, channel: 'ussd', gatewaySessionId: request.sessionId },
        'ussd turn failed',
      );
      return { text: say('ussd.sorry', turn.locale), end: true };
    }
    const prompt = outcome;
    const shown = turn.current;
    if (shown.kind === 'replay') return { text: shown.text, end: shown.end };
    if (shown.kind === 'resume') {
      return { text: resumeScreensOf(turn.locale)[shown.page] ?? '', end: false };
    }
    // A busy session (another turn holds it past this request's deadline) shows its "still
    // working, Check again" screen and keeps the call open: that turn is past its own deadline
    // too, so it answered "still working" and keeps its result as unseen, which the caller's next
    // keypress is shown whatever it is. Issue 25: a slow insurer never hangs up on the caller.
    const source = shown.kind === 'prompt' ? shown.prompt : prompt;
    const screens = turn.screensOf(source);
    const page = shown.kind === 'prompt' ? Math.min(shown.page, screens.length - 1) : 0;
    const end = source.final && page === screens.length - 1;
    return { text: screens[page] ?? '', end };
  };

  return {
    handle,
    idle() {
      if (unfinished === 0) return Promise.resolve();
      return new Promise<void>((resolve) => whenIdle.push(resolve));
    },
  };
}
