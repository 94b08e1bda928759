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

/** A person's name or a word of free text: 1–40 characters, letters first. */
export function checkName(text: string): Checked<string> {
  const t = text.trim().replace(/\s+/g, ' ');
  return /^\p{L}[\p{L}' .-]{0,39}$/u.test(t)
    ? { ok: true, value: t }
    : { ok: false, reason: 'flow.note.badName' };
}

/** A short free-text answer (a make, a model, a description): 1–60 printable characters. */
export function checkWords(text: string): Checked<string> {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length >= 1 && t.length <= 60 && /^[\p{L}\p{N}]/u.test(t)
    ? { ok: true, value: t }
    : { ok: false, reason: 'flow.note.badText' };
}

/**
 * What happened, in the user's words (a claim's description): 1–500 characters. Longer than a
 * short answer: the field holds a story, and chat users type more than a USSD screen shows.
 */
export function checkDescription(text: string): Checked<string> {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length >= 1 && t.length <= 500 && /[\p{L}\p{N}]/u.test(t)
    ? { ok: true, value: t }
    : { ok: false, reason: 'flow.note.badDescription' };
}

/** An identifier typed by the user (loan id, chassis number): 1–40 letters, digits, `-/_.`. */
export function checkIdentifier(text: string): Checked<string> {
  const t = text.trim();
  return /^[A-Za-z0-9][A-Za-z0-9\-/_.]{0,39}$/.test(t)
    ? { ok: true, value: t }
    : { ok: false, reason: 'flow.note.badIdentifier' };
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
