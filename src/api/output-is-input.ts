import type { z } from 'zod';

/**
 * Checks that only accept or reject: none of them changes the value (unlike `overwrite`, which
 * `.trim()` and the like use) or runs caller code (`custom`, which `.refine` and `.superRefine`
 * add and which could).
 */
const PURE_CHECKS: ReadonlySet<string> = new Set([
  'less_than',
  'greater_than',
  'multiple_of',
  'number_format',
  'max_length',
  'min_length',
  'length_equals',
  'string_format',
  'max_size',
  'min_size',
  'size_equals',
]);

/**
 * The one string format that changes what it accepts: zod's `url` hands back the URL trimmed
 * (or normalised), so " https://x" passes and parses to "https://x".
 */
function writesBack(check: z.core.$ZodCheck): boolean {
  const def = check._zod.def as { check: string; format?: string };
  return def.check === 'string_format' && def.format === 'url';
}

/**
 * True when every value the schema accepts parses to a deep copy of itself: the same keys with
 * the same values, no key added, dropped or changed (only their order may differ). Then a value
 * that passes `schema.validate` is its own parse result, and the copy zod builds can be skipped.
 *
 * Decided from the schema's definition alone and conservatively: objects must keep unknown keys
 * (`z.looseObject`) or refuse them (`z.strictObject`), never strip them; nothing may coerce,
 * default, transform, catch, freeze, recurse lazily or run a refinement. Anything it does not
 * know is false, and false only costs the copy.
 */
export function outputIsInput(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  if (def.checks?.some((check) => !PURE_CHECKS.has(check._zod.def.check) || writesBack(check))) {
    return false;
  }
  switch (def.type) {
    case 'string':
      return def.coerce !== true && def.format !== 'url';
    case 'number':
    case 'boolean':
      return def.coerce !== true;
    case 'null':
    case 'literal':
    case 'enum':
    case 'unknown':
    case 'any':
      return true;
    case 'optional':
    case 'nullable':
    case 'nonoptional':
      return outputIsInput(def.innerType as z.core.$ZodType);
    case 'array':
      return outputIsInput(def.element as z.core.$ZodType);
    case 'union':
      return (def.options as readonly z.core.$ZodType[]).every(outputIsInput);
    case 'record':
      return (
        outputIsInput(def.keyType as z.core.$ZodType) &&
        outputIsInput(def.valueType as z.core.$ZodType)
      );
    case 'object': {
      const catchall = def.catchall as z.core.$ZodType | undefined;
      // No catchall means unknown keys are stripped: the parse would differ from the input.
      if (catchall === undefined) return false;
      const kind = catchall._zod.def.type;
      if (kind !== 'unknown' && kind !== 'never') return false;
      return Object.values(def.shape as Record<string, z.core.$ZodType>).every(outputIsInput);
    }
    default:
      return false;
  }
}
