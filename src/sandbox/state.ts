import type { SandboxCatalogue } from './catalogue.js';
import type { Clock } from './clock.js';
import type { IdSource } from './ids.js';
import type { PaymentEngine } from './payment-engine.js';

/** A JSON object record as stored and served (spec field names; extra internal fields allowed). */
export type Json = Record<string, unknown>;

/** An individual or corporate policyholder. */
export interface ClientRecord extends Json {
  id: string;
  type: 'Individual' | 'Corporate';
  status: string;
  phoneNumber: string;
  email: string;
  createdAt: string;
  updatedAt: string;
}

/** A vehicle registered for a client. */
export interface VehicleRecord extends Json {
  id: string;
  clientId: string;
  registrationNumber: string;
  motorRiskCategoryId: string;
}

/** Lines of business with retail quotations and policies. */
export type RetailLine = 'motor' | 'travel' | 'life' | 'general';

/** A quotation of any retail line. */
export interface QuotationRecord extends Json {
  id: string;
  line: RetailLine;
  status: 'Draft' | 'Issued';
  clientId: string | null;
  productId: string | number;
  premium: number;
  basicPremium: number;
  levyPremium: number;
  premiumLevy: number;
  grossPremium: number;
  currency: string;
  startDate: string;
  endDate: string;
  policyId: string | null;
  createdAt: string;
}

/** A policy of any retail line. */
export interface PolicyRecord extends Json {
  id: string;
  line: RetailLine;
  policyNumber: string;
  status: string;
  premiumStatus: 'Paid' | 'Unpaid';
  clientId: string | null;
  quotationId: string | null;
  registrationNumbers: string[];
  startDate: string;
  endDate: string;
  basicPremium: number;
  premiumLevy: number;
  grossPremium: number;
  currency: string;
  createdAt: string;
  updatedAt: string;
  approvedDate: string;
}

/** One rate band of a credit-life quotation (tenure in months → rate on the loan amount). */
interface RateBand {
  fromMonths: number;
  toMonths: number;
  rate: number;
}

/** A credit-life quotation negotiated for the partner account. */
interface CreditLifeQuotationRecord extends Json {
  id: string;
  productId: number;
  status: 'Approved' | 'Pending';
  requiresPrepayment: boolean;
  rateBands: RateBand[];
  periodRate: number;
  coverPeriodMonths: number;
  premiumGraceDays: number;
  freeCoverLimit: number;
  aggregateClaimLimit: number;
  currency: string;
}

/** A cover period of a credit-life policy, paid through its schedule. */
export interface CoverPeriod {
  index: number;
  start: string;
  end: string;
  scheduleId: string | null;
  paidAt: string | null;
}

/** A credit-life policy. */
export interface CreditLifePolicyRecord extends Json {
  id: string;
  policyNumber: string;
  status: 'Active';
  clientId: string | null;
  quotationId: string;
  requiresPrepayment: boolean;
  rateBands: RateBand[];
  periodRate: number;
  coverPeriodMonths: number;
  premiumGraceDays: number;
  aggregateClaimLimit: number;
  currency: string;
  startDate: string;
  periods: CoverPeriod[];
  /** Windows in which cover had lapsed; a loss inside one stays uncovered. */
  lapses: { from: string; to: string }[];
  createdAt: string;
}

/** A covered (or pending, or closed) loan. */
export interface LoanRecord extends Json {
  id: number;
  policyId: string;
  batchId: string;
  clientName: string;
  nrcNumber: string;
  dateOfBirth: string | null;
  amount: number;
  coveredAmount: number;
  premiumRate: number;
  netPremium: number;
  levy: number;
  grossPremium: number;
  status: 'Active' | 'Pending' | 'Closed';
  startDate: string;
  endDate: string;
  partnerLoanReference: string;
  interestRate: number | null;
  closedAt: string | null;
}

/** Batch statuses named by the spec. */
type BatchStatus = 'Pending' | 'Approved' | 'PartiallyReceipted' | 'Receipted';

