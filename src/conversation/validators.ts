import { lusakaToday } from '../clock/index.js';
import { checkZambianMobile } from '../msisdn/index.js';
import type { MessageKey } from './locales/index.js';
import type { MessageParams } from './prompt.js';

/**
 * The outcome of validating one typed answer: the normalised value, or the message key that
 * tells the user what to fix (shown as a Prompt note on the re-prompt).
 */
export type Validation<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: MessageKey; readonly params?: MessageParams };

const valid = <T>(value: T): Validation<T> => ({ ok: true, value });
const invalid = <T>(reason: MessageKey, params?: MessageParams): Validation<T> =>
  params ? { ok: false, reason, params } : { ok: false, reason };

/**
 * A Zambian NRC as `NNNNNN/NN/N`. Accepts that form or 9 digits (a USSD keypad has no `/`);
 * the last digit is the nationality (1 Zambian, 2 Commonwealth, 3 other).
 */
export function validateNrc(input: string): Validation<string> {
  const compact = input.replace(/\s+/g, '');
  const match = /^(\d{6})\/?(\d{2})\/?(\d)$/.exec(compact);
  // Either both slashes or none: "123456/789" is a typo, not an NRC.
  if (!match || (compact.includes('/') && compact.split('/').length !== 3)) {
    return invalid('validation.nrc.format');
  }
  const [, serial, district, nationality] = match;
  if (!['1', '2', '3'].includes(nationality ?? '')) return invalid('validation.nrc.nationality');
  return valid(`${serial}/${district}/${nationality}`);
}

/**
 * A Zambian mobile number in any usual form (`0971234567`, `260971234567`, `+260 97 123 4567`)
 * normalised to `260XXXXXXXXX`, the form the insurer's API uses.
 */
export function validateMsisdn(input: string): Validation<string> {
  const checked = checkZambianMobile(input);
  return checked.ok ? valid(checked.msisdn) : invalid(`validation.phone.${checked.problem}`);
}

/**
 * A vehicle registration, validated loosely (the insurer's API judges): 2–3 letters and up to
 * 4 digits (`AJQ 1909`), or a personalised plate of 2–10 letters and digits. Upper-cased, with
 * single spaces.
 */
export function validatePlate(input: string): Validation<string> {
  const spaced = input.trim().replace(/\s+/g, ' ').toUpperCase();
  const standard = /^([A-Z]{2,3}) ?(\d{1,4})$/.exec(spaced);
  if (standard) return valid(`${standard[1]} ${standard[2]}`);
  const characters = spaced.replace(/ /g, '');
  // A personalised plate is still letters as well as digits: digits alone (`12345678`) are a
  // phone or a serial typed in the wrong place, never a plate.
  if (
    /^[A-Z0-9 ]+$/.test(spaced) &&
    /[A-Z]/.test(spaced) &&
    characters.length >= 2 &&
    characters.length <= 10
  ) {
    return valid(spaced);
  }
  return invalid('validation.plate.format');
}

/** When a date may fall, relative to `today`. */
export type DateRule = 'any' | 'past' | 'todayOrPast' | 'future' | 'todayOrFuture';

/** Options of {@link validateDate}. */
export interface DateOptions {
  /** Default `any`. */
  readonly rule?: DateRule;
  /**
   * Today as `YYYY-MM-DD`, so the function stays pure and testable. Default: today in Lusaka,
   * from the one clock (src/clock).
   */
  readonly today?: string;
  /** Earliest allowed date, `YYYY-MM-DD`, inclusive. */
  readonly min?: string;
  /** Latest allowed date, `YYYY-MM-DD`, inclusive. */
  readonly max?: string;
}

/**
 * A calendar date typed as `DD/MM/YYYY` (also `DD-MM-YYYY`, `DD.MM.YYYY`, or `DDMMYYYY` from a
 * keypad) or `YYYY-MM-DD`, returned as `YYYY-MM-DD`.
 */
export function validateDate(input: string, options: DateOptions = {}): Validation<string> {
  const compact = input.trim();
  const dayFirst =
    /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(compact) ??
    /^(\d{2})(\d{2})(\d{4})$/.exec(compact);
  const yearFirst = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(compact);
  let parts: [number, number, number];
  if (dayFirst) parts = [Number(dayFirst[3]), Number(dayFirst[2]), Number(dayFirst[1])];
  else if (yearFirst) parts = [Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3])];
  else return invalid('validation.date.format');
  const [year, month, day] = parts;
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 31/02 over into March; a round trip exposes dates that do not exist.
  if (
    year < 1900 ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    return invalid('validation.date.invalid');
  }
  const iso = date.toISOString().slice(0, 10);
  const today = options.today ?? lusakaToday();
  switch (options.rule ?? 'any') {
    case 'past':
      if (iso >= today) return invalid('validation.date.notPast');
      break;
    case 'todayOrPast':
      if (iso > today) return invalid('validation.date.notTodayOrPast');
      break;
    case 'future':
      if (iso <= today) return invalid('validation.date.notFuture');
      break;
    case 'todayOrFuture':
      if (iso < today) return invalid('validation.date.notTodayOrFuture');
      break;
    case 'any':
      break;
  }
  if (options.min !== undefined && iso < options.min) {
    return invalid('validation.date.tooEarly', { min: options.min });
  }
  if (options.max !== undefined && iso > options.max) {
    return invalid('validation.date.tooLate', { max: options.max });
  }
  return valid(iso);
}

/** Options of {@link validateAmount}. */
export interface AmountOptions {
  /** Largest amount accepted, inclusive. Default 1 000 000 000. */
  readonly max?: number;
}

/**
 * A money amount: positive, at most two decimals, at most `max`. Accepts thousands separators
 * (`1,500.50`) and an optional `K`/`ZMW` prefix.
 */
export function validateAmount(input: string, options: AmountOptions = {}): Validation<number> {
  const max = options.max ?? 1_000_000_000;
  const compact = input
    .trim()
    .replace(/^(zmw|k)\s*/i, '')
    .replace(/[\s,]/g, '');
  if (/^-\d/.test(compact)) return invalid('validation.amount.notPositive');
  const match = /^(\d+)(?:\.(\d+))?$/.exec(compact);
  if (!match) return invalid('validation.amount.format');
  if ((match[2]?.length ?? 0) > 2) return invalid('validation.amount.tooManyDecimals');
  const value = Number(compact);
  if (!(value > 0)) return invalid('validation.amount.notPositive');
  if (value > max) return invalid('validation.amount.tooLarge', { max });
  return valid(value);
}
