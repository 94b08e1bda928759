import type { Prompt } from '../conversation/index.js';
import { ZAMBIAN_MOBILES_IN_TEXT } from '../msisdn/index.js';

// An NRC in every form the desk and the flows accept: `NNNNNN/NN/N`, spaced `NNNNNN NN N`,
// dashed, or the nine digits of a USSD keypad; not part of a longer number.
const NRC = /(?<![\d/])\d{6}(?:\/\d{2}\/|[ -]\d{2}[ -]|\d{2})\d(?![\d/])/g;
// A standard plate (`AJQ 1909`, `ABC1234`, `AJQ-1909`): 2–3 capitals then up to 4 digits, or in
// lower case written together (`ajq1909`). Lower case with a space (`at 10`) is ordinary text.
// Not part of a longer word or a printed number (`MTR-DEMO-000001`, `pol_5a0c…`), and not an
// amount (`ZMW 1,250.00`, `USD 300`), which stay.
const PLATE =
  /(?<![\p{L}\p{N}_./-])(?!(?:ZMW|USD|ZAR|EUR|GBP) )(?:([A-Z])[A-Z]{1,2} ?\d{1,4}|([a-z])[a-z]{1,2}\d{1,4})(?![\p{L}\p{N}_./-]|[,.]\d)/gu;
// Whatever long number is left (an account, a number written oddly): nine digits or more.
const LONG_NUMBER = /\d{9,}/g;
const MASK = '•';

/** `text` with every letter and digit replaced by the mask, separators kept. */
const shape = (text: string) => text.replace(/[\p{L}\p{N}]/gu, MASK);

/** The digits of `match` masked but for the last three (enough to tell two numbers apart). */
const lastThree = (match: string) => {
  const digits = match.replace(/\D/g, '');
  return `${MASK.repeat(Math.max(digits.length - 3, 0))}${digits.slice(-3)}`;
};

/**
 * Masks the personal data a line of text can carry, for a shared Slack channel, a handoff thread
 * or the staff audit: a phone number (`+260971234567`, `260…`, `0971234567`, `971234567`, spaced
 * or dashed) keeps its last three digits; an NRC (`123456/10/1`, `123456 10 1`, `123456101`) only
 * its shape (`••••••/••/•`); a plate (`AJQ 1909`) its first letter (`A•• ••••`); any other run of
 * nine digits or more its last three. Policy, claim and payment numbers stay readable: they are
 * what staff quote. Names are not found in free text: mask them where they are known fields
 * ({@link maskName}, {@link maskNameParams}).
 */
export function maskPersonalData(text: string): string {
  return text
    .replace(ZAMBIAN_MOBILES_IN_TEXT, lastThree)
    .replace(NRC, () => `${MASK.repeat(6)}/${MASK.repeat(2)}/${MASK}`)
    .replace(PLATE, (match, upper?: string, lower?: string) => {
      const first = upper ?? lower ?? '';
      return `${first}${shape(match.slice(first.length))}`;
    })
    .replace(LONG_NUMBER, lastThree);
}

// Prompt parameters that carry a person's name (policyholder, household principal or member).
const NAME_PARAMS = new Set(['holder', 'principal', 'name']);

/** A name reduced to initials (`Chanda Mulenga` → `C. M.`): enough to match, not to identify. */
export function maskName(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => `${word.charAt(0).toUpperCase()}.`)
    .join(' ');
}

type Params = Readonly<Record<string, string | number>>;

/** A Prompt's parameters with every name parameter reduced to initials. */
export function maskNameParams<T extends Params | undefined>(params: T): T {
  if (!params) return params;
  const out: Record<string, string | number> = { ...params };
  for (const [key, value] of Object.entries(out)) {
    if (NAME_PARAMS.has(key) && typeof value === 'string') out[key] = maskName(value);
  }
  return out as T;
}

/** A Prompt for a shared channel: its name parameters and its notes' reduced to initials. */
export function maskPromptNames(prompt: Prompt): Prompt {
  return {
    ...prompt,
    ...(prompt.params ? { params: maskNameParams(prompt.params) } : {}),
    ...(prompt.notes
      ? {
          notes: prompt.notes.map((note) =>
            note.params ? { ...note, params: maskNameParams(note.params) } : note,
          ),
        }
      : {}),
  };
}

// CSV columns that hold a person's name (clientName, fullName, firstName, lastName, name…).
const NAME_COLUMN = /name$/i;

/** One CSV line split into fields (RFC 4180 quoting), and joined back. */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        current += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else current += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(current);
      current = '';
    } else current += char;
  }
  fields.push(current);
  return fields;
}

const csvField = (value: string) =>
  /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;

/**
 * A CSV file (a bordereau) for a shared channel: every name column reduced to initials, then
 * NRCs and phones masked as in {@link maskPersonalData}. Quoted fields holding line breaks are
 * not expected in a register and are masked line by line.
 */
export function maskCsv(csv: string): string {
  const lines = csv.split(/\r?\n/);
  const header = csvFields(lines[0] ?? '');
  const nameColumns = new Set(
    header.flatMap((name, index) => (NAME_COLUMN.test(name.trim()) ? [index] : [])),
  );
  const masked = lines.map((line, row) => {
    if (row === 0 || line === '' || nameColumns.size === 0) return line;
    return csvFields(line)
      .map((value, index) => csvField(nameColumns.has(index) ? maskName(value) : value))
      .join(',');
  });
  return maskPersonalData(masked.join('\r\n'));
}

/**
 * A file's text for a shared channel: a CSV as {@link maskCsv} (it keeps its shape), any other
 * text as {@link maskPersonalData}.
 */
export function maskFileText(fileName: string, content: string): string {
  return fileName.toLowerCase().endsWith('.csv') ? maskCsv(content) : maskPersonalData(content);
}
