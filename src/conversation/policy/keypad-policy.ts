import type { Logger } from '../../log/index.js';
import {
  HANDOFF_AGREE,
  HANDOFF_CONSENT,
  HANDOFF_DECLINE,
  type Handoff,
  TALK_TO_A_PERSON,
} from '../handoff.js';
import {
  type CallerLanguages,
  CHOOSE_LANGUAGE,
  LANGUAGE_PROMPT,
  localeOfChoice,
} from '../language.js';
import type { Prompt } from '../prompt.js';
import type { Reply } from '../reply.js';
import type { TurnContext, TurnMiddleware } from '../turn-middleware.js';
import {
  AGAIN,
  goOn,
  type KeypadDecision,
  type KeypadRequest,
  keypadRequestOf,
  RESTART,
} from './keypad-request.js';

/** Choice id of "End it and carry on" on a keypad's handoff screen. */
const END_HANDOFF = 'handoff.end';
/** A screen while a person has the caller's request: its one choice ends the handoff. */
const handoffScreen = (key: string): Prompt => ({
  key,
  input: 'choice',
  final: false,
  choices: [{ id: END_HANDOFF, label: 'handoff.ussd.end' }],
});
/** What a dial shows while a person has the caller's request. */
const WAITING_FOR_PERSON = handoffScreen('handoff.ussd.waiting');
const SENT_TO_PERSON = handoffScreen('handoff.ussd.sent');
const NOT_SENT_TO_PERSON = handoffScreen('handoff.ussd.notSent');
const HANDOFF_SCREENS: ReadonlySet<string> = new Set(
  [WAITING_FOR_PERSON, SENT_TO_PERSON, NOT_SENT_TO_PERSON].map((screen) => screen.key),
);
/** Shorter input on a handoff screen is a stray key, not a message for the person. */
const MIN_MESSAGE_CHARS = 3;
/** What goes back from the language screen opened from a step (USSD's back key). */
const BACK_KEY = '0';

/** What {@link keypadPolicy} is built over. */
export interface KeypadPolicyOptions {
  /** The language each caller chose; without it every caller gets the channel's default. */
  readonly languages?: CallerLanguages | undefined;
  /** Whether a phone that never chose a language is asked on its first dial. Default true. */
  readonly askLanguage?: boolean | undefined;
  /** Human handoff; may be attached after the engine is built. Without it no one is there. */
  readonly handoff?: (() => Handoff | undefined) | undefined;
  readonly logger: Logger;
}

/**
 * The language and handoff policy of a keypad channel (USSD), the counterpart of the chat
 * policies for a caller with only a keypad: each request speaks the language the caller chose
 * (read with the session, the engine's prefetch); a phone that never chose is asked on its
 * first dial, and the menu's "Language" asks again; the menu's "Talk to a person" opens a
 * handoff (consent first), while it lasts a dial shows a screen whose one choice ends it, and
 * words typed there go to the person. Every other request (a keypress for the flow, a page, a
 * gateway's retry) passes on after the language read, without a promise of its own when the
 * language is read with the session; a turn of no keypad channel passes with one check.
 */
export function keypadPolicy(options: KeypadPolicyOptions): TurnMiddleware {
  const policy = new KeypadPolicy(options);
  return (context, next) => {
    const request = keypadRequestOf(context.options);
    return request ? policy.run(context, next, request) : next();
  };
}

/** The policy's work for one request: methods, not closures made per request. */
class KeypadPolicy {
  private readonly askLanguage: boolean;

  constructor(private readonly options: KeypadPolicyOptions) {
    this.askLanguage = options.askLanguage ?? true;
  }

  run(context: TurnContext, next: () => Promise<Prompt>, request: KeypadRequest): Promise<Prompt> {
    const languages = this.options.languages;
    if (!languages) return this.decide(context, next, request);
    let chosen: ReturnType<CallerLanguages['chosen']>;
    try {
      chosen = languages.chosen(request.address);
    } catch (err) {
      this.unread(err);
      return this.decide(context, next, request);
    }
    if (!(chosen instanceof Promise)) {
      this.withLanguage(request, chosen);
      return this.decide(context, next, request);
    }
    return chosen.then(
      (read) => {
        this.withLanguage(request, read);
        return this.decide(context, next, request);
      },
      (err: unknown) => {
        this.unread(err);
        return this.decide(context, next, request);
      },
    );
  }

  private withLanguage(request: KeypadRequest, chosen: string | undefined): void {
    if (chosen === undefined) request.unchosen = this.askLanguage;
    else request.useLocale(chosen);
  }

  /** The language could not be read: the caller goes on in the last one seen, not asked. */
  private unread(err: unknown): void {
    this.options.logger.warn({ err, channel: 'ussd' }, 'caller language could not be read');
  }

  private decide(
    context: TurnContext,
    next: () => Promise<Prompt>,
    request: KeypadRequest,
  ): Promise<Prompt> {
    const heard = request.heard(context.session);
    if (heard.kind === 'own' || heard.kind === 'resume') return next();
    if (heard.kind === 'dial') {
      // A phone that never chose a language is asked first, in one screen.
      if (request.unchosen) return decided(request, next, screen(LANGUAGE_PROMPT));
      const withPerson = request.withPerson;
      if (!withPerson) return next();
      return withPerson.then((active) =>
        active ? decided(request, next, screen(WAITING_FOR_PERSON)) : next(),
      );
    }
    const { typed, reply, shown } = heard;
    if (shown.key === LANGUAGE_PROMPT.key) return this.pickLanguage(context, next, request, heard);
    if (!HANDOFF_SCREENS.has(shown.key)) return this.choose(context, next, request, reply, shown);
    // A handoff screen: its one choice ends the handoff, words go to the person, a stray key
    // shows it again.
    if (reply.type === 'user.choice') return this.choose(context, next, request, reply, shown);
    const handoff = this.options.handoff?.();
    if (!handoff || typed.length < MIN_MESSAGE_CHARS) return decided(request, next, AGAIN);
    return handoff.forward(context.sessionKey, typed).then((forwarded) => {
      // Staff ended it meanwhile: the caller goes on.
      if (forwarded === 'none') return decided(request, next, goOn(context.session));
      const sent = forwarded === 'forwarded' ? SENT_TO_PERSON : NOT_SENT_TO_PERSON;
      return decided(request, next, screen(sent));
    });
  }

