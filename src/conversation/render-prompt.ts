import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import { createLogger, type Logger } from '../log/index.js';
import { INSURER_ARGUMENTS, insurerWords } from './insurer-words.js';
import { type Catalogue, DEFAULT_LOCALE, isStaffKey, LOCALES } from './locales/index.js';
import { nestedMessageOf } from './nested-message.js';
import type { MessageParams, Prompt } from './prompt.js';

/** A Prompt turned into words: the channel lays these out in its own idiom. */
export interface RenderedPrompt {
  readonly text: string;
  readonly choices: readonly RenderedChoice[];
  /** The text is read whole (see `Prompt.paged`). */
  readonly paged?: boolean;
}

/** One choice in words: its label, and a short title where the catalogue has one. */
export interface RenderedChoice {
  readonly id: string;
  readonly label: string;
  /**
   * The choice's `<key>.short` in the label's own language, when it says less than the label:
   * for places that hold a few characters (a WhatsApp list row's title), the label going beside.
   */
  readonly short?: string;
}

let catalogueLogger: Logger | undefined;
const reportedMissing = new Set<string>();

/** Renders a Prompt in a locale: the engine's {@link renderPrompt}, or a test double. */
export type RenderPrompt = (prompt: Prompt, locale: string) => RenderedPrompt;

/** The text of a single message key (attachment labels, channel notices) through `render`. */
export function renderKey(
  render: RenderPrompt,
  key: string,
  locale: string,
  params?: Prompt['params'],
): string {
  return render({ key, ...(params ? { params } : {}), input: 'none', final: false }, locale).text;
}

/**
 * Translates one message key with its parameters. An unknown locale falls back to its base
 * language, then English; an unknown key renders as the key itself (logged once per key) so a
 * missing string shows up in testing instead of crashing a turn.
 */
export function t(key: string, params?: MessageParams, locale: string = DEFAULT_LOCALE): string {
  const message = compiledOf(key, locale);
  if (message === undefined) {
    reportMissing(key);
    return key;
  }
  return formatMessage(message, params, locale);
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
      ? choice.words
        ? insurerWords(choice.words, choice.label, (word) => t(word.key, word.params, locale))
        : literalLabel(choice.label, choice.params, locale)
      : t(choice.label, choice.params, locale),
  }));
  const text = lines.join('\n');
  const titled = withShortTitles(choices, prompt.choices ?? [], locale);
  return prompt.paged ? { text, choices: titled, paged: true } : { text, choices: titled };
}

/**
 * The `<key>.short` of a choice label, only from the catalogue the label itself came from: a
 * Bemba label never gets an English short title. Undefined when there is none (not logged).
 */
function shortOf(key: string, params: MessageParams | undefined, locale: string) {
  const label = compiledOf(key, locale);
  const short = compiledOf(`${key}.short`, locale);
  if (!label || !short || short.language !== label.language) return undefined;
  return formatMessage(short, params, locale);
}

