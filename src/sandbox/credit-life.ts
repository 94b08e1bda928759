import { BatchPayment } from '../api/index.js';
import { CREDIT_LIFE_PRODUCT } from './catalogue.js';
import { attachClaimDocuments, openClaim } from './claims.js';
import { createCorporate, createIndividual, getClient, requireDate } from './clients.js';
import { toCsv as csvOf } from './csv.js';
import { addDays, addMonths, ageOn, isoDate, monthsBetween } from './dates.js';
import { type PageInput, paginate, paginateViews } from './paginate.js';
import { collect, type PaymentInput } from './payments.js';
import { roundMoney, withLevy } from './premium.js';
import { invalid, notFound, ruleBroken, SandboxHttpError } from './sandbox-error.js';
import type {
  CoverPeriod,
  CreditLifeBatchRecord,
  CreditLifePolicyRecord,
  Json,
  LoanRecord,
  SandboxContext,
} from './state.js';

/** A loan row as placed on cover. */
interface LoanRowInput {
  readonly fullName: string;
  readonly nrcNumber: string;
  readonly dateOfBirth: string;
  readonly amount: number;
  readonly startDate: string;
  readonly endDate: string;
  readonly partnerLoanReference: string;
  readonly interestRate?: number | undefined;
}

/** A batch premium payment (mobile money or card only). */
interface BatchPaymentInput extends PaymentInput {
  readonly reference: string;
  /** Sandbox extension: pay part of the outstanding premium (receipting in instalments). */
  readonly amount?: unknown;
}

const BATCH_METHODS = ['MobileMoney', 'Card'] as const;

// ----- quotations and policies ------------------------------------------------------------

function quotationView(quotation: Json): Json {
  return { ...quotation, productName: CREDIT_LIFE_PRODUCT.name };
}

/** Quotations negotiated for the partner account (empty means onboarding is unfinished). */
export function listCreditLifeQuotations(ctx: SandboxContext): Json[] {
  return [...ctx.state.creditLifeQuotations.values()].map(quotationView);
}

/** A credit-life quotation's full rate terms. */
export function getCreditLifeQuotation(ctx: SandboxContext, id: string): Json {
  const quotation = ctx.state.creditLifeQuotations.get(id);
  if (!quotation) throw notFound('Credit-life quotation', id);
  return quotationView(quotation);
}

/** Creates a policy, Active, on an approved quotation, freezing its rate table onto the policy. */
export function createCreditLifePolicy(
  ctx: SandboxContext,
  body: {
    quotationId: string | number;
    startDate?: string | undefined;
    prepaid?: boolean | undefined;
    clientId?: string | undefined;
  },
): CreditLifePolicyRecord {
  const quotation = ctx.state.creditLifeQuotations.get(String(body.quotationId));
  if (!quotation) throw notFound('Credit-life quotation', body.quotationId);
  if (quotation.status !== 'Approved') {
    throw ruleBroken(
      'A credit-life policy can only be opened on an approved quotation',
      'quotationId',
    );
  }
  const now = ctx.clock.now();
  const start = body.startDate ? requireDate(body.startDate, 'startDate') : now;
  const id = ctx.ids.next('clp');
  const policy: CreditLifePolicyRecord = {
    id,
    policyNumber: `CL-${isoDate(now).slice(0, 4)}-${String(ctx.ids.seq('cl-policy')).padStart(6, '0')}`,
    status: 'Active',
    clientId: body.clientId ?? (typeof quotation.clientId === 'string' ? quotation.clientId : null),
    quotationId: quotation.id,
    productId: quotation.productId,
    requiresPrepayment: body.prepaid ?? quotation.requiresPrepayment,
    rateBands: quotation.rateBands.map((band) => ({ ...band })),
    periodRate: quotation.periodRate,
    coverPeriodMonths: quotation.coverPeriodMonths,
    premiumGraceDays: quotation.premiumGraceDays,
    aggregateClaimLimit: quotation.aggregateClaimLimit,
    freeCoverLimit: quotation.freeCoverLimit,
    currency: quotation.currency,
    startDate: start.toISOString(),
    // The first period is funded by the loan batches themselves; renewals charge per period.
    periods: [
      {
        index: 0,
        start: start.toISOString(),
        end: '',
        scheduleId: null,
        paidAt: now.toISOString(),
      },
    ],
    lapses: [],
    createdAt: now.toISOString(),
  };
  const first = policy.periods[0];
  if (first) first.end = periodBounds(policy, 0).end.toISOString();
  ctx.state.creditLifePolicies.set(id, policy);
  return policy;
}

/** A credit-life policy by id. */
export function getCreditLifePolicyRecord(ctx: SandboxContext, id: string): CreditLifePolicyRecord {
  const policy = ctx.state.creditLifePolicies.get(id);
  if (!policy) throw notFound('Credit-life policy', id);
  return policy;
}

/** A credit-life policy as returned, with its frozen rate table and cover state. */
export function creditLifePolicyView(ctx: SandboxContext, policy: CreditLifePolicyRecord): Json {
  const { periods: _periods, lapses: _lapses, lapsedSince: _since, ...rest } = policy;
  return {
    ...rest,
    prepaid: policy.requiresPrepayment,
    endDate: null,
    coverState: coverState(ctx, policy),
  };
}

