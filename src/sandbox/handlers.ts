import type { z } from 'zod';
import type { Contract, OperationName } from '../api/index.js';
import {
  CREDIT_LIFE_PRODUCT,
  catalogueOf,
  GENERAL_PRODUCTS,
  LIFE_PRODUCTS,
  MOTOR_RISK_CATEGORIES,
  motorProductView,
  PAYMENT_GATEWAYS,
  productView,
} from './catalogue.js';
import * as claims from './claims.js';
import * as clients from './clients.js';
import * as creditLife from './credit-life.js';
import * as groupLife from './group-life.js';
import { paginate } from './paginate.js';
import * as payments from './payments.js';
import * as retail from './retail.js';
import { notFound } from './sandbox-error.js';
import { csvFile, pdfFile, type SandboxFile } from './sandbox-file.js';
import type { Json, PolicyRecord, SandboxContext } from './state.js';

type Entry<N extends OperationName> = Contract[N];

/** The validated request of one operation, typed from its own contract entry. */
export interface HandlerInput<N extends OperationName> {
  readonly params: z.output<Entry<N>['pathParams']>;
  readonly query: Entry<N> extends { readonly query: infer Q extends z.ZodType }
    ? z.output<Q>
    : Record<string, never>;
  readonly body: Entry<N> extends { readonly body: infer B extends z.ZodType }
    ? z.output<B>
    : undefined;
  /** `http://host:port` of the request, for links such as the 3-D Secure page. */
  readonly origin: string;
}

/** Serves one operation: returns the JSON body, or a file for stream operations. */
type Handler<N extends OperationName> = (input: HandlerInput<N>) => Json | Json[] | SandboxFile;

/** One handler per operation of the contract table; a missing one fails to compile. */
export type Handlers = { readonly [N in OperationName]: Handler<N> };

const INDIVIDUAL = 'Individual' as const;
const CORPORATE = 'Corporate' as const;

function allProducts(ctx: SandboxContext): Json[] {
  const { motor, travel } = catalogueOf(ctx);
  return [
    ...motor.map((product) => ({
      ...motorProductView(product),
      code: `MTR-${product.id}`,
    })),
    ...travel.map((pack) =>
      productView(pack, 'Travel', { dailyRate: pack.dailyRate, region: pack.region }),
    ),
    ...LIFE_PRODUCTS.map((product) =>
      productView(product, 'Life', { annualRate: product.annualRate }),
    ),
    ...GENERAL_PRODUCTS.map((product) =>
      productView(product, 'General', { annualRate: product.annualRate }),
    ),
    productView(CREDIT_LIFE_PRODUCT, 'CreditLife'),
  ];
}

function findProduct<T extends { id: number }>(list: readonly T[], id: string, what: string): T {
  const product = list.find((candidate) => String(candidate.id) === id);
  if (!product) throw notFound(what, id);
  return product;
}

function lifePolicy(ctx: SandboxContext, idOrQuoteId: string): PolicyRecord {
  const direct = ctx.state.policies.get(idOrQuoteId);
  if (direct?.line === 'life') return direct;
  const quotation = ctx.state.quotations.get(idOrQuoteId);
  const viaQuote = quotation?.policyId ? ctx.state.policies.get(quotation.policyId) : undefined;
  if (viaQuote?.line === 'life') return viaQuote;
  throw notFound('Life policy', idOrQuoteId);
}

/** Builds the handler map over one sandbox's context. */
export function createHandlers(ctx: SandboxContext): Handlers {
  return {
    ...clientHandlers(ctx),
    ...productHandlers(ctx),
    ...motorHandlers(ctx),
    ...paymentHandlers(ctx),
    ...travelHandlers(ctx),
    ...lifeHandlers(ctx),
    ...generalHandlers(ctx),
    ...creditLifeHandlers(ctx),
    ...groupLifeHandlers(ctx),
    ...groupFuneralHandlers(ctx),
  };
}

/** Types a group of handlers by the operations it names, each handler by its own operation. */
function handlersFor<K extends OperationName>(handlers: { readonly [N in K]: Handler<N> }) {
  return handlers;
}

function docName(policy: PolicyRecord, kind: string): string {
  return `${policy.policyNumber}-${kind}.pdf`;
}

function motorDoc(ctx: SandboxContext, policyId: string, kind: retail.DocumentKind): SandboxFile {
  const policy = retail.getPolicy(ctx, policyId, 'motor');
  return pdfFile(docName(policy, kind), retail.policyDocument(ctx, policy, kind));
}

