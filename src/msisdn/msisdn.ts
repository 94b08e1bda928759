// One metadata bundle for the whole process: `max` is the one that tells mobile numbers from
// landlines (`min` would accept any 9 digits as a Zambian mobile).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** Why a number is not a Zambian mobile number. */
export type MsisdnProblem = 'format' | 'notZambian' | 'notMobile';

/** A Zambian mobile number normalised to `260XXXXXXXXX`, or why it is not one. */
export type MsisdnCheck =
  | { readonly ok: true; readonly msisdn: string }
  | { readonly ok: false; readonly problem: MsisdnProblem };

/**
 * Zambian mobiles written without spaces (`0971234567`, `260971234567`, `+260971234567`): the
 * mobile ranges libphonenumber knows for ZM (55–58, 75–79, 95–98 and seven digits). Nearly every
 * number a gateway sends or a caller types has this form, and libphonenumber is not cheap.
 */
const COMPACT_ZAMBIAN_MOBILE = /^(?:\+?260|0)((?:5[5-8]|7[5-9]|9[5-8])\d{7})$/;

/**
 * A Zambian mobile number in compact form normalised to `260XXXXXXXXX` without libphonenumber;
 * undefined for anything else (which then needs the full parse).
 */
export function compactZambianMobile(input: string): string | undefined {
  const match = COMPACT_ZAMBIAN_MOBILE.exec(input);
  return match ? `260${match[1]}` : undefined;
}

/**
 * Parses bounded by one cache each: callers redial and every USSD request of a call carries the
 * same number. Cleared when full (a bound, not an LRU: a miss only costs one parse).
 */
const MAX_CACHED = 10_000;
const checked = new Map<string, MsisdnCheck>();
const callers = new Map<string, string | undefined>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, value);
  return value;
}

/**
 * A Zambian mobile number in any usual form (`0971234567`, `260971234567`, `+260 97 123 4567`,
 * `00260…`, dashes allowed), normalised to `260XXXXXXXXX`, the form the insurer's API uses.
 */
export function checkZambianMobile(input: string): MsisdnCheck {
  const trimmed = typeof input === 'string' ? input.trim() : '';
  const compact = compactZambianMobile(trimmed);
  if (compact !== undefined) return { ok: true, msisdn: compact };
  const cached = checked.get(trimmed);
  if (cached !== undefined) return cached;
  return remember(checked, trimmed, parseZambianMobile(trimmed));
}

function parseZambianMobile(trimmed: string): MsisdnCheck {
  if (!/^[+\d\s()-]{9,20}$/.test(trimmed)) return { ok: false, problem: 'format' };
  // "260…" without a plus is the API's own form; libphonenumber needs the plus to read it as
  // international rather than as a national number starting with 2.
  const bare = trimmed.replace(/[\s()-]/g, '');
  const candidate = /^260\d{9}$/.test(bare) ? `+${bare}` : trimmed;
  const parsed = parsePhoneNumberFromString(candidate, 'ZM');
  if (!parsed?.isValid()) return { ok: false, problem: 'format' };
  if (parsed.country !== 'ZM') return { ok: false, problem: 'notZambian' };
  const type = parsed.getType();
  if (type !== 'MOBILE' && type !== 'FIXED_LINE_OR_MOBILE') {
    return { ok: false, problem: 'notMobile' };
  }
  return { ok: true, msisdn: `${parsed.countryCallingCode}${parsed.nationalNumber}` };
}

/**
 * A caller's number as a USSD gateway or the simulator sends it, normalised to the API's form
 * (`260971234567`). Looser than {@link checkZambianMobile}: roaming callers of any country are
 * callers too (`233244000111`). Undefined when it is not a phone number at all.
 */
export function normaliseCaller(raw: string): string | undefined {
  const trimmed = typeof raw === 'string' ? raw.trim() : '';
  const compact = compactZambianMobile(trimmed);
  if (compact !== undefined) return compact;
  if (callers.has(trimmed)) return callers.get(trimmed);
  return remember(callers, trimmed, parseCaller(trimmed));
}

function parseCaller(trimmed: string): string | undefined {
  // Gateways send international numbers without the plus (`260971234567`, `233244000111`).
  const international = /^\d{11,15}$/.test(trimmed)
    ? parsePhoneNumberFromString(`+${trimmed}`)
    : undefined;
  const parsed = international?.isPossible()
    ? international
    : parsePhoneNumberFromString(trimmed, 'ZM');
  if (!parsed?.isPossible()) return undefined;
  return `${parsed.countryCallingCode}${parsed.nationalNumber}`;
}

/**
 * Zambian mobile numbers written inside free text (`+260 97 123 4567`, `0971234567`,
 * `971234567`): +260, 260 or 0 then nine digits, or the nine digits alone when they start as a
 * mobile does (55–58, 75–79, 95–98); spaced or dashed between any digits as people group them
 * (`0971 234 567`, `097 123 4567`; never across a line), not
 * part of a longer number, a printed number (`MTR-DEMO-000001 2026`) or an NRC. Global: for `String.replace` (which resets `lastIndex`), not for `test`.
 */
export const ZAMBIAN_MOBILES_IN_TEXT =
  /(?<![\d/\p{L}_-])(?:(?:\+?260|0)[ \u00a0-]?\d[ \u00a0-]?\d|5[5-8]|7[5-9]|9[5-8])(?:[ \u00a0-]?\d){7}(?![\d/])/gu;

/** Whether two numbers, in any of the forms above, are the same phone. */
export function sameMsisdn(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const left = normaliseCaller(a);
  return left !== undefined && left === normaliseCaller(b);
}
