import {
  catalogueOf,
  GENERAL_PRODUCTS,
  LIFE_PRODUCTS,
  MOTOR_RISK_CATEGORIES,
  type MotorProductDefinition,
  SANDBOX_INSURER,
} from './catalogue.js';
import { activeMotorPolicyFor, getClient, plateKey, requireDate } from './clients.js';
import { addDays, addMonths, daysBetween, isoDate, monthsBetween } from './dates.js';
import { inWindow, type PageInput, paginate, paginateViews } from './paginate.js';
import { collect, type PaymentInput } from './payments.js';
import { calculatePremium, type PremiumBreakdown, roundMoney, withLevy } from './premium.js';
import { renderPdf } from './render-pdf.js';
import {
  type FieldErrors,
  invalid,
  notFound,
  ruleBroken,
  SandboxHttpError,
} from './sandbox-error.js';
import type { Json, PolicyRecord, QuotationRecord, RetailLine, SandboxContext } from './state.js';

const LINE_PREFIX: Record<RetailLine, string> = {
  motor: 'MTR',
  travel: 'TRV',
  life: 'LIF',
  general: 'GEN',
};

/** Finds a motor product by id (number or numeric string). */
export function motorProduct(ctx: SandboxContext, id: string | number): MotorProductDefinition {
  const product = catalogueOf(ctx).motor.find((candidate) => String(candidate.id) === String(id));
  if (!product) throw notFound('Motor product', id);
  return product;
}

function riskCategory(id: string | number): string {
  const category = MOTOR_RISK_CATEGORIES.find((candidate) => String(candidate.id) === String(id));
  if (!category) {
    throw invalid('Validation failed', { motorRiskCategoryId: [`Unknown risk category ${id}`] });
  }
  return category.id;
}

function unitMonths(product: MotorProductDefinition): number {
  return product.durationType === 'Quarters' ? 3 : 1;
}

/** The period a motor duration covers: start to the day before the anniversary. */
function motorPeriod(
  product: MotorProductDefinition,
  start: Date,
  duration: number,
): { startDate: string; endDate: string } {
  return {
    startDate: isoDate(start),
    endDate: isoDate(addDays(addMonths(start, duration * unitMonths(product)), -1)),
  };
}

/** Motor premium for one risk: flat third party by category and duration, or rate × sum insured. */
function motorPremium(
  ctx: SandboxContext,
  product: MotorProductDefinition,
  riskCategoryId: string | number,
  duration: number,
  sumInsured: number | undefined,
): PremiumBreakdown {
  const category = riskCategory(riskCategoryId);
  if (product.flatPerUnit) {
    return calculatePremium({
      levyRate: ctx.levyRate,
      flatPremium: product.flatPerUnit[category] ?? 0,
      scale: duration,
    });
  }
  if (sumInsured === undefined || sumInsured <= 0) {
    throw invalid('Validation failed', {
      sumInsured: [`A sum insured is needed for ${product.productType} cover`],
    });
  }
  return calculatePremium({
    levyRate: ctx.levyRate,
    rate: product.annualRate ?? 0,
    sumInsured,
    scale: (duration * unitMonths(product)) / 12,
  });
}

function sumPremiums(parts: readonly PremiumBreakdown[]): PremiumBreakdown {
  return {
    basicPremium: roundMoney(parts.reduce((sum, part) => sum + part.basicPremium, 0)),
    levyPremium: roundMoney(parts.reduce((sum, part) => sum + part.levyPremium, 0)),
    grossPremium: roundMoney(parts.reduce((sum, part) => sum + part.grossPremium, 0)),
  };
}

/** Motor pricing: one option per offered duration (or the requested period); persists nothing. */
export function motorPricing(
  ctx: SandboxContext,
  body: {
    productId: string | number;
    riskCategoryId: string | number;
    startDate?: string | undefined;
    endDate?: string | undefined;
    sumInsured?: number | undefined;
  },
): Json {
  const product = motorProduct(ctx, body.productId);
  const start = body.startDate ? requireDate(body.startDate, 'startDate') : ctx.clock.now();
  if (product.productType !== 'ThirdParty' && body.endDate === undefined) {
    throw invalid('Validation failed', {
      endDate: [`An end date is required for ${product.productType} products`],
    });
  }
  const durations =
    body.endDate !== undefined
      ? [
          Math.max(
            1,
            Math.ceil(
              monthsBetween(start, addDays(requireDate(body.endDate, 'endDate'), 1)) /
                unitMonths(product),
            ),
          ),
        ]
      : product.durations;
  const unit = product.durationType === 'Quarters' ? 'quarter' : 'month';
  return {
    productId: product.id,
    productName: product.name,
    productType: product.productType,
    durationType: product.durationType,
    pricingOptions: durations.map((duration) => ({
      duration,
      label: `${duration} ${unit}${duration === 1 ? '' : 's'}`,
      ...motorPremium(ctx, product, body.riskCategoryId, duration, body.sumInsured),
      currency: 'ZMW',
      ...motorPeriod(product, start, duration),
    })),
  };
}