/** A credit-life submission batch (schedule), also used for period renewals. */
export interface CreditLifeBatchRecord extends Json {
  id: string;
  number: string;
  policyId: string;
  status: BatchStatus;
  type: 'New' | 'Addition' | 'Renewal';
  periodIndex: number | null;
  loanIds: number[];
  skipped: { nrcNumber: string; partnerLoanReference: string; existingLoanId: number }[];
  totalLoans: number;
  loanAmount: number;
  netPremium: number;
  levy: number;
  grossPremium: number;
  amountReceipted: number;
  outstandingPremium: number;
  currency: string;
  createdAt: string;
}

/** A claim of credit life or group life. */
export interface ClaimRecord extends Json {
  id: string;
  claimNumber: string;
  line: 'credit-life' | 'group-life';
  policyId: string;
  /**
   * Intimated or Documented (the spec's states); any later word is the insurer's own step
   * (check, approve, settle), which the spec names no states for, set by an operator or a test.
   */
  status: 'Intimated' | 'Documented' | (string & {});
  documents: { url: string; name: string | null; uploadedAt: string }[];
  createdAt: string;
}

/** A group-life quotation: age-rate table per mille of sum assured. */
export interface GroupLifeQuotationRecord extends Json {
  id: string;
  status: 'Approved' | 'Pending';
  clientId: string;
  salaryMultiple: number;
  freeCoverLimit: number;
  ageRates: { fromAge: number; toAge: number; ratePerMille: number }[];
  currency: string;
}

/** A group-life policy. */
export interface GroupLifePolicyRecord extends Json {
  id: string;
  policyNumber: string;
  status: 'Active';
  clientId: string;
  quotationId: string;
  salaryMultiple: number;
  freeCoverLimit: number;
  ageRates: { fromAge: number; toAge: number; ratePerMille: number }[];
  currency: string;
  startDate: string;
  endDate: string;
  createdAt: string;
}

/** A group-life member. */
export interface MemberRecord extends Json {
  id: string;
  policyId: string;
  batchId: string;
  fullName: string;
  nrcNumber: string;
  dateOfBirth: string;
  annualSalary: number;
  sumAssured: number;
  premium: number;
  status: 'Active' | 'Pending' | 'Removed';
  removedAt: string | null;
}

/** A group-life enrolment batch. */
export interface GroupLifeBatchRecord extends Json {
  id: string;
  number: string;
  policyId: string;
  status: BatchStatus;
  type: 'Enrolment' | 'MidTermAddition';
  memberIds: string[];
  totalMembers: number;
  netPremium: number;
  levy: number;
  grossPremium: number;
  amountReceipted: number;
  outstandingPremium: number;
  currency: string;
  createdAt: string;
}

/** Everything the sandbox holds in memory. */
export interface SandboxState {
  clients: Map<string, ClientRecord>;
  vehicles: Map<string, VehicleRecord>;
  quotations: Map<string, QuotationRecord>;
  policies: Map<string, PolicyRecord>;
  creditLifeQuotations: Map<string, CreditLifeQuotationRecord>;
  creditLifePolicies: Map<string, CreditLifePolicyRecord>;
  loans: Map<number, LoanRecord>;
  creditLifeBatches: Map<string, CreditLifeBatchRecord>;
  claims: Map<string, ClaimRecord>;
  groupLifeQuotations: Map<string, GroupLifeQuotationRecord>;
  groupLifePolicies: Map<string, GroupLifePolicyRecord>;
  members: Map<string, MemberRecord>;
  groupLifeBatches: Map<string, GroupLifeBatchRecord>;
  households: Map<string, Json>;
}

/** What every domain function needs. */
export interface SandboxContext {
  readonly state: SandboxState;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly levyRate: number;
  readonly payments: PaymentEngine;
  /** Whether the partner is set up for deferred billing (PayLater); off unless configured. */
  readonly deferredBilling: boolean;
  /** Products on offer; the standard catalogue where not given. */
  readonly catalogue?: Partial<SandboxCatalogue> | undefined;
}

/** An empty state. */
export function createEmptyState(): SandboxState {
  return {
    clients: new Map(),
    vehicles: new Map(),
    quotations: new Map(),
    policies: new Map(),
    creditLifeQuotations: new Map(),
    creditLifePolicies: new Map(),
    loans: new Map(),
    creditLifeBatches: new Map(),
    claims: new Map(),
    groupLifeQuotations: new Map(),
    groupLifePolicies: new Map(),
    members: new Map(),
    groupLifeBatches: new Map(),
    households: new Map(),
  };
}