/** Credit-life policies, paginated. */
export function listCreditLifePolicies(ctx: SandboxContext, query: PageInput) {
  return paginate(
    [...ctx.state.creditLifePolicies.values()].map((policy) => creditLifePolicyView(ctx, policy)),
    query,
  );
}

// ----- cover periods and state ------------------------------------------------------------

function periodBounds(policy: CreditLifePolicyRecord, index: number): { start: Date; end: Date } {
  const start = new Date(policy.startDate);
  return {
    start: addMonths(start, index * policy.coverPeriodMonths),
    end: new Date(addMonths(start, (index + 1) * policy.coverPeriodMonths).getTime() - 1),
  };
}

function currentPeriodIndex(ctx: SandboxContext, policy: CreditLifePolicyRecord): number {
  const now = ctx.clock.now();
  let index = 0;
  while (periodBounds(policy, index + 1).start <= now) index += 1;
  return index;
}

function activeLoans(ctx: SandboxContext, policy: CreditLifePolicyRecord): LoanRecord[] {
  return loansOf(ctx, policy.id).filter((loan) => loan.status === 'Active');
}

/** The loans of each policy, regrouped when loans were added (none is ever deleted). */
const loansByPolicy = new WeakMap<
  SandboxContext['state']['loans'],
  { size: number; byPolicy: Map<string, LoanRecord[]> }
>();

/**
 * A policy's loans, as a database index would find them: a cover state or a search reads its own
 * policy's loans, not every loan of the book (a 100,000-loan book in the lookup bench).
 */
function loansOf(ctx: SandboxContext, policyId: string): LoanRecord[] {
  const loans = ctx.state.loans;
  let grouped = loansByPolicy.get(loans);
  if (!grouped || grouped.size !== loans.size) {
    const byPolicy = new Map<string, LoanRecord[]>();
    for (const loan of loans.values()) {
      const list = byPolicy.get(loan.policyId);
      if (list) list.push(loan);
      else byPolicy.set(loan.policyId, [loan]);
    }
    grouped = { size: loans.size, byPolicy };
    loansByPolicy.set(loans, grouped);
  }
  return grouped.byPolicy.get(policyId) ?? [];
}

function premiumPerPeriod(ctx: SandboxContext, policy: CreditLifePolicyRecord): number {
  const covered = activeLoans(ctx, policy).reduce((sum, loan) => sum + loan.coveredAmount, 0);
  return withLevy(covered * policy.periodRate, ctx.levyRate).grossPremium;
}

function isPeriodPaid(policy: CreditLifePolicyRecord, index: number): boolean {
  return policy.periods.some((period) => period.index === index && period.paidAt !== null);
}

/** Indices of periods owed by now and not paid (opened or not yet opened). */
function unpaidPeriods(ctx: SandboxContext, policy: CreditLifePolicyRecord): number[] {
  const current = currentPeriodIndex(ctx, policy);
  const unpaid: number[] = [];
  for (let index = 0; index <= current; index += 1) {
    if (!isPeriodPaid(policy, index)) unpaid.push(index);
  }
  return unpaid;
}

function graceEndsAt(policy: CreditLifePolicyRecord, index: number): Date {
  return addDays(periodBounds(policy, index).start, policy.premiumGraceDays);
}

/**
 * The policy's cover state: Active when nothing is owed; InGrace (still on risk) while the oldest
 * unpaid period is within its grace days; Lapsed from graceEndsAt. On a prepaid policy an unpaid
 * period is Pending (off risk) until paid.
 */
function coverState(ctx: SandboxContext, policy: CreditLifePolicyRecord): Json {
  const now = ctx.clock.now();
  const current = currentPeriodIndex(ctx, policy);
  const bounds = periodBounds(policy, current);
  const unpaid = unpaidPeriods(ctx, policy);
  const oldest = unpaid[0];
  const grace = oldest === undefined ? null : graceEndsAt(policy, oldest);
  const status =
    grace === null
      ? 'Active'
      : now < grace
        ? policy.requiresPrepayment
          ? 'Pending'
          : 'InGrace'
        : 'Lapsed';
  const loans = activeLoans(ctx, policy);
  const totalCovered = roundMoney(loans.reduce((sum, loan) => sum + loan.coveredAmount, 0));
  return {
    status,
    currentPeriodIndex: current,
    currentPeriodStart: bounds.start.toISOString(),
    currentPeriodEnd: bounds.end.toISOString(),
    graceEndsAt: grace ? grace.toISOString() : null,
    unpaidPeriods: unpaid,
    premiumPerPeriod: premiumPerPeriod(ctx, policy),
    totalCoveredAmount: totalCovered,
    aggregateClaimLimit: policy.aggregateClaimLimit,
    uncoveredAmount: roundMoney(
      loans.reduce((sum, loan) => sum + (loan.amount - loan.coveredAmount), 0) +
        Math.max(0, totalCovered - policy.aggregateClaimLimit),
    ),
  };
}

/** Policy status (coverState-shaped). */
export function creditLifePolicyStatus(ctx: SandboxContext, policyId: string): Json {
  return coverState(ctx, getCreditLifePolicyRecord(ctx, policyId));
}

