import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type AnyContractEntry,
  contract,
  type OperationInput,
  type OperationItem,
  type OperationOutput,
  operationNames,
  pathParamNames,
} from '../../src/api/index.js';

/**
 * Every operation the spec names, in its own words: first the table "Operations with method and
 * path" (with the method and path it gives), then every phrase of "Operations named without
 * method and path", prefixed by the heading (and sub-label) it sits under.
 */
const SPEC_TABLE: ReadonlyArray<readonly [specName: string, method: string, path: string]> = [
  ['Create individual', 'POST', '/policyholders/individuals'],
  ['Update corporate policyholder', 'PUT', '/policyholders/{id}/corporates'],
  ['Get motor products', 'GET', '/products/motor'],
  ['Get motor product', 'GET', '/products/motor/{productId}'],
  ['Get credit-life products', 'GET', '/products/credit-life'],
  ['Motor pricing', 'POST', '/pricing/motor'],
  ['Motor quotation inquiry', 'POST', '/quotations/motor/inquiry'],
  ['Create motor quotation', 'POST', '/quotations/motor'],
  ['Instant issue motor policy, no payment', 'POST', '/policies/motor/instant/issue'],
  ['Instant issue and pay motor policy', 'POST', '/policies/motor/instant/issue/pay'],
  ['Process payment for a quotation (any product type)', 'POST', '/payments/{quoteId}/pay'],
  ['Transaction status by reference', 'GET', '/payments/transactions/{reference}/status'],
  ['Extend general policy', 'POST', '/policies/{policyId}/issue'],
  ['Instant issue travel policy (policy route)', 'POST', '/policies/travel/instant-issue'],
  ['Instant issue travel policy (quotation route)', 'POST', '/quotations/travel/instant-issue'],
  ['Place a batch of loans on cover and pay', 'POST', '/credit-life/policies/{policyId}/loans/pay'],
  ['Place a single loan on cover', 'POST', '/credit-life/policies/{policyId}/loans/single'],
  [
    'Renew and pay a credit-life policy period',
    'POST',
    '/credit-life/policies/{policyId}/renew/pay',
  ],
  ['Enrol a group-life batch', 'POST', '/group-life/policies/{policyId}/members'],
  ["Covered household by principal's id number", 'GET', '/group-funeral/members/by-nrc'],
];

