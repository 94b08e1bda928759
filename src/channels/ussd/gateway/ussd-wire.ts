import type { KeypadCall } from '../../../conversation/index.js';

/**
 * One gateway request as each gateway adapter parses its own wire format, already authenticated:
 * the gateway's call id (`sessionId`), the caller, what they typed and what identifies the
 * request within the call (Africa's Talking's whole `*`-joined history, Hubtel's sequence number
 * with the message; undefined where the gateway gives nothing that tells a retry from a new
 * keypress).
 */
export interface UssdRequest extends KeypadCall {
  /**
   * Which request of the call this is (`id`) and which one it follows (`follows`, the dial's id
   * for the first keypress): Africa's Talking's history and the history before its newest input,
   * Hubtel's sequence number and the one before. With it a paging key on the screen of the request
   * it follows is answered without the engine; undefined where the gateway does not say.
   */
  readonly step?: { readonly id: string; readonly follows: string } | undefined;
}

/** What a gateway shows: a screen, and whether the call ends with it (`END`, Hubtel's Release). */
export interface UssdResponse {
  readonly text: string;
  readonly end: boolean;
}

/** The most characters a USSD screen may hold on the network, footer included. */
export const USSD_MAX_CHARS = 182;

/**
 * Text a gateway sends in the GSM 7-bit alphabet (its basic set and the escaped `^{}\\[~]|€`):
 * one character outside it and the whole screen goes as UCS-2, half the room. Every catalogue's
 * customer text must match.
 */
export const GSM7_TEXT =
  /^[@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&'()*+,\-./0-9:;<=>?¡A-ZÄÖÑÜ§¿a-zäöñüà^{}\\[~\]|€]*$/;