/** Rendered choices with the short title of each keyed one that has a shorter one. */
function withShortTitles(
  rendered: readonly { readonly id: string; readonly label: string }[],
  choices: NonNullable<Prompt['choices']>,
  locale: string,
): RenderedChoice[] {
  return rendered.map((shown, index) => {
    const choice = choices[index];
    if (!choice || choice.literal) return shown;
    const short = shortOf(choice.label, choice.params, locale);
    return short === undefined || short === shown.label ? shown : { ...shown, short };
  });
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

/**
 * One catalogue template, parsed once: the ICU MessageFormat library's formatter (FormatJS
 * `intl-messageformat`) over the template with its date arguments turned into plain ones (a
 * date is written by {@link formatDate}, see below), and what each argument needs.
 */
interface CompiledMessage {
  readonly source: string;
  /** The template is plain text: no argument, nothing to format. */
  readonly constant: string | undefined;
  readonly format: IntlMessageFormat | undefined;
  readonly args: readonly MessageArgument[];
  /** The language whose rules the template follows (the catalogue it came from). */
  readonly language: string;
  /**
   * Its insurer words are shown as the insurer wrote them: a staff template (staff read the
   * insurer's English), or a literal label.
   */
  readonly verbatim: boolean;
}

/** An argument of a template: its name, how it is written, and its text as the template says it. */
interface MessageArgument {
  readonly name: string;
  readonly kind: 'plain' | 'select' | 'plural' | 'date' | 'dayMonth';
  /** The value name the compiled message reads (a date's is its own, already written). */
  readonly valueName: string;
  /** `{name}`, `{name, date}`…: shown in place of a missing parameter. */
  readonly source: string;
}

/** Compiled templates per catalogue, key by key, each compiled once on its first use. */
const compiledCatalogues = new Map<string, Map<string, CompiledMessage | null>>();

/** Messages added at run time per language ({@link addMessages}), beside the catalogues. */
const addedMessages = new Map<string, Map<string, string>>();

/**
 * Adds a flow's own messages to a language at run time, for a flow registered beside the
 * catalogued ones (a fixture flow in a test). A key the catalogue has keeps its catalogue text.
 */
export function addMessages(locale: string, messages: Readonly<Record<string, string>>): void {
  let added = addedMessages.get(locale);
  if (!added) {
    added = new Map();
    addedMessages.set(locale, added);
  }
  for (const [key, template] of Object.entries(messages)) {
    added.set(key, template);
    // A key looked up before it was added is remembered as missing: forget that.
    compiledCatalogues.get(locale)?.delete(key);
  }
}

function compiledOf(key: string, locale: string): CompiledMessage | undefined {
  for (const code of searchOrderOf(locale)) {
    const catalogue: Catalogue | undefined = LOCALES[code];
    if (!catalogue) continue;
    let compiled = compiledCatalogues.get(code);
    if (!compiled) {
      compiled = new Map();
      compiledCatalogues.set(code, compiled);
    }
    const known = compiled.get(key);
    if (known) return known;
    if (known === null) continue;
    const template = Object.hasOwn(catalogue, key)
      ? (catalogue as Readonly<Record<string, string | undefined>>)[key]
      : addedMessages.get(code)?.get(key);
    const message =
      template === undefined ? undefined : compileMessage(template, code, isStaffKey(key));
    compiled.set(key, message ?? null);
    if (message) return message;
  }
  return undefined;
}

/** Literal labels with parameters (insurer data with a count), compiled once each, bounded. */
const compiledLiterals = new Map<string, CompiledMessage | null>();

function literalLabel(label: string, params: MessageParams | undefined, locale: string): string {
  // Insurer data without parameters is shown exactly as it came.
  if (!params) return label;
  const cacheKey = `${locale}\u0000${label}`;
  let message = compiledLiterals.get(cacheKey);
  if (message === undefined) {
    message = compileMessage(label, locale, true) ?? null;
    if (compiledLiterals.size >= 500) compiledLiterals.clear();
    compiledLiterals.set(cacheKey, message);
  }
  return message ? formatMessage(message, params, locale) : label;
}

/**
 * Parses a template once. `<…>` is text (the staff desk's usage lines), not a rich-text tag. A
 * template the library cannot parse is reported and shown as written.
 */
function compileMessage(
  template: string,
  language: string,
  verbatim: boolean,
): CompiledMessage | undefined {
  let ast: MessageFormatElement[];
  try {
    ast = parse(template, { ignoreTag: true, captureLocation: true });
  } catch (err) {
    catalogueLogger ??= createLogger();
    catalogueLogger.warn({ event: 'catalogue.badTemplate', language, err }, 'unparsable template');
    return undefined;
  }
  const args: MessageArgument[] = [];
  const rewritten = withDatesAsText(ast, template, args);
  const only = rewritten[0];
  const constant =
    rewritten.length === 0
      ? ''
      : rewritten.length === 1 && only?.type === TYPE.literal
        ? only.value
        : undefined;
  return {
    source: template,
    constant,
    format:
      constant === undefined
        ? new IntlMessageFormat(rewritten, pluralLocaleOf(language), undefined, { ignoreTag: true })
        : undefined,
    args,
    language,
    verbatim,
  };
}

/** Value-name suffixes of a date argument written in full or as day/month. */
const DATE_VALUE = '\u0000date';
const DAY_MONTH_VALUE = '\u0000dayMonth';

/**
 * Collects the template's arguments and turns `{d, date}` / `{d, date, short}` into plain
 * arguments whose values are written by {@link formatDate}: flows carry ISO dates (a time may
 * follow, a `-` may stand for none), which ICU's date argument does not take.
 */
function withDatesAsText(
  elements: MessageFormatElement[],
  template: string,
  args: MessageArgument[],
): MessageFormatElement[] {
  return elements.map((element): MessageFormatElement => {
    const source = element.location
      ? template.slice(element.location.start.offset, element.location.end.offset)
      : '';
    if (element.type === TYPE.argument) {
      args.push({ name: element.value, kind: 'plain', valueName: element.value, source });
      return element;
    }
    if (element.type === TYPE.date) {
      const short = element.style === 'short';
      const valueName = `${element.value}${short ? DAY_MONTH_VALUE : DATE_VALUE}`;
      args.push({ name: element.value, kind: short ? 'dayMonth' : 'date', valueName, source });
      return { type: TYPE.argument, value: valueName };
    }
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      if (element.type === TYPE.plural) {
        args.push({ name: element.value, kind: 'plural', valueName: element.value, source });
      } else {
        args.push({ name: element.value, kind: 'select', valueName: element.value, source });
      }
      const options = Object.fromEntries(
        Object.entries(element.options).map(([selector, option]) => [
          selector,
          { ...option, value: withDatesAsText(option.value, template, args) },
        ]),
      );
      return { ...element, options };
    }
    return element;
  });
}

