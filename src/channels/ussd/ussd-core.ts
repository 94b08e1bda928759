import { z } from 'zod';
import {
  type ChannelDecision,
  type ChannelStateOf,
  ENGINE_PROMPTS,
  type Handoff,
  isPrompt,
  type MessageKey,
  Prompt,
  type Reply,
  type SessionGlance,
  TALK_TO_A_PERSON,
  type TurnEngine,
  t,
} from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
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
  /** Locale for every USSD caller (gateways do not tell). Default `en`. */
  readonly locale?: string;
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

/**
 * What the USSD channel keeps in the engine's record between requests: the gateway session the
 * screen was shown in (a new id means the call dropped), the mode (`p` a prompt, `r` the
 * "Continue / Start again" menu), the page on screen, the prompt as shown when it carried
 * the engine's own notes (which its record does not keep), and the last request answered (`h`,
 * a digest of its history) with the screen it got (`a`, and `e` when that ended the call), so a
 * gateway's retry gets the same answer without touching the flow.
 */
interface UssdMemo {
  readonly g: string;
  readonly m: 'p' | 'r';
  readonly p: number;
  readonly s?: Prompt;
  readonly h?: string;
  readonly a?: string;
  readonly e?: true;
}

/**
 * The memo as the record's channel state, a flat string read with a few slices (it is read and
 * written on every request, where JSON inside the record's JSON would be escaped, parsed and
 * checked each time): `<mode><page>[e]` then the gateway session, the history digest, the
 * answered screen and the shown prompt's JSON, each as `<length>:<text>` or `-` when absent.
 * For example `p0:12:ATUid_123456--` (no digest, answer or prompt).
 */
function writeMemo(memo: UssdMemo): string {
  return `${memo.m}${memo.p}${memo.e ? 'e' : ''}:${memoField(memo.g)}${memoField(memo.h)}${memoField(memo.a)}${memoField(memo.s && JSON.stringify(memo.s))}`;
}

/** One memo field as `<length>:<text>`, or `-` when absent (a function of its own, not a closure per write). */
function memoField(value: string | undefined): string {
  return value === undefined ? '-' : `${value.length}:${value}`;
}

/** The memo field at `cursor.at` (moving it past the field); null when the state is malformed. */
function readMemoField(state: string, cursor: { at: number }): string | undefined | null {
  const at = cursor.at;
  if (state[at] === '-') {
    cursor.at = at + 1;
    return undefined;
  }
  const colon = state.indexOf(':', at);
  const length = colon === -1 ? Number.NaN : Number(state.slice(at, colon));
  if (!Number.isInteger(length) || length < 0 || colon + 1 + length > state.length) return null;
  cursor.at = colon + 1 + length;
  return state.slice(colon + 1, cursor.at);
}

function readMemo(state: string | undefined): UssdMemo | undefined {
  if (state === undefined || state.length < 4) return undefined;
  // Records written before this format held the memo as JSON; they live 15 minutes at most.
  if (state[0] === '{') return readJsonMemo(state);
  const mode = state[0];
  if (mode !== 'p' && mode !== 'r') return undefined;
  const headEnd = state.indexOf(':');
  if (headEnd === -1) return undefined;
  const ended = state[headEnd - 1] === 'e';
  const page = Number(state.slice(1, ended ? headEnd - 1 : headEnd));
  if (headEnd < 2 || !Number.isInteger(page) || page < 0) return undefined;
  const cursor = { at: headEnd + 1 };
  const g = readMemoField(state, cursor);
  const h = readMemoField(state, cursor);
  const a = readMemoField(state, cursor);
  const s = readMemoField(state, cursor);
  if (
    typeof g !== 'string' ||
    h === null ||
    a === null ||
    s === null ||
    cursor.at !== state.length
  ) {
    return undefined;
  }
  let shown: Prompt | undefined;
  if (s !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(s);
    } catch {
      return undefined;
    }
    if (!isPrompt(json)) return undefined;
    shown = json;
  }
  return {
    g,
    m: mode,
    p: page,
    ...(shown === undefined ? {} : { s: shown }),
    ...(h === undefined ? {} : { h }),
    ...(a === undefined ? {} : { a }),
    ...(ended ? { e: true as const } : {}),
  };
}

const JsonMemo = z.object({
  g: z.string(),
  m: z.enum(['p', 'r']),
  p: z.number().int().nonnegative(),
  s: Prompt.optional(),
  h: z.string().optional(),
  a: z.string().optional(),
  e: z.literal(true).optional(),
});

