import {
  validateAmount,
  validateDate,
  validateMsisdn,
  validateNrc,
  validatePlate,
} from '../src/conversation/index.js';
import type { Checked } from './support.js';

// The engine's validators for NRC, phone, plate, date and amount; the checks only flows need
// (names, free text, identifiers, email, year) are here, in the same `{ok, value}` shape.

/** NRC `NNNNNN/NN/N`; 9 digits are accepted (a USSD keypad has no `/`). */
export const checkNrc = (text: string): Checked<string> => validateNrc(text);

/** Zambian mobile number in local or international form, normalised to `260XXXXXXXXX`. */
export const checkPhone = (text: string): Checked<string> => validateMsisdn(text);

/** Vehicle plate, checked loosely (the insurer judges). */
export const checkPlate = (text: string): Checked<string> => validatePlate(text);

/** A date that is today or later, as `YYYY-MM-DD`. */
export function checkFutureDate(text: string, today: string): Checked<string> {
  return validateDate(text, { rule: 'todayOrFuture', today });
}

/** A date that is today or earlier, as `YYYY-MM-DD`. */
export function checkPastDate(text: string, today: string): Checked<string> {
  return validateDate(text, { rule: 'todayOrPast', today });
}

/** A positive amount of money. */
export const checkAmount = (text: string): Checked<number> => validateAmount(text);

/** A person's name of at most `max` characters (the field's own limit), letters first. */
export function checkName(text: string, max: number): Checked<string> {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length <= max && /^\p{L}[\p{L}' .-]*$/u.test(t)
    ? { ok: true, value: t }
    : { ok: false, reason: 'flow.note.badName', params: { max } };
}

/** A short free-text answer (a make, a model, a destination) of at most `max` characters. */
export function checkWords(text: string, max: number): Checked<string> {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length >= 1 && t.length <= max && /^[\p{L}\p{N}]/u.test(t)
    ? { ok: true, value: t }
    : { ok: false, reason: 'flow.note.badText', params: { max } };
}

/**
 * What happened, in the user's words (a claim's description), up to the field's `max`: as long
 * as the insurer takes, not as long as a USSD screen (that channel limits what it can send).
 */
export function checkDescription(text: string, max: number): Checked<string> {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length >= 1 && t.length <= max && /[\p{L}\p{N}]/u.test(t)
    ? { ok: true, value: t }
    : { ok: false, reason: 'flow.note.badDescription', params: { max } };
}

/**
 * Printed numbers looked up rather than stored (policy, claim and loan numbers): long enough for
 * any the insurer prints.
 */
export const LOOKUP_LENGTH = 40;

/** An identifier typed by the user (loan reference, chassis number): letters, digits, `-/_.`. */
export function checkIdentifier(text: string, max: number = LOOKUP_LENGTH): Checked<string> {
  const t = text.trim();
  return t.length <= max && /^[A-Za-z0-9][A-Za-z0-9\-/_.]*$/.test(t)
    ? { ok: true, value: t }
    : { ok: false, reason: 'flow.note.badIdentifier', params: { max } };
}

/** An email address, checked loosely. */
export function checkEmail(text: string): Checked<string> {
  const t = text.trim();
  return /^[^\s@]{1,64}@[^\s@]{1,120}\.[^\s@]{2,}$/.test(t)
    ? { ok: true, value: t.toLowerCase() }
    : { ok: false, reason: 'flow.note.badEmail' };
}

/** A vehicle's year of manufacture between 1950 and next year. */
export function checkYear(text: string, today: string): Checked<number> {
  const year = Number(text.trim());
  const max = Number(today.slice(0, 4)) + 1;
  return Number.isInteger(year) && year >= 1950 && year <= max
    ? { ok: true, value: year }
    : { ok: false, reason: 'flow.note.badYear' };
}

/** Makes written as two words: the rest of the answer is the model. */
const TWO_WORD_MAKES = ['alfa romeo', 'aston martin', 'great wall', 'land rover', 'mercedes benz'];

/** A vehicle as one typed answer, "Toyota Corolla 2015": its make, model and year. */
export interface VehicleName {
  make: string;
  model: string;
  year: string;
}

/**
 * A vehicle's make, model and year of manufacture typed as one answer (one screen instead of
 * three on USSD): the year last, the make first (two words for the few makes named so), the
 * model in between.
 */
export function checkVehicleName(
  text: string,
  today: string,
  max: { make: number; model: number },
): Checked<VehicleName> {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const last = words.at(-1) ?? '';
  if (!/^\d{4}$/.test(last)) return { ok: false, reason: 'flow.note.vehicleName' };
  const year = checkYear(last, today);
  if (!year.ok) return year;
  const named = words.slice(0, -1);
  const makeWords = TWO_WORD_MAKES.includes(named.slice(0, 2).join(' ').toLowerCase()) ? 2 : 1;
  if (named.length <= makeWords) return { ok: false, reason: 'flow.note.vehicleName' };
  const make = checkWords(named.slice(0, makeWords).join(' '), max.make);
  const model = checkWords(named.slice(makeWords).join(' '), max.model);
  if (!make.ok) return make;
  if (!model.ok) return model;
  return { ok: true, value: { make: make.value, model: model.value, year: String(year.value) } };
}

/** A person's name typed as one answer, split as the insurer records it. */
export interface FullName {
  firstName: string;
  lastName: string;
}

/**
 * A full name typed as one answer: the last word is the last name, the words before it the first
 * name(s). A single word is refused with a note asking for both.
 */
export function checkNameParts(
  text: string,
  max: { first: number; last: number },
): Checked<FullName> {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) {
    const one = checkName(text, max.first);
    return one.ok ? { ok: false, reason: 'flow.note.fullName' } : one;
  }
  const first = checkName(words.slice(0, -1).join(' '), max.first);
  const last = checkName(words.at(-1) ?? '', max.last);
  if (!first.ok) return first;
  if (!last.ok) return last;
  return { ok: true, value: { firstName: first.value, lastName: last.value } };
}