interface MotorRiskInput {
  readonly motorRiskCategoryId: string;
  readonly sumInsured?: number | undefined;
  readonly registrationNumber?: string | undefined;
}

interface MotorInquiryInput {
  readonly productId: string | number;
  readonly duration: number;
  readonly currency: string;
  readonly startDate: string;
  readonly risks: readonly MotorRiskInput[];
}

/** Prices a motor inquiry without persisting anything. */
export function motorEstimate(ctx: SandboxContext, body: MotorInquiryInput): Json {
  const product = motorProduct(ctx, body.productId);
  const start = requireDate(body.startDate, 'startDate');
  const premium = sumPremiums(
    body.risks.map((risk) =>
      motorPremium(ctx, product, risk.motorRiskCategoryId, body.duration, risk.sumInsured),
    ),
  );
  return {
    productId: product.id,
    productName: product.name,
    productType: product.productType,
    ...premium,
    premiumLevy: premium.levyPremium,
    premium: premium.grossPremium,
    currency: body.currency,
    ...motorPeriod(product, start, body.duration),
  };
}

/** Prices the same risks across several motor products; persists nothing. */
export function motorComparison(
  ctx: SandboxContext,
  body: Omit<MotorInquiryInput, 'productId'> & { productIds: readonly (string | number)[] },
): Json[] {
  return body.productIds.map((productId) => motorEstimate(ctx, { ...body, productId }));
}

function newQuotation(
  ctx: SandboxContext,
  line: RetailLine,
  fields: {
    clientId: string | null;
    productId: string | number;
    premium: PremiumBreakdown;
    currency: string;
    startDate: string;
    endDate: string;
    extra?: Json;
  },
): QuotationRecord {
  const id = ctx.ids.next('quo');
  const quotation: QuotationRecord = {
    ...fields.extra,
    id,
    line,
    quotationNumber: `Q-${LINE_PREFIX[line]}-${String(ctx.ids.seq('quotation')).padStart(6, '0')}`,
    status: 'Draft',
    clientId: fields.clientId,
    productId: fields.productId,
    premium: fields.premium.grossPremium,
    basicPremium: fields.premium.basicPremium,
    levyPremium: fields.premium.levyPremium,
    premiumLevy: fields.premium.levyPremium,
    grossPremium: fields.premium.grossPremium,
    currency: fields.currency,
    startDate: fields.startDate,
    endDate: fields.endDate,
    policyId: null,
    createdAt: ctx.clock.now().toISOString(),
  };
  ctx.state.quotations.set(id, quotation);
  return quotation;
}

/** Creates a motor quotation for a registered client's registered vehicles. */
export function createMotorQuotation(
  ctx: SandboxContext,
  body: {
    productId: string | number;
    duration: number;
    currency: string;
    startDate: string;
    clientId: string;
    risks: readonly {
      vehicleId: string;
      sumInsured?: number | undefined;
      /** The spec puts the risk category on the risk; the vehicle's own is the fallback. */
      motorRiskCategoryId?: unknown;
    }[];
  },
): QuotationRecord {
  getClient(ctx, body.clientId);
  const product = motorProduct(ctx, body.productId);
  const start = requireDate(body.startDate, 'startDate');
  const vehicles = body.risks.map((risk, index) => {
    const vehicle = ctx.state.vehicles.get(risk.vehicleId);
    if (!vehicle) throw notFound('Vehicle', risk.vehicleId);
    if (vehicle.clientId !== body.clientId) {
      throw ruleBroken('The vehicle is registered to another client', `risks.${index}.vehicleId`);
    }
    const given = risk.motorRiskCategoryId;
    const categoryId =
      typeof given === 'string' || typeof given === 'number'
        ? String(given)
        : vehicle.motorRiskCategoryId;
    return { vehicle, sumInsured: risk.sumInsured, categoryId };
  });
  const premium = sumPremiums(
    vehicles.map(({ categoryId, sumInsured }) =>
      motorPremium(ctx, product, categoryId, body.duration, sumInsured),
    ),
  );
  return newQuotation(ctx, 'motor', {
    clientId: body.clientId,
    productId: product.id,
    premium,
    currency: body.currency,
    ...motorPeriod(product, start, body.duration),
    extra: {
      duration: body.duration,
      registrationNumbers: vehicles.map(({ vehicle }) => vehicle.registrationNumber),
      pricing: vehicles.map(({ categoryId, sumInsured }) => ({
        riskCategoryId: categoryId,
        sumInsured: sumInsured ?? null,
      })),
    },
  });
}

