/*
 * The staff desk's API calls: every lookup accepts the numbers staff and customers quote
 * (policy number, plate, CLC/GLC claim number, payment reference, NRC, phone) as well as ids,
 * and answers with what a desk needs (product name, policyholder, period, payment, documents,
 * household members). A lookup that finds nothing resolves to null; only a failing insurer throws.
 */
import type { Readable } from 'node:stream';
import { fromPromise } from 'xstate';
import type {
  Claim,
  CreditLifeBatch,
  GroupLifeBatch,
  Loan,
  PartnerClient,
  PolicyRecord,
} from '../src/api/index.js';
import { lusakaToday } from '../src/clock/index.js';
import { CodedError } from '../src/errors/index.js';
import { checkPlate } from './checks.js';
import { policyIdOf } from './claim-intimation-actors.js';
import type { FlowClaimEvidence, FlowClaimReports } from './flow-deps.js';
import type {
  StaffBatch,
  StaffClaim,
  StaffConfirmed,
  StaffFile,
  StaffHolding,
  StaffHousehold,
  StaffLoan,
  StaffPerson,
  StaffPolicy,
  StaffSync,
  StaffToday,
  StaffTransaction,
} from './staff-desk.js';
import { isNotFound } from './support.js';

/** What the desk's actors need (a subset of the flows' deps): the insurer, a file store, the date. */
interface StaffDeskDeps {
  readonly client: PartnerClient;
  /** Keeps the bordereau and resolves its expiring URL; without it the bordereau is unavailable. */
  readonly files?: {
    save(file: { fileName: string; contentType: string; body: Readable }): Promise<{ url: string }>;
  };
  /** Today's date as YYYY-MM-DD; default today in Lusaka (src/clock). */
  readonly today?: () => string;
  /** Runs the holdings index sync now (a full pass); without it `sync` is unavailable. */
  readonly syncHoldings?: () => Promise<StaffSync>;
  /** Who reported each claim and the documents held for staff; without it neither is shown. */
  readonly claimReports?: FlowClaimReports;
  /** Posts a confirmed claim's held documents; without it `confirm` is unavailable. */
  readonly claimEvidence?: FlowClaimEvidence;
}

/** Raised when `confirm` is asked for but the server holds no claim documents. */
class StaffConfirmMissingError extends CodedError<'NO_CLAIM_EVIDENCE'> {
  override readonly name = 'StaffConfirmMissingError';
  constructor(message: string) {
    super('NO_CLAIM_EVIDENCE', message);
  }
}

/** Raised when the bordereau is asked for but no file store is configured. */
class StaffFileStoreMissingError extends CodedError<'NO_FILE_STORE'> {
  override readonly name = 'StaffFileStoreMissingError';
  readonly status = 503;
  constructor(message: string) {
    super('NO_FILE_STORE', message);
  }
}

/** Raised when `sync` is asked for but the server runs no holdings sync. */
class StaffSyncMissingError extends CodedError<'NO_HOLDINGS_SYNC'> {
  override readonly name = 'StaffSyncMissingError';
  constructor(message: string) {
    super('NO_HOLDINGS_SYNC', message);
  }
}

// How far the desk scans lists the insurer cannot filter (policies by number or client).
const MAX_POLICIES_SCANNED = 200;
const MAX_CLAIMS_SCANNED = 100;
const RECENT_CLAIMS = 10;
const MAX_BATCHES_SCANNED = 200;

/** Resolves to null when the call answered 404; other errors propagate. */
async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

async function firstOf<T>(items: AsyncIterable<T>, max: number): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= max) break;
  }
  return out;
}

/** A string field of a loose record (fields the contract does not name, such as `destination`). */
function textOf(record: Record<string, unknown> | null | undefined, key: string): string {
  const value = record?.[key];
  return typeof value === 'string' ? value : '';
}

function nameOf(record: Record<string, unknown> | null | undefined): string {
  return (
    textOf(record, 'fullName') ||
    textOf(record, 'name') ||
    [textOf(record, 'firstName'), textOf(record, 'lastName')].filter(Boolean).join(' ')
  );
}

const day = (value: string | null | undefined) => (value ?? '').slice(0, 10);