/** What renewing would open, in the cover-state shape; nothing is written. */
export function creditLifeRenewalPremiums(ctx: SandboxContext, policyId: string): Json {
  const policy = getCreditLifePolicyRecord(ctx, policyId);
  const state = coverState(ctx, policy);
  const owed = (state.unpaidPeriods as number[]).length;
  return {
    ...state,
    totalRenewalPremium: roundMoney(owed * Number(state.premiumPerPeriod)),
  };
}

function newBatch(
  ctx: SandboxContext,
  policy: CreditLifePolicyRecord,
  type: CreditLifeBatchRecord['type'],
  periodIndex: number | null,
): CreditLifeBatchRecord {
  const id = ctx.ids.next('sch');
  const batch: CreditLifeBatchRecord = {
    id,
    number: `SCH-${String(ctx.ids.seq('cl-batch')).padStart(6, '0')}`,
    policyId: policy.id,
    status: 'Approved',
    type,
    periodIndex,
    loanIds: [],
    skipped: [],
    totalLoans: 0,
    loanAmount: 0,
    netPremium: 0,
    levy: 0,
    grossPremium: 0,
    amountReceipted: 0,
    outstandingPremium: 0,
    currency: policy.currency,
    createdAt: ctx.clock.now().toISOString(),
  };
  ctx.state.creditLifeBatches.set(id, batch);
  return batch;
}

/**
 * Opens each owed cover period, each with a Renewal schedule carrying the period premium. A
 * period goes on risk at once (Approved) unless the policy requires prepayment, in which case its
 * schedule stays Pending until paid through schedule pay or renew pay. No payment is initiated.
 */
function openOwedPeriods(ctx: SandboxContext, policy: CreditLifePolicyRecord): void {
  const current = currentPeriodIndex(ctx, policy);
  const premium = premiumPerPeriod(ctx, policy);
  for (let index = 1; index <= current; index += 1) {
    if (policy.periods.some((period) => period.index === index)) continue;
    const bounds = periodBounds(policy, index);
    const batch = newBatch(ctx, policy, 'Renewal', index);
    const split = withLevy(premium / (1 + ctx.levyRate), ctx.levyRate);
    batch.netPremium = split.basicPremium;
    batch.levy = roundMoney(premium - split.basicPremium);
    batch.grossPremium = premium;
    batch.outstandingPremium = premium;
    batch.status = policy.requiresPrepayment ? 'Pending' : 'Approved';
    const period: CoverPeriod = {
      index,
      start: bounds.start.toISOString(),
      end: bounds.end.toISOString(),
      scheduleId: batch.id,
      paidAt: null,
    };
    policy.periods.push(period);
    if (premium <= 0) markPeriodPaid(ctx, policy, period, ctx.clock.now());
  }
}

/** Renews a policy: opens owed cover periods; no payment is initiated. */
export function renewCreditLifePolicy(ctx: SandboxContext, policyId: string): Json {
  const policy = getCreditLifePolicyRecord(ctx, policyId);
  openOwedPeriods(ctx, policy);
  return coverState(ctx, policy);
}

function markPeriodPaid(
  ctx: SandboxContext,
  policy: CreditLifePolicyRecord,
  period: CoverPeriod,
  paidAt: Date,
): void {
  // One rule for cover state and claims (issue 36; the spec is silent on partial arrears): a
  // loss in a lapsed window stays uncovered, so remember where the lapse began; the window
  // closes at the payment that leaves no period past its grace (the policy reads InGrace or
  // Active again), and cover is reinstated from that payment's date. Paying the oldest of two
  // overdue periods while the newer is still within grace therefore reinstates cover.
  const state = coverState(ctx, policy);
  if (state.status === 'Lapsed' && typeof policy.lapsedSince !== 'string') {
    policy.lapsedSince = String(state.graceEndsAt);
  }
  period.paidAt = paidAt.toISOString();
  if (coverState(ctx, policy).status !== 'Lapsed' && typeof policy.lapsedSince === 'string') {
    policy.lapses.push({ from: policy.lapsedSince, to: paidAt.toISOString() });
    delete policy.lapsedSince;
  }
}

// ----- loans and batches ------------------------------------------------------------------

function rateFor(policy: CreditLifePolicyRecord, tenureMonths: number): number | null {
  const band = policy.rateBands.find(
    (candidate) => tenureMonths >= candidate.fromMonths && tenureMonths <= candidate.toMonths,
  );
  return band?.rate ?? null;
}