/** The handlers of clients and vehicles. */
function clientHandlers(ctx: SandboxContext) {
  return handlersFor({
    createIndividual: ({ body }) => clients.createIndividual(ctx, body),
    getIndividuals: ({ query }) => clients.listClients(ctx, INDIVIDUAL, query),
    getIndividual: ({ params }) => clients.getIndividual(ctx, params.id),
    updateIndividual: ({ params, body }) => clients.updateIndividual(ctx, params.id, body),
    createCorporate: ({ body }) => clients.createCorporate(ctx, body),
    getCorporates: ({ query }) => clients.listClients(ctx, CORPORATE, query),
    getCorporate: ({ params }) => clients.getCorporate(ctx, params.id),
    updateCorporate: ({ params, body }) => clients.updateCorporate(ctx, params.id, body),
    getClientVehicles: ({ params, query }) => clients.listClientVehicles(ctx, params.id, query),
    createVehicle: ({ params, body }) => clients.createVehicle(ctx, params.id, body),
    searchVehicleByRegistration: ({ query }) => {
      const key = clients.plateKey(query.registrationNumber);
      return [...ctx.state.vehicles.values()]
        .filter((vehicle) => clients.plateKey(vehicle.registrationNumber).includes(key))
        .map((vehicle) => clients.vehicleView(ctx, vehicle));
    },
    getVehicleAnniversaryDates: ({ params }) =>
      clients.vehicleAnniversaryDates(ctx, params.vehicleId),
    getVehicleInsuranceStatus: ({ params }) =>
      clients.vehicleInsuranceStatus(ctx, params.vehicleId),
  });
}

/** The handlers of products and pricing. */
function productHandlers(ctx: SandboxContext) {
  return handlersFor({
    getProducts: ({ query }) => paginate(allProducts(ctx), query),
    getMotorProducts: ({ query }) => paginate(catalogueOf(ctx).motor.map(motorProductView), query),
    getMotorProduct: ({ params }) => motorProductView(retail.motorProduct(ctx, params.productId)),
    getTravelProducts: ({ query }) =>
      paginate(
        catalogueOf(ctx).travel.map((pack) =>
          productView(pack, 'Travel', { dailyRate: pack.dailyRate, region: pack.region }),
        ),
        query,
      ),
    getTravelProduct: ({ params }) => {
      const pack = findProduct(catalogueOf(ctx).travel, params.productId, 'Travel product');
      return productView(pack, 'Travel');
    },
    getLifeProducts: ({ query }) =>
      paginate(
        LIFE_PRODUCTS.map((product) =>
          productView(product, 'Life', { annualRate: product.annualRate }),
        ),
        query,
      ),
    getLifeProduct: ({ params }) => {
      const product = findProduct(LIFE_PRODUCTS, params.productId, 'Life product');
      return productView(product as (typeof LIFE_PRODUCTS)[number], 'Life');
    },
    getCreditLifeProducts: () => [{ ...CREDIT_LIFE_PRODUCT }],
    getMotorRiskCategories: () => MOTOR_RISK_CATEGORIES.map((category) => ({ ...category })),
    getMotorPricing: ({ body }) => retail.motorPricing(ctx, body),
  });
}