function motorQuotationFromInquiry(
  ctx: SandboxContext,
  body: MotorInquiryInput & { policyHolder?: Json | undefined },
): QuotationRecord {
  const product = motorProduct(ctx, body.productId);
  const estimate = motorEstimate(ctx, body);
  return newQuotation(ctx, 'motor', {
    clientId: null,
    productId: product.id,
    premium: {
      basicPremium: Number(estimate.basicPremium),
      levyPremium: Number(estimate.levyPremium),
      grossPremium: Number(estimate.grossPremium),
    },
    currency: body.currency,
    startDate: String(estimate.startDate),
    endDate: String(estimate.endDate),
    extra: {
      duration: body.duration,
      policyHolder: body.policyHolder ?? null,
      registrationNumbers: body.risks.flatMap((risk) =>
        risk.registrationNumber ? [risk.registrationNumber] : [],
      ),
      pricing: body.risks.map((risk) => ({
        riskCategoryId: risk.motorRiskCategoryId,
        sumInsured: risk.sumInsured ?? null,
      })),
    },
  });
}

/** A quotation of a line by id. */
export function getQuotation(ctx: SandboxContext, id: string, line?: RetailLine): QuotationRecord {
  const quotation = ctx.state.quotations.get(id);
  if (!quotation || (line !== undefined && quotation.line !== line))
    throw notFound('Quotation', id);
  return quotation;
}

/** Quotations of a line, paginated, with the two date-time filters. */
export function listQuotations(
  ctx: SandboxContext,
  line: RetailLine,
  query: PageInput & { FromDate?: string | undefined; ToDate?: string | undefined },
) {
  const items = [...ctx.state.quotations.values()].filter((quotation) => quotation.line === line);
  return paginate(inWindow(items, query.FromDate, query.ToDate), query);
}

/** Issues the policy of a quotation (once); `paid` says whether its premium was collected. */
export function issueFromQuotation(
  ctx: SandboxContext,
  quotation: QuotationRecord,
  paid: boolean,
): PolicyRecord {
  if (quotation.policyId) {
    const existing = ctx.state.policies.get(quotation.policyId);
    if (existing) {
      if (paid) existing.premiumStatus = 'Paid';
      return existing;
    }
  }
  const now = ctx.clock.now().toISOString();
  const id = ctx.ids.next('pol');
  const policy: PolicyRecord = {
    id,
    line: quotation.line,
    policyNumber: `${LINE_PREFIX[quotation.line]}-${now.slice(0, 4)}-${String(
      ctx.ids.seq('policy'),
    ).padStart(6, '0')}`,
    status: 'Active',
    premiumStatus: paid ? 'Paid' : 'Unpaid',
    clientId: quotation.clientId,
    quotationId: quotation.id,
    quoteId: quotation.id,
    productId: quotation.productId,
    registrationNumbers: Array.isArray(quotation.registrationNumbers)
      ? (quotation.registrationNumbers as string[])
      : [],
    startDate: quotation.startDate,
    endDate: quotation.endDate,
    basicPremium: quotation.basicPremium,
    premiumLevy: quotation.premiumLevy,
    grossPremium: quotation.grossPremium,
    currency: quotation.currency,
    duration: quotation.duration ?? null,
    pricing: quotation.pricing ?? null,
    policyHolder: quotation.policyHolder ?? null,
    risks: quotation.risks ?? null,
    destination: quotation.destination ?? null,
    beneficiaries: quotation.beneficiaries ?? null,
    createdAt: now,
    updatedAt: now,
    approvedDate: now,
  };
  if (policy.registrationNumbers[0]) policy.registrationNumber = policy.registrationNumbers[0];
  ctx.state.policies.set(id, policy);
  quotation.status = 'Issued';
  quotation.policyId = id;
  return policy;
}

/** A policy as returned: status derived from the clock (Expired after its end date). */
export function policyView(ctx: SandboxContext, policy: PolicyRecord): Json {
  const today = isoDate(ctx.clock.now());
  const status = policy.status === 'Active' && policy.endDate < today ? 'Expired' : policy.status;
  return { ...policy, status };
}

function policyRefOf(ctx: SandboxContext, quotation: QuotationRecord) {
  return () => {
    const policy = quotation.policyId ? ctx.state.policies.get(quotation.policyId) : undefined;
    return {
      policyId: policy?.id ?? null,
      policyNumber: policy?.policyNumber ?? null,
      policyStatus: policy ? String(policyView(ctx, policy).status) : null,
    };
  };
}

/**
 * Pays for a quotation (any line): mobile money and card come back Pending and the policy is
 * issued on success; External issues at once, and so does PayLater for a partner set up for
 * deferred billing (refused otherwise). The same reference returns the same transaction; a
 * quotation with a Pending or Successful payment refuses another reference (409), while one whose
 * payments all Failed may be paid again.
 */