/** Prices a loan row against the policy's frozen rate table; 422 when outside its limits. */
function priceLoan(
  ctx: SandboxContext,
  policy: CreditLifePolicyRecord,
  row: Pick<LoanRowInput, 'amount' | 'startDate' | 'endDate'> & {
    dateOfBirth?: string | undefined;
  },
  field = 'loan',
): {
  coveredAmount: number;
  premiumRate: number;
  netPremium: number;
  levy: number;
  grossPremium: number;
} {
  const start = requireDate(row.startDate, `${field}.startDate`);
  const end = requireDate(row.endDate, `${field}.endDate`);
  if (end <= start) {
    throw invalid('Validation failed', { [`${field}.endDate`]: ['Must be after startDate'] });
  }
  const tenure = Math.max(1, monthsBetween(start, end));
  const rate = rateFor(policy, tenure);
  if (rate === null) {
    throw ruleBroken(
      `A tenure of ${tenure} months is outside the policy's rate table (maximum ${CREDIT_LIFE_PRODUCT.maxTenure})`,
      `${field}.endDate`,
    );
  }
  if (row.dateOfBirth !== undefined) {
    const age = ageOn(requireDate(row.dateOfBirth, `${field}.dateOfBirth`), start);
    if (age < CREDIT_LIFE_PRODUCT.minimumAge || age > CREDIT_LIFE_PRODUCT.maximumAge) {
      throw ruleBroken(
        `The borrower's age ${age} is outside ${CREDIT_LIFE_PRODUCT.minimumAge}-${CREDIT_LIFE_PRODUCT.maximumAge}`,
        `${field}.dateOfBirth`,
      );
    }
  }
  const freeCoverLimit = Number(policy.freeCoverLimit ?? CREDIT_LIFE_PRODUCT.freeCoverLimit);
  const coveredAmount = Math.min(row.amount, freeCoverLimit);
  const premium = withLevy(coveredAmount * rate, ctx.levyRate);
  return {
    coveredAmount,
    premiumRate: rate,
    netPremium: premium.basicPremium,
    levy: premium.levyPremium,
    grossPremium: premium.grossPremium,
  };
}

/** Quotes a loan without placing it: nothing is written. */
export function quoteLoan(
  ctx: SandboxContext,
  policyId: string,
  row: Pick<LoanRowInput, 'amount' | 'startDate' | 'endDate'> & {
    dateOfBirth?: string | undefined;
  },
): Json {
  const policy = getCreditLifePolicyRecord(ctx, policyId);
  return { amount: row.amount, ...priceLoan(ctx, policy, row), currency: policy.currency };
}

function findCoveredByReference(
  ctx: SandboxContext,
  policy: CreditLifePolicyRecord,
  reference: string,
): LoanRecord | undefined {
  return [...ctx.state.loans.values()].find(
    (loan) =>
      loan.policyId === policy.id &&
      loan.partnerLoanReference === reference &&
      loan.status !== 'Closed',
  );
}

/**
 * Places loan rows into a new batch. Rows already on cover (same partner reference, not closed)
 * come back under `skipped` and are not charged twice. `onRisk` false leaves batch and loans
 * Pending (prepaid policy paying in the same call).
 */
function placeRows(
  ctx: SandboxContext,
  policy: CreditLifePolicyRecord,
  rows: readonly LoanRowInput[],
  type: CreditLifeBatchRecord['type'],
  onRisk: boolean,
): CreditLifeBatchRecord {
  const priced = rows.map((row, index) => priceLoan(ctx, policy, row, `loans.${index}`));
  const batch = newBatch(ctx, policy, type, null);
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const existing = findCoveredByReference(ctx, policy, row.partnerLoanReference);
    if (existing || seen.has(row.partnerLoanReference)) {
      batch.skipped.push({
        nrcNumber: row.nrcNumber,
        partnerLoanReference: row.partnerLoanReference,
        existingLoanId:
          existing?.id ??
          [...ctx.state.loans.values()].find(
            (loan) =>
              loan.batchId === batch.id && loan.partnerLoanReference === row.partnerLoanReference,
          )?.id ??
          0,
      });
      return;
    }
    seen.add(row.partnerLoanReference);
    const price = priced[index];
    if (!price) return;
    const id = ctx.ids.seq('loan');
    const loan: LoanRecord = {
      id,
      policyId: policy.id,
      batchId: batch.id,
      clientName: row.fullName,
      nrcNumber: row.nrcNumber,
      dateOfBirth: row.dateOfBirth,
      amount: row.amount,
      ...price,
      status: onRisk ? 'Active' : 'Pending',
      startDate: row.startDate,
      endDate: row.endDate,
      partnerLoanReference: row.partnerLoanReference,
      interestRate: row.interestRate ?? null,
      closedAt: null,
    };
    ctx.state.loans.set(id, loan);
    batch.loanIds.push(id);
    batch.totalLoans += 1;
    batch.loanAmount = roundMoney(batch.loanAmount + row.amount);
    batch.netPremium = roundMoney(batch.netPremium + price.netPremium);
    batch.levy = roundMoney(batch.levy + price.levy);
    batch.grossPremium = roundMoney(batch.grossPremium + price.grossPremium);
  });
  batch.outstandingPremium = batch.grossPremium;
  batch.status = onRisk || batch.totalLoans === 0 ? 'Approved' : 'Pending';
  return batch;
}

/** A batch with its loans and skipped rows, as returned. */
export function batchView(ctx: SandboxContext, batch: CreditLifeBatchRecord): Json {
  const { loanIds, ...rest } = batch;
  return {
    ...rest,
    loans: loanIds.flatMap((id) => {
      const loan = ctx.state.loans.get(id);
      return loan ? [loanView(loan)] : [];
    }),
  };
}

/** A loan as returned (the borrower's date of birth stays inside the sandbox). */
export function loanView(loan: LoanRecord): Json {
  const { dateOfBirth: _dob, ...rest } = loan;
  return rest;
}