/** The handlers of motor quotations and policies. */
function motorHandlers(ctx: SandboxContext) {
  return handlersFor({
    motorQuotationInquiry: ({ body }) => retail.motorEstimate(ctx, body),
    compareMotorQuotations: ({ body }) => retail.motorComparison(ctx, body),
    createMotorQuotation: ({ body }) => retail.createMotorQuotation(ctx, body),
    getMotorQuotations: ({ query }) => retail.listQuotations(ctx, 'motor', query),
    instantIssueMotorPolicy: ({ body }) => retail.motorInstantIssue(ctx, body),
    instantIssueAndPayMotorPolicy: ({ body, origin }) =>
      retail.motorInstantIssuePay(ctx, body, origin),
    issueMotorPolicy: ({ params, body }) =>
      retail.policyView(ctx, retail.issueQuotation(ctx, params.quoteId, 'motor', body)),
    renewMotorPolicy: ({ params, body }) =>
      retail.renewPolicy(ctx, retail.getPolicy(ctx, params.policyId, 'motor'), body),
    renewAndPayMotorPolicy: ({ params, body, origin }) =>
      retail.periodAndPay(
        ctx,
        retail.getPolicy(ctx, params.policyId, 'motor'),
        'renew',
        body,
        origin,
      ),
    extendMotorPolicy: ({ params, body }) =>
      retail.extendPolicy(ctx, retail.getPolicy(ctx, params.policyId, 'motor'), body.endDate),
    extendAndPayMotorPolicy: ({ params, body, origin }) =>
      retail.periodAndPay(
        ctx,
        retail.getPolicy(ctx, params.policyId, 'motor'),
        'extend',
        body,
        origin,
      ),
    getMotorPolicies: ({ query }) => retail.listPolicies(ctx, 'motor', query),
    getMotorPolicy: ({ params }) =>
      retail.policyView(ctx, retail.getPolicy(ctx, params.policyId, 'motor')),
    getMotorPolicyByRegistration: ({ query }) => [
      retail.motorPolicyByRegistration(ctx, query.registrationNumber),
    ],
    getMotorPolicySchedule: ({ params }) => motorDoc(ctx, params.policyId, 'schedule'),
    getMotorPolicyCertificate: ({ params }) => motorDoc(ctx, params.policyId, 'certificate'),
    getMotorPolicyReceipt: ({ params }) => motorDoc(ctx, params.policyId, 'receipt'),
    getMotorExtensionPremiums: ({ params, query }) =>
      retail.extensionQuote(ctx, retail.getPolicy(ctx, params.policyId, 'motor'), query.endDate),
    getMotorRenewalPremiums: ({ params, query }) =>
      retail.renewalQuote(ctx, retail.getPolicy(ctx, params.policyId, 'motor'), query),
  });
}

/** The handlers of payments. */
function paymentHandlers(ctx: SandboxContext) {
  return handlersFor({
    payQuotation: ({ params, body, origin }) =>
      retail.payQuotation(ctx, params.quoteId, body, origin),
    getTransactionStatus: ({ params }) => payments.transactionStatus(ctx, params.reference),
    getTransaction: ({ params }) => payments.transactionDetails(ctx, params.reference),
    getCallbackLogs: ({ params }) => payments.callbackDeliveries(ctx, params.reference),
    getPaymentGateways: () => PAYMENT_GATEWAYS.map((gateway) => ({ ...gateway })),
    payFarmerPremium: ({ body, origin }) => payments.payFarmerPremium(ctx, body, origin),
  });
}

/** The handlers of travel. */
function travelHandlers(ctx: SandboxContext) {
  return handlersFor({
    instantIssueTravelPolicy: ({ body, origin }) => retail.travelInstantIssue(ctx, body, origin),
    instantIssueTravelQuotation: ({ body, origin }) =>
      retail.travelInstantIssue(ctx, body, origin, 'quotation'),
    getTravelQuotations: ({ query }) => retail.listQuotations(ctx, 'travel', query),
    createTravelQuotation: ({ body }) => retail.createTravelQuotation(ctx, body),
    getTravelQuotation: ({ params }) => retail.getQuotation(ctx, params.quoteId, 'travel'),
    issueTravelPolicy: ({ params, body }) =>
      retail.policyView(ctx, retail.issueQuotation(ctx, params.quoteId, 'travel', body)),
    getTravelPolicies: ({ query }) => retail.listPolicies(ctx, 'travel', query),
    getTravelPolicy: ({ params }) =>
      retail.policyView(ctx, retail.getPolicy(ctx, params.policyId, 'travel')),
    getTravelPolicyCertificate: ({ params }) => {
      const policy = retail.getPolicy(ctx, params.policyId, 'travel');
      return pdfFile(
        docName(policy, 'certificate'),
        retail.policyDocument(ctx, policy, 'certificate'),
      );
    },
    renewTravelPolicy: ({ params, body, origin }) =>
      retail.periodAndPay(
        ctx,
        retail.getPolicy(ctx, params.policyId, 'travel'),
        'renew',
        body,
        origin,
      ),
  });
}

