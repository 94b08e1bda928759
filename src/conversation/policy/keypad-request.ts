import type { Prompt } from '../prompt.js';
import type { Reply } from '../reply.js';
import type { ChannelAddress, SessionGlance, TurnOptions } from '../turn-engine.js';

/**
 * What a keypad request (USSD's) heard, read against the screen the caller was shown, which the
 * keypad turn keeps with the record (its memo):
 * - `own`: the turn's own to answer, asking no policy (a gateway's retry, a page of the
 *   screen, a stray key on a closing screen);
 * - `dial`: a call opens;
 * - `resume`: a keypress on the "Continue / Start again" offer, with the choice it picked;
 * - `key`: a keypress, `typed` as it came and `reply` as it reads on `shown`, the screen on display.
 */
export type KeypadHeard =
  | { readonly kind: 'own' }
  | { readonly kind: 'dial' }
  | { readonly kind: 'resume'; readonly choice: 'continue' | 'restart' | undefined }
  | {
      readonly kind: 'key';
      readonly typed: string;
      readonly reply: Reply;
      readonly shown: Prompt;
    };

/**
 * What the keypad policies decided, for the channel to show (none: the keypress goes to the
 * flow, a dial or the resume offer's choice where {@link keypadDefault} says):
 * - `screen`: a screen of the policies' own (the language screen, a person's), which the next
 *   keypress is read against;
 * - `again`: the screen on display, as it is;
 * - `flow`: the dial to the engine, which starts the entry menu or shows a result not yet seen;
 * - `step`: the step the conversation waits on, from its first page;
 * - `resume`: the "Continue / Start again" offer after a dropped call;
 * - `restart`: the entry menu afresh.
 */
export type KeypadDecision =
  | { readonly kind: 'screen'; readonly prompt: Prompt }
  | { readonly kind: 'again' | 'flow' | 'step' | 'resume' | 'restart' };

/** The screen on display again. */
export const AGAIN: KeypadDecision = { kind: 'again' };
const FLOW: KeypadDecision = { kind: 'flow' };
const STEP: KeypadDecision = { kind: 'step' };
const RESUME: KeypadDecision = { kind: 'resume' };
/** The entry menu afresh. */
export const RESTART: KeypadDecision = { kind: 'restart' };

/**
 * Where a caller coming back to the conversation goes (after the handoff, or back from the
 * language screen), as after a dropped call: a result not yet seen first, then the resume offer
 * mid-flow, the step it waits on, or the entry menu afresh.
 */
export function goOn(glance: SessionGlance): KeypadDecision {
  if (glance.unseen) return FLOW;
  if (glance.resumable) return RESUME;
  return glance.prompt && !glance.prompt.final ? STEP : RESTART;
}

/** What a dial, or a keypress on the resume offer, comes to when no policy decided otherwise. */
export function keypadDefault(
  heard: Extract<KeypadHeard, { kind: 'dial' | 'resume' }>,
  glance: SessionGlance,
): KeypadDecision {
  if (heard.kind === 'dial') {
    // A closing screen told out of turn (a payment's outcome, also sent by SMS) and not seen
    // yet: the dial shows it once, where the payment stands, before the menu.
    if (glance.unseen && glance.prompt?.final) return FLOW;
    if (glance.resumable) return RESUME;
    // A conversation not worth continuing (the entry menu) would take the dial as an answer.
    return glance.prompt ? RESTART : FLOW;
  }
  // "Continue": the step as the engine holds it. An unseen result would swallow the caller's
  // next answer: the engine shows it (and marks it seen).
  if (heard.choice === 'continue') return glance.prompt && !glance.unseen ? STEP : FLOW;
  return heard.choice === 'restart' ? RESTART : AGAIN;
}

/**
 * One request of a keypad channel, handed to the engine as the turn's `channelRequest`: the
 * keypad policies (`keypadPolicy`) read the caller's language, decide what a keypress means for
 * the language and a person, and say it in {@link decision}; the keypad turn, run by the
 * channel's middleware after them, reads the keypress against its screen ({@link heard}) and
 * shows what was decided.
 */
export abstract class KeypadRequest {
  /** What the policies decided; undefined leaves it to the channel. */
  decision: KeypadDecision | undefined = undefined;
  /** The caller has yet to choose a language and is to be asked (set by the language policy). */
  unchosen = false;
  /** For a dial: whether a person has the caller's request (read early, while the lock is taken). */
  abstract readonly withPerson: Promise<boolean> | undefined;
  /** Where the caller is reached, in the request's language. */
  abstract readonly address: ChannelAddress;
  /** Speaks `locale` from now on in this request. */
  abstract useLocale(locale: string): void;
  /** What the request means on the screen the channel showed, read once from the session. */
  abstract heard(glance: SessionGlance): KeypadHeard;
}

/** The keypad request a turn carries, when a keypad channel sent it. */
export function keypadRequestOf(options: TurnOptions): KeypadRequest | undefined {
  const request = options.channelRequest;
  return request instanceof KeypadRequest ? request : undefined;
}
