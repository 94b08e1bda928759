import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * A caller's number as the API writes it (`260971234567`), from any form a gateway sends
 * (`+260971234567`, `0971234567`). Undefined when it is not a phone number at all.
 */
export function normaliseMsisdn(raw: string): string | undefined {
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
