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
  return interpolate(template, params);
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
      ? interpolate(choice.label, choice.params)
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

function interpolate(template: string, params: MessageParams | undefined): string {
  if (!params) return template;
  // A missing parameter stays visible as `{name}` rather than rendering "undefined".
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

function reportMissing(key: string): void {
  if (reportedMissing.has(key)) return;
  reportedMissing.add(key);
  catalogueLogger ??= createLogger();
  catalogueLogger.warn({ event: 'catalogue.missingKey', key }, 'unknown message key');
}
