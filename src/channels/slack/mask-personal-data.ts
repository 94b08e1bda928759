// NRC `NNNNNN/NN/N` as the flows and the insurer write it.
const NRC = /\b(\d{6})\/(\d{2})\/(\d)\b/g;
// Zambian mobile numbers: +260 / 260 / 0 followed by nine digits, optionally spaced.
const PHONE = /(?<![\d/])(?:\+?260|0)[\s-]?\d{2}[\s-]?\d{3}[\s-]?\d{4}(?![\d/])/g;
const MASK = '•';

/**
 * Masks NRC numbers and phone numbers for a shared Slack channel: an NRC keeps only its shape
 * (`••••••/••/•`), a phone number only its last three digits, enough to tell two apart.
 */
export function maskPersonalData(text: string): string {
  return text
    .replace(NRC, () => `${MASK.repeat(6)}/${MASK.repeat(2)}/${MASK}`)
    .replace(PHONE, (match) => {
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
