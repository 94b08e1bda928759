import { ZAMBIAN_MOBILES_IN_TEXT } from '../../msisdn/index.js';

// NRC `NNNNNN/NN/N` as the flows and the insurer write it, and as people type it (spaces or
// dashes between the parts).
const NRC = /\b(\d{6})[/ -](\d{2})[/ -](\d)\b/g;
// What people type free-hand (issue 37): 9 to 12 digits, alone or in space-separated groups, as
// an NRC without its slashes (`479974111`) or a phone as they group it (`0971 234 567`,
// `971234567`). Never next to a letter, dash or slash: policy numbers and dates stay.
const DIGIT_RUN = /(?<![\w/-])\+?\d(?: ?\d){8,11}(?![\w/-])/g;
// A run read as a phone (last three digits kept): it starts as a Zambian mobile does.
const PHONE_START = /^(?:260|0)?[79]/;
const MASK = '•';

/**
 * Masks NRC numbers and phone numbers for a shared Slack channel: an NRC keeps only its shape
 * (`••••••/••/•`), a phone number only its last three digits, enough to tell two apart.
 */
export function maskPersonalData(text: string): string {
  return text
    .replace(NRC, () => `${MASK.repeat(6)}/${MASK.repeat(2)}/${MASK}`)
    .replace(ZAMBIAN_MOBILES_IN_TEXT, (match) => {
      const digits = match.replace(/\D/g, '');
      return `${MASK.repeat(Math.max(digits.length - 3, 0))}${digits.slice(-3)}`;
    })
    .replace(DIGIT_RUN, (match) => {
      const digits = match.replace(/\D/g, '');
      // Nine digits not starting as a mobile are an NRC: nothing of it is kept.
      const phone = PHONE_START.test(digits);
      return phone
        ? `${MASK.repeat(digits.length - 3)}${digits.slice(-3)}`
        : MASK.repeat(digits.length);
    });
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