export function payQuotation(
  ctx: SandboxContext,
  quoteId: string,
  body: { reference?: string | undefined; payment?: PaymentInput | undefined },
  origin: string,
): Json {
  const quotation = getQuotation(ctx, quoteId);
  const { result } = collect(ctx, {
    reference: body.reference,
    payment: body.payment,
    amount: quotation.grossPremium,
    currency: quotation.currency,
    description: `Premium for quotation ${quotation.quotationNumber as string}`,
    subjectId: quotation.id,
    onePerSubject: 'pending-or-paid',
    subjectName: 'quotation',
    origin,
    onSuccess: () => issueFromQuotation(ctx, quotation, true),
    policyRef: policyRefOf(ctx, quotation),
  });
  const policy = quotation.policyId ? ctx.state.policies.get(quotation.policyId) : undefined;
  return { ...result, policy: policy ? policyView(ctx, policy) : null };
}

/**
 * Issuing without collecting money is PayLater: only a partner set up for deferred billing may
 * do it (422 otherwise, with what to do instead).
 */
function assertDeferredBilling(ctx: SandboxContext, what: string): void {
  if (!ctx.deferredBilling) {
    throw ruleBroken(
      `${what} without payment is PayLater, which needs a partner set up for deferred billing; use the operation that pays instead`,
      'payment',
    );
  }
}

/** The policy already issued under a partner reference, if any. */
function policyByReference(ctx: SandboxContext, reference: string | undefined) {
  if (reference === undefined || reference === '') return undefined;
  return [...ctx.state.policies.values()].find((policy) => policy.reference === reference);
}

/**
 * Instant issue of a motor policy without payment (PayLater, so deferred billing only). The
 * reference is kept on the policy for reconciliation: sending it again returns the same policy.
 */
export function motorInstantIssue(
  ctx: SandboxContext,
  body: MotorInquiryInput & {
    policyHolder?: Json | undefined;
    reference?: string | undefined;
    payment?: PaymentInput | undefined;
  },
): Json {
  const again = policyByReference(ctx, body.reference);
  if (again) return { status: 'Success', message: 'Policy issued', policy: policyView(ctx, again) };
  // The spec names this operation "for PayLater or external settlement": External needs no
  // deferred billing, the partner settles outside the platform.
  if (body.payment?.method !== 'External') assertDeferredBilling(ctx, 'Instant issue');
  const quotation = motorQuotationFromInquiry(ctx, body);
  const policy = issueFromQuotation(ctx, quotation, false);
  if (body.reference) policy.reference = body.reference;
  return { status: 'Success', message: 'Policy issued', policy: policyView(ctx, policy) };
}

/** Instant issue and pay of a motor policy: Pending until the payment settles. */
export function motorInstantIssuePay(
  ctx: SandboxContext,
  body: MotorInquiryInput & {
    policyHolder?: Json | undefined;
    reference: string;
    payment: PaymentInput;
  },
  origin: string,
): Json {
  const existing = ctx.payments.get(body.reference);
  if (existing?.subjectId) return payQuotation(ctx, existing.subjectId, body, origin);
  const quotation = motorQuotationFromInquiry(ctx, body);
  return payQuotation(ctx, quotation.id, body, origin);
}

/**
 * Issues the policy of a quotation without collecting payment (PayLater, so deferred billing
 * only). Issuing an issued quotation returns its policy; a quotation being paid is not issued
 * around its payment (409); the reference is kept on the policy, and one reference names one
 * policy.
 */
export function issueQuotation(
  ctx: SandboxContext,
  quoteId: string,
  line: RetailLine,
  body: { reference?: string | undefined } = {},
): PolicyRecord {
  const quotation = getQuotation(ctx, quoteId, line);
  const existing = quotation.policyId ? ctx.state.policies.get(quotation.policyId) : undefined;
  if (existing) return existing;
  const named = policyByReference(ctx, body.reference);
  if (named) {
    throw new SandboxHttpError(409, `Reference ${body.reference} already names another policy`, {
      reference: ['Already used'],
    });
  }
  const paying = ctx.payments
    .all()
    .find((transaction) => transaction.subjectId === quoteId && transaction.status === 'Pending');
  if (paying) {
    throw new SandboxHttpError(
      409,
      `A payment for this quotation is in progress under reference ${paying.reference}; the policy is issued when it succeeds`,
      { quoteId: ['Payment in progress'] },
    );
  }
  assertDeferredBilling(ctx, 'Issuing a policy');
  const policy = issueFromQuotation(ctx, quotation, false);
  if (body.reference) policy.reference = body.reference;
  return policy;
}

/** A policy of a line by id. */
export function getPolicy(ctx: SandboxContext, id: string, line?: RetailLine): PolicyRecord {
  const policy = ctx.state.policies.get(id);
  if (!policy || (line !== undefined && policy.line !== line)) throw notFound('Policy', id);
  return policy;
}

