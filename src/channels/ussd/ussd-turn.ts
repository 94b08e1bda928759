import {
  type CallerLanguages,
  CHOOSE_LANGUAGE,
  ENGINE_PROMPTS,
  type Handoff,
  LANGUAGE_PROMPT,
  localeOfChoice,
  type Prompt,
  type Reply,
  type SessionGlance,
  TALK_TO_A_PERSON,
  type TurnContext,
  type TurnMiddleware,
} from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import { ussdInputToReply, ussdSessionKey } from './ussd-input.js';
import type { UssdLayout } from './ussd-layout.js';
import { historyDigest, readMemo, type UssdMemo, ussdMemo, writeMemo } from './ussd-memo.js';
import { USSD_BACK_KEY, USSD_MORE_KEY } from './ussd-screens.js';

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

/** What a request's turn came to: the engine's Prompt, too late for the gateway, or a failure. */
export type UssdOutcome = Prompt | typeof LATE | { readonly failed: unknown };
/** The outcome of a turn still running at the answer backstop. */
export const LATE: unique symbol = Symbol('late');

/** What every request of one core shares. */
export interface UssdTurnDeps {
  readonly layout: UssdLayout;
  readonly logger: Logger;
  readonly languages: CallerLanguages | undefined;
  /** Whether a phone that never chose a language is asked first. */
  readonly askLanguage: boolean;
  readonly handoff: Handoff | undefined;
}

/**
 * What a request decided about the session, once read:
 * - `reply`: apply it as a normal turn; `state` gives what to store with the Prompt answered;
 * - `restart`: drop the conversation and start the entry menu afresh, likewise;
 * - `keep`: answer without the flow (a page of the same screen) with the new state (a closing
 *   screen is forgotten once `state` is undefined).
 */
type UssdDecision =
  | { readonly kind: 'reply'; readonly reply: Reply; readonly state: MemoOf }
  | { readonly kind: 'restart'; readonly state: MemoOf }
  | { readonly kind: 'keep'; readonly state: string | undefined };

/** The memo to store with the Prompt a turn answered; undefined stores none. */
type MemoOf = (answered: Prompt) => string | undefined;

/** What one request showed, as decided under the session lock. */
export type Screen =
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

const ENGINE_NOTES: ReadonlySet<string> = new Set(Object.values(ENGINE_PROMPTS));

/**
 * The Reply a dial sends. The engine starts the entry menu on it when it holds no conversation
 * (the reply itself is dropped) and re-shows a result the caller has not seen yet.
 */
export const DIAL: Reply = { type: 'user.text', text: '' };
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

/** What a request answered, kept so that the gateway's retry of it gets the same screen. */
function answered(
  position: UssdMemo,
  page: number,
  h: string | undefined,
  text: string | undefined,
  end: boolean,
): UssdMemo {
  return h === undefined || text === undefined
    ? ussdMemo(position.g, position.m, page, position.s)
    : ussdMemo(position.g, position.m, page, position.s, h, text, end ? true : undefined);
}

/**
 * The USSD engine middleware: a request of this channel (its {@link UssdTurn}, handed to the
 * engine as `TurnOptions.channelRequest`) decides under the session lock what the keypress
 * means; every other turn passes through.
 */
export const ussdMiddleware: TurnMiddleware = (context, next) => {
  const turn = context.options.channelRequest;
  return turn instanceof UssdTurn ? turn.run(context, next) : next();
};

/**
 * One request: what it asked, what the engine showed it (`current`), and its decision under the
 * session lock. One object per request carries what would otherwise be a closure or a small
 * object per step: the middleware runs it, the answer backstop holds it while it runs, and it
 * keeps the layout of the Prompt it shows, which a request lays out up to three times (paging
 * check, memo, answer).
 */