function readJsonMemo(state: string): UssdMemo | undefined {
  try {
    const parsed = JsonMemo.safeParse(JSON.parse(state));
    if (!parsed.success) return undefined;
    const { s: shown, h, a, e, ...memo } = parsed.data;
    return {
      ...memo,
      ...(shown === undefined ? {} : { s: shown }),
      ...(h === undefined ? {} : { h }),
      ...(a === undefined ? {} : { a }),
      ...(e === undefined ? {} : { e }),
    };
  } catch {
    return undefined;
  }
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

/**
 * A short fixed-size digest of a request's history: Africa's Talking's grows with the call. It
 * only tells a gateway's retry from the next keypress of the same call, so a 53-bit string hash
 * (cyrb53) does, without a crypto hash object per request; the length is kept beside it.
 */
function historyDigest(history: string | undefined): string | undefined {
  if (history === undefined) return undefined;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < history.length; i++) {
    const code = history.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${history.length.toString(36)}.${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
}

/**
 * Creates the USSD core over the turn engine. Each request is one engine turn: the engine reads
 * the session under its lock, this core decides what the keypress means (an answer for the
 * flow, a page of the same screen, the resume menu), and the engine writes the record with the
 * core's paging state in the same commit.
 */
export function createUssdCore(options: UssdCoreOptions): UssdCore {
  const locale = options.locale ?? 'en';
  const deadlineMs = options.deadlineMs ?? 4000;
  const answerWithinMs = options.answerWithinMs ?? 10_000;
  const say = (key: `ussd.${string}` & MessageKey): string => t(key, undefined, locale);
  const handoff = options.handoff;

  const renderForUssd = (prompt: Prompt): RenderedPrompt => {
    const rendered = options.render(prompt, locale);
    if (prompt.input !== 'contact') return rendered;
    return {
      text: rendered.text,
      choices: [...rendered.choices, { id: USE_CALLER_NUMBER, label: say('ussd.useMyNumber') }],
    };
  };
  const resumeMenu: RenderedPrompt = {
    text: say('ussd.resumeTitle'),
    choices: [
      { id: 'continue', label: say('ussd.resumeContinue') },
      { id: 'restart', label: say('ussd.resumeRestart') },
    ],
  };
  // A turn lays out the same Prompt object up to three times (paging check, memo, answer);
  // Prompts are never mutated once built, so the layout is kept with the object.
  const laidOut = new WeakMap<Prompt, string[]>();
  const screensOf = (prompt: Prompt): string[] => {
    let screens = laidOut.get(prompt);
    if (!screens) {
      screens = toUssdScreens(renderForUssd(prompt), locale);
      laidOut.set(prompt, screens);
    }
    return screens;
  };

  const resumeScreens = toUssdScreens(resumeMenu, locale);
  /** What a request answered, kept so that the gateway's retry of it gets the same screen. */
  const answered = (h: string | undefined, text: string | undefined, end: boolean) =>
    h === undefined || text === undefined
      ? {}
      : { h, a: text, ...(end ? { e: true as const } : {}) };

  /**
   * The memo to store with a Prompt shown from page 0. A closing screen of one page keeps none
   * (the session ends with it) unless the gateway can retry the request that got it.
   */
  const memoFor =
    (gatewaySessionId: string, h: string | undefined) =>
    (shown: Prompt): string | undefined => {
      const screens = screensOf(shown);
      const end = shown.final === true && screens.length <= 1;
      if (end && h === undefined) return undefined;
      const withEngineNotes = shown.notes?.some((note) => ENGINE_NOTES.has(note.key));
      const memo: UssdMemo = {
        g: gatewaySessionId,
        m: 'p',
        p: 0,
        ...(withEngineNotes ? { s: shown } : {}),
        ...answered(h, screens[0], end),
      };
      return writeMemo(memo);
    };

  /**
   * Decides what one request means from what the engine holds; `screen` records the choice.
   * `withPerson` answers, for a dial, whether a person has the caller's request. A class rather
   * than a closure per step: a request builds one object, not nine named functions.
   */
  class Decision {
    private readonly sessionKey: string;
    private readonly stateOf: ChannelStateOf;

    constructor(
      private readonly request: UssdRequest,
      private readonly glance: SessionGlance,
      private readonly screen: { current: Screen },
      private readonly memo: UssdMemo | undefined,
      private readonly h: string | undefined,
    ) {
      this.sessionKey = ussdSessionKey(request.msisdn);
      this.stateOf = memoFor(request.sessionId, h);
    }

    answer(value: Reply): ChannelDecision {
      this.screen.current = { kind: 'answer' };
      return { kind: 'reply', reply: value, state: this.stateOf };
    }

    /** Handoff choices are the channel's to act on: the flow never sees them. */
    reply(value: Reply): ChannelDecision | Promise<ChannelDecision> {
      if (handoff && value.type === 'user.choice') {
        if (value.id === TALK_TO_A_PERSON) return this.openHandoff();
        if (value.id === END_HANDOFF) return handoff.end(this.sessionKey).then(() => this.goOn());
      }
      return this.answer(value);
    }

    restart(): ChannelDecision {
      this.screen.current = { kind: 'answer' };
      return { kind: 'restart', state: this.stateOf };
    }

    keep(next: UssdMemo, shown: Prompt | undefined): ChannelDecision {
      const h = this.h;
      const { h: _h, a: _a, e: _e, ...position } = next;
      if (next.m === 'r') {
        const page = Math.min(next.p, resumeScreens.length - 1);
        this.screen.current = { kind: 'resume', page };
        const memo = { ...position, p: page, ...answered(h, resumeScreens[page], false) };
        return { kind: 'keep', state: writeMemo(memo) };
      }
      const prompt = shown ?? this.glance.prompt;
      if (!prompt) return this.answer(DIAL);
      const screens = screensOf(prompt);
      const page = Math.min(next.p, screens.length - 1);
      this.screen.current = { kind: 'prompt', prompt, page };
      // A closing screen is forgotten once its last page is on screen, unless the gateway may
      // retry the request that showed it.
      const done = prompt.final === true && page === screens.length - 1;
      if (done && h === undefined) return { kind: 'keep', state: undefined };
      const memo = { ...position, p: page, ...answered(h, screens[page], done) };
      return { kind: 'keep', state: writeMemo(memo) };
    }

    /**
     * A screen of the channel's own (the handoff's), kept in the memo so the next keypress is
     * read against it; with no conversation held, the entry menu is started underneath.
     */
    showOwn(prompt: Prompt): ChannelDecision {
      const own: UssdMemo = { g: this.request.sessionId, m: 'p', p: 0, s: prompt };
      if (this.glance.prompt) return this.keep(own, prompt);
      this.screen.current = { kind: 'prompt', prompt, page: 0 };
      const first = screensOf(prompt)[0];
      const h = this.h;
      return { kind: 'restart', state: () => writeMemo({ ...own, ...answered(h, first, false) }) };
    }

    async openHandoff(): Promise<ChannelDecision> {
      const { request, glance, sessionKey } = this;
      const address = { channel: 'ussd' as const, address: request.msisdn, locale };
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
    goOn(): ChannelDecision | Promise<ChannelDecision> {
      const glance = this.glance;
      if (glance.unseen) return this.reply(DIAL);
      if (glance.resumable)
        return this.keep({ g: this.request.sessionId, m: 'r', p: 0 }, undefined);
      if (glance.prompt && !glance.prompt.final) {
        return this.keep({ g: this.request.sessionId, m: 'p', p: 0 }, undefined);
      }
      return this.restart();
    }

    dial(): ChannelDecision | Promise<ChannelDecision> {
      if (this.glance.resumable) {
        return this.keep({ g: this.request.sessionId, m: 'r', p: 0 }, undefined);
      }
      // A conversation not worth continuing (the entry menu) would take the dial as an answer.
      if (this.glance.prompt) return this.restart();
      return this.reply(DIAL);
    }
  }

  /**
   * Decides what a request means from what the engine holds; `screen` records the choice.
   * `withPerson` answers, for a dial, whether a person has the caller's request.
   */
  const decide = (
    request: UssdRequest,
    glance: SessionGlance,
    screen: { current: Screen },
    withPerson?: Promise<boolean>,
  ): ChannelDecision | Promise<ChannelDecision> => {
    const memo = readMemo(glance.state);
    const h = historyDigest(request.history);
    const sameCall = memo !== undefined && memo.g === request.sessionId;
    if (sameCall && h !== undefined && memo.h === h && memo.a !== undefined) {
      // The gateway sent the request it already had an answer to: the same answer, nothing else.
      screen.current = { kind: 'replay', text: memo.a, end: memo.e === true };
      return { kind: 'keep', state: glance.state };
    }
    const decision = new Decision(request, glance, screen, memo, h);

    if (request.input === undefined || !sameCall) {
      // A dial, or input for a call we hold nothing for (state expired, or a gateway that never
      // sent the dial): treat it as the dial rather than apply a keypress to a screen never shown.
      if (memo && sameCall) return decision.keep(memo, memo.s); // the gateway repeated the opening request
      if (!withPerson) return decision.dial();
      return withPerson.then((active) =>
        active ? decision.showOwn(WAITING_FOR_PERSON) : decision.dial(),
      );
    }
    const typed = request.input.trim();
    if (memo.m === 'r') {
      if (typed === '1') {
        // "Continue": the screen the conversation waits on, as the engine holds it. An unseen
        // result would swallow the caller's next answer: let the engine mark it seen.
        if (!glance.prompt || glance.unseen) return decision.reply(DIAL);
        return decision.keep({ g: request.sessionId, m: 'p', p: 0 }, undefined);
      }
      if (typed === '2') return decision.restart();
      return decision.keep(memo, undefined);
    }
    const shown = memo.s ?? glance.prompt;
    if (!shown) return decision.reply(DIAL);
    // A handoff screen: its one choice ends the handoff, words go to the person, a stray key
    // shows it again.
    if (HANDOFF_SCREENS.has(shown.key)) {
      const picked = ussdInputToReply(typed, shown, request.msisdn);
      if (picked.type === 'user.choice') return decision.reply(picked);
      if (!handoff || typed.length < MIN_MESSAGE_CHARS) return decision.keep(memo, shown);
      return handoff.forward(ussdSessionKey(request.msisdn), typed).then((forwarded) => {
        // Staff ended it meanwhile: the caller goes on.
        if (forwarded === 'none') return decision.goOn();
        return decision.showOwn(forwarded === 'forwarded' ? SENT_TO_PERSON : NOT_SENT_TO_PERSON);
      });
    }
    // A result the caller has not seen yet: whatever they typed, the engine shows it first.
    if (glance.unseen) return decision.reply(ussdInputToReply(typed, shown, request.msisdn));
    const pages = screensOf(shown).length;
    if (typed === USSD_MORE_KEY && memo.p < pages - 1)
      return decision.keep({ ...memo, p: memo.p + 1 }, shown);
    if (typed === USSD_BACK_KEY && memo.p > 0)
      return decision.keep({ ...memo, p: memo.p - 1 }, shown);
    // Only paging keys move through a closing message; anything else shows the page again.
    if (shown.final) return decision.keep(memo, shown);
    return decision.reply(ussdInputToReply(typed, shown, request.msisdn));
  };

  const LATE = Symbol('late');
  /**
   * The answer backstop without a timer per request: turns register here, and one sweep, running
   * only while turns are in flight, answers those past `answerWithinMs`.
   */
  const inFlight = new Set<{
    readonly startedAt: number;
    readonly resolve: (outcome: typeof LATE) => void;
  }>();
  const sweepEveryMs = Math.min(1_000, Math.max(10, Math.floor(answerWithinMs / 10)));
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () => {
    const overdue = Date.now() - answerWithinMs;
    for (const turn of inFlight) {
      if (turn.startedAt <= overdue) {
        inFlight.delete(turn);
        turn.resolve(LATE);
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
    const screen: { current: Screen } = { current: { kind: 'answer' } };
    const sessionKey = ussdSessionKey(request.msisdn);
    // One read per call, on its dial, while the engine takes the session lock.
    const withPerson =
      handoff && request.input === undefined
        ? handoff.active(sessionKey).catch(() => false)
        : undefined;
    const work = options.engine.handle(sessionKey, DIAL, {
      deadlineMs,
      audience: 'policyholder',
      address: { channel: 'ussd', address: request.msisdn, locale },
      channelState: { decide: (glance) => decide(request, glance, screen, withPerson) },
    });
    unfinished += 1;
    const outcome = await new Promise<Prompt | typeof LATE | { readonly failed: unknown }>(
      (resolve) => {
        const pending = { startedAt: Date.now(), resolve };
        inFlight.add(pending);
        sweeper ??= setInterval(sweep, sweepEveryMs).unref();
        work.then(
          (prompt) => {
            inFlight.delete(pending);
            finishedOne();
            resolve(prompt);
          },
          (error: unknown) => {
            inFlight.delete(pending);
            finishedOne();
            resolve({ failed: error });
          },
        );
      },
    );
    if (outcome === LATE) {
      options.logger.warn(
        { channel: 'ussd', gatewaySessionId: request.sessionId, answerWithinMs },
        'ussd turn still running at the answer backstop',
      );
      return { text: say('ussd.stillWorking'), end: true };
    }
    if ('failed' in outcome) {
      options.logger.error(
        { err: outcome.failed, channel: 'ussd', gatewaySessionId: request.sessionId },
        'ussd turn failed',
      );
      return { text: say('ussd.sorry'), end: true };
    }
    const prompt = outcome;
    const shown = screen.current;
    if (shown.kind === 'replay') return { text: shown.text, end: shown.end };
    if (shown.kind === 'resume') return { text: resumeScreens[shown.page] ?? '', end: false };
    if (prompt.key === ENGINE_PROMPTS.busy) {
      // Another turn holds the session and this request was not read against it: a "Check
      // again" choice here would be taken as an answer to the screen underneath. Close the call;
      // a re-dial offers "Continue".
      const text = options.render({ ...prompt, choices: [] }, locale).text;
      return { text: toUssdScreens({ text, choices: [] }, locale)[0] ?? '', end: true };
    }
    const source = shown.kind === 'prompt' ? shown.prompt : prompt;
    const screens = screensOf(source);
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
