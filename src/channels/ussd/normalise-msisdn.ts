import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { compactZambianMobile } from '../../conversation/index.js';

/**
 * A caller's number as the API writes it (`260971234567`), from any form a gateway sends
 * (`+260971234567`, `0971234567`). Undefined when it is not a phone number at all.
 */
export function normaliseMsisdn(raw: string): string | undefined {
  // Zambian mobiles, nearly every caller, need no parse at all.
  const compact = compactZambianMobile(raw);
  if (compact !== undefined) return compact;
  // Every request of a call carries the same number, and parsing it is not cheap.
  if (known.has(raw)) return known.get(raw);
  const normalised = parse(raw);
  if (known.size >= MAX_KNOWN) known.clear();
  known.set(raw, normalised);
  return normalised;
}

/** Numbers already normalised; cleared when full (a bound, not an LRU: misses are cheap enough). */
const known = new Map<string, string | undefined>();
const MAX_KNOWN = 10_000;

function parse(raw: string): string | undefined {
  const trimmed = raw.trim();
  // Gateways send international numbers without the plus (`260971234567`, `233244000111`).
  const international = /^\d{11,15}$/.test(trimmed)
    ? parsePhoneNumberFromString(`+${trimmed}`)
    : undefined;
  const parsed = international?.isPossible()
    ? international
    : parsePhoneNumberFromString(trimmed, 'ZM');
  if (!parsed?.isPossible()) return undefined;
  return `${parsed.countryCallingCode}${parsed.nationalNumber}`;
}