export class UssdTurn {
  current: Screen = ANSWERED;
  readonly sessionKey: string;
  readonly startedAt = Date.now();
  /** Hands the engine's outcome (or the backstop's) to the waiting request; set by the core. */
  resolve: ((outcome: UssdOutcome) => void) | undefined = undefined;
  private glance: SessionGlance = NOTHING_HELD;
  private memo: UssdMemo | undefined = undefined;
  private h: string | undefined = undefined;
  private stateOf: MemoOf | undefined = undefined;
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
    private readonly deps: UssdTurnDeps,
    readonly request: UssdRequest,
    /** For a dial: whether a person has the caller's request. */
    private readonly withPerson: Promise<boolean> | undefined,
  ) {
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
  private useLocale(locale: string): void {
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
    const withEngineNotes = shown.notes?.some((note) => ENGINE_NOTES.has(note.key));
    const fresh = ussdMemo(this.request.sessionId, 'p', 0, withEngineNotes ? shown : undefined);
    return writeMemo(answered(fresh, 0, h, screens[0], end));
  }

  private memoOf(): MemoOf {
    this.stateOf ??= (shown) => this.memoFor(shown);
    return this.stateOf;
  }

  /**
   * The USSD middleware's work for this request: decides what the keypress means from the
   * session the engine read, then answers from the record, restarts, or lets the flow answer.
   */
  async run(context: TurnContext, next: () => Promise<Prompt>): Promise<Prompt> {
    const decided = this.decide(context.session);
    const decision = decided instanceof Promise ? await decided : decided;
    if (decision.kind === 'keep') return context.keep(decision.state);
    context.stateOf = decision.state;
    context.request =
      decision.kind === 'restart' ? { kind: 'restart' } : { kind: 'reply', reply: decision.reply };
    return next();
  }

  /**
   * Decides what the request means from what the engine holds, in the caller's language (read
   * with the session when the card is prefetched, else with one read of its own).
   */
  decide(glance: SessionGlance): UssdDecision | Promise<UssdDecision> {
    const languages = this.deps.languages;
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
  ): UssdDecision | Promise<UssdDecision> {
    if (chosen === undefined) this.unchosen = this.deps.askLanguage;
    else this.useLocale(chosen);
    return this.decideHeard(glance);
  }

  /** The language could not be read: the caller goes on in the last one seen, not asked. */
  private unreadLanguage(
    err: unknown,
    glance: SessionGlance,
  ): UssdDecision | Promise<UssdDecision> {
    this.deps.logger.warn({ err, channel: 'ussd' }, 'caller language could not be read');
    return this.decideHeard(glance);
  }

  private decideHeard(glance: SessionGlance): UssdDecision | Promise<UssdDecision> {
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
      return withPerson.then((active) => (active ? this.showOwn(WAITING_FOR_PERSON) : this.dial()));
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
      const handoff = this.deps.handoff;
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

  private answer(value: Reply): UssdDecision {
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
  ): UssdDecision | Promise<UssdDecision> {
    const picked = ussdInputToReply(typed, shown, this.request.msisdn);
    const locale = picked.type === 'user.choice' ? localeOfChoice(picked.id) : undefined;
    const languages = this.deps.languages;
    if (!locale || !languages) return this.keep(memo, shown);
    const goOnIn = () => {
      this.useLocale(locale);
      return this.goOn();
    };
    return languages.choose(this.address, locale).then(goOnIn, (err: unknown) => {
      // Not remembered: this call still goes on in it; the next dial asks again.
      this.deps.logger.warn({ err, channel: 'ussd' }, 'caller language could not be saved');
      return goOnIn();
    });
  }

  /** Handoff and language choices are the channel's to act on: the flow never sees them. */
  private reply(value: Reply): UssdDecision | Promise<UssdDecision> {
    const handoff = this.deps.handoff;
    if (this.deps.languages && value.type === 'user.choice' && value.id === CHOOSE_LANGUAGE) {
      return this.showOwn(LANGUAGE_PROMPT);
    }
    if (handoff && value.type === 'user.choice') {
      if (value.id === TALK_TO_A_PERSON) return this.openHandoff();
      if (value.id === END_HANDOFF) return handoff.end(this.sessionKey).then(() => this.goOn());
    }
    return this.answer(value);
  }

  private restart(): UssdDecision {
    this.current = ANSWERED;
    return { kind: 'restart', state: this.memoOf() };
  }

  /** `next`'s position (mode, page, shown prompt) kept; what it answered is this request's. */
  private keep(next: UssdMemo, shown: Prompt | undefined): UssdDecision {
    const h = this.h;
    if (next.m === 'r') {
      const resumeScreens = this.deps.layout.resumeScreensOf(this.locale);
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
  private showOwn(prompt: Prompt): UssdDecision {
    const own = ussdMemo(this.request.sessionId, 'p', 0, prompt);
    if (this.glance.prompt) return this.keep(own, prompt);
    this.current = { kind: 'prompt', prompt, page: 0 };
    const first = this.screensOf(prompt)[0];
    const h = this.h;
    return { kind: 'restart', state: () => writeMemo(answered(own, 0, h, first, false)) };
  }

  private async openHandoff(): Promise<UssdDecision> {
    const { request, sessionKey } = this;
    const glance = this.glance;
    const address = { channel: 'ussd' as const, address: request.msisdn, locale: this.locale };
    const opening = await this.deps.handoff?.open({ sessionKey, address, glance });
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
  private goOn(): UssdDecision | Promise<UssdDecision> {
    const glance = this.glance;
    if (glance.unseen) return this.reply(DIAL);
    const sessionId = this.request.sessionId;
    if (glance.resumable) return this.keep(ussdMemo(sessionId, 'r', 0), undefined);
    if (glance.prompt && !glance.prompt.final) {
      return this.keep(ussdMemo(sessionId, 'p', 0), undefined);
    }
    return this.restart();
  }

  private dial(): UssdDecision | Promise<UssdDecision> {
    const glance = this.glance;
    if (glance.resumable) return this.keep(ussdMemo(this.request.sessionId, 'r', 0), undefined);
    // A conversation not worth continuing (the entry menu) would take the dial as an answer.
    if (glance.prompt) return this.restart();
    return this.reply(DIAL);
  }
}