/** An NRC and a phone as the parser hands them over (`123456/10/1`, `260…`). */
const NRC = /^\d{6}\/\d{2}\/\d$/;
const PHONE = /^260\d{9}$/;

/** A printed claim number: CLC-000001, GLC-DEMO-0001. */
const CLAIM_NUMBER = /^(CLC|GLC)-[A-Z0-9-]+$/;

/** The line a printed policy number names by its prefix, for the books the general list skips. */
function lineOfNumber(number: string): 'credit-life' | 'group-life' | 'funeral' | null {
  if (/^CL-/i.test(number)) return 'credit-life';
  if (/^GL-/i.test(number)) return 'group-life';
  if (/^GF-/i.test(number)) return 'funeral';
  return null;
}

// How many registered people the desk asks about to find a funeral policy by its number: the
// insurer lists no funeral policies, only a household by its principal's NRC.
const MAX_PEOPLE_SCANNED = 200;
const PARALLEL_LOOKUPS = 10;

/** A product's name by its id. */
type ProductName = (productId: unknown) => Promise<string>;

/** Product names by id, read once per actor set (the catalogue changes rarely). */
function productNamesOf(client: PartnerClient): ProductName {
  let productNames: Promise<Map<string, string>> | undefined;
  return async (productId) => {
    if (productId == null || productId === '') return '';
    productNames ??= firstOf(client.paginate('getProducts', { query: { PageSize: 100 } }), 500)
      .then((products) => new Map(products.map((p) => [String(p.id), p.name ?? String(p.id)])))
      .catch((error: unknown) => {
        productNames = undefined;
        throw error;
      });
    return (await productNames).get(String(productId)) ?? String(productId);
  };
}

async function holderOf(client: PartnerClient, policy: PolicyRecord): Promise<string> {
  const inline = nameOf(policy.policyHolder as Record<string, unknown> | null | undefined);
  if (inline) return inline;
  if (!policy.clientId) return '';
  const individual = await orNull(
    client.call('getIndividual', { path: { id: String(policy.clientId) } }),
  );
  return nameOf(individual as Record<string, unknown> | null);
}

async function describePolicy(
  client: PartnerClient,
  productName: ProductName,
  policy: PolicyRecord,
  others: PolicyRecord[],
): Promise<StaffPolicy> {
  const record = policy as Record<string, unknown>;
  const [product, holder] = await Promise.all([
    productName(policy.productId),
    holderOf(client, policy),
  ]);
  const out: StaffPolicy = {
    policyNumber: policy.policyNumber ?? String(policy.id),
    status: policy.status,
    product: product || '-',
    startDate: day(policy.startDate),
    endDate: day(policy.endDate),
    currency: policy.currency ?? 'ZMW',
  };
  if (holder) out.holder = holder;
  if (policy.registrationNumber) out.plate = policy.registrationNumber;
  const destination = textOf(record, 'destination');
  if (destination) out.trip = destination;
  if (policy.grossPremium != null) out.premium = policy.grossPremium;
  if (policy.premiumStatus) out.paymentStatus = policy.premiumStatus;
  const reference = textOf(record, 'paymentReference');
  if (reference) out.paymentReference = reference;
  const otherNumbers = others
    .filter((other) => other.id !== policy.id)
    .map((other) => other.policyNumber ?? String(other.id));
  if (otherNumbers.length > 0) out.others = otherNumbers.slice(0, 5);
  return out;
}

function allPolicies(client: PartnerClient): Promise<PolicyRecord[]> {
  return firstOf(client.paginate('getPolicies', { query: { PageSize: 50 } }), MAX_POLICIES_SCANNED);
}

/** Who an NRC or a phone number names: the typed NRC, or the phone's registered people. */
type PersonKey = { readonly nrc: string } | { readonly phone: string };

