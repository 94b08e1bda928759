import {
  ENGINE_PROMPTS,
  type Prompt,
  type Reply,
  type SessionGlance,
} from '../../conversation/index.js';
import type { UssdLayout } from './ussd-layout.js';
import { type UssdMemo, ussdMemo } from './ussd-memo.js';

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
  /**
   * Which request of the call this is (`id`) and which one it follows (`follows`, the dial's id
   * for the first keypress): Africa's Talking's history and the history before its newest input,
   * Hubtel's sequence number and the one before. With it a paging key on the screen of the request
   * it follows is answered without the engine; undefined where the gateway does not say.
   */
  readonly step?: { readonly id: string; readonly follows: string } | undefined;
}

/** What a request's turn came to: the engine's Prompt, too late for the gateway, or a failure. */
export type UssdOutcome = Prompt | typeof LATE | { readonly failed: unknown };
/** The outcome of a turn still running at the answer backstop. */
export const LATE: unique symbol = Symbol('late');

/** What every request of one core shares. */
export interface UssdTurnDeps {
  readonly layout: UssdLayout;
}

/**
 * What a request decided about the session, once read:
 * - `reply`: apply it as a normal turn; the memo is laid out from the Prompt the engine answers;
 * - `restart`: drop the conversation and start the entry menu afresh, likewise, or with `memo`
 *   when the channel shows a screen of its own over the menu started underneath;
 * - `keep`: answer without the flow (a page of the same screen) with the new state (a closing
 *   screen is forgotten once `state` is undefined).
 */
export type UssdDecision =
  | { readonly kind: 'reply'; readonly reply: Reply }
  | { readonly kind: 'restart'; readonly memo?: string }
  | { readonly kind: 'keep'; readonly state: string | undefined };

/** What one request showed, as decided under the session lock. */
export type Screen =
  | { readonly kind: 'answer' }
  | { readonly kind: 'prompt'; readonly prompt: Prompt; readonly page: number }
  | { readonly kind: 'resume'; readonly page: number }
  | { readonly kind: 'replay'; readonly text: string; readonly end: boolean };

/** The request went to the flow (or the entry menu): the engine's Prompt is the screen. */
export const ANSWERED: Screen = { kind: 'answer' };
/** What a request knows of the session before the engine has shown it anything. */
export const NOTHING_HELD: SessionGlance = {
  prompt: undefined,
  unseen: false,
  resumable: false,
  state: undefined,
};

export const ENGINE_NOTES: ReadonlySet<string> = new Set(Object.values(ENGINE_PROMPTS));

/**
 * The Reply a dial sends. The engine starts the entry menu on it when it holds no conversation
 * (the reply itself is dropped) and re-shows a result the caller has not seen yet.
 */
export const DIAL: Reply = { type: 'user.text', text: '' };
/** What a request answered, kept so that the gateway's retry of it gets the same screen. */
export function answered(
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
