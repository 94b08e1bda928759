import { createLogger, type Logger } from '../log/index.js';
import { type Catalogue, DEFAULT_LOCALE, LOCALES } from './locales/index.js';
import type { MessageParams, Prompt } from './prompt.js';

/** A Prompt turned into words: the channel lays these out in its own idiom. */
export interface RenderedPrompt {
  readonly text: string;
  readonly choices: readonly { readonly id: string; readonly label: string }[];
}

let catalogueLogger: Logger | undefined;
const reportedMissing = new Set<string>();

/** Routes "unknown message key" warnings to the process logger instead of a default one. */
export function setCatalogueLogger(logger: Logger): void {
  catalogueLogger = logger;
}

/**
 * Translates one message key with `{param}` placeholders filled in. An unknown locale falls
 * back to its base language, then English; an unknown key renders as the key itself (logged
 * once per key) so a missing string shows up in testing instead of crashing a turn.
 */
export function t(key: string, params?: MessageParams, locale: string = DEFAULT_LOCALE): string {
  const template = lookup(key, locale);
  if (template === undefined) {
    reportMissing(key);
    return key;
  }
  return interpolate(template, params, locale);
}

/**
 * Renders a Prompt: its message then its notes, one per line, and its choices' labels
 * (literal labels are insurer data and shown as they are).
 */
export function renderPrompt(prompt: Prompt, locale: string = DEFAULT_LOCALE): RenderedPrompt {
  const lines = [t(prompt.key, prompt.params, locale)];
  for (const note of prompt.notes ?? []) lines.push(t(note.key, note.params, locale));
  const choices = (prompt.choices ?? []).map((choice) => ({
    id: choice.id,
    label: choice.literal
      ? interpolate(choice.label, choice.params, locale)
      : t(choice.label, choice.params, locale),
  }));
  return { text: lines.join('\n'), choices };
}

/** Where each locale looks up a key, most specific first; a handful of locales ever appear. */
const searchOrders = new Map<string, readonly string[]>();

function searchOrderOf(locale: string): readonly string[] {
  let order = searchOrders.get(locale);
  if (!order) {
    const base = locale.split(/[-_]/)[0] ?? DEFAULT_LOCALE;
    order = [locale, base, DEFAULT_LOCALE];
    // Locales come from channels (a chat's language code): bounded so odd ones cannot pile up.
    if (searchOrders.size < 100) searchOrders.set(locale, order);
  }
  return order;
}

function lookup(key: string, locale: string): string | undefined {
  for (const code of searchOrderOf(locale)) {
    const catalogue: Catalogue | undefined = LOCALES[code];
    if (catalogue && Object.hasOwn(catalogue, key)) {
      const template = (catalogue as Readonly<Record<string, string | undefined>>)[key];
      if (template !== undefined) return template;
    }
  }
  return undefined;
}

/**
 * Fills `{name}` placeholders, formats `{name, date}` ones (see {@link formatDate}) and picks
 * plural forms. A count-dependent word is written once per
 * template, ICU style: `{travellers, plural, one {# traveller} other {# travellers}}`. The branch
 * is chosen by `Intl.PluralRules` for the locale (an exact `=0`/`=1` branch first, `other` as the
 * fallback) and `#` in it is the number; branches may hold ordinary `{param}` placeholders.
 */
function interpolate(template: string, params: MessageParams | undefined, locale: string): string {
  if (!params) return template;
  const plural = template.includes(', plural,') ? pickPlurals(template, params, locale) : template;
  // A missing parameter stays visible as `{name}` rather than rendering "undefined".
  return plural.replace(
    PLACEHOLDER,
    (
      whole,
      name: string,
      date: string | undefined,
      short: string | undefined,
      message: string | undefined,
    ) => {
      if (!Object.hasOwn(params, name)) return whole;
      const value = String(params[name]);
      // A nested message (a status in the customer's words) sees the same parameters, one level.
      if (message) return t(value, nestedParams(params, name), locale);
      return date ? formatDate(value, locale, short ? 'dayMonth' : 'full') : value;
    },
  );
}

/** The parameters a nested message sees: the outer ones less its own key (no recursion). */
function nestedParams(params: MessageParams, name: string): MessageParams {
  const { [name]: _self, ...rest } = params;
  return rest;
}

/**
 * `{name}`, `{name, date}`, `{name, date, short}` (day and month only, for a tight label) or
 * `{name, message}`: the parameter is a catalogue key, rendered in the same language.
 */
const PLACEHOLDER = /\{(\w+)(?:(, date(, short)?)|(, message))?\}/g;

/** A date as flows and the insurer carry it: `YYYY-MM-DD`, optionally followed by a time. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}:\d{2}))?/;

/** Date formats per locale and style; a handful of locales ever appear, so they are kept. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** How much of a date is written: `18/11/2026`, or `18/11` where a label must stay short. */
export type DateStyle = 'full' | 'dayMonth';

