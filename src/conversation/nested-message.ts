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

/** Between a nested message's key and each of its parameters (see {@link nestedMessage}). */
const SEPARATOR = '|';

/** A template argument as written: `{name}` or `{name, …}`. */
const ARGUMENT = /\{\s*(\w+)\s*[,}]/g;

/** The argument names of each nested key's English template, sorted: the order values are kept in. */
const argumentNames = new Map<string, readonly string[]>();

function argumentsOf(key: string): readonly string[] {
  let names = argumentNames.get(key);
  if (!names) {
    const template = (LOCALES[DEFAULT_LOCALE] as Record<string, string> | undefined)?.[key] ?? '';
    names = [...new Set([...template.matchAll(ARGUMENT)].map((match) => match[1] ?? ''))].sort();
    argumentNames.set(key, names);
  }
  return names;
}

/**
 * A message carried in one parameter: its key, then the values of its template's arguments in
 * the order of their sorted names, each after `|` (`what.motor|BCD 4321|Motor Third Party` for
 * `{product} for {plate}`): short, since a flow's snapshot keeps it. Kept as data (a payment's
 * item, a reminder's words, for up to 500 days) it names the purchase in no language; rendered,
 * a template's plain `{what}` shows it as a sentence in the caller's, with the outer parameters
 * and its own. Once shipped, a nested key's arguments stay as they are: another set is a new key.
 */
export function nestedMessage(key: string, params: Readonly<Record<string, string>> = {}): string {
  const values = argumentsOf(key).map((name) => (params[name] ?? '').replaceAll(SEPARATOR, '/'));
  return [key, ...values].join(SEPARATOR);
}

/** The key and parameters of a {@link nestedMessage}, or undefined for data (any other text). */
export function nestedMessageOf(
  value: string,
): { key: string; params: Record<string, string> } | undefined {
  if (!NESTED_PREFIXES.some((prefix) => value.startsWith(prefix))) return undefined;
  const [key = '', ...values] = value.split(SEPARATOR);
  if (!Object.hasOwn(LOCALES[DEFAULT_LOCALE] ?? {}, key)) return undefined;
  return {
    key,
    // A bare key (`status.inGraceUntil`) takes every parameter from the message around it.
    params: Object.fromEntries(
      argumentsOf(key).flatMap((name, i) => (values[i] === undefined ? [] : [[name, values[i]]])),
    ),
  };
}
