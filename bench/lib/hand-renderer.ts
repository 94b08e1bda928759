/*
 * The hand-written renderer insurechat used before its catalogues were rendered by FormatJS
 * `intl-messageformat` (issue 27), kept only as the render benchmark's baseline: `{param}`
 * filled by a regular expression, `{n, plural, …}` blocks picked by `Intl.PluralRules`, dates
 * written by the catalogue's own `formatDate`.
 */
import {
  type Catalogue,
  DEFAULT_LOCALE,
  formatDate,
  LOCALES,
  type Prompt,
  type RenderedPrompt,
} from '../../src/conversation/index.js';

type Params = Readonly<Record<string, string | number>>;

const PLACEHOLDER = /\{(\w+)(, date(, short)?)?\}/g;
const PLURAL_START = /\{(\w+), plural,\s*/g;
const searchOrders = new Map<string, readonly string[]>();
const pluralRules = new Map<string, Intl.PluralRules>();

function lookup(key: string, locale: string): string | undefined {
  let order = searchOrders.get(locale);
  if (!order) {
    order = [locale, locale.split(/[-_]/)[0] ?? DEFAULT_LOCALE, DEFAULT_LOCALE];
    searchOrders.set(locale, order);
  }
  for (const code of order) {
    const catalogue: Catalogue | undefined = LOCALES[code];
    const template = catalogue && (catalogue as Readonly<Record<string, string>>)[key];
    if (template !== undefined) return template;
  }
  return undefined;
}

function interpolate(template: string, params: Params | undefined, locale: string): string {
  if (!params) return template;
  const plural = template.includes(', plural,') ? pickPlurals(template, params, locale) : template;
  return plural.replace(
    PLACEHOLDER,
    (whole, name: string, date: string | undefined, short: string | undefined) => {
      if (!Object.hasOwn(params, name)) return whole;
      const value = String(params[name]);
      return date ? formatDate(value, locale, short ? 'dayMonth' : 'full') : value;
    },
  );
}

function pickPlurals(template: string, params: Params, locale: string): string {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  let out = '';
  let from = 0;
  PLURAL_START.lastIndex = 0;
  for (let match = PLURAL_START.exec(template); match; match = PLURAL_START.exec(template)) {
    const name = match[1] ?? '';
    const parsed = pluralBranches(template, PLURAL_START.lastIndex);
    if (!parsed) break;
    const count = Number(params[name]);
    const branch =
      parsed.branches.get(`=${count}`) ??
      parsed.branches.get(rules.select(count)) ??
      parsed.branches.get('other');
    out += template.slice(from, match.index);
    out +=
      branch === undefined
        ? template.slice(match.index, parsed.end)
        : branch.replaceAll('#', String(count));
    from = parsed.end;
    PLURAL_START.lastIndex = parsed.end;
  }
  return out + template.slice(from);
}

function pluralBranches(template: string, start: number) {
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

const byHand = (key: string, params: Params | undefined, locale: string) =>
  interpolate(lookup(key, locale) ?? key, params, locale);

/** Renders a Prompt as `renderPrompt` did before the library. */
export function renderPromptByHand(prompt: Prompt, locale: string): RenderedPrompt {
  const lines = [byHand(prompt.key, prompt.params, locale)];
  for (const note of prompt.notes ?? []) lines.push(byHand(note.key, note.params, locale));
  const choices = (prompt.choices ?? []).map((choice) => ({
    id: choice.id,
    label: choice.literal
      ? interpolate(choice.label, choice.params, locale)
      : byHand(choice.label, choice.params, locale),
  }));
  return { text: lines.join('\n'), choices };
}