/**
 * The locale whose plural rules (and `#` number) `Intl` applies. Node's ICU knows the plural
 * rules of `bem` and `ny`; a language it does not know is counted as in English.
 */
function pluralLocaleOf(language: string): string {
  try {
    return Intl.PluralRules.supportedLocalesOf([language])[0] ?? DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE; // a malformed tag from a channel
  }
}

/**
 * Formats a compiled template. A missing parameter stays visible as the template writes it
 * (`{name}`), and a plural without a usable count as its whole block, rather than "undefined"
 * or a guess.
 */
function formatMessage(
  message: CompiledMessage,
  params: MessageParams | undefined,
  locale: string,
): string {
  if (message.constant !== undefined) return message.constant;
  if (!params || !message.format) return message.source;
  const values: Record<string, string | number> = {};
  let countless: Set<string> | undefined;
  for (const arg of message.args) {
    const given = Object.hasOwn(params, arg.name) ? params[arg.name] : undefined;
    if (arg.kind === 'plain') {
      values[arg.valueName] = plainValue(message, arg.name, given, params, locale) ?? arg.source;
    } else if (arg.kind === 'select') values[arg.valueName] = given ?? arg.source;
    else if (arg.kind === 'plural') {
      const count = Number(given);
      if (given !== undefined && Number.isFinite(count)) values[arg.valueName] = count;
      else {
        countless ??= new Set();
        countless.add(arg.name);
      }
    } else {
      values[arg.valueName] =
        given === undefined
          ? arg.source
          : formatDate(String(given), locale, arg.kind === 'date' ? 'full' : 'dayMonth');
    }
  }
  if (countless) return formatWithoutCounts(message, values, countless);
  return String(message.format.format(values));
}

/**
 * The text of a plain argument: a nested message (a status in the customer's words, what is
 * bought) rendered in the template's language, insurer text through its mapping
 * (./insurer-words.ts), anything else as given.
 */
function plainValue(
  message: CompiledMessage,
  name: string,
  given: string | number | undefined,
  params: MessageParams,
  locale: string,
): string | number | undefined {
  if (typeof given !== 'string') return given;
  const nested = nestedMessageOf(given);
  if (nested) return t(nested.key, { ...nestedParams(params, name), ...nested.params }, locale);
  const kind = message.verbatim ? undefined : INSURER_ARGUMENTS[name];
  return kind ? insurerWords(kind, given, (word) => t(word.key, word.params, locale)) : given;
}

/** The parameters a nested message sees: the outer ones less its own key (no recursion). */
function nestedParams(params: MessageParams, name: string): MessageParams {
  const { [name]: _self, ...rest } = params;
  return rest;
}

/** The rare path: plural blocks without a count are shown as written, the rest formatted. */
function formatWithoutCounts(
  message: CompiledMessage,
  values: Record<string, string | number>,
  countless: ReadonlySet<string>,
): string {
  const ast = parse(message.source, { ignoreTag: true, captureLocation: true });
  const args: MessageArgument[] = [];
  const kept = withDatesAsText(ast, message.source, args).map(
    (element): MessageFormatElement =>
      element.type === TYPE.plural && countless.has(element.value) && element.location
        ? {
            type: TYPE.literal,
            value: message.source.slice(element.location.start.offset, element.location.end.offset),
          }
        : element,
  );
  const format = new IntlMessageFormat(kept, pluralLocaleOf(message.language), undefined, {
    ignoreTag: true,
  });
  return String(format.format(values));
}

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

function reportMissing(key: string): void {
  if (reportedMissing.has(key)) return;
  reportedMissing.add(key);
  catalogueLogger ??= createLogger();
  catalogueLogger.warn({ event: 'catalogue.missingKey', key }, 'unknown message key');
}