/** Policies of a line (or all lines), paginated, with the two date-time filters. */
export function listPolicies(
  ctx: SandboxContext,
  line: RetailLine | undefined,
  query: PageInput & { FromDate?: string | undefined; ToDate?: string | undefined },
) {
  const items = [...ctx.state.policies.values()].filter(
    (policy) => line === undefined || policy.line === line,
  );
  return paginateViews(inWindow(items, query.FromDate, query.ToDate), query, (policy) =>
    policyView(ctx, policy),
  );
}

/** The motor policy covering a plate (the newest one). */
export function motorPolicyByRegistration(ctx: SandboxContext, registrationNumber: string): Json {
  const active = activeMotorPolicyFor(ctx, registrationNumber);
  const key = plateKey(registrationNumber);
  const policy =
    active ??
    [...ctx.state.policies.values()]
      .reverse()
      .find(
        (candidate) =>
          candidate.line === 'motor' &&
          candidate.registrationNumbers.some((plate) => plateKey(plate) === key),
      );
  if (!policy) throw notFound('Motor policy for vehicle', registrationNumber);
  return policyView(ctx, policy);
}

function termDays(policy: PolicyRecord): number {
  return Math.max(1, daysBetween(new Date(policy.startDate), new Date(policy.endDate)) + 1);
}

/** The premium and period of renewing a policy for the same term; writes nothing. */
export function renewalQuote(
  ctx: SandboxContext,
  policy: PolicyRecord,
  body: { startDate?: string | undefined; endDate?: string | undefined } = {},
): Json {
  const start = body.startDate
    ? requireDate(body.startDate, 'startDate')
    : addDays(new Date(policy.endDate), 1);
  const days = body.endDate
    ? daysBetween(start, requireDate(body.endDate, 'endDate')) + 1
    : termDays(policy);
  if (days < 1) throw invalid('Validation failed', { endDate: ['Must be after the start date'] });
  const premium = withLevy((policy.basicPremium * days) / termDays(policy), ctx.levyRate);
  return {
    policyId: policy.id,
    ...premium,
    currency: policy.currency,
    startDate: isoDate(start),
    endDate: isoDate(addDays(start, days - 1)),
  };
}

/** The premium of extending a policy to `endDate`, pro-rated on its current term; writes nothing. */
export function extensionQuote(
  ctx: SandboxContext,
  policy: PolicyRecord,
  endDate: string | undefined,
  extraDays = 30,
): Json {
  const currentEnd = new Date(policy.endDate);
  const newEnd = endDate ? requireDate(endDate, 'endDate') : addDays(currentEnd, extraDays);
  const days = daysBetween(currentEnd, newEnd);
  if (days < 1) {
    throw ruleBroken('The new end date must be after the policy end date', 'endDate');
  }
  const premium = withLevy((policy.basicPremium * days) / termDays(policy), ctx.levyRate);
  return {
    policyId: policy.id,
    ...premium,
    currency: policy.currency,
    startDate: isoDate(addDays(currentEnd, 1)),
    endDate: isoDate(newEnd),
  };
}

function applyPeriod(
  ctx: SandboxContext,
  policy: PolicyRecord,
  quote: Json,
  renewal: boolean,
): void {
  if (renewal) policy.startDate = String(quote.startDate);
  policy.endDate = String(quote.endDate);
  policy.status = 'Active';
  policy.updatedAt = ctx.clock.now().toISOString();
}

/** Renews a policy without payment (PayLater, so deferred billing only). */
export function renewPolicy(
  ctx: SandboxContext,
  policy: PolicyRecord,
  body: { startDate?: string | undefined; endDate?: string | undefined },
): Json {
  assertDeferredBilling(ctx, 'Renewing a policy');
  const quote = renewalQuote(ctx, policy, body);
  applyPeriod(ctx, policy, quote, true);
  policy.premiumStatus = 'Unpaid';
  return policyView(ctx, policy);
}

/**
 * Extends a policy to a new end date without payment. Motor extension without payment is
 * PayLater (deferred billing only); "Extend general policy" takes only an endDate in the spec,
 * which states no billing rule for it, so `general` extends for any partner.
 */
export function extendPolicy(
  ctx: SandboxContext,
  policy: PolicyRecord,
  endDate: string | undefined,
  line: 'motor' | 'general' = 'motor',
): Json {
  if (line === 'motor') assertDeferredBilling(ctx, 'Extending a policy');
  const quote = extensionQuote(ctx, policy, endDate);
  applyPeriod(ctx, policy, quote, false);
  return policyView(ctx, policy);
}

