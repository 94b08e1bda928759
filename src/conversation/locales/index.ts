import { en, type MessageKey } from './en.js';

/** A translation: any subset of the English keys; missing keys fall back to English. */
export type Catalogue = Partial<Record<MessageKey, string>>;

/**
 * Every language insurechat speaks, by BCP 47 base code. Adding a language is adding
 * `locales/<code>.ts` and one line here.
 */
export const LOCALES: Readonly<Record<string, Catalogue>> = {
  en,
};

/** The language used when a locale is unknown or lacks a key. */
export const DEFAULT_LOCALE = 'en';

export { en, type MessageKey };
