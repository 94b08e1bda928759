import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyContractEntry, contract } from '../../src/api/index.js';
import { outputIsInput } from '../../src/api/output-is-input.js';

/**
 * Values shaped like what `schema` accepts, most of them valid and some not (a missing field, an
 * extra one, a string out of its bounds, the wrong type now and then): the properties below hold
 * for every input, and this keeps both sides of each check exercised.
 */
function shapedLike(schema: z.core.$ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const stray = fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 3 }));
  const mostly = (valid: fc.Arbitrary<unknown>) =>
    fc.oneof({ arbitrary: valid, weight: 12 }, { arbitrary: stray, weight: 1 });
  switch (def.type) {
    case 'string': {
      const formats = (def.checks ?? [])
        .map((check) => check._zod.def as { check: string; pattern?: RegExp })
        .filter((check) => check.check === 'string_format' && check.pattern !== undefined);
      const text = fc.string({ maxLength: 12 });
      const pattern = formats[0]?.pattern;
      return mostly(pattern ? fc.oneof(fc.stringMatching(pattern), text) : text);
    }
    case 'number':
      return mostly(fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.constant(1.5)));
    case 'boolean':
      return mostly(fc.boolean());
    case 'null':
      return fc.oneof(fc.constant(null), stray);
    case 'literal':
      return mostly(fc.constantFrom(...(def.values as unknown[])));
    case 'enum':
      return mostly(fc.constantFrom(...Object.values(def.entries as Record<string, unknown>)));
    case 'unknown':
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    case 'optional':
    case 'nonoptional':
      return shapedLike(def.innerType as z.core.$ZodType, depth);
    case 'nullable':
      return fc.oneof(fc.constant(null), shapedLike(def.innerType as z.core.$ZodType, depth));
    case 'array':
      return depth > 4
        ? fc.constant([])
        : mostly(fc.array(shapedLike(def.element as z.core.$ZodType, depth + 1), { maxLength: 3 }));
    case 'union':
      return fc.oneof(
        ...(def.options as z.core.$ZodType[]).map((option) => shapedLike(option, depth)),
      );
    case 'record':
      return mostly(
        fc.dictionary(
          fc.string({ maxLength: 4 }),
          shapedLike(def.valueType as z.core.$ZodType, depth + 1),
          { maxKeys: 3 },
        ),
      );
    case 'object': {
      const shape = def.shape as Record<string, z.core.$ZodType>;
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, field] of Object.entries(shape)) {
        fields[key] = depth > 4 ? fc.constant(null) : shapedLike(field, depth + 1);
      }
      const known = fc.record(fields, {
        // Usually every field, sometimes some missing.
        requiredKeys: [],
      });
      const full = fc.record(fields);
      const extra = fc.dictionary(fc.constantFrom('extra', 'more', 'note'), fc.jsonValue(), {
        maxKeys: 2,
      });
      return mostly(
        fc
          .tuple(fc.oneof({ arbitrary: full, weight: 4 }, { arbitrary: known, weight: 1 }), extra)
          .map(([object, more]) => ({ ...more, ...object })),
      );
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const entries: readonly AnyContractEntry[] = Object.values(contract);
const schemas = entries.flatMap((entry) => [
  { name: `${entry.name} response`, schema: entry.response as z.ZodType },
  ...(entry.body ? [{ name: `${entry.name} body`, schema: entry.body as z.ZodType }] : []),
  ...(entry.query ? [{ name: `${entry.name} query`, schema: entry.query as z.ZodType }] : []),
]);

describe('outputIsInput', () => {
  it('takes every contract response and body as its own parse, except the refined bodies and those with URLs', () => {
    const copied = schemas
      .filter(({ name, schema }) => !name.endsWith(' query') && !outputIsInput(schema))
      .map(({ name }) => name);
    expect(copied).toEqual([
      'placeLoansAndPay body',
      'renewAndPayCreditLifePolicy body',
      'intimateCreditLifeClaim body',
      // z.url() hands back the URL trimmed: " A:" passes and parses to "A:".
      'attachCreditLifeClaimDocuments body',
      'takeLoansOffCover body',
      'payCreditLifeSchedule body',
      'renewAndPayCreditLifePolicyWithLoans body',
      'intimateGroupLifeClaim body',
      'attachGroupLifeClaimDocuments body',
      'takeMembersOffCover body',
    ]);
  });

  it('refuses schemas whose parse can differ from what they accept', () => {
    const differing = [
      z.object({ a: z.string() }),
      z.looseObject({ a: z.string().trim() }),
      z.looseObject({ a: z.url() }),
      z.looseObject({ a: z.string().default('x') }),
      z.looseObject({ a: z.coerce.number() }),
      z.looseObject({ a: z.string().transform((text) => text.length) }),
      z.looseObject({ a: z.number().catch(0) }),
      z.looseObject({ a: z.string() }).readonly(),
      z.looseObject({ a: z.string() }).superRefine(() => undefined),
      z.looseObject({ a: z.string().refine((text) => text !== '') }),
      z.looseObject({ list: z.array(z.object({ b: z.string() })) }),
      z.union([z.looseObject({}), z.string().toLowerCase()]),
      z.looseObject({ a: z.string() }).catchall(z.string()),
      z.date(),
    ];
    for (const schema of differing) expect(outputIsInput(schema)).toBe(false);
  });

  it('accepts loose and strict objects of plain fields', () => {
    const same = [
      z.looseObject({ a: z.string().min(1).max(5), b: z.number().int().nullish() }),
      z.strictObject({ a: z.union([z.string(), z.number()]), b: z.enum(['x', 'y']).optional() }),
      z.array(z.looseObject({ c: z.literal(true), d: z.record(z.string(), z.array(z.string())) })),
    ];
    for (const schema of same) expect(outputIsInput(schema)).toBe(true);
  });

  it.each(schemas.filter(({ schema }) => outputIsInput(schema)))(
    '$name: what passes the compiled check is exactly what the schema parses it to',
    ({ schema }) => {
      const compiled = z.compile(schema);
      fc.assert(
        fc.property(shapedLike(schema), (value) => {
          const parsed = schema.safeParse(value);
          expect(compiled.validate(value)).toBe(parsed.success);
          if (parsed.success) expect(parsed.data).toStrictEqual(value);
        }),
        { numRuns: 60 },
      );
    },
  );
});

describe('z.compile on the contract', () => {
  it.each(schemas)(
    '$name: the compiled schema parses every value to the same result or the same issues',
    ({ schema }) => {
      const compiled = z.compile(schema);
      fc.assert(
        fc.property(shapedLike(schema), (value) => {
          const plain = schema.safeParse(value);
          const fast = compiled.safeParse(value);
          expect(fast.success).toBe(plain.success);
          if (plain.success) expect(fast.data).toStrictEqual(plain.data);
          else expect(fast.error?.issues).toStrictEqual(plain.error.issues);
        }),
        { numRuns: 40 },
      );
    },
  );
});