/** Renews or extends through the payment gateway: the new period applies once paid. */
export function periodAndPay(
  ctx: SandboxContext,
  policy: PolicyRecord,
  kind: 'renew' | 'extend',
  body: {
    reference: string;
    payment?: PaymentInput | undefined;
    startDate?: string | undefined;
    endDate?: string | undefined;
  },
  origin: string,
): Json {
  const quote =
    kind === 'renew' ? renewalQuote(ctx, policy, body) : extensionQuote(ctx, policy, body.endDate);
  const { result } = collect(ctx, {
    reference: body.reference,
    payment: body.payment,
    amount: Number(quote.grossPremium),
    currency: policy.currency,
    description: `${kind === 'renew' ? 'Renewal' : 'Extension'} of ${policy.policyNumber}`,
    subjectId: policy.id,
    onePerSubject: 'pending',
    subjectName: 'policy',
    origin,
    onSuccess: () => {
      applyPeriod(ctx, policy, quote, kind === 'renew');
      policy.premiumStatus = 'Paid';
    },
    policyRef: () => ({
      policyId: policy.id,
      policyNumber: policy.policyNumber,
      policyStatus: String(policyView(ctx, policy).status),
    }),
  });
  return { ...result, policy: policyView(ctx, policy) };
}

/** Document kinds served as PDFs. */
export type DocumentKind = 'certificate' | 'schedule' | 'receipt';

/** A policy document as a small real PDF; a receipt only once the premium is paid. */
export function policyDocument(
  ctx: SandboxContext,
  policy: PolicyRecord,
  kind: DocumentKind,
): Buffer {
  if (kind === 'receipt' && policy.premiumStatus !== 'Paid') {
    throw ruleBroken('No premium has been received for this policy yet', 'policyId');
  }
  const title = {
    certificate: 'Certificate of Insurance',
    schedule: 'Policy Schedule',
    receipt: 'Premium Receipt',
  }[kind];
  const view = policyView(ctx, policy);
  const money = [
    `Basic premium: ${policy.currency} ${policy.basicPremium.toFixed(2)}`,
    `Levy: ${policy.currency} ${policy.premiumLevy.toFixed(2)}`,
    `Gross premium: ${policy.currency} ${policy.grossPremium.toFixed(2)}`,
  ];
  const head = [
    `Policy number: ${policy.policyNumber}`,
    `Line of business: ${policy.line}`,
    `Status: ${String(view.status)}`,
    `Period: ${policy.startDate} to ${policy.endDate}`,
  ];
  // Each line's document speaks of what that line covers.
  const particulars =
    policy.line === 'motor'
      ? [
          ...policy.registrationNumbers.map((plate) => `Vehicle: ${plate}`),
          ...money,
          `Issued: ${policy.approvedDate}`,
          'SANDBOX DOCUMENT - NOT VALID FOR ROAD USE',
        ]
      : policy.line === 'travel'
        ? [
            `Destination: ${String(policy.destination ?? 'not stated')}`,
            ...travellerNames(policy).map((name) => `Traveller: ${name}`),
            'Cover: emergency medical expenses, evacuation and repatriation, baggage and trip cancellation while travelling',
            ...money,
            `Issued: ${policy.approvedDate}`,
            'SANDBOX DOCUMENT - NOT VALID FOR TRAVEL OR AT ANY BORDER',
          ]
        : [...money, `Issued: ${policy.approvedDate}`, 'SANDBOX DOCUMENT - NOT A REAL POLICY'];
  return renderPdf(`${SANDBOX_INSURER.name} - ${title}`, [...head, ...particulars]);
}

function travellerNames(policy: PolicyRecord): string[] {
  const list = Array.isArray(policy.beneficiaries) ? (policy.beneficiaries as Json[]) : [];
  return list.map((traveller) =>
    [traveller.firstName, traveller.lastName].filter((part) => typeof part === 'string').join(' '),
  );
}

// ----- travel -----------------------------------------------------------------------------

function travelPackage(ctx: SandboxContext, id: string | number) {
  const found = catalogueOf(ctx).travel.find((candidate) => String(candidate.id) === String(id));
  if (!found) throw notFound('Travel package', id);
  return found;
}

/** Creates a travel quotation: daily rate × days × travellers. */
export function createTravelQuotation(
  ctx: SandboxContext,
  body: {
    packageId: string | number;
    clientId?: string | undefined;
    destination: string;
    startDate: string;
    endDate?: string | undefined;
    policyHolder?: Json | undefined;
    beneficiaries?: readonly Json[] | undefined;
    /** The partner reference that names this quotation (instant issue). */
    reference?: string | undefined;
  },
): QuotationRecord {
  const pack = travelPackage(ctx, body.packageId);
  if (body.clientId !== undefined) getClient(ctx, body.clientId);
  const start = requireDate(body.startDate, 'startDate');
  const end = body.endDate ? requireDate(body.endDate, 'endDate') : addDays(start, 6);
  const days = daysBetween(start, end) + 1;
  if (days < 1) throw invalid('Validation failed', { endDate: ['Must not be before startDate'] });
  const travellers = Math.max(1, body.beneficiaries?.length ?? 0);
  return newQuotation(ctx, 'travel', {
    clientId: body.clientId ?? null,
    productId: pack.id,
    premium: withLevy(pack.dailyRate * days * travellers, ctx.levyRate),
    currency: 'ZMW',
    startDate: isoDate(start),
    endDate: isoDate(end),
    extra: {
      destination: body.destination,
      policyHolder: body.policyHolder ?? null,
      beneficiaries: body.beneficiaries ?? [],
      ...(body.reference !== undefined ? { reference: body.reference } : {}),
    },
  });
}

