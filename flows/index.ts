/*
 * The conversations. Each flow is an XState machine whose API calls are actors; this file
 * supplies those actors from a PartnerClient (plus payments and file storage), so production and
 * tests differ only in the deps they pass to createFlowRegistry.
 */
import type { Readable } from 'node:stream';
import { fromPromise } from 'xstate';
import type {
  CoverState as ApiCoverState,
  BillingAddress,
  Claim,
  PartnerClient,
  PaymentObject,
} from '../src/api/index.js';
import type { FlowRegistry } from '../src/conversation/flow.js';
import { checkPlate } from './checks.js';
import { type ClaimLine, type ClaimSummary, claimIntimationFlow } from './claim-intimation.js';
import {
  type CoverLookup,
  type CoverState,
  coverStatusFlow,
  type HouseholdCover,
  type LifeCover,
  type LoanCover,
} from './cover-status.js';
import { mainMenuFlow } from './main-menu.js';
import { motorQuoteFlow, type RiskCategory } from './motor-quote.js';
import { type StaffClaim, staffDeskFlow } from './staff-desk.js';
import {
  type PaymentChoice,
  type PaymentStarted,
  paymentOutcome,
  stableReference,
  today,
} from './support.js';
import { type TravelCertificate, type TravelPackage, travelIssueFlow } from './travel-issue.js';

/** Payments as the flows need them (src/payments provides them, routed to the current turn). */
export interface QuotePayments {
  /** Starts the payment of a quotation; idempotent per quote (the same reference every time). */
  start(
    quoteId: string,
    payment: PaymentObject,
  ): Promise<{ reference: string; status: string; redirectUrl?: string | undefined }>;
  /**
   * Follows a payment started by another operation (travel instant issue, motor renew-and-pay),
   * so its outcome comes back as `payment.settled`. Called only while the payment is pending.
   */
  track?(reference: string): Promise<void>;
}

/** Where files the flows produce (certificates, bordereaux) are kept and served from. */
export interface FlowFileStore {
  /** Stores a file; resolves the expiring URL the user is given. */
  save(file: { fileName: string; contentType: string; body: Readable }): Promise<{ url: string }>;
}

/** What the flows need from the outside world. */
export interface FlowDeps {
  readonly client: PartnerClient;
  readonly payments: QuotePayments;
  /** Without it, certificates and bordereaux are not offered as links. */
  readonly files?: FlowFileStore;
  /** Billing address sent with card payments (chat users are not asked for one). */
  readonly cardBilling?: BillingAddress;
  /** Today's date as YYYY-MM-DD; defaults to the system clock (tests pin it). */
  readonly today?: () => string;
}

const DEFAULT_BILLING: BillingAddress = {
  city: 'Lusaka',
  country: 'ZM',
  address: 'Lusaka',
  zip: 10101,
};

/** Builds every flow with its actors provided from `deps`. */
export function createFlowRegistry(deps: FlowDeps): FlowRegistry {
  const actors = flowActors(deps);
  return {
    'main-menu': mainMenuFlow,
    'motor-quote': {
      ...motorQuoteFlow,
      machine: motorQuoteFlow.machine.provide({ actors: actors.motor }),
    },
    'travel-issue': {
      ...travelIssueFlow,
      machine: travelIssueFlow.machine.provide({ actors: actors.travel }),
    },
    'claim-intimation': {
      ...claimIntimationFlow,
      machine: claimIntimationFlow.machine.provide({ actors: actors.claims }),
    },
    'cover-status': {
      ...coverStatusFlow,
      machine: coverStatusFlow.machine.provide({ actors: actors.cover }),
    },
    'staff-desk': {
      ...staffDeskFlow,
      machine: staffDeskFlow.machine.provide({ actors: actors.staff }),
    },
  };
}

function status(error: unknown): number | undefined {
  const value =
    typeof error === 'object' && error !== null
      ? (error as { status?: unknown }).status
      : undefined;
  return typeof value === 'number' ? value : undefined;
}

