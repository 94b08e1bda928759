import { normaliseCaller } from '../../msisdn/index.js';

/**
 * A caller's number as the API writes it (`260971234567`), from any form a gateway sends
 * (`+260971234567`, `0971234567`). Undefined when it is not a phone number at all.
 */
export function normaliseMsisdn(raw: string): string | undefined {
  return normaliseCaller(raw);
}
