import { ZAMBIAN_MOBILES_IN_TEXT } from '../../msisdn/index.js';

// NRC `NNNNNN/NN/N` as the flows and the insurer write it.
const NRC = /\b(\d{6})\/(\d{2})\/(\d)\b/g;
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