/** Resolves to `fallback` when the call answered 404; other errors propagate. */
async function orNotFound<T, F>(call: Promise<T>, fallback: F): Promise<T | F> {
  try {
    return await call;
  } catch (error) {
    if (status(error) === 404) return fallback;
    throw error;
  }
}

function paymentObject(choice: PaymentChoice, deps: FlowDeps): PaymentObject {
  return choice.method === 'mobileMoney'
    ? { method: 'MobileMoney', mobileMoneyAccountNumber: choice.msisdn }
    : { method: 'Card', cardDetails: deps.cardBilling ?? DEFAULT_BILLING };
}

function started(
  reference: string,
  result: { status: string; redirectUrl?: string | null | undefined },
): PaymentStarted {
  const out: PaymentStarted = { reference, status: paymentOutcome(result.status) };
  if (result.redirectUrl) out.redirectUrl = result.redirectUrl;
  return out;
}

async function keep(
  deps: FlowDeps,
  fileName: string,
  contentType: string,
  body: Promise<Readable>,
): Promise<string | undefined> {
  if (!deps.files) {
    (await body).resume();
    return undefined;
  }
  return (await deps.files.save({ fileName, contentType, body: await body })).url;
}

function splitName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/);
  const lastName = words.length > 1 ? (words.pop() ?? '') : '';
  return { firstName: words.join(' '), lastName };
}

function addYear(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

function payableOf(claim: Claim): number | undefined {
  const payable = claim.payable as Record<string, unknown> | null | undefined;
  const total = payable?.totalPayable ?? payable?.payable ?? payable?.amount;
  return typeof total === 'number' ? total : undefined;
}

function claimSummary(claim: Claim): ClaimSummary {
  const summary: ClaimSummary = {
    id: String(claim.id),
    number: claim.claimNumber,
    status: claim.status,
    currency: claim.currency ?? 'ZMW',
  };
  const payable = payableOf(claim);
  if (payable !== undefined) summary.payable = payable;
  return summary;
}

function coverWord(
  state: ApiCoverState,
): Pick<LoanCover, 'cover' | 'graceEndsAt' | 'unpaidPeriods'> {
  const unpaid = state.unpaidPeriods?.length ?? 0;
  const s = state.status.toLowerCase();
  const cover: CoverState = s.includes('grace')
    ? 'grace'
    : s.includes('laps')
      ? 'lapsed'
      : unpaid > 0
        ? 'arrears'
        : 'active';
  return {
    cover,
    unpaidPeriods: unpaid,
    ...(state.graceEndsAt ? { graceEndsAt: state.graceEndsAt.slice(0, 10) } : {}),
  };
}

async function household(client: PartnerClient, nrc: string): Promise<HouseholdCover | null> {
  const found = await orNotFound(
    client.call('getGroupFuneralHouseholdByNrc', { query: { nrcNumber: nrc } }),
    null,
  );
  if (!found) return null;
  const c = (found.client ?? {}) as Record<string, unknown>;
  const p = (found.policy ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const name = text(c.fullName) || [text(c.firstName), text(c.lastName)].filter(Boolean).join(' ');
  return {
    principal: name,
    policyNumber: text(p.policyNumber),
    status: text(p.status),
    startDate: text(p.startDate).slice(0, 10),
    endDate: text(p.endDate).slice(0, 10),
    premium: typeof p.grossPremium === 'number' ? p.grossPremium : 0,
    currency: text(p.currency) || 'ZMW',
  };
}

async function firstPage<T>(items: AsyncIterable<T>, max: number): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= max) break;
  }
  return out;
}

const MAX_POLICIES_SCANNED = 5;