/** Ordinary batch submit: Approved, loans on risk, outstandingPremium = grossPremium. */
export function placeLoans(
  ctx: SandboxContext,
  policyId: string,
  rows: readonly LoanRowInput[],
): Json {
  const policy = getCreditLifePolicyRecord(ctx, policyId);
  return batchView(ctx, placeRows(ctx, policy, rows, 'New', true));
}

/**
 * Places a batch on a prepaid policy without starting its payment: Pending, off risk, its premium
 * outstanding until the schedule is paid (how the demo book shows a loan awaiting its premium).
 */
export function placeLoansAwaitingPremium(
  ctx: SandboxContext,
  policyId: string,
  rows: readonly LoanRowInput[],
): CreditLifeBatchRecord {
  const policy = getCreditLifePolicyRecord(ctx, policyId);
  return placeRows(ctx, policy, rows, 'New', false);
}

/** Single-loan placement: a one-row Addition batch, returned unwrapped. */
export function placeSingleLoan(ctx: SandboxContext, policyId: string, row: LoanRowInput): Json {
  const policy = getCreditLifePolicyRecord(ctx, policyId);
  return batchView(ctx, placeRows(ctx, policy, [row], 'Addition', true));
}

/** Applies money received to a batch: PartiallyReceipted or Receipted; a Pending batch goes on risk. */
function receipt(
  ctx: SandboxContext,
  batch: CreditLifeBatchRecord,
  amount: number,
  paidAt: Date,
): void {
  batch.amountReceipted = roundMoney(batch.amountReceipted + amount);
  batch.outstandingPremium = roundMoney(Math.max(0, batch.grossPremium - batch.amountReceipted));
  batch.status = batch.outstandingPremium <= 0 ? 'Receipted' : 'PartiallyReceipted';
  if (batch.outstandingPremium > 0) return;
  for (const id of batch.loanIds) {
    const loan = ctx.state.loans.get(id);
    if (loan?.status === 'Pending') loan.status = 'Active';
  }
  if (batch.periodIndex !== null) {
    const policy = ctx.state.creditLifePolicies.get(batch.policyId);
    const period = policy?.periods.find((candidate) => candidate.index === batch.periodIndex);
    if (policy && period && period.paidAt === null) markPeriodPaid(ctx, policy, period, paidAt);
  }
}

function payBatch(
  ctx: SandboxContext,
  batch: CreditLifeBatchRecord,
  payment: BatchPaymentInput,
  origin: string,
): Json {
  const repeat = ctx.payments.get(payment.reference);
  if (!repeat && batch.outstandingPremium <= 0) {
    throw ruleBroken('This schedule has no outstanding premium', 'scheduleId');
  }
  const requested = typeof payment.amount === 'number' ? payment.amount : undefined;
  if (requested !== undefined && (requested <= 0 || requested > batch.outstandingPremium)) {
    throw invalid('Validation failed', {
      amount: [`Must be above 0 and at most the outstanding ${batch.outstandingPremium}`],
    });
  }
  if (
    requested !== undefined &&
    batch.status === 'Pending' &&
    requested < batch.outstandingPremium
  ) {
    throw ruleBroken('A pending prepaid schedule is paid in full', 'amount');
  }
  const amount = requested ?? batch.outstandingPremium;
  const policy = ctx.state.creditLifePolicies.get(batch.policyId);
  const { result } = collect(ctx, {
    reference: payment.reference,
    payment,
    amount,
    currency: batch.currency,
    description: `Premium for schedule ${batch.number}`,
    subjectId: batch.id,
    onePerSubject: 'pending',
    subjectName: 'schedule',
    origin,
    allowed: BATCH_METHODS,
    onSuccess: (paidAt) => receipt(ctx, batch, amount, paidAt),
    policyRef: () => ({
      policyId: policy?.id ?? null,
      policyNumber: policy?.policyNumber ?? null,
      policyStatus: policy ? String(coverState(ctx, policy).status) : null,
    }),
  });
  return result;
}

/**
 * Places a batch and pays in one call. On a prepaid policy the batch is Pending and off risk until
 * the gateway confirms; then its loans go on risk and the premium is receipted in one step.
 */
export function placeLoansAndPay(
  ctx: SandboxContext,
  policyId: string,
  body: { loans: readonly LoanRowInput[]; payment: BatchPaymentInput },
  origin: string,
  type: CreditLifeBatchRecord['type'] = 'New',
): Json {
  const policy = getCreditLifePolicyRecord(ctx, policyId);
  const repeat = ctx.payments.get(body.payment.reference);
  if (repeat?.subjectId) {
    const batch = ctx.state.creditLifeBatches.get(repeat.subjectId);
    if (batch)
      return {
        schedule: batchView(ctx, batch),
        payment: payBatch(ctx, batch, body.payment, origin),
      };
  }
  const batch = placeRows(ctx, policy, body.loans, type, !policy.requiresPrepayment);
  if (batch.grossPremium <= 0) {
    return {
      schedule: batchView(ctx, batch),
      payment: { status: 'Failed', message: 'Nothing to pay: every row was skipped', warnings: [] },
    };
  }
  const payment = payBatch(ctx, batch, body.payment, origin);
  return { schedule: batchView(ctx, batch), payment };
}