/** The handlers of life. */
function lifeHandlers(ctx: SandboxContext) {
  return handlersFor({
    getLifeQuotations: ({ query }) => retail.listQuotations(ctx, 'life', query),
    createLifeQuotation: ({ body }) => retail.createLifeQuotation(ctx, body),
    getLifeQuotation: ({ params }) => retail.getQuotation(ctx, params.quoteId, 'life'),
    issueLifePolicy: ({ params, body }) =>
      retail.policyView(ctx, retail.issueQuotation(ctx, params.quoteId, 'life', body)),
    instantIssueLifePolicy: ({ body, origin }) => {
      const existing = ctx.payments.get(body.reference);
      const quoteId = existing?.subjectId ?? retail.createLifeQuotation(ctx, body).id;
      return retail.payQuotation(ctx, quoteId, body, origin);
    },
    getLifePolicies: ({ query }) => retail.listPolicies(ctx, 'life', query),
    getLifePolicy: ({ params }) =>
      retail.policyView(ctx, retail.getPolicy(ctx, params.policyId, 'life')),
    getLifePolicyCertificate: ({ params }) => {
      const policy = lifePolicy(ctx, params.policyId);
      return pdfFile(
        docName(policy, 'certificate'),
        retail.policyDocument(ctx, policy, 'certificate'),
      );
    },
    renewLifePolicy: ({ params, body, origin }) =>
      retail.periodAndPay(ctx, lifePolicy(ctx, params.quoteId), 'renew', body, origin),
  });
}

/** The handlers of general. */
function generalHandlers(ctx: SandboxContext) {
  return handlersFor({
    instantIssueGeneralPolicy: ({ body, origin }) => retail.generalInstantIssue(ctx, body, origin),
    issueGeneralPolicy: ({ params, body }) =>
      retail.generalPolicyView(ctx, retail.issueQuotation(ctx, params.quoteId, 'general', body)),
    extendGeneralPolicy: ({ params, body }) => {
      const policy = retail.getPolicy(ctx, params.policyId);
      retail.extendPolicy(ctx, policy, body.endDate, 'general');
      return retail.generalPolicyView(ctx, policy);
    },
    renewGeneralPolicy: ({ params, body }) => {
      const policy = retail.getPolicy(ctx, params.policyId);
      retail.renewPolicy(ctx, policy, body);
      return retail.generalPolicyView(ctx, policy);
    },
    getPolicies: ({ query }) => retail.listPolicies(ctx, undefined, query),
  });
}

/** The handlers of credit life. */
function creditLifeHandlers(ctx: SandboxContext) {
  return handlersFor({
    getCreditLifeQuotations: () => creditLife.listCreditLifeQuotations(ctx),
    getCreditLifeQuotation: ({ params }) =>
      creditLife.getCreditLifeQuotation(ctx, params.quotationId),
    createCreditLifePolicy: ({ body }) =>
      creditLife.creditLifePolicyView(ctx, creditLife.createCreditLifePolicy(ctx, body)),
    buyCreditLifeCover: ({ body, origin }) => creditLife.buyCreditLifeCover(ctx, body, origin),
    getCreditLifePolicies: ({ query }) => creditLife.listCreditLifePolicies(ctx, query),
    getCreditLifePolicy: ({ params }) =>
      creditLife.creditLifePolicyView(
        ctx,
        creditLife.getCreditLifePolicyRecord(ctx, params.policyId),
      ),
    getCreditLifePolicyStatus: ({ params }) =>
      creditLife.creditLifePolicyStatus(ctx, params.policyId),
    getCreditLifeRenewalPremiums: ({ params }) =>
      creditLife.creditLifeRenewalPremiums(ctx, params.policyId),
    renewCreditLifePolicy: ({ params }) => creditLife.renewCreditLifePolicy(ctx, params.policyId),
    renewCreditLifePolicyWithLoans: ({ params, body }) =>
      creditLife.renewWithLoans(ctx, params.policyId, body.loans),
    renewAndPayCreditLifePolicy: ({ params, body, origin }) =>
      creditLife.renewAndPay(ctx, params.policyId, body, origin),
    renewAndPayCreditLifePolicyWithLoans: ({ params, body, origin }) =>
      creditLife.renewWithLoansAndPay(ctx, params.policyId, body, origin),
    placeLoans: ({ params, body }) => creditLife.placeLoans(ctx, params.policyId, body.loans),
    placeSingleLoan: ({ params, body }) => creditLife.placeSingleLoan(ctx, params.policyId, body),
    placeLoansAndPay: ({ params, body, origin }) =>
      creditLife.placeLoansAndPay(ctx, params.policyId, body, origin),
    quoteCreditLifeLoan: ({ params, body }) => creditLife.quoteLoan(ctx, params.policyId, body),
    getCreditLifeBatch: ({ params }) =>
      creditLife.batchView(ctx, creditLife.getBatch(ctx, params.scheduleId)),
    getCreditLifeBatches: ({ params, query }) =>
      creditLife.listBatches(ctx, params.policyId, query),
    payCreditLifeSchedule: ({ params, body, origin }) =>
      creditLife.paySchedule(ctx, params.scheduleId, body, origin),
    takeLoansOffCover: ({ params, body }) =>
      creditLife.takeLoansOffCover(ctx, params.policyId, body),
    getCoveredLoan: ({ params }) =>
      creditLife.loanView(creditLife.findLoan(ctx, params.policyId, { loanId: params.loanId })),
    getCoveredLoanByReference: ({ params, query }) =>
      creditLife.loanView(
        creditLife.findLoan(ctx, params.policyId, {
          partnerLoanReference: query.partnerLoanReference,
        }),
      ),
    searchCoveredLoans: ({ params, query }) => creditLife.searchLoans(ctx, params.policyId, query),
    getCreditLifeBordereau: ({ params }) =>
      csvFile(
        `bordereau-${params.policyId}.csv`,
        creditLife.creditLifeBordereau(ctx, params.policyId),
      ),
    getCreditLifeClaims: ({ query }) => claims.listClaims(ctx, 'credit-life', query),
    intimateCreditLifeClaim: ({ params, body }) =>
      creditLife.intimateCreditLifeClaim(ctx, params.policyId, body),
    getCreditLifeClaim: ({ params }) => claims.getClaim(ctx, 'credit-life', params.claimId),
    attachCreditLifeClaimDocuments: ({ params, body }) =>
      creditLife.attachCreditLifeDocuments(ctx, params.claimId, body.documents),
  });
}

