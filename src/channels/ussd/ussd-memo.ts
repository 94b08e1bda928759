import { isPrompt, type Prompt } from '../../conversation/index.js';

/**
 * What the USSD channel keeps in the engine's record between requests: the gateway session the
 * screen was shown in (a new id means the call dropped), the mode (`p` a prompt, `r` the
 * "Continue / Start again" menu), the page on screen, the prompt as shown when it carried
 * the engine's own notes (which its record does not keep), and the last request answered (`h`,
 * a digest of its history) with the screen it got (`a`, and `e` when that ended the call), so a
 * gateway's retry gets the same answer without touching the flow. Every memo has every field
 * (undefined when absent), so they all share one shape.
 */
export interface UssdMemo {
  readonly g: string;
  readonly m: 'p' | 'r';
  readonly p: number;
  readonly s: Prompt | undefined;
  readonly h: string | undefined;
  readonly a: string | undefined;
  readonly e: true | undefined;
}

/** A memo with nothing answered yet and no prompt of its own. */
export function ussdMemo(
  g: string,
  m: 'p' | 'r',
  p: number,
  s?: Prompt,
  h?: string,
  a?: string,
  e?: true,
): UssdMemo {
  return { g, m, p, s, h, a, e };
}

/**
 * The memo as the record's channel state, a flat string read with a few slices (it is read and
 * written on every request, where JSON inside the record's JSON would be escaped, parsed and
 * checked each time): `<mode><page>[e]` then the gateway session, the history digest, the
 * answered screen and the shown prompt's JSON, each as `<length>:<text>` or `-` when absent.
 * For example `p0:12:ATUid_123456--` (no digest, answer or prompt).
 */
export function writeMemo(memo: UssdMemo): string {
  return `${memo.m}${memo.p}${memo.e ? 'e' : ''}:${memoField(memo.g)}${memoField(memo.h)}${memoField(memo.a)}${memoField(memo.s && JSON.stringify(memo.s))}`;
}

/** One memo field as `<length>:<text>`, or `-` when absent (a function of its own, not a closure per write). */
function memoField(value: string | undefined): string {
  return value === undefined ? '-' : `${value.length}:${value}`;
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const COLON = 58;
const DASH = 45;

/**
 * Reads the channel state back; undefined when it is absent or malformed. The form this module
 * writes is read in one pass over its characters; anything else (a state that is not quite this
 * form) goes through {@link readMemoGeneral}, which
 * gives the same answer for every input.
 */
export function readMemo(state: string | undefined): UssdMemo | undefined {
  if (state === undefined || state.length < 4) return undefined;
  const mode = state[0];
  if (mode !== 'p' && mode !== 'r') return readMemoGeneral(state);
  // `<mode><digits>[e]:`; the page has at most 9 digits here, so it stays an exact integer.
  let at = 1;
  let page = 0;
  for (let code = state.charCodeAt(at); code >= DIGIT_0 && code <= DIGIT_9 && at < 10; ) {
    page = page * 10 + (code - DIGIT_0);
    code = state.charCodeAt(++at);
  }
  if (at === 1) return readMemoGeneral(state);
  let ended = false;
  if (state.charCodeAt(at) === 101 /* e */) {
    ended = true;
    at += 1;
  }
  if (state.charCodeAt(at) !== COLON) return readMemoGeneral(state);
  at += 1;
  // Four fields, each `-` or `<digits>:<text>`; `fieldEnd` is where the last one read stops.
  let g: string | undefined;
  let h: string | undefined;
  let a: string | undefined;
  let s: string | undefined;
  for (let field = 0; field < 4; field++) {
    let value: string | undefined;
    if (state.charCodeAt(at) === DASH) {
      at += 1;
    } else {
      const start = at;
      let length = 0;
      for (let code = state.charCodeAt(at); code >= DIGIT_0 && code <= DIGIT_9; ) {
        length = length * 10 + (code - DIGIT_0);
        code = state.charCodeAt(++at);
      }
      if (at === start || at - start > 9 || state.charCodeAt(at) !== COLON) {
        return readMemoGeneral(state);
      }
      const from = at + 1;
      at = from + length;
      if (at > state.length) return undefined;
      value = state.slice(from, at);
    }
    if (field === 0) g = value;
    else if (field === 1) h = value;
    else if (field === 2) a = value;
    else s = value;
  }
  if (g === undefined || at !== state.length) return undefined;
  let shown: Prompt | undefined;
  if (s !== undefined) {
    const read = readShown(s);
    if (read === undefined) return undefined;
    shown = read;
  }
  return { g, m: mode, p: page, s: shown, h, a, e: ended ? true : undefined };
}

/** The shown prompt's JSON back as a Prompt; undefined when it is not one. */
function readShown(text: string): Prompt | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isPrompt(json) ? json : undefined;
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

/**
 * Reads any channel state, whatever its form: the reference {@link readMemo} must agree with.
 * Exported for its tests.
 */
export function readMemoGeneral(state: string | undefined): UssdMemo | undefined {
  if (state === undefined || state.length < 4) return undefined;
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
    shown = readShown(s);
    if (shown === undefined) return undefined;
  }
  return { g, m: mode, p: page, s: shown, h, a, e: ended ? true : undefined };
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * `n.toString(36)` for a whole number from 0 to 2^53 − 1, without the engine's general radix
 * conversion (most of the digest's cost). `%` and the division by 36 of what is left are exact
 * on such numbers.
 */
export function base36(n: number): string {
  let rest = n;
  let out = '';
  do {
    const digit = rest % 36;
    out = BASE36[digit] + out;
    rest = (rest - digit) / 36;
  } while (rest > 0);
  return out;
}

/**
 * A short fixed-size digest of a request's history: Africa's Talking's grows with the call. It
 * only tells a gateway's retry from the next keypress of the same call, so a 53-bit string hash
 * (cyrb53) does, without a crypto hash object per request; the length is kept beside it.
 */
export function historyDigest(history: string | undefined): string | undefined {
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
  return `${base36(history.length)}.${base36(4294967296 * (2097151 & h2) + (h1 >>> 0))}`;
}