/** Pays a schedule (batch or renewal period) by mobile money or card. */
export function paySchedule(
  ctx: SandboxContext,
  scheduleId: string,
  payment: BatchPaymentInput,
  origin: string,
): Json {
  return payBatch(ctx, getBatch(ctx, scheduleId), payment, origin);
}

/**
 * Renew-and-pay settles exactly one outstanding period; rejected when arrears span more than one
 * (each period is then paid through the schedule pay operation).
 */
export function renewAndPay(
  ctx: SandboxContext,
  policyId: string,
  payment: BatchPaymentInput,
  origin: string,
): Json {
  const policy = getCreditLifePolicyRecord(ctx, policyId);
  const repeat = ctx.payments.get(payment.reference);
  if (repeat?.subjectId) {
    return {
      payment: paySchedule(ctx, repeat.subjectId, payment, origin),
      coverState: coverState(ctx, policy),
    };
  }
  // Checked before any period is opened: a rejected call writes nothing (no Renewal schedules).
  const unpaid = unpaidPeriods(ctx, policy);
  if (unpaid.length > 1) {
    throw new SandboxHttpError(
      422,
      `Arrears span ${unpaid.length} periods; pay each period through the schedule pay operation`,
      { unpaidPeriods: unpaid.map((index) => `Period ${index} is unpaid`) },
    );
  }
  openOwedPeriods(ctx, policy);
  const index = unpaid[0];
  const period = policy.periods.find((candidate) => candidate.index === index);
  if (index === undefined || !period?.scheduleId) {
    throw ruleBroken('No cover period is owed on this policy', 'policyId');
  }
  const result = paySchedule(ctx, period.scheduleId, payment, origin);
  return { payment: result, coverState: coverState(ctx, policy) };
}

/** Renews a policy carrying outstanding loans into the new period (already-covered rows skipped). */
export function renewWithLoans(
  ctx: SandboxContext,
  policyId: string,
  rows: readonly LoanRowInput[],
): Json {
  const policy = getCreditLifePolicyRecord(ctx, policyId);
  openOwedPeriods(ctx, policy);
  return batchView(ctx, placeRows(ctx, policy, rows, 'Renewal', true));
}

/** Renews with a loan batch and pays in one call (prepaid: Pending until confirmed). */
export function renewWithLoansAndPay(
  ctx: SandboxContext,
  policyId: string,
  body: { loans: readonly LoanRowInput[]; payment: BatchPaymentInput },
  origin: string,
): Json {
  const policy = getCreditLifePolicyRecord(ctx, policyId);
  if (!ctx.payments.get(body.payment.reference)) openOwedPeriods(ctx, policy);
  return placeLoansAndPay(ctx, policyId, body, origin, 'Renewal');
}

/** A schedule by id. */
export function getBatch(ctx: SandboxContext, id: string): CreditLifeBatchRecord {
  const batch = ctx.state.creditLifeBatches.get(id);
  if (!batch) throw notFound('Schedule', id);
  return batch;
}

/** The batches of a policy, paginated. */
export function listBatches(ctx: SandboxContext, policyId: string, query: PageInput) {
  getCreditLifePolicyRecord(ctx, policyId);
  const batches = [...ctx.state.creditLifeBatches.values()]
    .filter((batch) => batch.policyId === policyId)
    .map((batch) => batchView(ctx, batch));
  return paginate(batches, query);
}

/** A loan on a policy by loan id or partner reference. */
export function findLoan(
  ctx: SandboxContext,
  policyId: string,
  by: { loanId?: string | number | undefined; partnerLoanReference?: string | undefined },
): LoanRecord {
  getCreditLifePolicyRecord(ctx, policyId);
  const loan =
    by.loanId !== undefined
      ? ctx.state.loans.get(Number(by.loanId))
      : [...ctx.state.loans.values()]
          .filter((candidate) => candidate.policyId === policyId)
          .sort((a, b) => (a.status === 'Closed' ? 1 : 0) - (b.status === 'Closed' ? 1 : 0))
          .find((candidate) => candidate.partnerLoanReference === by.partnerLoanReference);
  if (!loan || loan.policyId !== policyId) {
    throw notFound('Loan', String(by.loanId ?? by.partnerLoanReference));
  }
  return loan;
}

/** Searches the loans of a policy. */
export function searchLoans(
  ctx: SandboxContext,
  policyId: string,
  query: PageInput & Record<string, unknown>,
) {
  getCreditLifePolicyRecord(ctx, policyId);
  const loans = loansOf(ctx, policyId).filter(
    (loan) =>
      (typeof query.nrcNumber !== 'string' || loan.nrcNumber === query.nrcNumber) &&
      (typeof query.partnerLoanReference !== 'string' ||
        loan.partnerLoanReference === query.partnerLoanReference) &&
      (typeof query.status !== 'string' || loan.status === query.status),
  );
  return paginateViews(loans, query, loanView);
}

/**
 * Takes loans off cover on early repayment: off risk immediately, with no refund (a refund is
 * only owed when cover ends through an UnearnedPremium claim).
 */