/** The handlers of group life. */
function groupLifeHandlers(ctx: SandboxContext) {
  return handlersFor({
    getGroupLifeQuotations: () => groupLife.listGroupLifeQuotations(ctx),
    getGroupLifeQuotation: ({ params }) => groupLife.getGroupLifeQuotation(ctx, params.quotationId),
    createGroupLifePolicy: ({ body }) => groupLife.createGroupLifePolicy(ctx, body),
    getGroupLifePolicies: ({ query }) => groupLife.listGroupLifePolicies(ctx, query),
    getGroupLifePolicy: ({ params }) => groupLife.getGroupLifePolicy(ctx, params.policyId),
    enrolGroupLifeBatch: ({ params, body }) =>
      groupLife.groupLifeBatchView(groupLife.enrolBatch(ctx, params.policyId, body)),
    getGroupLifeBatch: ({ params }) =>
      groupLife.groupLifeBatchView(groupLife.getGroupLifeBatch(ctx, params.batchId)),
    getGroupLifeBatches: ({ params, query }) =>
      groupLife.listGroupLifeBatches(ctx, params.policyId, query),
    quoteGroupLifeCensus: ({ params, body }) =>
      groupLife.quoteCensus(ctx, params.policyId, body.members),
    takeMembersOffCover: ({ params, body }) =>
      groupLife.takeMembersOffCover(ctx, params.policyId, body),
    getCoveredMember: ({ params }) =>
      groupLife.memberOf(ctx, params.policyId, { memberId: params.memberId }),
    getCoveredMemberByNrc: ({ params, query }) =>
      groupLife.memberOf(ctx, params.policyId, { nrcNumber: query.nrcNumber }),
    searchCoveredMembers: ({ params, query }) =>
      groupLife.searchMembers(ctx, params.policyId, query),
    getGroupLifeBordereau: ({ params }) =>
      csvFile(`members-${params.policyId}.csv`, groupLife.groupLifeBordereau(ctx, params.policyId)),
    getGroupLifeClaims: ({ query }) => claims.listClaims(ctx, 'group-life', query),
    intimateGroupLifeClaim: ({ params, body }) =>
      groupLife.intimateGroupLifeClaim(ctx, params.policyId, body),
    getGroupLifeClaim: ({ params }) => claims.getClaim(ctx, 'group-life', params.claimId),
    attachGroupLifeClaimDocuments: ({ params, body }) =>
      groupLife.attachGroupLifeDocuments(ctx, params.claimId, body.documents),
  });
}

/** The handlers of group funeral. */
function groupFuneralHandlers(ctx: SandboxContext) {
  return handlersFor({
    getGroupFuneralHouseholdByNrc: ({ query }) => groupLife.householdByNrc(ctx, query.nrcNumber),
  });
}