const SPEC_NAMED_WITHOUT_PATH: readonly string[] = [
  // Clients and vehicles
  'Clients and vehicles: Get all individuals',
  'Clients and vehicles: Get individual by id',
  'Clients and vehicles: Update individual policyholder',
  'Clients and vehicles: Get all corporates',
  'Clients and vehicles: Create corporate',
  'Clients and vehicles: Get corporate by id',
  'Clients and vehicles: Get client vehicles',
  'Clients and vehicles: Create vehicle',
  'Clients and vehicles: Search vehicle by registration number',
  'Clients and vehicles: Get road-transport-authority anniversary dates for a vehicle',
  'Clients and vehicles: Get insurance status for a vehicle',
  // Products and quotations
  'Products and quotations: Get all products',
  'Products and quotations: Get all travel products',
  'Products and quotations: Get travel product by id',
  'Products and quotations: Get all life products',
  'Products and quotations: Get life product by id',
  'Products and quotations: Motor quotation comparison',
  'Products and quotations: Get motor quotations',
  'Products and quotations: Travel: list quotations',
  'Products and quotations: Travel: generate quotation',
  'Products and quotations: Travel: get quotation by id',
  'Products and quotations: Travel: renew travel policy using the payment gateway',
  'Products and quotations: Life: list quotations',
  'Products and quotations: Life: create quotation',
  'Products and quotations: Life: get quotation by id',
  'Products and quotations: Life: renew life policy using the payment gateway',
  // Policies
  'Policies: Motor: issue',
  'Policies: Motor: renew',
  'Policies: Motor: renew and pay',
  'Policies: Motor: extend',
  'Policies: Motor: extend and pay',
  'Policies: Motor: list',
  'Policies: Motor: get by id',
  'Policies: Motor: get by vehicle registration',
  'Policies: Motor: get risk categories',
  'Policies: Motor: get schedule document',
  'Policies: Motor: get insurance certificate',
  'Policies: Motor: get payment receipt',
  'Policies: Motor: get extension premiums',
  'Policies: Motor: get renewal premiums',
  'Policies: Travel: list',
  'Policies: Travel: get by id',
  'Policies: Travel: issue',
  'Policies: Travel: generate certificate',
  'Policies: Life: list',
  'Policies: Life: get by id',
  'Policies: Life: issue',
  'Policies: Life: generate certificate',
  'Policies: Life: instant issue',
  'Policies: General: renew',
  'Policies: General: instant issue',
  'Policies: General: list all policies',
  'Policies: General: issue general policy',
  // Payments
  'Payments: Get available payment gateways',
  'Payments: Get callback delivery logs for a transaction',
  'Payments: Get transaction details by reference',
  'Payments: Initiate farmer premium payment',
  // Credit life
  'Credit life: Claims: track my claims',
  'Credit life: Claims: intimate a claim against a covered loan',
  'Credit life: Claims: get a claim',
  'Credit life: Claims: attach supporting documents',
  'Credit life: Loans: take loans off cover on early repayment',
  'Credit life: Loans: get a covered loan',
  'Credit life: Loans: get a covered loan by partner reference',
  'Credit life: Loans: search covered loans on a policy',
  'Credit life: Batches: get a submission batch with per-loan premiums',
  'Credit life: Batches: pay a batch premium',
  'Credit life: Batches: place a batch of loans on cover',
  'Credit life: Batches: list the batches of a policy',
  'Credit life: Quotations: get the quotations negotiated for the partner account',
  "Credit life: Quotations: get a quotation's full rate terms",
  'Credit life: Policies: buy credit life cover in one call',
  'Credit life: Policies: list policies',
  'Credit life: Policies: create a policy',
  'Credit life: Policies: get a policy',
  'Credit life: Policies: quote a loan without placing it',
  'Credit life: Policies: download the premium register (bordereau) as CSV',
  'Credit life: Policies: renew a policy',
  'Credit life: Policies: renew a policy carrying outstanding loans into the new period',
  'Credit life: Policies: get policy status',
  'Credit life: Policies: renew a policy with a loan batch and pay in one call',
  'Credit life: Policies: pay a period through schedules/{scheduleId}/pay',
  'Credit life: Policies: get policy renewal premiums',
  // Group life
  'Group life: Claims: track my claims',
  'Group life: Claims: intimate a death claim against a covered member',
  'Group life: Claims: get a claim',
  'Group life: Claims: attach supporting documents',
  'Group life: Members: take members off cover',
  'Group life: Members: get a covered member',
  'Group life: Members: get a covered member by id number',
  'Group life: Members: search covered members on a policy',
  'Group life: Quotations: get negotiated quotations',
  "Group life: Quotations: get a quotation's full rate terms",
  'Group life: Policies: get my group life policies',
  'Group life: Policies: get a group life policy',
  'Group life: Policies: open a group life policy on an approved quotation',
  'Group life: Policies: get an enrolment batch',
  'Group life: Policies: list enrolment batches of a policy',
  'Group life: Policies: quote a census without enrolling',
  'Group life: Policies: download the member register (bordereau) as CSV',
];

/** Paths the published guides give (DOMAIN.md): these entries must not be marked assumed. */
const PUBLISHED: ReadonlyArray<readonly [method: string, path: string]> = [
  ['GET', '/policyholders/individuals'],
  ['GET', '/policyholders/{id}/individuals'],
  ['POST', '/policyholders/{id}/vehicles'],
  ['GET', '/policies/motor/risk-categories'],
  ['POST', '/quotations/motor/comparison'],
  ['POST', '/policies/motor/{policyId}/renew/pay'],
  ['POST', '/policies/motor/{policyId}/extend/pay'],
  ['GET', '/products/life'],
  ['POST', '/quotations/life'],
  ['POST', '/quotations/{quoteId}/life'],
  ['POST', '/quotations/life/instant-issue'],
  ['GET', '/quotations/{policyId}/life/documents/certificate'],
  ['POST', '/policies/life/{quoteId}/renew/pay'],
  ['GET', '/quotations/life/policies'],
  ['GET', '/quotations/life/policies/{policyId}'],
  ['POST', '/policies/instant/issue'],
  ['POST', '/policies/{policyId}/renew'],
  ['GET', '/policies'],
];