export function takeLoansOffCover(
  ctx: SandboxContext,
  policyId: string,
  body: {
    loans: readonly {
      loanId?: string | number | undefined;
      partnerLoanReference?: string | undefined;
    }[];
    repaymentDate?: string | undefined;
  },
): Json {
  const loans = body.loans.map((identity) => findLoan(ctx, policyId, identity));
  const now = ctx.clock.now().toISOString();
  for (const loan of loans) {
    if (loan.status === 'Closed') {
      throw ruleBroken(`Loan ${loan.id} is already off cover`, 'loans');
    }
  }
  for (const loan of loans) {
    loan.status = 'Closed';
    loan.closedAt = now;
  }
  return {
    removed: loans.length,
    endorsementId: ctx.ids.next('end'),
    refundAmount: 0,
    items: loans.map((loan) => ({ ...loanView(loan), refundAmount: 0 })),
  };
}

// ----- claims -----------------------------------------------------------------------------

const CLAIM_SCOPES: Record<string, number> = Object.fromEntries(
  CREDIT_LIFE_PRODUCT.scopesOfCover.map((scope) => [
    scope.name.toLowerCase(),
    scope.percentageOfSumAssured,
  ]),
);

/**
 * Intimates a claim against a covered loan: created Intimated with a payable breakdown. A loss in
 * a lapsed period stays uncovered; a loan off cover or not yet on risk cannot be claimed against.
 */
export function intimateCreditLifeClaim(
  ctx: SandboxContext,
  policyId: string,
  body: {
    loanId?: string | number | undefined;
    partnerLoanReference?: string | undefined;
    claimType: string;
    lossDate: string;
    description?: string | undefined;
    intimatedByPhone?: string | undefined;
    amountClaimed?: number | undefined;
  },
): Json {
  const policy = getCreditLifePolicyRecord(ctx, policyId);
  const loan = findLoan(ctx, policyId, body);
  const lossDate = requireDate(body.lossDate, 'lossDate');
  // A loss date is a day, not an instant: every comparison below is made on days (YYYY-MM-DD).
  const lossDay = isoDate(lossDate);
  if (loan.status === 'Pending') throw ruleBroken('The loan is not on risk yet', 'loanId');
  if (loan.status === 'Closed' && loan.closedAt && lossDay >= dayOf(loan.closedAt)) {
    throw ruleBroken('The loan was off cover on the loss date', 'lossDate');
  }
  assertNotifiedInTime(ctx, lossDate);
  if (lossDay < dayOf(loan.startDate) || lossDay < dayOf(policy.startDate)) {
    throw ruleBroken('The loss date is before the loan and its policy went on cover', 'lossDate');
  }
  const state = coverState(ctx, policy);
  const lapsedNow =
    state.status === 'Lapsed' && state.graceEndsAt && lossDay >= dayOf(state.graceEndsAt);
  // A lapse still open (a payment left a period past its grace): a loss from the lapse onward
  // stays uncovered until a payment leaves none past grace (markPeriodPaid).
  const inOpenLapse =
    typeof policy.lapsedSince === 'string' && lossDay >= dayOf(policy.lapsedSince);
  // Reinstated "from the date of payment onward": a loss on the day the arrears were paid is
  // covered.
  const inPastLapse = policy.lapses.some(
    (lapse) => lossDay >= dayOf(lapse.from) && lossDay < dayOf(lapse.to),
  );
  if (lapsedNow || inOpenLapse || inPastLapse) {
    throw ruleBroken(
      'The loss date falls in a lapsed period; that loss stays uncovered',
      'lossDate',
    );
  }
  if (policy.requiresPrepayment && !prepaidPeriodOnRisk(policy, lossDate)) {
    throw ruleBroken(
      'The loss date falls in a prepaid cover period whose premium was not paid; the period was Pending and not on risk',
      'lossDate',
    );
  }
  const claimType = body.claimType.toLowerCase();
  const unearned = claimType === 'unearnedpremium';
  const percentage = unearned ? 0 : CLAIM_SCOPES[claimType];
  if (percentage === undefined) {
    throw invalid('Validation failed', {
      claimType: [
        `Unknown claim type; use one of ${[...CREDIT_LIFE_PRODUCT.scopesOfCover.map((s) => s.name), 'UnearnedPremium'].join(', ')}`,
      ],
    });
  }
  const benefit = roundMoney((loan.coveredAmount * percentage) / 100);
  const refund = unearned ? unearnedPremium(ctx, loan) : 0;
  return openClaim(ctx, 'credit-life', policyId, {
    loanId: loan.id,
    partnerLoanReference: loan.partnerLoanReference,
    claimType: body.claimType,
    lossDate: body.lossDate,
    intimatedByPhone: body.intimatedByPhone ?? null,
    description: body.description ?? null,
    amountClaimed: body.amountClaimed ?? benefit,
    currency: policy.currency,
    payable: {
      sumAssured: loan.coveredAmount,
      percentageOfSumAssured: percentage,
      benefitAmount: benefit,
      unearnedPremiumRefund: refund,
      uncoveredAmount: roundMoney(loan.amount - loan.coveredAmount),
      totalPayable: roundMoney(benefit + refund),
    },
  });
}

/**
 * A claim must be intimated within the product's claimNotificationDays of the loss; a loss
 * dated in the future is not a loss yet.
 */