function flowActors(deps: FlowDeps) {
  const { client } = deps;
  const now = deps.today ?? (() => today());

  const transactionStatus = fromPromise<PaymentStarted, { reference: string }>(
    async ({ input }) => {
      const txn = await client.call('getTransactionStatus', {
        path: { reference: input.reference },
      });
      return started(input.reference, txn);
    },
  );

  const motor = {
    listProducts: fromPromise(async ({ input }: { input: { page: number; pageSize: number } }) => {
      const page = await client.call('getMotorProducts', {
        query: { PageNumber: input.page, PageSize: input.pageSize },
      });
      return {
        products: page.data.map((p) => ({
          id: String(p.id),
          name: p.name ?? `${p.productType ?? 'Motor'} ${p.id}`,
          needsSumInsured: (p.productType ?? '').toLowerCase() !== 'thirdparty',
        })),
        hasMore: page.pageNumber < page.totalPages,
      };
    }),
    findVehicle: fromPromise(async ({ input }: { input: { plate: string } }) => {
      const found = await orNotFound(
        client.call('searchVehicleByRegistration', { query: { registrationNumber: input.plate } }),
        [],
      );
      const v = found[0];
      if (!v) return null;
      return {
        vehicleId: String(v.id),
        ...(v.motorRiskCategoryId ? { riskCategoryId: v.motorRiskCategoryId } : {}),
        description: [v.make, v.model].filter(Boolean).join(' '),
      };
    }),
    listRiskCategories: fromPromise<RiskCategory[], Record<string, never>>(async () => {
      const categories = await client.call('getMotorRiskCategories');
      return categories.map((c) => ({ id: String(c.id), name: c.name }));
    }),
    priceMotor: fromPromise(
      async ({
        input,
      }: {
        input: {
          productId: string;
          riskCategoryId: string;
          sumInsured?: number;
          startDate: string;
        };
      }) => {
        const pricing = await client.call('getMotorPricing', {
          body: {
            productId: input.productId,
            riskCategoryId: input.riskCategoryId,
            startDate: input.startDate,
            // Comprehensive and TPFT pricing needs an end date; the options still come by duration.
            ...(input.sumInsured !== undefined
              ? { sumInsured: input.sumInsured, endDate: addYear(input.startDate) }
              : {}),
          },
        });
        return pricing.pricingOptions.map((o) => ({
          duration: o.duration,
          label: o.label,
          basic: o.basicPremium,
          levy: o.levyPremium,
          gross: o.grossPremium,
          currency: o.currency,
        }));
      },
    ),
    findHolder: fromPromise(async ({ input }: { input: { phone?: string; nrc?: string } }) => {
      const query = input.nrc ? { IdNumber: input.nrc } : { PhoneNumber: input.phone ?? '' };
      const page = await client.call('getIndividuals', { query: { ...query, PageSize: 1 } });
      const holder = page.data[0];
      if (!holder) return null;
      return {
        clientId: String(holder.id),
        name: [holder.firstName, holder.lastName].filter(Boolean).join(' '),
      };
    }),
    registerHolder: fromPromise(
      async ({
        input,
      }: {
        input: { firstName: string; lastName: string; phone: string; email: string; nrc: string };
      }) => {
        const holder = await client.call('createIndividual', {
          body: {
            firstName: input.firstName,
            lastName: input.lastName,
            phoneNumber: input.phone,
            email: input.email,
            idNumber: input.nrc,
            idType: 'NRC',
          },
        });
        return { clientId: String(holder.id), name: `${input.firstName} ${input.lastName}` };
      },
    ),
    registerVehicle: fromPromise(
      async ({
        input,
      }: {
        input: {
          clientId: string;
          plate: string;
          make: string;
          model: string;
          year: number;
          chassis: string;
          engine: string;
          riskCategoryId: string;
        };
      }) => {
        const vehicle = await client.call('createVehicle', {
          path: { id: input.clientId },
          body: {
            make: input.make,
            model: input.model,
            yearOfManufacture: input.year,
            registrationNumber: input.plate,
            chassisNumber: input.chassis,
            engineNumber: input.engine,
            motorRiskCategoryId: input.riskCategoryId,
          },
        });
        return { vehicleId: String(vehicle.id) };
      },
    ),
    createQuote: fromPromise(
      async ({
        input,
      }: {
        input: {
          productId: string;
          duration: number;
          clientId: string;
          vehicleId: string;
          riskCategoryId: string;
          sumInsured?: number;
          startDate: string;
        };
      }) => {
        const quote = await client.call('createMotorQuotation', {
          body: {
            productId: input.productId,
            duration: input.duration,
            currency: 'ZMW',
            startDate: input.startDate,
            clientId: input.clientId,
            risks: [
              {
                vehicleId: input.vehicleId,
                // Required by the spec; a vehicle registered without one gets the picked category.
                ...(input.riskCategoryId ? { motorRiskCategoryId: input.riskCategoryId } : {}),
                ...(input.sumInsured !== undefined ? { sumInsured: input.sumInsured } : {}),
              },
            ],
          },
        });
        return {
          quoteId: String(quote.id),
          premium: quote.grossPremium ?? quote.premium,
          currency: quote.currency ?? 'ZMW',
        };
      },
    ),
    startPayment: fromPromise(
      async ({ input }: { input: { quoteId: string; payment: PaymentChoice } }) => {
        const result = await deps.payments.start(input.quoteId, paymentObject(input.payment, deps));
        return started(result.reference, result);
      },
    ),
    paymentStatus: transactionStatus,
    findPolicy: fromPromise(async ({ input }: { input: { plate: string } }) => {
      const policies = await orNotFound(
        client.call('getMotorPolicyByRegistration', { query: { registrationNumber: input.plate } }),
        [],
      );
      const policy = policies.find((p) => /active/i.test(p.status)) ?? policies[0];
      return policy
        ? { policyId: String(policy.id), policyNumber: policy.policyNumber ?? '' }
        : null;
    }),
    renewalPremiums: fromPromise(async ({ input }: { input: { policyId: string } }) => {
      const q = await client.call('getMotorRenewalPremiums', {
        path: { policyId: input.policyId },
      });
      return {
        gross: q.grossPremium,
        currency: q.currency ?? 'ZMW',
        startDate: (q.startDate ?? '').slice(0, 10),
        endDate: (q.endDate ?? '').slice(0, 10),
      };
    }),
    renewAndPay: fromPromise(
      async ({ input }: { input: { policyId: string; payment: PaymentChoice } }) => {
        // One reference per policy per day: a retried renewal never charges twice.
        const reference = stableReference('RNW', [input.policyId, now()]);
        const result = await client.call('renewAndPayMotorPolicy', {
          path: { policyId: input.policyId },
          body: { reference, payment: paymentObject(input.payment, deps) },
        });
        const out = started(reference, result);
        if (out.status === 'pending') await deps.payments.track?.(reference);
        return out;
      },
    ),
    motorCertificate: fromPromise(
      async ({
        input,
      }: {
        input: { policyId?: string; quoteId?: string; policyNumber?: string; plate?: string };
      }) => {
        let policyId = input.policyId;
        let policyNumber = input.policyNumber ?? '';
        if (!policyId && input.plate) {
          const policies = await client.call('getMotorPolicyByRegistration', {
            query: { registrationNumber: input.plate },
          });
          const policy = policies.find((p) => p.quoteId === input.quoteId) ?? policies[0];
          policyId = policy ? String(policy.id) : undefined;
          policyNumber = policy?.policyNumber ?? policyNumber;
        }
        if (!policyId) return { policyNumber };
        if (!policyNumber) {
          policyNumber =
            (await client.call('getMotorPolicy', { path: { policyId } })).policyNumber ?? '';
        }
        const url = await keep(
          deps,
          `certificate-${policyNumber || policyId}.pdf`,
          'application/pdf',
          client.download('getMotorPolicyCertificate', { path: { policyId } }),
        );
        return url ? { policyNumber, url } : { policyNumber };
      },
    ),
  };

  const travel = {
    listPackages: fromPromise<TravelPackage[], Record<string, never>>(async () => {
      const page = await client.call('getTravelProducts', {
        query: { PageNumber: 1, PageSize: 6 },
      });
      return page.data.map((p) => ({ id: String(p.id), name: p.name ?? `Travel ${p.id}` }));
    }),
    issueTravel: fromPromise(
      async ({ input }: { input: import('./travel-issue.js').TravelIssueRequest }) => {
        const payment = paymentObject(input.payment, deps);
        const result = await client.call('instantIssueTravelPolicy', {
          body: {
            packageId: input.packageId,
            destination: input.destination,
            startDate: input.startDate,
            reference: input.reference,
            policyHolder: {
              clientType: 'Individual',
              name: input.holder.name,
              idType: 'NRC',
              idNumber: input.holder.nrc,
              ...(input.holder.phone ? { phone: input.holder.phone } : {}),
            },
            beneficiaries: input.travellers.map((t) => ({
              ...splitName(t.name),
              relationship: t.relationship,
            })),
            ...(payment.mobileMoneyAccountNumber
              ? { mobileMoneyAccountNumber: payment.mobileMoneyAccountNumber }
              : {}),
            ...(payment.cardDetails ? { cardDetails: payment.cardDetails } : {}),
          },
        });
        const policy = result.policy;
        const outcome = started(input.reference, result);
        if (outcome.status === 'pending') await deps.payments.track?.(input.reference);
        return {
          ...outcome,
          policyId: policy ? String(policy.id) : '',
          policyNumber: policy?.policyNumber ?? '',
          startDate: (policy?.startDate ?? input.startDate).slice(0, 10),
          endDate: (policy?.endDate ?? '').slice(0, 10),
          grossPremium: policy?.grossPremium ?? 0,
          currency: policy?.currency ?? 'ZMW',
        };
      },
    ),
    paymentStatus: transactionStatus,
    travelCertificate: fromPromise(
      async ({ input }: { input: { policyId: string; reference: string } }) => {
        // A policy paid by mobile money exists only once paid: find it through the transaction.
        let policyId = input.policyId;
        if (!policyId && input.reference) {
          const txn = await client.call('getTransaction', { path: { reference: input.reference } });
          policyId = txn.policyId ?? '';
        }
        if (!policyId) return {};
        const policy = await client.call('getTravelPolicy', { path: { policyId } });
        const url = await keep(
          deps,
          `travel-${policy.policyNumber ?? policyId}.pdf`,
          'application/pdf',
          client.download('getTravelPolicyCertificate', { path: { policyId } }),
        );
        const out: TravelCertificate = {
          policyId,
          startDate: (policy.startDate ?? '').slice(0, 10),
          endDate: (policy.endDate ?? '').slice(0, 10),
        };
        if (policy.policyNumber) out.policyNumber = policy.policyNumber;
        if (url) out.url = url;
        return out;
      },
    ),
  };

  const getClaimOf = (line: ClaimLine, claimId: string) =>
    line === 'credit-life'
      ? client.call('getCreditLifeClaim', { path: { claimId } })
      : client.call('getGroupLifeClaim', { path: { claimId } });

  const listClaims = async (line: ClaimLine, max: number) =>
    line === 'credit-life'
      ? firstPage(client.paginate('getCreditLifeClaims', { query: { PageSize: max } }), max)
      : firstPage(client.paginate('getGroupLifeClaims', { query: { PageSize: max } }), max);

  const claims = {
    intimateClaim: fromPromise(
      async ({ input }: { input: import('./claim-intimation.js').ClaimRequest }) => {
        const path = { policyId: input.policyId };
        const claim =
          input.line === 'credit-life'
            ? await client.call('intimateCreditLifeClaim', {
                path,
                body: {
                  ...(input.by === 'loanId'
                    ? { loanId: input.subject }
                    : { partnerLoanReference: input.subject }),
                  // The sandbox and the spec name scopes of cover by their product names.
                  claimType: input.claimType === 'disability' ? 'Permanent disability' : 'Death',
                  lossDate: input.eventDate,
                  description: input.details,
                },
              })
            : await client.call('intimateGroupLifeClaim', {
                path,
                body: {
                  ...(input.by === 'memberId'
                    ? { memberId: input.subject }
                    : { nrcNumber: input.subject }),
                  lossDate: input.eventDate,
                  causeOfDeath: input.details,
                },
              });
        return claimSummary(claim);
      },
    ),
    attachDocuments: fromPromise(
      async ({ input }: { input: { line: ClaimLine; claimId: string; urls: string[] } }) => {
        const body = { documents: input.urls.map((url) => ({ url })) };
        const path = { claimId: input.claimId };
        const claim =
          input.line === 'credit-life'
            ? await client.call('attachCreditLifeClaimDocuments', { path, body })
            : await client.call('attachGroupLifeClaimDocuments', { path, body });
        return claimSummary(claim);
      },
    ),
    trackClaims: fromPromise(async ({ input }: { input: { line: ClaimLine } }) =>
      (await listClaims(input.line, 5)).map(claimSummary),
    ),
    getClaim: fromPromise(async ({ input }: { input: { line: ClaimLine; claimId: string } }) =>
      claimSummary(await getClaimOf(input.line, input.claimId)),
    ),
  };

  const cover = {
    lookupCover: fromPromise(
      async ({ input }: { input: { nrc: string } }): Promise<CoverLookup> => {
        const [home, lifePolicies, creditPolicies] = await Promise.all([
          household(client, input.nrc),
          firstPage(client.paginate('getGroupLifePolicies'), MAX_POLICIES_SCANNED),
          firstPage(client.paginate('getCreditLifePolicies'), MAX_POLICIES_SCANNED),
        ]);
        const life: LifeCover[] = [];
        for (const policy of lifePolicies) {
          const member = await orNotFound(
            client.call('getCoveredMemberByNrc', {
              path: { policyId: String(policy.id) },
              query: { nrcNumber: input.nrc },
            }),
            null,
          );
          if (!member) continue;
          const entry: LifeCover = {
            policyNumber: policy.policyNumber ?? String(policy.id),
            status: member.status ?? policy.status ?? '',
            currency: policy.currency ?? 'ZMW',
          };
          if (member.sumAssured != null) entry.sumAssured = member.sumAssured;
          life.push(entry);
        }
        const loans: LoanCover[] = [];
        for (const policy of creditPolicies) {
          const policyId = String(policy.id);
          const found = await firstPage(
            client.paginate('searchCoveredLoans', {
              path: { policyId },
              query: { nrcNumber: input.nrc },
            }),
            3,
          );
          if (found.length === 0) continue;
          const state = await client.call('getCreditLifePolicyStatus', { path: { policyId } });
          for (const loan of found) {
            loans.push({
              reference: loan.partnerLoanReference ?? String(loan.id),
              amount: loan.amount ?? 0,
              currency: policy.currency ?? 'ZMW',
              endDate: (loan.endDate ?? '').slice(0, 10),
              ...coverWord(state),
            });
          }
        }
        return { household: home, life, loans };
      },
    ),
  };

  const staffClaim = (line: ClaimLine, claim: Claim): StaffClaim => {
    const summary = claimSummary(claim);
    const out: StaffClaim = {
      id: summary.number,
      line,
      status: summary.status,
      currency: summary.currency,
    };
    const amount = summary.payable ?? claim.amountClaimed ?? undefined;
    if (amount != null) out.amount = amount;
    return out;
  };

  const staff = {
    findPolicy: fromPromise(async ({ input }: { input: { query: string } }) => {
      const plate = checkPlate(input.query);
      const byPlate = plate.ok
        ? await orNotFound(
            client.call('getMotorPolicyByRegistration', {
              query: { registrationNumber: plate.value },
            }),
            [],
          )
        : [];
      const policy =
        byPlate[0] ??
        (await orNotFound(
          client.call('getMotorPolicy', { path: { policyId: input.query } }),
          null,
        )) ??
        (await firstPage(client.paginate('getPolicies', { query: { PageSize: 50 } }), 200)).find(
          (p) => p.policyNumber === input.query,
        );
      if (!policy) {
        throw Object.assign(new Error('policy not found'), { name: 'NotFound', status: 404 });
      }
      const out: import('./staff-desk.js').StaffPolicy = {
        policyNumber: policy.policyNumber ?? String(policy.id),
        status: policy.status,
        product: String(policy.productId ?? ''),
        startDate: (policy.startDate ?? '').slice(0, 10),
        endDate: (policy.endDate ?? '').slice(0, 10),
        currency: policy.currency ?? 'ZMW',
      };
      if (policy.grossPremium != null) out.premium = policy.grossPremium;
      return out;
    }),
    getClaim: fromPromise(async ({ input }: { input: { claimId: string } }) => {
      const credit = await orNotFound(getClaimOf('credit-life', input.claimId), null);
      if (credit) return staffClaim('credit-life', credit);
      return staffClaim('group-life', await getClaimOf('group-life', input.claimId));
    }),
    trackClaims: fromPromise<StaffClaim[], Record<string, never>>(async () => {
      const [credit, group] = await Promise.all([
        listClaims('credit-life', 5),
        listClaims('group-life', 5),
      ]);
      return [
        ...credit.map((c) => staffClaim('credit-life', c)),
        ...group.map((c) => staffClaim('group-life', c)),
      ];
    }),
    transactionStatus: fromPromise(async ({ input }: { input: { reference: string } }) => {
      const path = { reference: input.reference };
      const [txn, log] = await Promise.all([
        client.call('getTransactionStatus', { path }),
        orNotFound(client.call('getCallbackLogs', { path }), []),
      ]);
      const last = log.at(-1);
      const out: import('./staff-desk.js').StaffTransaction = {
        reference: txn.reference,
        status: txn.status,
        amount: txn.amount ?? 0,
        currency: txn.currency ?? 'ZMW',
        deliveries: log.length,
      };
      if (last)
        out.lastDelivery = last.statusCode != null ? String(last.statusCode) : (last.error ?? '');
      return out;
    }),
    householdByNrc: fromPromise(async ({ input }: { input: { nrc: string } }) =>
      household(client, input.nrc),
    ),
    getBatch: fromPromise(async ({ input }: { input: { policyId: string; batchId: string } }) => {
      const credit = await orNotFound(
        client.call('getCreditLifeBatch', { path: { scheduleId: input.batchId } }),
        null,
      );
      if (credit) {
        return {
          line: 'credit-life' as const,
          number: credit.number ?? String(credit.id),
          status: credit.status,
          count: credit.totalLoans ?? credit.loans?.length ?? 0,
          grossPremium: credit.grossPremium ?? 0,
          outstandingPremium: credit.outstandingPremium ?? 0,
          currency: credit.currency ?? 'ZMW',
        };
      }
      const group = await client.call('getGroupLifeBatch', { path: { batchId: input.batchId } });
      return {
        line: 'group-life' as const,
        number: group.number ?? String(group.id),
        status: group.status,
        count: group.totalMembers ?? 0,
        grossPremium: group.grossPremium ?? 0,
        outstandingPremium: group.outstandingPremium ?? 0,
        currency: group.currency ?? 'ZMW',
      };
    }),
    bordereau: fromPromise(async ({ input }: { input: { policyId: string } }) => {
      const fileName = `bordereau-${input.policyId}.csv`;
      const url = await keep(
        deps,
        fileName,
        'text/csv',
        client.download('getCreditLifeBordereau', { path: { policyId: input.policyId } }),
      );
      if (!url) {
        throw Object.assign(new Error('no file store'), { name: 'NoFileStore', status: 503 });
      }
      return { url, fileName };
    }),
  };

  return { motor, travel, claims, cover, staff };
}

export { claimIntimationFlow, claimIntimationMachine } from './claim-intimation.js';
export { coverStatusFlow, coverStatusMachine } from './cover-status.js';
export { mainMenuFlow, mainMenuMachine } from './main-menu.js';
export { motorQuoteFlow, motorQuoteMachine } from './motor-quote.js';
export { parseStaffCommand, staffDeskFlow, staffDeskMachine } from './staff-desk.js';
export { travelIssueFlow, travelIssueMachine } from './travel-issue.js';