/** The travel quotation a partner reference named before (a quote, or one being paid). */
function travelQuotationByReference(
  ctx: SandboxContext,
  reference: string,
): QuotationRecord | undefined {
  const paid = ctx.payments.get(reference);
  if (paid?.subjectId) return getQuotation(ctx, paid.subjectId);
  return [...ctx.state.quotations.values()].find(
    (quotation) => quotation.line === 'travel' && quotation.reference === reference,
  );
}

function travelQuoteFields(quotation: QuotationRecord): Json {
  return {
    quoteId: quotation.id,
    basicPremium: quotation.basicPremium,
    premiumLevy: quotation.premiumLevy,
    grossPremium: quotation.grossPremium,
    currency: quotation.currency,
    startDate: quotation.startDate,
    endDate: quotation.endDate,
  };
}

/**
 * Travel instant issue: creates, quotes and issues with payment in one step. The reference names
 * the quotation, so a repeat pays (or returns) the same one. On the quotation route a call without
 * mobileMoneyAccountNumber or cardDetails only quotes (status `Quoted`, the premium, no payment),
 * so a conversation can show the price before the customer pays; the same reference sent again
 * with payment details pays that quotation. On the policy route no payment details is PayLater.
 */
export function travelInstantIssue(
  ctx: SandboxContext,
  body: Parameters<typeof createTravelQuotation>[1] & {
    reference: string;
    mobileMoneyAccountNumber?: string | undefined;
    cardDetails?: unknown;
  },
  origin: string,
  route: 'policy' | 'quotation' = 'policy',
): Json {
  const quotation =
    travelQuotationByReference(ctx, body.reference) ??
    createTravelQuotation(ctx, { ...body, reference: body.reference });
  const payment =
    body.mobileMoneyAccountNumber !== undefined || body.cardDetails !== undefined
      ? { mobileMoneyAccountNumber: body.mobileMoneyAccountNumber, cardDetails: body.cardDetails }
      : undefined;
  if (payment === undefined && route === 'quotation' && !ctx.payments.get(body.reference)) {
    return {
      status: 'Quoted',
      message:
        'Premium quoted; send the same reference with mobileMoneyAccountNumber or cardDetails to pay',
      ...travelQuoteFields(quotation),
      policy: null,
    };
  }
  const result = payQuotation(ctx, quotation.id, { reference: body.reference, payment }, origin);
  return { ...result, ...travelQuoteFields(quotation) };
}

// ----- life and general --------------------------------------------------------------------

function lifeProduct(id: string | number) {
  const found = LIFE_PRODUCTS.find((candidate) => String(candidate.id) === String(id));
  if (!found) throw notFound('Life product', id);
  return found;
}

/** Creates a life quotation: annual rate × sum assured × term. */
export function createLifeQuotation(
  ctx: SandboxContext,
  body: {
    productId: string | number;
    clientId?: string | undefined;
    policyHolder?: Json | undefined;
    sumAssured?: number | undefined;
    startDate?: string | undefined;
    duration?: number | undefined;
  },
): QuotationRecord {
  const product = lifeProduct(body.productId);
  if (body.clientId !== undefined) getClient(ctx, body.clientId);
  const start = body.startDate ? requireDate(body.startDate, 'startDate') : ctx.clock.now();
  const months = body.duration ?? 12;
  const sumAssured = body.sumAssured ?? product.defaultSumAssured;
  return newQuotation(ctx, 'life', {
    clientId: body.clientId ?? null,
    productId: product.id,
    premium: calculatePremium({
      levyRate: ctx.levyRate,
      rate: product.annualRate,
      sumInsured: sumAssured,
      scale: months / 12,
    }),
    currency: 'ZMW',
    startDate: isoDate(start),
    endDate: isoDate(addDays(addMonths(start, months), -1)),
    extra: { sumAssured, duration: months, policyHolder: body.policyHolder ?? null },
  });
}

function generalProduct(id: string | number) {
  const found = GENERAL_PRODUCTS.find((candidate) => String(candidate.id) === String(id));
  if (!found) throw notFound('General product', id);
  return found;
}

