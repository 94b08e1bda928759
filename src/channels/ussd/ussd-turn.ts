import {
  type CallerLanguages,
  CHOOSE_LANGUAGE,
  HANDOFF_AGREE,
  HANDOFF_CONSENT,
  HANDOFF_DECLINE,
  LANGUAGE_PROMPT,
  localeOfChoice,
  type Prompt,
  type Reply,
  type SessionGlance,
  TALK_TO_A_PERSON,
  type TurnContext,
  type TurnMiddleware,
} from '../../conversation/index.js';
import {
  DIAL,
  END_HANDOFF,
  HANDOFF_SCREENS,
  MIN_MESSAGE_CHARS,
  NOT_SENT_TO_PERSON,
  SENT_TO_PERSON,
  type UssdDecision,
  type UssdRequest,
  type UssdTurnDeps,
  WAITING_FOR_PERSON,
} from './ussd-decision.js';
import { ussdInputToReply } from './ussd-input.js';
import { historyDigest, readMemo, type UssdMemo, ussdMemo } from './ussd-memo.js';
import { UssdPosition } from './ussd-position.js';
import { USSD_BACK_KEY, USSD_MORE_KEY } from './ussd-screens.js';

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
 * keeps the layout of the Prompt it shows, which the memo (after the engine's `next()`) and the
 * answer both read: laid out once.
 */
export class UssdTurn extends UssdPosition {
  /** Whether the caller has yet to choose a language (the first dial from a phone). */
  private unchosen = false;

  constructor(
    deps: UssdTurnDeps,
    request: UssdRequest,
    /** For a dial: whether a person has the caller's request. */
    private readonly withPerson: Promise<boolean> | undefined,
    /**
     * The page on screen when the kept pages know it (paging keys answered without the engine
     * leave the record's page behind).
     */
    private readonly onPage?: number,
  ) {
    super(deps, request);
  }

  /**
   * The USSD middleware's work for this request: decides what the keypress means from the
   * session the engine read, then answers from the record, restarts, or lets the flow answer;
   * the memo of the screen the engine answers is laid out once, here, and written with it.
   */
  async run(context: TurnContext, next: () => Promise<Prompt>): Promise<Prompt> {
    const decided = this.decide(context.session);
    const decision = decided instanceof Promise ? await decided : decided;
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
    const read = readMemo(glance.state);
    const onPage = this.onPage;
    const memo = read && onPage !== undefined && read.m === 'p' ? { ...read, p: onPage } : read;
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
    if (shown.final || shown.endsCall) return this.keep(memo, shown);
    return this.reply(ussdInputToReply(typed, shown, request.msisdn));
  }

  /**
   * A keypress on the language screen: a language is remembered and the caller goes on where
   * they were (the entry menu on a first dial), now in it, told so; "0" goes back to the screen
   * it was opened from; anything else shows the screen again.
   */
  private pickLanguage(
    typed: string,
    memo: UssdMemo,
    shown: Prompt,
  ): UssdDecision | Promise<UssdDecision> {
    // Opened from the menu, the screen has somewhere to go back to; a first dial's has not.
    if (typed === USSD_BACK_KEY && this.openedFromStep()) return this.goOn();
    const picked = ussdInputToReply(typed, shown, this.request.msisdn);
    const locale = picked.type === 'user.choice' ? localeOfChoice(picked.id) : undefined;
    const languages = this.deps.languages;
    if (!locale || !languages) return this.keep(memo, shown);
    const goOnIn = () => {
      this.useLocale(locale);
      return this.openedFromStep() ? this.confirmLanguage() : this.goOn();
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
      if (value.id === HANDOFF_AGREE) return this.openHandoff('agreed');
      if (value.id === HANDOFF_DECLINE) return this.openHandoff('declined');
      if (value.id === END_HANDOFF) return handoff.end(this.sessionKey).then(() => this.goOn());
    }
    return this.answer(value);
  }

  /**
   * Asks for a person; a caller who has not agreed to the privacy notice is asked first (nothing
   * is posted before), and comes back here with their answer.
   */
  private async openHandoff(consent?: 'agreed' | 'declined'): Promise<UssdDecision> {
    const { request, sessionKey } = this;
    const glance = this.glance;
    const address = { channel: 'ussd' as const, address: request.msisdn, locale: this.locale };
    const opening = await this.deps.handoff?.open({
      sessionKey,
      address,
      glance,
      ...(consent ? { consent } : {}),
    });
    if (opening === 'opened' || opening === 'already') return this.showOwn(WAITING_FOR_PERSON);
    if (opening === 'consent') return this.showOwn(HANDOFF_CONSENT);
    // No one to talk to, or declined: the screen they asked from, with a word why.
    const asked = this.memo?.s;
    const here = (asked?.key === HANDOFF_CONSENT.key ? undefined : asked) ?? glance.prompt;
    if (!here) return this.restart();
    return this.showOwn({
      ...here,
      notes: [...(here.notes ?? []), { key: `handoff.${opening ?? 'unavailable'}` }],
    });
  }

  /**
   * Whether the language screen was opened over a step the caller can go back to (the menu),
   * rather than asked before anything on a first dial (the menu under it not yet shown).
   */
  private openedFromStep(): boolean {
    const { prompt, unseen, resumable } = this.glance;
    return !this.unchosen && prompt !== undefined && !prompt.final && !unseen && !resumable;
  }

  /**
   * The step the language screen was opened from, in the new language, saying so: the step's
   * own notes (a "pick one" from before) are stale by now and give way to the confirmation. On
   * the menu the confirmation stands in for its greeting, so the menu keeps to one screen.
   */
  private confirmLanguage(): UssdDecision {
    const step = this.glance.prompt;
    if (!step) return this.restart();
    const confirmed: Prompt = step.key.startsWith('menu.')
      ? { ...step, key: 'language.changed', params: {}, notes: [] }
      : { ...step, notes: [{ key: 'language.changed' }] };
    return this.keep(ussdMemo(this.request.sessionId, 'p', 0, confirmed), confirmed);
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
    // A closing screen told out of turn (a payment's outcome, also sent by SMS) and not seen
    // yet: the dial shows it once, where the payment stands, before the menu.
    if (glance.unseen && glance.prompt?.final) return this.reply(DIAL);
    if (glance.resumable) return this.keep(ussdMemo(this.request.sessionId, 'r', 0), undefined);
    // A conversation not worth continuing (the entry menu) would take the dial as an answer.
    if (glance.prompt) return this.restart();
    return this.reply(DIAL);
  }
}
