import { packField, readPackedFields, readPackedFieldsGeneral } from '../../storage/index.js';
import { isPrompt, type Prompt } from '../prompt.js';

/**
 * What a keypad turn keeps in the engine's record between requests (the channel state): the
 * call the screen was shown in (a new id means the call dropped), the mode (`p` a prompt, `r` the
 * "Continue / Start again" menu), the page on screen, the prompt as shown when it carried
 * the engine's own notes (which its record does not keep), and the last request answered (`h`,
 * a digest of its history) with the screen it got (`a`, and `e` when that ended the call), so a
 * gateway's retry gets the same answer without touching the flow. Every memo has every field
 * (undefined when absent), so they all share one shape.
 */
export interface KeypadMemo {
  readonly g: string;
  readonly m: 'p' | 'r';
  readonly p: number;
  readonly s: Prompt | undefined;
  readonly h: string | undefined;
  readonly a: string | undefined;
  readonly e: true | undefined;
}

/** A memo with nothing answered yet and no prompt of its own. */
export function keypadMemo(
  g: string,
  m: 'p' | 'r',
  p: number,
  s?: Prompt,
  h?: string,
  a?: string,
  e?: true,
): KeypadMemo {
  return { g, m, p, s, h, a, e };
}

/**
 * `position` on `page` as the record's channel state, with what the request (history digest `h`)
 * answered, kept so that the gateway's retry of it gets the same screen.
 */
export function answered(
  position: KeypadMemo,
  page: number,
  h: string | undefined,
  text: string | undefined,
  end: boolean,
): string {
  return h === undefined || text === undefined
    ? writeMemo(keypadMemo(position.g, position.m, page, position.s))
    : writeMemo(keypadMemo(position.g, position.m, page, position.s, h, text, end || undefined));
}

/**
 * The memo as the record's channel state: `<mode><page>[e]:` then the call, the
 * history digest, the answered screen and the shown prompt's JSON as packed fields (read and
 * written on every request: a few slices, not JSON in the record's JSON). For example
 * `p0:12:ATUid_123456--` (no digest, answer or prompt).
 */
export function writeMemo(memo: KeypadMemo): string {
  return `${memo.m}${memo.p}${memo.e ? 'e' : ''}:${packField(memo.g)}${packField(memo.h)}${packField(memo.a)}${packField(memo.s && JSON.stringify(memo.s))}`;
}

/** The four fields of a memo as read: session, digest, answer, prompt (one array, reused). */
const FIELDS: (string | undefined)[] = [undefined, undefined, undefined, undefined];
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/**
 * Reads the channel state back; undefined when it is absent or malformed. The head this module
 * writes is read in one pass over its characters; any other (a page written oddly) goes through
 * {@link readMemoGeneral}, which gives the same answer for every input.
 */
export function readMemo(state: string | undefined): KeypadMemo | undefined {
  if (state === undefined || state.length < 4) return undefined;
  const mode = state[0];
  if (mode !== 'p' && mode !== 'r') return undefined;
  // `<mode><digits>[e]:`; the page has at most 9 digits here, so it stays an exact integer.
  let at = 1;
  let page = 0;
  for (let code = state.charCodeAt(at); code >= DIGIT_0 && code <= DIGIT_9 && at < 10; ) {
    page = page * 10 + (code - DIGIT_0);
    code = state.charCodeAt(++at);
  }
  const ended = at > 1 && state.charCodeAt(at) === 101; /* e */
  if (ended) at += 1;
  if (at === 1 || state.charCodeAt(at) !== 58 /* : */) return readMemoGeneral(state);
  return memoOf(mode, page, ended, readPackedFields(state, at + 1, FIELDS));
}

/** Reads any channel state, whatever its form: the reference {@link readMemo} must agree with. */
export function readMemoGeneral(state: string | undefined): KeypadMemo | undefined {
  if (state === undefined || state.length < 4) return undefined;
  const mode = state[0];
  if (mode !== 'p' && mode !== 'r') return undefined;
  const headEnd = state.indexOf(':');
  const ended = state[headEnd - 1] === 'e';
  const page = Number(state.slice(1, ended ? headEnd - 1 : headEnd));
  if (headEnd < 2 || !Number.isInteger(page) || page < 0) return undefined;
  return memoOf(mode, page, ended, readPackedFieldsGeneral(state, headEnd + 1, FIELDS));
}

function memoOf(mode: 'p' | 'r', p: number, ended: boolean, read: boolean): KeypadMemo | undefined {
  const g = FIELDS[0];
  const s = FIELDS[3];
  if (!read || g === undefined) return undefined;
  let shown: Prompt | undefined;
  if (s !== undefined) {
    try {
      shown = JSON.parse(s);
    } catch {
      return undefined;
    }
    if (!isPrompt(shown)) return undefined;
  }
  return { g, m: mode, p, s: shown, h: FIELDS[1], a: FIELDS[2], e: ended ? true : undefined };
}