/** A paginated lookup that answers 404 for "none" reads as an empty list. */
async function listOrEmpty<T>(items: AsyncIterable<T>, max: number): Promise<T[]> {
  try {
    return await firstOf(items, max);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
}

/** The general (motor, travel…) policies of some registered clients, newest first. */
async function policiesOfClients(client: PartnerClient, ids: Set<string>): Promise<PolicyRecord[]> {
  if (ids.size === 0) return [];
  return (await allPolicies(client))
    .filter((policy) => policy.clientId != null && ids.has(String(policy.clientId)))
    .sort((a, b) => (b.startDate ?? '').localeCompare(a.startDate ?? ''));
}

/**
 * Everything the insurer holds for one person, by NRC or phone: their general policies, the
 * funeral household they head, their group-life memberships and their covered loans. A phone is
 * resolved to the NRCs of the people registered with it. Only general policies: the policy screen
 * as before; nothing: null.
 */
async function personOf(
  client: PartnerClient,
  productName: ProductName,
  key: PersonKey,
): Promise<StaffPolicy | StaffPerson | null> {
  const people = await firstOf(
    client.paginate('getIndividuals', {
      query: 'nrc' in key ? { IdNumber: key.nrc } : { PhoneNumber: key.phone },
    }),
    5,
  );
  const nrcs =
    'nrc' in key
      ? [key.nrc]
      : [...new Set(people.map((person) => person.idNumber).filter((nrc): nrc is string => !!nrc))];
  const [general, groupBook, creditBook] = await Promise.all([
    policiesOfClients(client, new Set(people.map((person) => String(person.id)))),
    nrcs.length > 0 ? lifePolicies(client, 'group-life') : [],
    nrcs.length > 0 ? lifePolicies(client, 'credit-life') : [],
  ]);
  const [households, memberships, loans] = await Promise.all([
    Promise.all(
      nrcs.map((nrc) =>
        orNull(client.call('getGroupFuneralHouseholdByNrc', { query: { nrcNumber: nrc } })),
      ),
    ),
    Promise.all(
      nrcs.flatMap((nrc) =>
        groupBook.map(async (policy) => ({
          policy,
          member: await orNull(
            client.call('getCoveredMemberByNrc', {
              path: { policyId: String(policy.id) },
              query: { nrcNumber: nrc },
            }),
          ),
        })),
      ),
    ),
    Promise.all(
      nrcs.flatMap((nrc) =>
        creditBook.map(async (policy) => ({
          policy,
          loans: await listOrEmpty(
            client.paginate('searchCoveredLoans', {
              path: { policyId: String(policy.id) },
              query: { nrcNumber: nrc, PageSize: 50 },
            }),
            50,
          ),
        })),
      ),
    ),
  ]);
  const holdings: StaffHolding[] = [];
  let name = nameOf(people[0] as Record<string, unknown> | undefined);
  for (const household of households) {
    if (!household) continue;
    const policy = (household.policy ?? {}) as Record<string, unknown>;
    holdings.push({
      product: 'Group funeral',
      policyNumber: textOf(policy, 'policyNumber'),
      status: textOf(policy, 'status') || '-',
    });
    name ||= nameOf(household.client as Record<string, unknown> | null | undefined);
  }
  for (const { policy, member } of memberships) {
    if (!member) continue;
    holdings.push({
      product: 'Group life',
      policyNumber: policy.policyNumber ?? String(policy.id),
      status: member.status || textOf(policy, 'status') || '-',
    });
    name ||= member.fullName ?? '';
  }
  for (const { policy, loans: onPolicy } of loans) {
    for (const loan of onPolicy) {
      holdings.push({
        product: 'Credit life',
        policyNumber: policy.policyNumber ?? String(policy.id),
        status: loan.status ?? '-',
        loan: loan.partnerLoanReference ?? String(loan.id),
      });
      name ||= loan.clientName ?? '';
    }
  }
  const [first] = general;
  if (holdings.length === 0) {
    return first ? describePolicy(client, productName, first, general) : null;
  }
  const products = await Promise.all(general.map((policy) => productName(policy.productId)));
  holdings.unshift(
    ...general.map((policy, index) => ({
      product: products[index] || '-',
      policyNumber: policy.policyNumber ?? String(policy.id),
      status: policy.status,
    })),
  );
  return {
    nrc: nrcs.join(', ') || ('phone' in key ? key.phone : ''),
    ...(name ? { name } : {}),
    holdings,
  };
}

/** A life line's policy as the insurer keeps it (credit-life and group-life share these fields). */
type LifePolicy = { id: string | number; policyNumber?: string | null | undefined } & Record<
  string,
  unknown
>;

/** The policies of a life line's own book (the general list skips them). */
function lifePolicies(
  client: PartnerClient,
  line: 'credit-life' | 'group-life',
): Promise<LifePolicy[]> {
  return firstOf<LifePolicy>(
    line === 'credit-life'
      ? client.paginate('getCreditLifePolicies', { query: { PageSize: 50 } })
      : client.paginate('getGroupLifePolicies', { query: { PageSize: 50 } }),
    MAX_POLICIES_SCANNED,
  );
}

/** Whether a policy is the one typed: its printed number or the insurer's id (`clp_…`). */
const isTyped = (policy: LifePolicy, typed: string) =>
  (policy.policyNumber ?? '').toUpperCase() === typed.toUpperCase() || String(policy.id) === typed;

/** A life line's policy by its printed number or the insurer's id; null when none. */
async function lifePolicyOf(
  client: PartnerClient,
  line: 'credit-life' | 'group-life',
  typed: string,
): Promise<LifePolicy | null> {
  return (await lifePolicies(client, line)).find((policy) => isTyped(policy, typed)) ?? null;
}

/** A credit-life or group-life policy as the desk shows it, its holder the corporate client. */
async function describeLifePolicy(
  client: PartnerClient,
  line: 'credit-life' | 'group-life',
  policy: LifePolicy,
): Promise<StaffPolicy> {
  const clientId = textOf(policy, 'clientId');
  const holder = clientId
    ? await orNull(client.call('getCorporate', { path: { id: clientId } }))
    : null;
  const out: StaffPolicy = {
    policyNumber: policy.policyNumber ?? String(policy.id),
    status: textOf(policy, 'status'),
    product: line === 'credit-life' ? 'Credit life' : 'Group life',
    startDate: day(textOf(policy, 'startDate')),
    endDate: day(textOf(policy, 'endDate')),
    currency: textOf(policy, 'currency') || 'ZMW',
  };
  const name = nameOf(holder as Record<string, unknown> | null);
  if (name) out.holder = name;
  return out;
}

/** A credit-life or group-life policy by its printed number or id, from the line's own list. */
async function lifeBookPolicy(
  client: PartnerClient,
  line: 'credit-life' | 'group-life',
  typed: string,
): Promise<StaffPolicy | null> {
  const policy = await lifePolicyOf(client, line, typed);
  return policy ? describeLifePolicy(client, line, policy) : null;
}

/**
 * A covered loan by the lender's reference (`KL-DEMO-ACTIVE`), asked of every credit-life
 * policy: the insurer finds loans by reference only within a policy.
 */
async function loanByReference(
  client: PartnerClient,
  reference: string,
): Promise<StaffLoan | null> {
  const policies = await lifePolicies(client, 'credit-life');
  for (let i = 0; i < policies.length; i += PARALLEL_LOOKUPS) {
    const batch = policies.slice(i, i + PARALLEL_LOOKUPS);
    const loans = await Promise.all(
      batch.map((policy) =>
        orNull(
          client.call('getCoveredLoanByReference', {
            path: { policyId: String(policy.id) },
            query: { partnerLoanReference: reference },
          }),
        ),
      ),
    );
    const index = loans.findIndex((loan) => loan != null);
    const loan = loans[index];
    const policy = batch[index];
    if (loan && policy) return staffLoan(loan, policy);
  }
  return null;
}

/** A loan as the desk shows it, with the number of the policy it is on. */
function staffLoan(loan: Loan, policy: LifePolicy): StaffLoan {
  const out: StaffLoan = {
    reference: loan.partnerLoanReference ?? String(loan.id),
    status: loan.status ?? '-',
    policyNumber: policy.policyNumber ?? String(policy.id),
    currency: textOf(policy, 'currency') || 'ZMW',
  };
  if (loan.clientName) out.borrower = loan.clientName;
  if (loan.nrcNumber) out.nrc = loan.nrcNumber;
  if (loan.amount != null) out.amount = loan.amount;
  if (loan.startDate) out.startDate = day(loan.startDate);
  if (loan.endDate) out.endDate = day(loan.endDate);
  return out;
}

/** A funeral policy by its printed number: the household of a registered principal. */
async function funeralPolicy(client: PartnerClient, number: string): Promise<StaffPolicy | null> {
  const wanted = number.toUpperCase();
  const people = await firstOf(
    client.paginate('getIndividuals', { query: { PageSize: 50 } }),
    MAX_PEOPLE_SCANNED,
  );
  const nrcs = [
    ...new Set(people.map((person) => person.idNumber).filter((nrc): nrc is string => !!nrc)),
  ];
  for (let i = 0; i < nrcs.length; i += PARALLEL_LOOKUPS) {
    const households = await Promise.all(
      nrcs
        .slice(i, i + PARALLEL_LOOKUPS)
        .map((nrc) =>
          orNull(client.call('getGroupFuneralHouseholdByNrc', { query: { nrcNumber: nrc } })),
        ),
    );
    for (const household of households) {
      const policy = (household?.policy ?? {}) as Record<string, unknown>;
      if (textOf(policy, 'policyNumber').toUpperCase() !== wanted) continue;
      const out: StaffPolicy = {
        policyNumber: textOf(policy, 'policyNumber'),
        status: textOf(policy, 'status'),
        product: 'Group funeral',
        startDate: day(textOf(policy, 'startDate')),
        endDate: day(textOf(policy, 'endDate')),
        currency: textOf(policy, 'currency') || 'ZMW',
      };
      const principal = nameOf(household?.client as Record<string, unknown> | null | undefined);
      if (principal) out.holder = principal;
      if (typeof policy.grossPremium === 'number') out.premium = policy.grossPremium;
      return out;
    }
  }
  return null;
}

/** General policies by plate, printed number or id. */
async function findPolicies(client: PartnerClient, query: string): Promise<PolicyRecord[]> {
  const plate = checkPlate(query);
  if (plate.ok) {
    const byPlate = await orNull(
      client.call('getMotorPolicyByRegistration', {
        query: { registrationNumber: plate.value },
      }),
    );
    if (byPlate && byPlate.length > 0) return byPlate;
  }
  const wanted = query.toUpperCase();
  const byNumber = (await allPolicies(client)).find(
    (policy) => policy.policyNumber?.toUpperCase() === wanted || String(policy.id) === query,
  );
  if (byNumber) return [byNumber];
  const byId = await orNull(client.call('getMotorPolicy', { path: { policyId: query } }));
  return byId ? [byId] : [];
}

function staffClaim(line: StaffClaim['line'], claim: Claim): StaffClaim {
  const out: StaffClaim = {
    id: claim.claimNumber,
    line,
    status: claim.status,
    currency: claim.currency ?? 'ZMW',
  };
  const payable = claim.payable as Record<string, unknown> | null | undefined;
  const total = payable?.totalPayable ?? payable?.payable ?? payable?.amount;
  const payableAmount = typeof total === 'number' ? total : undefined;
  const amount = payableAmount ?? claim.amountClaimed ?? undefined;
  if (amount != null) out.amount = amount;
  const subject =
    claim.partnerLoanReference ??
    (claim.loanId != null ? String(claim.loanId) : undefined) ??
    claim.nrcNumber ??
    (claim.memberId != null ? String(claim.memberId) : undefined);
  if (subject) out.subject = subject;
  if (claim.lossDate) out.lossDate = day(claim.lossDate);
  if (claim.createdAt) out.createdAt = claim.createdAt;
  const documents = (claim.documents ?? []).map((document, index) => ({
    name: document.name ?? `document-${index + 1}`,
    url: document.url,
  }));
  if (documents.length > 0) out.documents = documents;
  return out;
}

async function listClaims(client: PartnerClient, max: number): Promise<StaffClaim[]> {
  const [credit, group] = await Promise.all([
    firstOf(client.paginate('getCreditLifeClaims', { query: { PageSize: 50 } }), max),
    firstOf(client.paginate('getGroupLifeClaims', { query: { PageSize: 50 } }), max),
  ]);
  return [
    ...credit.map((claim) => staffClaim('credit-life', claim)),
    ...group.map((claim) => staffClaim('group-life', claim)),
  ].sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
}

/** A payment by its reference, with its callback deliveries; null when unknown. */
async function transactionOf(
  client: PartnerClient,
  input: { reference: string },
): Promise<StaffTransaction | null> {
  const path = { reference: input.reference };
  const txn = await orNull(client.call('getTransaction', { path }));
  if (!txn) return null;
  const log = (await orNull(client.call('getCallbackLogs', { path }))) ?? [];
  const last = log.at(-1);
  const out: StaffTransaction = {
    reference: txn.reference,
    status: txn.status,
    amount: txn.amount ?? 0,
    currency: txn.currency ?? 'ZMW',
    deliveries: log.length,
  };
  if (last) {
    out.lastDelivery = last.statusCode != null ? String(last.statusCode) : (last.error ?? '-');
  }
  if (txn.policyNumber) out.policyNumber = txn.policyNumber;
  if (txn.method) out.method = txn.method;
  if (txn.paidAt) out.paidAt = txn.paidAt.slice(0, 16).replace('T', ' ');
  return out;
}

/** A funeral household by its principal's NRC; null when unknown. */
async function householdOf(
  client: PartnerClient,
  input: { nrc: string },
): Promise<StaffHousehold | null> {
  const found = await orNull(
    client.call('getGroupFuneralHouseholdByNrc', { query: { nrcNumber: input.nrc } }),
  );
  if (!found) return null;
  const policy = (found.policy ?? {}) as Record<string, unknown>;
  const members = Array.isArray((found as Record<string, unknown>).members)
    ? ((found as Record<string, unknown>).members as Record<string, unknown>[])
    : [];
  return {
    principal: nameOf(found.client as Record<string, unknown> | null | undefined),
    policyNumber: textOf(policy, 'policyNumber'),
    status: textOf(policy, 'status'),
    startDate: day(textOf(policy, 'startDate')),
    endDate: day(textOf(policy, 'endDate')),
    premium: typeof policy.grossPremium === 'number' ? policy.grossPremium : 0,
    currency: textOf(policy, 'currency') || 'ZMW',
    members: members.map((member) => ({
      name: nameOf(member) || '-',
      relationship: textOf(member, 'relationship') || '-',
      ...(typeof member.sumAssured === 'number' ? { sumAssured: member.sumAssured } : {}),
    })),
  };
}

/** A credit-life schedule as the desk shows it. */
function creditBatch(batch: CreditLifeBatch): StaffBatch {
  return {
    line: 'credit-life',
    number: batch.number ?? String(batch.id),
    status: batch.status,
    count: batch.totalLoans ?? batch.loans?.length ?? 0,
    grossPremium: batch.grossPremium ?? 0,
    outstandingPremium: batch.outstandingPremium ?? 0,
    currency: batch.currency ?? 'ZMW',
  };
}

/** A group-life enrolment batch as the desk shows it. */
function groupBatch(batch: GroupLifeBatch): StaffBatch {
  return {
    line: 'group-life',
    number: batch.number ?? String(batch.id),
    status: batch.status,
    count: batch.totalMembers ?? 0,
    grossPremium: batch.grossPremium ?? 0,
    outstandingPremium: batch.outstandingPremium ?? 0,
    currency: batch.currency ?? 'ZMW',
  };
}

/** Whether a batch is the one typed: its printed number (SCH-…, GLB-…) or the insurer's id. */
const isBatch = (batch: { id: unknown; number?: string | null | undefined }, typed: string) =>
  (batch.number ?? '').toUpperCase() === typed.toUpperCase() || String(batch.id) === typed;

/**
 * A credit-life schedule or a group-life batch, each typed as printed (CL-DEMO-000001 SCH-000001)
 * or by the insurer's ids: the policy's own batches are searched first, then the batch id is
 * asked of both lines. Null when none.
 */
async function batchOf(
  client: PartnerClient,
  input: { policyId: string; batchId: string },
): Promise<StaffBatch | null> {
  const { policyId: typedPolicy, batchId: typed } = input;
  const line = lineOfNumber(typedPolicy);
  const [credit, group] = await Promise.all([
    line === 'group-life' ? null : lifePolicyOf(client, 'credit-life', typedPolicy),
    line === 'credit-life' ? null : lifePolicyOf(client, 'group-life', typedPolicy),
  ]);
  if (credit) {
    const batches = await listOrEmpty(
      client.paginate('getCreditLifeBatches', {
        path: { policyId: String(credit.id) },
        query: { PageSize: 50 },
      }),
      MAX_BATCHES_SCANNED,
    );
    const found = batches.find((batch) => isBatch(batch, typed));
    if (found) return creditBatch(found);
  }
  if (group) {
    const batches = await listOrEmpty(
      client.paginate('getGroupLifeBatches', {
        path: { policyId: String(group.id) },
        query: { PageSize: 50 },
      }),
      MAX_BATCHES_SCANNED,
    );
    const found = batches.find((batch) => isBatch(batch, typed));
    if (found) return groupBatch(found);
  }
  const byId = await orNull(client.call('getCreditLifeBatch', { path: { scheduleId: typed } }));
  if (byId) return creditBatch(byId);
  const groupById = await orNull(client.call('getGroupLifeBatch', { path: { batchId: typed } }));
  return groupById ? groupBatch(groupById) : null;
}

/** A claim the desk found, with the insurer's id and line its calls need. */
interface DeskClaim {
  readonly claim: StaffClaim;
  readonly line: StaffClaim['line'];
  readonly claimId: string;
}

/**
 * A claim by what staff type: a printed number (CLC-000001 / GLC-…, which says its line; the
 * lists are searched for it) or the insurer's id. Null when none.
 */
async function deskClaim(client: PartnerClient, typed: string): Promise<DeskClaim | null> {
  const wanted = typed.toUpperCase();
  const found = (line: StaffClaim['line'], claim: Claim): DeskClaim => ({
    claim: staffClaim(line, claim),
    line,
    claimId: String(claim.id),
  });
  if (CLAIM_NUMBER.test(wanted)) {
    const line = wanted.startsWith('GLC-') ? 'group-life' : 'credit-life';
    const list = await firstOf(
      line === 'credit-life'
        ? client.paginate('getCreditLifeClaims', { query: { PageSize: 50 } })
        : client.paginate('getGroupLifeClaims', { query: { PageSize: 50 } }),
      MAX_CLAIMS_SCANNED,
    );
    const claim = list.find((candidate) => candidate.claimNumber.toUpperCase() === wanted);
    return claim ? found(line, claim) : null;
  }
  const path = { claimId: typed };
  const credit = await orNull(client.call('getCreditLifeClaim', { path }));
  if (credit) return found('credit-life', credit);
  const group = await orNull(client.call('getGroupLifeClaim', { path }));
  return group ? found('group-life', group) : null;
}

/**
 * The desk's claim with who reported it (their channel and phone, or their own phone on record)
 * and, while it is to verify, how many of the reporter's documents are held.
 */
async function withReporter(deps: StaffDeskDeps, found: DeskClaim): Promise<StaffClaim> {
  const reports = deps.claimReports;
  if (!reports) return found.claim;
  const key = { line: found.line, claimId: found.claimId };
  const report = await reports.of(key);
  if (!report) return found.claim;
  const state = report.state ?? (report.onRecord ? 'own' : 'to-verify');
  return {
    ...found.claim,
    reporter: {
      channel: report.channel,
      phone: report.phone,
      onRecord: report.onRecord,
      state,
      held: state === 'to-verify' ? (await reports.held(key)).length : 0,
      ...(report.confirmedBy ? { confirmedBy: report.confirmedBy } : {}),
    },
  };
}

/** Builds the staff desk's actors over the partner client. */
export function staffDeskActors(deps: StaffDeskDeps) {
  const { client } = deps;
  const now = deps.today ?? (() => lusakaToday());
  const productName = productNamesOf(client);
  return {
    findPolicy: fromPromise(
      async ({
        input,
      }: {
        input: { query: string };
      }): Promise<StaffPolicy | StaffPerson | StaffLoan | null> => {
        const { query } = input;
        // Credit life, group life and funeral are not in the general list: each has its own book.
        const line = lineOfNumber(query);
        if (line === 'funeral') return funeralPolicy(client, query);
        if (line) return lifeBookPolicy(client, line, query);
        // The parser hands over an NRC as 123456/10/1 and a phone as 260…, whatever was typed.
        if (NRC.test(query)) return personOf(client, productName, { nrc: query });
        if (PHONE.test(query)) return personOf(client, productName, { phone: query });
        const [policy, ...others] = await findPolicies(client, query);
        if (policy) return describePolicy(client, productName, policy, others);
        // Not a general policy: a life policy by the insurer's id (glp_…, clp_…), else a loan
        // by the lender's reference (KL-…).
        return (
          (await lifeBookPolicy(client, 'group-life', query)) ??
          (await lifeBookPolicy(client, 'credit-life', query)) ??
          loanByReference(client, query)
        );
      },
    ),

    getClaim: fromPromise(async ({ input }: { input: { claimId: string } }) => {
      const found = await deskClaim(client, input.claimId);
      return found ? withReporter(deps, found) : null;
    }),

    // A claim reported by someone not on record, confirmed by staff: its held documents go to
    // the insurer now. The Slack desk audits the command before it runs.
    confirmClaim: fromPromise(
      async ({
        input,
      }: {
        input: { claimId: string; member: string };
      }): Promise<StaffConfirmed | null> => {
        const found = await deskClaim(client, input.claimId);
        if (!found) return null;
        const key = { line: found.line, claimId: found.claimId };
        const report = await deps.claimReports?.of(key);
        if (report?.state !== 'to-verify')
          return { id: found.claim.id, confirmed: false, posted: 0 };
        if (!deps.claimEvidence) throw new StaffConfirmMissingError('no claim documents here');
        const released = await deps.claimEvidence.release(key, input.member);
        return { id: found.claim.id, confirmed: true, posted: released?.posted ?? 0 };
      },
    ),

    trackClaims: fromPromise<StaffClaim[], Record<string, never>>(async () =>
      (await listClaims(client, RECENT_CLAIMS)).slice(0, RECENT_CLAIMS),
    ),

    transactionStatus: fromPromise(async ({ input }: { input: { reference: string } }) =>
      transactionOf(client, input),
    ),

    householdByNrc: fromPromise(async ({ input }: { input: { nrc: string } }) =>
      householdOf(client, input),
    ),

    getBatch: fromPromise(async ({ input }: { input: { policyId: string; batchId: string } }) =>
      batchOf(client, input),
    ),

    bordereau: fromPromise(
      async ({ input }: { input: { policyId: string } }): Promise<StaffFile> => {
        const store = deps.files;
        if (!store) throw new StaffFileStoreMissingError('no file store for the bordereau');
        // Staff type the printed number (CL-…, GL-…); an id is used as given.
        const line = lineOfNumber(input.policyId) === 'group-life' ? 'group-life' : 'credit-life';
        const policyId = await policyIdOf(client, line, input.policyId);
        const fileName = `bordereau-${input.policyId.replace(/[^\w.-]/g, '')}.csv`;
        const body =
          line === 'credit-life'
            ? await client.download('getCreditLifeBordereau', { path: { policyId } })
            : await client.download('getGroupLifeBordereau', { path: { policyId } });
        const { url } = await store.save({ fileName, contentType: 'text/csv', body });
        return { url, fileName };
      },
    ),

    syncHoldings: fromPromise<StaffSync, Record<string, never>>(async () => {
      if (!deps.syncHoldings) throw new StaffSyncMissingError('no holdings sync in this server');
      return deps.syncHoldings();
    }),

    todaySummary: fromPromise<StaffToday, Record<string, never>>(async () => {
      const date = now();
      const [policies, claims] = await Promise.all([
        allPolicies(client),
        listClaims(client, MAX_CLAIMS_SCANNED),
      ]);
      const paid = policies.filter(
        (policy) =>
          policy.premiumStatus === 'Paid' && day(policy.approvedDate ?? policy.createdAt) === date,
      );
      return {
        date,
        paidPolicies: paid.length,
        paidTotal: paid.reduce((sum, policy) => sum + (policy.grossPremium ?? 0), 0),
        currency: paid[0]?.currency ?? 'ZMW',
        claims: claims.filter((claim) => day(claim.createdAt) === date),
      };
    }),
  };
}