function assertNotifiedInTime(ctx: SandboxContext, lossDate: Date): void {
  const now = ctx.clock.now();
  if (lossDate.getTime() > now.getTime()) {
    throw invalid('Validation failed', { lossDate: ['The loss date is in the future'] });
  }
  const allowed = CREDIT_LIFE_PRODUCT.claimNotificationDays;
  const late = Math.floor((now.getTime() - lossDate.getTime()) / 86_400_000);
  if (late > allowed) {
    throw ruleBroken(
      `Claims must be intimated within ${allowed} days of the loss; this loss was ${late} days ago`,
      'lossDate',
    );
  }
}

/**
 * Whether a loss on a prepaid policy fell in cover: the first period is funded by the loan batch
 * itself (its loans are Pending until paid), a later period only from the moment its premium was
 * paid; an unpaid one stays Pending and off risk.
 */
function prepaidPeriodOnRisk(policy: CreditLifePolicyRecord, lossDate: Date): boolean {
  let index = 0;
  while (periodBounds(policy, index + 1).start <= lossDate) index += 1;
  if (index === 0) return true;
  const period = policy.periods.find((candidate) => candidate.index === index);
  return period?.paidAt != null && dayOf(period.paidAt) <= isoDate(lossDate);
}

/** The day (`YYYY-MM-DD`, UTC) of a stored date or date-time. */
function dayOf(value: unknown): string {
  return isoDate(new Date(String(value)));
}

function unearnedPremium(ctx: SandboxContext, loan: LoanRecord): number {
  const start = new Date(loan.startDate);
  const end = new Date(loan.endDate);
  const total = end.getTime() - start.getTime();
  const left = Math.max(0, end.getTime() - ctx.clock.now().getTime());
  return total > 0 ? roundMoney((loan.netPremium * left) / total) : 0;
}

/** Attaches documents to a credit-life claim (first upload: Intimated → Documented). */
export function attachCreditLifeDocuments(
  ctx: SandboxContext,
  claimId: string,
  documents: readonly { url: string; name?: string | undefined }[],
): Json {
  return attachClaimDocuments(ctx, 'credit-life', claimId, documents);
}

// ----- one-call purchase and bordereau ----------------------------------------------------

/**
 * Buys cover in one call: client, policy, and a batch if borrowers were sent; payment when asked.
 * When a payment cannot be started the cover still stands and the reason is in `paymentError`.
 */
export function buyCreditLifeCover(
  ctx: SandboxContext,
  body: {
    quotationId: string | number;
    client?: Json | undefined;
    clientId?: string | undefined;
    startDate?: string | undefined;
    loans?: readonly LoanRowInput[] | undefined;
    payment?: BatchPaymentInput | undefined;
  },
  origin: string,
): Json {
  if (body.client === undefined && body.clientId === undefined) {
    throw invalid('Validation failed', { clientId: ['Send clientId or client'] });
  }
  const client = body.clientId
    ? getClient(ctx, body.clientId)
    : typeof body.client?.taxPayerId === 'string'
      ? createCorporate(ctx, body.client ?? {})
      : createIndividual(ctx, body.client ?? {});
  const policy = createCreditLifePolicy(ctx, {
    quotationId: body.quotationId,
    startDate: body.startDate,
    clientId: client.id,
  });
  const result: Json = { client, policy: creditLifePolicyView(ctx, policy), batch: null };
  if (!body.loans || body.loans.length === 0) return result;
  if (!body.payment) {
    return { ...result, batch: placeLoans(ctx, policy.id, body.loans) };
  }
  const batch = placeRows(ctx, policy, body.loans, 'New', !policy.requiresPrepayment);
  // A payment object the gateway cannot take (both or neither of mobile money and card, another
  // method, a gateway named) does not undo the cover: it is reported like any refused payment.
  const checked = BatchPayment.safeParse(body.payment);
  if (!checked.success) {
    const reason = checked.error.issues[0]?.message ?? 'The payment object is not valid';
    return { ...result, batch: batchView(ctx, batch), payment: null, paymentError: reason };
  }
  try {
    const payment = payBatch(ctx, batch, checked.data, origin);
    return { ...result, batch: batchView(ctx, batch), payment };
  } catch (error) {
    if (!(error instanceof SandboxHttpError)) throw error;
    const reason = Object.values(error.errors).flat()[0] ?? error.message;
    return { ...result, batch: batchView(ctx, batch), payment: null, paymentError: reason };
  }
}

/** The premium register (bordereau) of a policy as CSV. */
export function creditLifeBordereau(ctx: SandboxContext, policyId: string): string {
  const policy = getCreditLifePolicyRecord(ctx, policyId);
  const loans = [...ctx.state.loans.values()].filter((loan) => loan.policyId === policy.id);
  return csvOf(
    [
      'policyNumber',
      'loanId',
      'partnerLoanReference',
      'clientName',
      'nrcNumber',
      'amount',
      'coveredAmount',
      'premiumRate',
      'netPremium',
      'levy',
      'grossPremium',
      'status',
      'startDate',
      'endDate',
    ],
    loans.map((loan) => [
      policy.policyNumber,
      loan.id,
      loan.partnerLoanReference,
      loan.clientName,
      loan.nrcNumber,
      loan.amount,
      loan.coveredAmount,
      loan.premiumRate,
      loan.netPremium,
      loan.levy,
      loan.grossPremium,
      loan.status,
      loan.startDate,
      loan.endDate,
    ]),
  );
}
