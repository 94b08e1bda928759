/*
 * A message carried in one template parameter (issue 38): what is bought, a status in the
 * customer's words. Flows keep it as data; the renderer (render-prompt.ts) shows it as a sentence
 * in the caller's language.
 */
import { DEFAULT_LOCALE, LOCALES } from './locales/index.js';

/**
 * Keys a parameter may name to be shown as that message: a status in the customer's words
 * (flows/status-words.ts, `status.inForce`) and what is bought (`what.motor`). Other parameters
 * are data, never read as keys.
 */
const NESTED_PREFIXES = ['status.', 'what.'] as const;

/** Between a nested message's key and its own parameters (see {@link nestedMessage}). */
const NESTED_PARAMS = '?';

/**
 * A message carried in one parameter: its key, and its own parameters after `?` as a query
 * string (`what.motor?product=Motor+Third+Party&plate=BCD+4321`). Kept as data (a payment's
 * item, a reminder's words) it names the purchase in no language; rendered, it is a sentence in
 * the caller's. A template's plain `{what}` shows it with the outer parameters and its own.
 */
export function nestedMessage(key: string, params: Readonly<Record<string, string>> = {}): string {
  const query = new URLSearchParams(params).toString();
  return query ? `${key}${NESTED_PARAMS}${query}` : key;
}

/** The key and parameters of a {@link nestedMessage}, or undefined for data (any other text). */
export function nestedMessageOf(
  value: string,
): { key: string; params: Record<string, string> } | undefined {
  if (!NESTED_PREFIXES.some((prefix) => value.startsWith(prefix))) return undefined;
  const at = value.indexOf(NESTED_PARAMS);
  const key = at < 0 ? value : value.slice(0, at);
  if (!Object.hasOwn(LOCALES[DEFAULT_LOCALE] ?? {}, key)) return undefined;
  return {
    key,
    params: at < 0 ? {} : Object.fromEntries(new URLSearchParams(value.slice(at + 1))),
  };
}
