import type { Prompt } from '../prompt.js';
import type { Reply } from '../reply.js';
import type { ChannelAddress, SessionGlance, TurnOptions } from '../turn-engine.js';

/**
 * What a keypad channel (USSD) heard, read against the screen it showed, which only it can read
 * from the record (its paging state):
 * - `own`: the channel's own to answer, asking no policy (a gateway's retry, a page of the
 *   screen, its "Continue / Start again" menu, a stray key on a closing screen);
 * - `dial`: a call opens;
 * - `key`: a keypress, `typed` as it came and `reply` as it reads on `shown`, the screen on display.
 */
export type KeypadHeard =
  | { readonly kind: 'own' }
  | { readonly kind: 'dial' }
  | {
      readonly kind: 'key';
      readonly typed: string;
      readonly reply: Reply;
      readonly shown: Prompt;
    };

/**
 * What the keypad policies decided, for the channel to show (none: the channel goes on, the
 * keypress to the flow or the dial to where the conversation stands):
 * - `screen`: a screen of the policies' own (the language screen, a person's), which the next
 *   keypress is read against;
 * - `again`: the screen on display, as it is;
 * - `goOn`: where the conversation stopped, as after a dropped call;
 * - `restart`: the entry menu afresh.
 */
export type KeypadDecision =
  | { readonly kind: 'screen'; readonly prompt: Prompt }
  | { readonly kind: 'again' }
  | { readonly kind: 'goOn' }
  | { readonly kind: 'restart' };

/**
 * One request of a keypad channel, handed to the engine as the turn's `channelRequest`: the
 * keypad policies (`keypadPolicy`) read the caller's language, decide what a keypress means for
 * the language and a person, and say it in {@link decision}; the channel's middleware, after
 * them, reads the keypress against its screen ({@link heard}) and shows what was decided.
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
