import { getCountries } from 'libphonenumber-js';
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

/**
 * Vehicle plate: the standard `AJQ 1909` (2–3 letters, up to 4 digits) or a personalised one of
 * 2–10 letters and digits with at least one letter; otherwise loose (the insurer judges).
 */
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
 * A vehicle's make (`Toyota`, `Mercedes-Benz`) of at most `max` characters: it starts with a
 * letter, so a number typed on the wrong screen (`123456789`) is asked again.
 */
export function checkMake(text: string, max: number): Checked<string> {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length <= max && /^\p{L}[\p{L}\p{N} .&'-]*$/u.test(t)
    ? { ok: true, value: t }
    : { ok: false, reason: 'flow.note.badMake' };
}

/** Fewest and most letters and digits in a chassis number: older frame numbers to a 17-character VIN. */
export const CHASSIS_LENGTH = { min: 5, max: 17 } as const;

/**
 * A chassis number: a 17-character VIN or an older frame number (`NZE121-1234567`), 5 to 17
 * letters and digits with dashes or spaces between, kept as typed; at most `max` characters in
 * all (the field's limit).
 */
export function checkChassis(text: string, max: number): Checked<string> {
  const t = text.trim().replace(/\s+/g, ' ');
  const alphanumerics = t.replace(/[- ]/g, '').length;
  return t.length <= max &&
    /^[A-Za-z0-9]+([- ][A-Za-z0-9]+)*$/.test(t) &&
    alphanumerics >= CHASSIS_LENGTH.min &&
    alphanumerics <= CHASSIS_LENGTH.max
    ? { ok: true, value: t }
    : { ok: false, reason: 'flow.note.badChassis', params: CHASSIS_LENGTH };
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
function checkYear(text: string, today: string): Checked<number> {
  const year = Number(text.trim());
  const max = Number(today.slice(0, 4)) + 1;
  return Number.isInteger(year) && year >= 1950 && year <= max
    ? { ok: true, value: year }
    : { ok: false, reason: 'flow.note.badYear' };
}

/** Makes written as two words: the rest of the answer is the model. */
const TWO_WORD_MAKES = ['alfa romeo', 'aston martin', 'great wall', 'land rover', 'mercedes benz'];

/** A vehicle as one typed answer, "Toyota Corolla 2015": its make, model and year. */
interface VehicleName {
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
  const make = checkMake(named.slice(0, makeWords).join(' '), max.make);
  const model = checkWords(named.slice(makeWords).join(' '), max.model);
  if (!make.ok) return make;
  if (!model.ok) return model;
  return { ok: true, value: { make: make.value, model: model.value, year: String(year.value) } };
}

/** A person's name typed as one answer, split as the insurer records it. */
interface FullName {
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

/** A country's name as screens and the insurer get it: English, without accents (GSM 7-bit). */
function plainName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[\u2018\u2019]/g, "'");
}

/** A typed or listed name reduced for comparing: lower case, `&` as `and`, words only. */
function comparable(name: string): string {
  return plainName(name)
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Names callers type for a country that its English name does not start with. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = {
  usa: 'US',
  us: 'US',
  america: 'US',
  uk: 'GB',
  britain: 'GB',
  'great britain': 'GB',
  england: 'GB',
  uae: 'AE',
  drc: 'CD',
  'dr congo': 'CD',
  'democratic republic of congo': 'CD',
  'democratic republic of the congo': 'CD',
  'ivory coast': 'CI',
  swaziland: 'SZ',
};

/**
 * Every country by its comparable name, to its name as shown: the ISO regions libphonenumber-js
 * dials (245) named by the runtime's own ICU (`Intl.DisplayNames`), so no list is kept here.
 * "Congo - Kinshasa" is also found as "Congo Kinshasa" and, first listed, as "Congo".
 */
/** ISO codes of the African countries: the region an `Africa` travel package covers. */
const AFRICA = new Set(
  (
    'DZ AO BJ BW BF BI CV CM CF TD KM CG CD CI DJ EG GQ ER SZ ET GA GM GH GN GW KE LS LR LY MG ' +
    'MW ML MR MU YT MA MZ NA NE NG RE RW SH ST SN SC SL SO ZA SS SD TZ TG TN UG EH ZM ZW'
  ).split(' '),
);

/** African countries by the name {@link checkCountry} answers. */
let africanNames: ReadonlySet<string> | undefined;

/**
 * Whether a travel package of `region` covers `destination` (a name {@link checkCountry}
 * answered): `Africa` the African countries; `Worldwide`, no region or one unknown here, all (the
 * insurer judges).
 */
export function coversDestination(region: string | undefined, destination: string): boolean {
  if (region?.trim().toLowerCase() !== 'africa') return true;
  if (!africanNames) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    africanNames = new Set([...AFRICA].map((code) => plainName(names.of(code) ?? code)));
  }
  return africanNames.has(destination);
}

const COUNTRIES: ReadonlyMap<string, string> = (() => {
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  const byName = new Map<string, string>();
  const nameOf = (code: string) => plainName(names.of(code) ?? code);
  for (const code of getCountries()) {
    const name = nameOf(code);
    byName.set(comparable(name), name);
    const short = comparable(name.split(/ - | \(/)[0] ?? name);
    if (!byName.has(short)) byName.set(short, name);
    byName.set(code.toLowerCase(), name);
  }
  for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) byName.set(alias, nameOf(code));
  return byName;
})();

/**
 * A travel destination: a country, by its English name (`germany`, `South Africa`, `USA`),
 * answered as the country's name; anything else (`Atlantis`) is asked again.
 */
export function checkCountry(text: string): Checked<string> {
  const found = COUNTRIES.get(comparable(text));
  return found ? { ok: true, value: found } : { ok: false, reason: 'flow.note.badCountry' };
}