/** Instant issue of a general policy: rate × sum insured pro-rated by days; pays if asked. */
export function generalInstantIssue(
  ctx: SandboxContext,
  body: {
    productId: string | number;
    startDate: string;
    endDate: string;
    currency?: string | undefined;
    policyHolder: Json;
    risks?: readonly Json[] | undefined;
    reference?: string | undefined;
    payment?: PaymentInput | undefined;
  },
  origin: string,
): Json {
  const again = policyByReference(ctx, body.reference);
  if (again) return generalPolicyView(ctx, again);
  const existing = body.reference ? ctx.payments.get(body.reference) : undefined;
  if (existing?.subjectId) {
    const quotation = getQuotation(ctx, existing.subjectId);
    const policy = quotation.policyId ? ctx.state.policies.get(quotation.policyId) : undefined;
    return policy ? generalPolicyView(ctx, policy) : { status: existing.status, id: quotation.id };
  }
  const product = generalProduct(body.productId);
  const start = requireDate(body.startDate, 'startDate');
  const end = requireDate(body.endDate, 'endDate');
  const days = daysBetween(start, end) + 1;
  if (days < 1) throw invalid('Validation failed', { endDate: ['Must not be before startDate'] });
  // Every risk is priced on the sum insured the partner states: a policy is never issued on a
  // figure nobody chose.
  const given = body.risks ?? [];
  if (given.length === 0) {
    throw invalid('Validation failed', {
      risks: ['At least one risk with its sumInsured is needed'],
    });
  }
  const missing: FieldErrors = {};
  given.forEach((risk, index) => {
    if (typeof risk.sumInsured !== 'number' || !(risk.sumInsured > 0)) {
      missing[`risks.${index}.sumInsured`] = ['A sum insured above 0 is needed for each risk'];
    }
  });
  if (Object.keys(missing).length > 0) throw invalid('Validation failed', missing);
  if (body.payment === undefined) assertDeferredBilling(ctx, 'Instant issue');
  const risks = given.map((risk, index) => {
    const sumInsured = Number(risk.sumInsured);
    const premium = calculatePremium({
      levyRate: ctx.levyRate,
      rate: product.annualRate,
      sumInsured,
      scale: days / 365,
    });
    return {
      ...risk,
      id: index + 1,
      sumInsured,
      premiumRate: product.annualRate,
      basicPremium: premium.basicPremium,
      premiumLevy: premium.levyPremium,
      grossPremium: premium.grossPremium,
      extensionsPremium: 0,
      discountsPremium: 0,
    };
  });
  const premium = sumPremiums(
    risks.map((risk) => ({
      basicPremium: risk.basicPremium,
      levyPremium: risk.premiumLevy,
      grossPremium: risk.grossPremium,
    })),
  );
  const quotation = newQuotation(ctx, 'general', {
    clientId: null,
    productId: product.id,
    premium,
    currency: body.currency ?? 'ZMW',
    startDate: isoDate(start),
    endDate: isoDate(end),
    extra: { policyHolder: body.policyHolder, risks },
  });
  if (body.payment === undefined) {
    const policy = issueFromQuotation(ctx, quotation, false);
    if (body.reference) policy.reference = body.reference;
    return generalPolicyView(ctx, policy);
  }
  const paid = payQuotation(ctx, quotation.id, body, origin);
  return { ...paid, id: quotation.id, status: String(paid.status) };
}

/** A general policy in the published general-policy shape. */
export function generalPolicyView(ctx: SandboxContext, policy: PolicyRecord): Json {
  const product = GENERAL_PRODUCTS.find((candidate) => candidate.id === policy.productId);
  const client = policy.clientId ? ctx.state.clients.get(policy.clientId) : undefined;
  const holder = (policy.policyHolder ?? null) as Json | null;
  return {
    ...policyView(ctx, policy),
    client: client
      ? {
          id: client.id,
          email: client.email,
          phoneNumber: client.phoneNumber,
          type: client.type,
          status: client.status,
          name:
            typeof client.name === 'string'
              ? client.name
              : `${String(client.firstName)} ${String(client.lastName)}`,
        }
      : holder
        ? {
            name: holder.name ?? null,
            email: holder.email ?? null,
            phoneNumber: holder.phone ?? null,
          }
        : null,
    product: product
      ? {
          id: product.id,
          name: product.name,
          code: product.code,
          insurer: SANDBOX_INSURER,
          classOfBusiness: { id: 1, name: product.classOfBusiness, order: 1 },
          paymentMethods: ['MobileMoney', 'Card', 'PayLater'],
        }
      : null,
    insurer: SANDBOX_INSURER,
    risks: Array.isArray(policy.risks) ? policy.risks : [],
    territorialLimits: ['Zambia'],
    clauses: ['Standard sandbox clauses apply'],
    policyHolder: holder,
  };
}