const entries: AnyContractEntry[] = Object.values(contract as Record<string, AnyContractEntry>);
const byKey = new Map(entries.map((entry) => [`${entry.method} ${entry.path}`, entry]));
const namesInTable = new Set(entries.flatMap((e) => [e.specName, ...(e.alsoSpecNames ?? [])]));

describe('the contract table', () => {
  it('holds well over 100 operations named by the spec', () => {
    expect(SPEC_TABLE.length + SPEC_NAMED_WITHOUT_PATH.length).toBeGreaterThan(100);
  });

  it.each(SPEC_TABLE)(
    'has "%s" at %s %s exactly as the spec writes it',
    (specName, method, path) => {
      const entry = byKey.get(`${method} ${path}`);
      expect(entry?.specName).toBe(specName);
      expect(entry?.assumed).toBe(false);
    },
  );

  it.each(SPEC_NAMED_WITHOUT_PATH)('has an entry for "%s"', (specName) => {
    expect(namesInTable.has(specName)).toBe(true);
  });

  it('has no entry the spec does not name', () => {
    const known = new Set([...SPEC_TABLE.map(([name]) => name), ...SPEC_NAMED_WITHOUT_PATH]);
    expect([...namesInTable].filter((name) => !known.has(name))).toEqual([]);
  });

  it.each(PUBLISHED)(
    'uses the published path %s %s and does not mark it assumed',
    (method, path) => {
      expect(byKey.get(`${method} ${path}`)?.assumed).toBe(false);
    },
  );

  it('gives every entry a response schema', () => {
    const missing = entries.filter((entry) => !(entry.response instanceof z.ZodType));
    expect(missing.map((entry) => entry.name)).toEqual([]);
  });

  it('gives no two entries the same method and path', () => {
    expect(byKey.size).toBe(entries.length);
  });

  it('names every entry after its key', () => {
    for (const name of operationNames) expect(contract[name].name).toBe(name);
  });

  it('derives each path-parameter schema from the path template', () => {
    for (const entry of entries) {
      expect(Object.keys(entry.pathParams.shape).sort()).toEqual(pathParamNames(entry.path).sort());
    }
  });

  it('marks every operation that moves money as starting a payment with a required reference', () => {
    const payers = entries.filter((entry) => entry.startsPayment);
    expect(payers.map((e) => e.name)).toEqual(
      expect.arrayContaining(['payQuotation', 'instantIssueAndPayMotorPolicy', 'placeLoansAndPay']),
    );
    for (const entry of payers) {
      const json = z.toJSONSchema(entry.body ?? z.never(), { io: 'input', unrepresentable: 'any' });
      expect(JSON.stringify(json), entry.name).toContain('"reference"');
    }
  });

  it('marks list operations paginated exactly when they return the list envelope', () => {
    const isEnvelope = (schema: z.ZodType) =>
      schema instanceof z.ZodObject && 'data' in schema.shape && 'totalPages' in schema.shape;
    for (const entry of entries) {
      expect(isEnvelope(entry.response), entry.name).toBe(entry.paginated === true);
      if (entry.paginated) expect(entry.query?.shape, entry.name).toHaveProperty('PageNumber');
    }
  });

  it('validates query strings from a URL with the same schema the client uses', () => {
    const parsed = contract.getMotorProducts.query.parse({ PageNumber: '2', PageSize: '10' });
    expect(parsed).toEqual({ PageNumber: 2, PageSize: 10 });
  });
});

describe('operation types', () => {
  it('derives inputs and outputs from the table', () => {
    expectTypeOf<OperationInput<'updateCorporate'>>().toHaveProperty('path');
    expectTypeOf<OperationInput<'updateCorporate'>['path']>().toEqualTypeOf<{
      readonly id: string;
    }>();
    expectTypeOf<OperationInput<'getTransactionStatus'>>().not.toHaveProperty('body');
    expectTypeOf<OperationOutput<'getTransactionStatus'>['reference']>().toEqualTypeOf<string>();
    expectTypeOf<OperationItem<'getMotorProducts'>['id']>().toEqualTypeOf<string | number>();
  });
});