/**
 * Where the user is: every customer and desk user is in Zambia, so a date is written as there
 * (day/month/year) in the user's language, `en` → `en-ZM`. A language ICU does not know with
 * the Zambian region (ICU would fall back to US order) is written as in `en-ZM`.
 */
function dateFormatOf(locale: string, style: DateStyle): Intl.DateTimeFormat {
  let format = dateFormats.get(`${style} ${locale}`);
  if (!format) {
    const language = locale.split(/[-_]/)[0] ?? DEFAULT_LOCALE;
    const options: Intl.DateTimeFormatOptions = {
      day: '2-digit',
      month: '2-digit',
      ...(style === 'full' ? { year: 'numeric' } : {}),
      timeZone: 'UTC',
    };
    let tag = 'en-ZM';
    try {
      tag = Intl.DateTimeFormat.supportedLocalesOf([`${language}-ZM`])[0] ?? tag;
    } catch {
      // A malformed language tag from a channel: written as in English.
    }
    format = new Intl.DateTimeFormat(tag, options);
    if (dateFormats.size < 100) dateFormats.set(`${style} ${locale}`, format);
  }
  return format;
}

/**
 * A date shown to a user, as a Zambian reads it: `2026-11-18` → `18/11/2026`, a time kept after
 * it (`2026-11-18T10:42…` → `18/11/2026 10:42`). The one place dates are written for users:
 * templates say `{startDate, date}` and flows pass the ISO date they hold (the insurer's form);
 * text built outside a template (the staff digest) calls this. Anything else (`-`, an empty
 * answer) is shown as it is.
 */
export function formatDate(
  value: string,
  locale: string = DEFAULT_LOCALE,
  style: DateStyle = 'full',
): string {
  const match = ISO_DATE.exec(value);
  if (!match) return value;
  const [, year, month, day, time] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (Number.isNaN(date.getTime())) return value;
  const shown = dateFormatOf(locale, style).format(date);
  return time ? `${shown} ${time}` : shown;
}

const PLURAL_START = /\{(\w+), plural,\s*/g;

/** Plural rules per locale; a handful of locales ever appear, so they are kept. */
const pluralRules = new Map<string, Intl.PluralRules>();

function pluralRulesOf(locale: string): Intl.PluralRules {
  let rules = pluralRules.get(locale);
  if (!rules) {
    try {
      rules = new Intl.PluralRules(locale);
    } catch {
      // A malformed language tag from a channel: English rules rather than a crashed turn.
      rules = new Intl.PluralRules(DEFAULT_LOCALE);
    }
    if (pluralRules.size < 100) pluralRules.set(locale, rules);
  }
  return rules;
}

/** Replaces each `{n, plural, …}` block whose count is given by the branch for that count. */
function pickPlurals(template: string, params: MessageParams, locale: string): string {
  let out = '';
  let from = 0;
  PLURAL_START.lastIndex = 0;
  for (let match = PLURAL_START.exec(template); match; match = PLURAL_START.exec(template)) {
    const name = match[1] ?? '';
    const parsed = pluralBranches(template, PLURAL_START.lastIndex);
    if (!parsed) break;
    const count = Number(params[name]);
    const chosen = Object.hasOwn(params, name) && Number.isFinite(count);
    const branch = chosen
      ? (parsed.branches.get(`=${count}`) ??
        parsed.branches.get(pluralRulesOf(locale).select(count)) ??
        parsed.branches.get('other'))
      : undefined;
    out += template.slice(from, match.index);
    // Without a usable count the block stays visible, like a missing `{param}`.
    out +=
      branch === undefined
        ? template.slice(match.index, parsed.end)
        : branch.replaceAll('#', String(count));
    from = parsed.end;
    PLURAL_START.lastIndex = parsed.end;
  }
  return out + template.slice(from);
}

/** Reads `one {…} other {…}}` from `start`: each selector's text, and where the block ends. */
function pluralBranches(
  template: string,
  start: number,
): { branches: Map<string, string>; end: number } | undefined {
  const branches = new Map<string, string>();
  let at = start;
  for (;;) {
    while (template[at] === ' ') at++;
    if (template[at] === '}') return { branches, end: at + 1 };
    const selector = /^(=\d+|zero|one|two|few|many|other)\s*\{/.exec(template.slice(at));
    if (!selector) return undefined;
    let depth = 1;
    let i = at + selector[0].length;
    const textStart = i;
    for (; i < template.length && depth > 0; i++) {
      if (template[i] === '{') depth++;
      else if (template[i] === '}') depth--;
    }
    if (depth > 0) return undefined;
    branches.set(selector[1] ?? 'other', template.slice(textStart, i - 1));
    at = i;
  }
}

function reportMissing(key: string): void {
  if (reportedMissing.has(key)) return;
  reportedMissing.add(key);
  catalogueLogger ??= createLogger();
  catalogueLogger.warn({ event: 'catalogue.missingKey', key }, 'unknown message key');
}
