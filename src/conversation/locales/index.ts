import { bem } from './bem.js';
import { en, type MessageKey } from './en.js';
import { ny } from './ny.js';

/** A translation: any subset of the English keys; missing keys fall back to English. */
export type Catalogue = Partial<Record<MessageKey, string>>;

/**
 * Every language insurechat speaks, by BCP 47 base code. Adding a language is adding
 * `locales/<code>.ts`, one line here and its name in {@link LOCALE_NAMES}.
 */
export const LOCALES: Readonly<Record<string, Catalogue>> = {
  en,
  bem,
  ny,
};

/** Each language as its speakers name it, in the order the language screen lists them. */
export const LOCALE_NAMES: Readonly<Record<string, string>> = {
  en: 'English',
  bem: 'Ichibemba',
  ny: 'Chinyanja',
};

/** The language used when a locale is unknown or lacks a key. */
export const DEFAULT_LOCALE = 'en';

/**
 * Keys only staff see (the Slack desk, its digests, claim notices and handoff threads): they stay in English,
 * so a translation need not carry them.
 */
const STAFF_KEY =
  /^(staff\.|slack\.|handoff\.slack\.|digest\.|claim\.staff\.|reminder\.creditLife|menu\.staff$|menu\.choice\.desk$)/;

/** True for a key only staff see; every other key a customer may see and is translated. */
export function isStaffKey(key: string): boolean {
  return STAFF_KEY.test(key);
}

export { en, type MessageKey };
