import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyContractEntry, contract } from '../../src/api/index.js';
import * as schemas from '../../src/api/schemas.js';

/*
 * The contract checked against the spec's own text (issue 24): this test reads the markdown kept
 * in docs/ — never our contract's copy of it — and checks every operation it gives a method and
 * path for, every field it calls required, and every enumerated value, against the contract
 * table. A mutated copy of the table shows the check fails when a required field goes optional.
 */

const SPEC = readFileSync(new URL('../../docs/partner-insurance-api.md', import.meta.url), 'utf8');

type Table = Readonly<Record<string, AnyContractEntry>>;

/** One operation of the "Operations with method and path" table. */
interface SpecOperation {
  readonly name: string;
  readonly method: string;
  readonly path: string;
}

/** The lines of the section under `heading` (up to the next heading of the same or higher level). */
function section(text: string, heading: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`the spec has no "${heading}"`);
  const level = heading.indexOf(' ');
  const end = lines.findIndex(
    (line, index) => index > start && /^#+ /.test(line) && line.indexOf(' ') <= level,
  );
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

function cells(row: string): string[] {
  return row
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
}

/** Splits a comma list at the top level only: `a, b (x, y), c` → a, b, c (parentheses dropped). */
function topLevelList(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if (char === '(') depth += 1;
    else if (char === ')') depth -= 1;
    else if (char === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else if (depth === 0) current += char;
  }
  out.push(current);
  return out.map((item) => item.trim()).filter(Boolean);
}

/** The list after `required:` in a phrase, up to its closing parenthesis. */
function requiredIn(text: string): string[] {
  const at = text.search(/required: /i);
  if (at < 0) return [];
  let depth = 0;
  let end = text.length;
  for (let index = at; index < text.length; index += 1) {
    const char = text[index];
    if (char === '(') depth += 1;
    // The list ends at its closing parenthesis, or at the end of its sentence.
    if (depth === 0 && (char === ')' || char === '.' || char === ';')) {
      end = index;
      break;
    }
    if (char === ')') depth -= 1;
  }
  return topLevelList(text.slice(at + 'required: '.length, end));
}