  /** The menu's "Language" and a person's choices are the policy's; the flow never sees them. */
  private choose(
    context: TurnContext,
    next: () => Promise<Prompt>,
    request: KeypadRequest,
    reply: Reply,
    shown: Prompt,
  ): Promise<Prompt> {
    if (reply.type !== 'user.choice') return next();
    if (this.options.languages && reply.id === CHOOSE_LANGUAGE) {
      return decided(request, next, screen(LANGUAGE_PROMPT));
    }
    const handoff = this.options.handoff?.();
    if (!handoff) return next();
    if (reply.id === TALK_TO_A_PERSON) return this.open(context, next, request, handoff, shown);
    if (reply.id === HANDOFF_AGREE) {
      return this.open(context, next, request, handoff, shown, 'agreed');
    }
    if (reply.id === HANDOFF_DECLINE) {
      return this.open(context, next, request, handoff, shown, 'declined');
    }
    if (reply.id === END_HANDOFF) {
      return handoff
        .end(context.sessionKey)
        .then(() => decided(request, next, goOn(context.session)));
    }
    return next();
  }

  /**
   * A keypress on the language screen: a language is remembered and the caller goes on where
   * they were (the entry menu on a first dial), now in it, told so; the back key goes back to the
   * screen it was opened from; anything else shows the screen again.
   */
  private pickLanguage(
    context: TurnContext,
    next: () => Promise<Prompt>,
    request: KeypadRequest,
    heard: { readonly typed: string; readonly reply: Reply },
  ): Promise<Prompt> {
    // Opened from the menu, the screen has somewhere to go back to; a first dial's has not.
    const fromStep = openedFromStep(context, request);
    if (heard.typed === BACK_KEY && fromStep) return decided(request, next, goOn(context.session));
    const { reply } = heard;
    const locale = reply.type === 'user.choice' ? localeOfChoice(reply.id) : undefined;
    const languages = this.options.languages;
    if (!locale || !languages) return decided(request, next, AGAIN);
    const goOnIn = () => {
      request.useLocale(locale);
      return decided(request, next, fromStep ? confirmLanguage(context) : goOn(context.session));
    };
    return languages.choose(request.address, locale).then(goOnIn, (err: unknown) => {
      // Not remembered: this call still goes on in it; the next dial asks again.
      this.options.logger.warn({ err, channel: 'ussd' }, 'caller language could not be saved');
      return goOnIn();
    });
  }

  /**
   * Asks for a person; a caller who has not agreed to the privacy notice is asked first (nothing
   * is posted before), and comes back here with their answer. No one to talk to, or declined:
   * the screen they asked from, with a word why.
   */
  private async open(
    context: TurnContext,
    next: () => Promise<Prompt>,
    request: KeypadRequest,
    handoff: Handoff,
    shown: Prompt,
    consent?: 'agreed' | 'declined',
  ): Promise<Prompt> {
    const glance = context.session;
    const opening = await handoff.open({
      sessionKey: context.sessionKey,
      address: request.address,
      // Read under this turn's lock: the handoff must not ask the engine again.
      glance,
      ...(consent ? { consent } : {}),
    });
    if (opening === 'opened' || opening === 'already') {
      return decided(request, next, screen(WAITING_FOR_PERSON));
    }
    if (opening === 'consent') return decided(request, next, screen(HANDOFF_CONSENT));
    const here = shown.key === HANDOFF_CONSENT.key ? glance.prompt : shown;
    if (!here) return decided(request, next, RESTART);
    const why = { key: `handoff.${opening}` };
    return decided(request, next, screen({ ...here, notes: [...(here.notes ?? []), why] }));
  }
}

const screen = (prompt: Prompt): KeypadDecision => ({ kind: 'screen', prompt });

/** Hands the decision to the channel's middleware, which shows it. */
function decided(
  request: KeypadRequest,
  next: () => Promise<Prompt>,
  decision: KeypadDecision,
): Promise<Prompt> {
  request.decision = decision;
  return next();
}

/**
 * Whether the language screen was opened over a step the caller can go back to (the menu),
 * rather than asked before anything on a first dial (the menu under it not yet shown).
 */
function openedFromStep(context: TurnContext, request: KeypadRequest): boolean {
  const { prompt, unseen, resumable } = context.session;
  return !request.unchosen && prompt !== undefined && !prompt.final && !unseen && !resumable;
}

/**
 * The step the language screen was opened from, in the new language, saying so: the step's own
 * notes (a "pick one" from before) are stale by now and give way to the confirmation. On the
 * menu the confirmation stands in for its greeting, so the menu keeps to one screen.
 */
function confirmLanguage(context: TurnContext): KeypadDecision {
  const step = context.session.prompt;
  if (!step) return RESTART;
  return screen(
    step.key.startsWith('menu.')
      ? { ...step, key: 'language.changed', params: {}, notes: [] }
      : { ...step, notes: [{ key: 'language.changed' }] },
  );
}