function specOperations(text: string): SpecOperation[] {
  return section(text, '### Operations with method and path')
    .filter((line) => line.startsWith('|') && !/^\|[-\s|]+\|$/.test(line))
    .slice(1)
    .map((row) => {
      const [name = '', methodPath = ''] = cells(row);
      const match = /^(GET|POST|PUT|DELETE|PATCH) `([^`]+)`$/.exec(methodPath);
      if (!match) throw new Error(`unreadable method and path: ${methodPath}`);
      return { name, method: match[1] ?? '', path: match[2] ?? '' };
    });
}

/** Required fields by spec operation name: the table's `required:`, the bullets', the resources'. */
function specRequired(text: string): Map<string, string[]> {
  const required = new Map<string, string[]>();
  for (const row of section(text, '### Operations with method and path')) {
    const [name = '', , request = ''] = cells(row);
    const fields = requiredIn(request);
    if (fields.length > 0) required.set(name, fields);
  }
  for (const line of section(text, '### Operations named without method and path')) {
    for (const phrase of line.replace(/^- /, '').split(/;\s*/)) {
      const fields = requiredIn(phrase);
      const name = phrase.split('(')[0]?.trim() ?? '';
      if (fields.length > 0) required.set(name, fields);
    }
  }
  // Resource tables: a field whose notes say "required on create" is required by the create
  // operation of that resource, which the spec names after it.
  const creates: Record<string, string> = {
    '### Individual policyholder': 'Create individual',
    '### Corporate policyholder': 'Create corporate',
  };
  for (const [heading, operation] of Object.entries(creates)) {
    const fields = section(text, heading)
      .filter((line) => /required on create/.test(line))
      .map((line) => cells(line)[0] ?? '');
    required.set(operation, [...new Set([...(required.get(operation) ?? []), ...fields])]);
  }
  const vehicle = section(text, '### Vehicle').join(' ');
  const listed = /Required on create: ([^.]+)\./.exec(vehicle)?.[1] ?? '';
  required.set('Create vehicle', topLevelList(listed));
  return required;
}

/** The spec's words for a nested field that are not its name (the motor risk's plate). */
const NESTED_FIELD_WORDS: Readonly<Record<string, string>> = {
  'registration info': 'registrationNumber',
};

/**
 * Required fields of array items by operation: "risks (with a, b, c for comprehensive cover)"
 * inside a required list. A condition ("… for comprehensive cover") is not an unconditional
 * requirement and is left out.
 */
function specItemRequired(text: string): Map<string, { list: string; fields: string[] }> {
  const required = new Map<string, { list: string; fields: string[] }>();
  for (const row of section(text, '### Operations with method and path')) {
    const [name = '', , request = ''] = cells(row);
    const at = request.search(/required: /i);
    if (at < 0) continue;
    for (const match of request.slice(at).matchAll(/(\w+) \(with ([^)]+)\)/g)) {
      const fields = (match[2] ?? '')
        .split(/,\s*/)
        .filter((phrase) => !/ for /.test(phrase))
        .map((phrase) => NESTED_FIELD_WORDS[phrase] ?? phrase);
      required.set(name, { list: match[1] ?? '', fields });
    }
  }
  return required;
}

/** Sets of values the spec enumerates: named states, backticked filter values, payment methods. */
function specEnums(text: string): Map<string, string[]> {
  const enums = new Map<string, string[]>();
  for (const line of section(text, '## States and transitions')) {
    const named = /^- (Batch status|Claim): ([^.]+)\./.exec(line);
    if (named) enums.set(named[1] ?? '', (named[2] ?? '').split(/,\s*/));
  }
  const filter = /filter whose values are `(\w+)` and `(\w+)`/.exec(text);
  if (filter) enums.set('Vehicle filter', [filter[1] ?? '', filter[2] ?? '']);
  enums.set(
    'Payment methods',
    section(text, '### Payment methods')
      .filter((line) => line.startsWith('|'))
      .slice(2)
      .map((line) => (cells(line)[0] ?? '').replace(/ (\w)/g, (_, c: string) => c.toUpperCase()))
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1)),
  );
  return enums;
}

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

/**
 * Every enum of every schema the table's operations use (bodies, queries, responses): an enum
 * the schema module defines but no operation uses proves nothing (issue 36). A response status
 * is its named enum or any string (a real insurer sends words the spec never names).
 */
function contractEnums(table: Table): string[][] {
  const found: string[][] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      if (Array.isArray(record.enum)) found.push(record.enum.map(String));
      Object.values(record).forEach(visit);
    }
  };
  for (const entry of Object.values(table)) {
    for (const schema of [entry.body, entry.query, entry.response]) {
      if (schema) visit(jsonSchema(schema));
    }
  }
  return found;
}

/** What in the contract table disagrees with the spec's text; empty when nothing does. */
function mismatches(text: string, table: Table): string[] {
  const problems: string[] = [];
  const bySpecName = (name: string) =>
    Object.values(table).find(
      (entry) =>
        entry.specName === name ||
        entry.specName.endsWith(`: ${name}`) ||
        (entry.alsoSpecNames ?? []).includes(name),
    );
  for (const operation of specOperations(text)) {
    const entry = bySpecName(operation.name);
    if (!entry) problems.push(`${operation.name}: not in the contract`);
    else if (entry.method !== operation.method || entry.path !== operation.path) {
      problems.push(
        `${operation.name}: spec ${operation.method} ${operation.path}, contract ${entry.method} ${entry.path}`,
      );
    }
  }
  for (const [name, fields] of specRequired(text)) {
    const entry = bySpecName(name);
    if (!entry?.body) {
      problems.push(`${name}: the spec requires ${fields.join(', ')}, the contract has no body`);
      continue;
    }
    const required = new Set((jsonSchema(entry.body).required as string[] | undefined) ?? []);
    for (const field of fields) {
      if (!required.has(field)) problems.push(`${name}: ${field} is required by the spec`);
    }
    // The other way (issue 36): a contract stricter than the spec refuses what the insurer takes.
    for (const field of required) {
      if (!fields.includes(field)) problems.push(`${name}: ${field} is not required by the spec`);
    }
  }
  for (const [name, { list, fields }] of specItemRequired(text)) {
    const entry = bySpecName(name);
    const items = (
      entry?.body
        ? ((
            jsonSchema(entry.body).properties as Record<string, { items?: { required?: string[] } }>
          )[list]?.items?.required ?? [])
        : []
    ) as string[];
    for (const field of fields) {
      if (!items.includes(field))
        problems.push(`${name}: ${list}[].${field} is required by the spec`);
    }
    for (const field of items) {
      if (!fields.includes(field)) {
        problems.push(`${name}: ${list}[].${field} is not required by the spec`);
      }
    }
  }
  const enums = contractEnums(table);
  for (const [name, values] of specEnums(text)) {
    if (!enums.some((candidate) => values.every((value) => candidate.includes(value)))) {
      problems.push(`${name}: no enum of the contract holds ${values.join(', ')}`);
    }
  }
  return problems;
}

describe('the contract against the spec’s own text (docs/partner-insurance-api.md)', () => {
  const table = contract as unknown as Table;

  it('reads every operation the spec gives a method and path for, each required field and each enumeration', () => {
    expect(specOperations(SPEC)).toHaveLength(20);
    expect(specRequired(SPEC).get('Create individual')).toEqual([
      'firstName',
      'lastName',
      'phoneNumber',
      'email',
      'idNumber',
      'idType',
    ]);
    expect(specRequired(SPEC).get('Motor quotation inquiry')).toEqual([
      'productId',
      'duration',
      'currency',
      'startDate',
      'policyHolder',
      'risks',
    ]);
    expect(specRequired(SPEC).get('Create corporate')).toEqual([
      'name',
      'email',
      'phoneNumber',
      'taxPayerId',
    ]);
    expect(specRequired(SPEC).get('Create vehicle')).toHaveLength(7);
    expect(Object.fromEntries(specItemRequired(SPEC))).toEqual({
      'Motor quotation inquiry': {
        list: 'risks',
        fields: ['motorRiskCategoryId', 'registrationNumber'],
      },
    });
    expect(Object.fromEntries(specEnums(SPEC))).toEqual({
      'Batch status': ['Pending', 'Approved', 'PartiallyReceipted', 'Receipted'],
      Claim: ['Intimated', 'Documented'],
      'Vehicle filter': ['HasPolicy', 'NoPolicy'],
      'Payment methods': ['MobileMoney', 'Card', 'PayLater', 'External'],
    });
  });

  it('finds the contract table agreeing with the spec on methods, paths, required fields and enum values', () => {
    expect(mismatches(SPEC, table)).toEqual([]);
  });

  it('fails when a required field is removed from a copy of the contract table', () => {
    const mutated: Table = {
      ...table,
      createIndividual: {
        ...table.createIndividual,
        body: schemas.CreateIndividualBody.partial({ email: true }),
      } as AnyContractEntry,
    };
    expect(mismatches(SPEC, mutated)).toEqual(['Create individual: email is required by the spec']);
  });

  it('fails when a copy of the contract table requires a field the spec leaves optional', () => {
    // Both ways (issue 36): physicalAddress and gender are in the spec's body, not its required list.
    const mutated: Table = {
      ...table,
      createIndividual: {
        ...table.createIndividual,
        body: schemas.CreateIndividualBody.required({ physicalAddress: true }),
      } as AnyContractEntry,
      createVehicle: {
        ...table.createVehicle,
        body: schemas.CreateVehicleBody.extend({ color: z.string() }),
      } as AnyContractEntry,
    };
    expect(mismatches(SPEC, mutated)).toEqual([
      'Create individual: physicalAddress is not required by the spec',
      'Create vehicle: color is not required by the spec',
    ]);
  });

  it('fails when a copy of the contract table lets an inquiry risk go without its plate', () => {
    const mutated: Table = {
      ...table,
      motorQuotationInquiry: {
        ...table.motorQuotationInquiry,
        body: schemas.MotorInquiryBody.extend({
          risks: z.array(schemas.MotorRisk.partial({ registrationNumber: true })).min(1),
        }),
      } as AnyContractEntry,
    };
    expect(mismatches(SPEC, mutated)).toEqual([
      'Motor quotation inquiry: risks[].registrationNumber is required by the spec',
    ]);
  });

  it('fails when no operation of a copy of the contract table uses the spec’s claim states', () => {
    // The named enum still exists in the schema module; only its use by an operation counts.
    const withoutClaims: Table = Object.fromEntries(
      Object.entries(table).filter(
        ([, entry]) =>
          !JSON.stringify(entry.response ? jsonSchema(entry.response) : {}).includes(
            '"Documented"',
          ),
      ),
    );
    expect(schemas.ClaimStatus.options).toEqual(['Intimated', 'Documented']);
    expect(mismatches(SPEC, withoutClaims)).toContain(
      'Claim: no enum of the contract holds Intimated, Documented',
    );
  });

  it('fails when a copy of the contract table moves a path the spec gives', () => {
    const mutated: Table = {
      ...table,
      getTransactionStatus: {
        ...table.getTransactionStatus,
        path: '/payments/{reference}/status',
      } as AnyContractEntry,
    };
    expect(mismatches(SPEC, mutated)).toEqual([
      'Transaction status by reference: spec GET /payments/transactions/{reference}/status, contract GET /payments/{reference}/status',
    ]);
  });

  it('lists every assumed path in docs/insurer-api.md with the variable that overrides it', () => {
    const page = readFileSync(new URL('../../docs/insurer-api.md', import.meta.url), 'utf8');
    const assumed = Object.values(table).filter((entry) => entry.assumed);
    expect(assumed).toHaveLength(81);
    const missing = assumed.filter(
      (entry) =>
        !page.includes(`| \`${entry.name}\` |`) ||
        !page.includes(`${entry.method} \`${entry.path}\``),
    );
    expect(missing.map((entry) => entry.name)).toEqual([]);
    expect(page).toContain('PARTNER_API_PATHS');
  });
});
