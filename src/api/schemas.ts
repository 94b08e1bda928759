import { z } from 'zod';

/*
 * Resource and embedded-object schemas of the Partner Insurance API, with the spec's field names
 * and types. Every object keeps unknown fields (`z.looseObject`): the spec says many fields are
 * "not shown", and a response carrying more than we know is not a broken response.
 *
 * Response fields the spec lists as returned are optional and nullable unless the conversation
 * depends on them (ids, numbers, status, premiums of a result object): real upstreams omit or null
 * fields freely, and failing a whole turn over a missing `updatedAt` helps nobody.
 */

/**
 * The schemas the OpenAPI document emits once under components/schemas, by id. Private to this
 * folder (not zod's global registry) so other parts' schemas never mix into ours.
 */
export const named = z.registry<{ id: string }>();

/**
 * The longest value of each field a person types. The spec gives no lengths, so these are
 * assumed: generous for what each field holds (a name, a chassis number, the story of a loss).
 * The request schemas below enforce them and each question that fills one of these fields takes
 * its limit from here, so a chat user is never held to a USSD screen's length.
 */
export const FIELD_LENGTHS = {
  firstName: 100,
  lastName: 100,
  email: 254,
  make: 50,
  model: 50,
  chassisNumber: 30,
  engineNumber: 30,
  destination: 100,
  description: 2000,
  partnerLoanReference: 50,
} as const;

/** A hashed identifier; the spec says ids are opaque strings used as given. */
export const Id = z.string().min(1);

/** A string the upstream may omit or send as null. */
const optString = z.string().nullish();
const optNumber = z.number().nullish();
const optInteger = z.number().int().nullish();
const optBoolean = z.boolean().nullish();
/** Nested records whose fields are "not shown": any JSON object. */
const looseRecord = z.looseObject({});
const optRecord = looseRecord.nullish();

/** An ISO 8601 date (`2026-01-31`) or date-time, as requests use; the API judges the rest. */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'Expected an ISO 8601 date');

/** Zambian NRC `NNNNNN/NN/N`. */
export const NrcNumber = z.string().regex(/^\d{6}\/\d{2}\/\d$/, 'Expected an NRC like 479974/11/1');

// ---------------------------------------------------------------------------------------------
// Errors and lists

/** The published error body: `{"status": 400, "message": "...", "errors": {"field": ["..."]}}`. */
export const ApiErrorBody = z
  .looseObject({
    status: z.number().int().optional(),
    message: z.string().optional(),
    errors: z.record(z.string(), z.array(z.string())).nullish(),
  })
  .register(named, { id: 'ApiErrorBody' });
/** The published error body. */
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/**
 * A positive integer in a query string. Coerced, so the sandbox can validate the strings a URL
 * carries with the same schema the client checks numbers with.
 */
export const QueryInteger = z.coerce.number<number | string>().int().min(1);

/** Query parameters every paginated list accepts. */
export const PageQuery = z.looseObject({
  PageNumber: QueryInteger.optional(),
  PageSize: QueryInteger.optional(),
});
/** Query parameters every paginated list accepts. */
export type PageQuery = z.infer<typeof PageQuery>;

/** The paginated list envelope (as shown for motor products) around `item`. */
export function PaginatedEnvelope<T extends z.ZodType>(item: T) {
  return z.looseObject({
    totalItems: z.number().int(),
    pageSize: z.number().int(),
    pageNumber: z.number().int(),
    totalPages: z.number().int(),
    data: z.array(item),
  });
}
/** A page of items as the API returns it, for an item schema `T`. */
export type PaginatedEnvelope<T extends z.ZodType> = z.infer<
  ReturnType<typeof PaginatedEnvelope<T>>
>;

// ---------------------------------------------------------------------------------------------
// Clients and vehicles

/** Bank detail; all strings. */
export const BankDetail = z
  .looseObject({
    name: optString,
    branch: optString,
    accountNumber: optString,
    swiftCode: optString,
    accountName: optString,
  })
  .register(named, { id: 'BankDetail' });
/** Bank detail. */
export type BankDetail = z.infer<typeof BankDetail>;

/** Address; all strings. */
export const Address = z
  .looseObject({
    country: optString,
    province: optString,
    district: optString,
    street: optString,
    plotNo: optString,
  })
  .register(named, { id: 'Address' });
/** Address. */
export type Address = z.infer<typeof Address>;

/** A farm of a corporate client (returned only). */
export const Farm = z
  .looseObject({
    id: z.union([z.string(), z.number()]).nullish(),
    createdAt: optString,
    updatedAt: optString,
    name: optString,
    clientId: z.union([z.string(), z.number()]).nullish(),
    client: optRecord,
    administrativeAreaId: z.union([z.string(), z.number()]).nullish(),
    camp: optString,
  })
  .register(named, { id: 'Farm' });
/** A farm of a corporate client. */
export type Farm = z.infer<typeof Farm>;

/** An individual policyholder as returned. */
export const IndividualPolicyholder = z
  .looseObject({
    id: Id,
    firstName: optString,
    lastName: optString,
    phoneNumber: optString,
    email: optString,
    idNumber: optString,
    idType: optString,
    physicalAddress: optString,
    gender: optString,
    type: optString,
    status: optString,
    createdAt: optString,
    updatedAt: optString,
  })
  .register(named, { id: 'IndividualPolicyholder' });
/** An individual policyholder as returned. */
export type IndividualPolicyholder = z.infer<typeof IndividualPolicyholder>;

/** Body of "Create individual" (required: firstName, lastName, phoneNumber, email, idNumber, idType). */
export const CreateIndividualBody = z
  .looseObject({
    firstName: z.string().min(1).max(FIELD_LENGTHS.firstName),
    lastName: z.string().min(1).max(FIELD_LENGTHS.lastName),
    phoneNumber: z.string().min(1),
    email: z.string().min(1).max(FIELD_LENGTHS.email),
    idNumber: z.string().min(1),
    idType: z.string().min(1),
    physicalAddress: z.string().optional(),
    gender: z.string().optional(),
  })
  .register(named, { id: 'CreateIndividualBody' });
/** Body of "Create individual". */
export type CreateIndividualBody = z.infer<typeof CreateIndividualBody>;

/** Body of "Update individual policyholder": any field of the create body. */
export const UpdateIndividualBody = CreateIndividualBody.partial().register(named, {
  id: 'UpdateIndividualBody',
});
/** Body of "Update individual policyholder". */
export type UpdateIndividualBody = z.infer<typeof UpdateIndividualBody>;

/** A corporate policyholder as returned. */
export const CorporatePolicyholder = z
  .looseObject({
    id: Id,
    name: optString,
    email: optString,
    phoneNumber: optString,
    taxPayerId: optString,
    address: optString,
    physicalAddress: optString,
    postalAddress: optString,
    contactPerson: optString,
    contactPersonPhoneNumber: optString,
    sector: optString,
    registrationNumber: optString,
    bankDetail: BankDetail.nullish(),
    type: optString,
    status: optString,
    dateOfBirth: optString,
    farms: z.array(Farm).nullish(),
    createdAt: optString,
    updatedAt: optString,
  })
  .register(named, { id: 'CorporatePolicyholder' });
/** A corporate policyholder as returned. */
export type CorporatePolicyholder = z.infer<typeof CorporatePolicyholder>;

/** Body of "Create corporate" (required: name, email, phoneNumber, taxPayerId). */
export const CreateCorporateBody = z
  .looseObject({
    name: z.string().min(1),
    email: z.string().min(1),
    phoneNumber: z.string().min(1),
    taxPayerId: z.string().min(1),
    address: z.string().optional(),
    contactPerson: z.string().optional(),
    contactPersonPhoneNumber: z.string().optional(),
    physicalAddress: z.string().optional(),
    postalAddress: z.string().optional(),
    sector: z.string().optional(),
    registrationNumber: z.string().optional(),
    bankDetail: BankDetail.optional(),
  })
  .register(named, { id: 'CreateCorporateBody' });
/** Body of "Create corporate". */
export type CreateCorporateBody = z.infer<typeof CreateCorporateBody>;

/** Body of "Update corporate policyholder": the create fields, all optional. */
export const UpdateCorporateBody = CreateCorporateBody.partial().register(named, {
  id: 'UpdateCorporateBody',
});
/** Body of "Update corporate policyholder". */
export type UpdateCorporateBody = z.infer<typeof UpdateCorporateBody>;

/** Vehicle list filter values. */
export const VehiclePolicyFilter = z
  .enum(['HasPolicy', 'NoPolicy'])
  .register(named, { id: 'VehiclePolicyFilter' });
/** Vehicle list filter values. */
export type VehiclePolicyFilter = z.infer<typeof VehiclePolicyFilter>;

/** Body of "Create vehicle" (all listed fields required). */
export const CreateVehicleBody = z
  .looseObject({
    make: z.string().min(1).max(FIELD_LENGTHS.make),
    model: z.string().min(1).max(FIELD_LENGTHS.model),
    yearOfManufacture: z.number().int(),
    registrationNumber: z.string().min(1),
    chassisNumber: z.string().min(1).max(FIELD_LENGTHS.chassisNumber),
    engineNumber: z.string().min(1).max(FIELD_LENGTHS.engineNumber),
    motorRiskCategoryId: Id,
    color: z.string().optional(),
    capacity: z.number().int().optional(),
    seatingCapacity: z.number().int().optional(),
    tonnage: z.number().optional(),
    motorBodyTypeId: z.string().optional(),
  })
  .register(named, { id: 'CreateVehicleBody' });
/** Body of "Create vehicle". */
export type CreateVehicleBody = z.infer<typeof CreateVehicleBody>;

/** A vehicle record. Fields returned: not shown; we assume the create fields plus an id. */
export const Vehicle = z
  .looseObject({
    id: Id,
    clientId: optString,
    make: optString,
    model: optString,
    yearOfManufacture: optInteger,
    registrationNumber: optString,
    chassisNumber: optString,
    engineNumber: optString,
    motorRiskCategoryId: optString,
    color: optString,
    hasPolicy: optBoolean,
    createdAt: optString,
    updatedAt: optString,
  })
  .register(named, { id: 'Vehicle' });
/** A vehicle record. */
export type Vehicle = z.infer<typeof Vehicle>;

/** Road-transport-authority anniversary dates of a vehicle (shape not shown; assumed). */
export const VehicleAnniversaryDates = z
  .looseObject({
    registrationNumber: optString,
    anniversaryDates: z.array(z.string()),
  })
  .register(named, { id: 'VehicleAnniversaryDates' });
/** Road-transport-authority anniversary dates of a vehicle. */
export type VehicleAnniversaryDates = z.infer<typeof VehicleAnniversaryDates>;

/** Insurance status of a vehicle (shape not shown; assumed). */
export const VehicleInsuranceStatus = z
  .looseObject({
    registrationNumber: optString,
    insured: z.boolean(),
    policyId: optString,
    policyNumber: optString,
    status: optString,
    endDate: optString,
  })
  .register(named, { id: 'VehicleInsuranceStatus' });
/** Insurance status of a vehicle. */
export type VehicleInsuranceStatus = z.infer<typeof VehicleInsuranceStatus>;

// ---------------------------------------------------------------------------------------------
// Embedded request objects

/** The policyholder object embedded in instant-issue, inquiry and comparison bodies. */
export const PolicyHolderObject = z
  .looseObject({
    type: z.string().optional(),
    clientType: z.string().optional(),
    name: z.string().optional(),
    dateOfBirth: z.string().optional(),
    phone: z.string().optional(),
    email: z.string().optional(),
    physicalAddress: z.string().optional(),
    postalAddress: z.string().optional(),
    contactPerson: z.string().optional(),
    contactPersonPhoneNumber: z.string().optional(),
    registrationNumber: z.string().optional(),
    idType: z.string().optional(),
    idNumber: z.string().optional(),
    tpinNumber: z.string().optional(),
    sector: z.string().optional(),
  })
  .register(named, { id: 'PolicyHolderObject' });
/** The embedded policyholder object. */
export type PolicyHolderObject = z.infer<typeof PolicyHolderObject>;

/** Motor risk embedded in inquiry and instant-issue bodies. */
export const MotorRisk = z
  .looseObject({
    make: z.string().optional(),
    model: z.string().optional(),
    yearOfManufacture: z.number().int().optional(),
    capacity: z.number().int().optional(),
    tonnage: z.number().optional(),
    seatingCapacity: z.number().int().optional(),
    photosUrls: z.array(z.string()).optional(),
    // The inquiry's risks are "with motorRiskCategoryId, registration info" (spec): required.
    registrationNumber: z.string().min(1),
    chassisNumber: z.string().optional(),
    engineNumber: z.string().optional(),
    sumInsured: z.number().optional(),
    currency: z.string().optional(),
    color: z.string().optional(),
    motorRiskCategoryId: Id,
    motorBodyTypeId: z.string().optional(),
  })
  .register(named, { id: 'MotorRisk' });
/** Motor risk embedded in inquiry and instant-issue bodies. */
export type MotorRisk = z.infer<typeof MotorRisk>;

/** Card details object: the billing address of a card payment. */
export const CardDetails = z
  .looseObject({
    city: z.string().min(1),
    country: z.string().min(1),
    address: z.string().min(1),
    zip: z.number().int(),
  })
  .register(named, { id: 'CardDetails' });
/** Card details object. */
export type CardDetails = z.infer<typeof CardDetails>;

/** Payment methods the interface names. */
export const PaymentMethod = z
  .enum(['MobileMoney', 'Card', 'PayLater', 'External'])
  .register(named, { id: 'PaymentMethod' });
/** Payment methods the interface names. */
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/** The payment object of pay and issue-and-pay bodies; omitted altogether for PayLater. */
export const PaymentObject = z
  .looseObject({
    method: PaymentMethod.optional(),
    mobileMoneyAccountNumber: z.string().min(1).optional(),
    cardDetails: CardDetails.optional(),
  })
  .register(named, { id: 'PaymentObject' });
/** The payment object of pay and issue-and-pay bodies. */
export type PaymentObject = z.infer<typeof PaymentObject>;

/** Body of "Process payment for a quotation": `{reference, payment?}` per the published guide. */
export const PayQuotationBody = z
  .looseObject({
    reference: z.string().min(1),
    payment: PaymentObject.optional(),
  })
  .register(named, { id: 'PayQuotationBody' });
/** Body of "Process payment for a quotation". */
export type PayQuotationBody = z.infer<typeof PayQuotationBody>;

/** Payment result object. */
export const PaymentResult = z
  .looseObject({
    status: z.string(),
    message: optString,
    txnId: optString,
    referenceId: optString,
    redirectUrl: optString,
    warnings: z.array(z.string()).nullish(),
  })
  .register(named, { id: 'PaymentResult' });
/** Payment result object. */
export type PaymentResult = z.infer<typeof PaymentResult>;

/** Transaction status by reference (published): status `Pending`, `Success` or `Failed`. */
export const TransactionStatus = z
  .looseObject({
    reference: z.string(),
    status: z.string(),
    amount: optNumber,
    currency: optString,
  })
  .register(named, { id: 'TransactionStatus' });
/** Transaction status by reference. */
export type TransactionStatus = z.infer<typeof TransactionStatus>;

/** Transaction details by reference (shape not shown; assumed: the status plus what it paid for). */
export const TransactionDetails = TransactionStatus.extend({
  txnId: optString,
  method: optString,
  quoteId: optString,
  policyId: optString,
  policyNumber: optString,
  createdAt: optString,
  paidAt: optString,
  message: optString,
}).register(named, { id: 'TransactionDetails' });
/** Transaction details by reference. */
export type TransactionDetails = z.infer<typeof TransactionDetails>;

/** Payment webhook body POSTed to the partner's `paymentCallbackUrl` (published; unsigned). */
export const PaymentWebhook = z
  .looseObject({
    policyId: optString,
    paymentReference: optString,
    partnerReference: optString,
    // Only a hint (the outcome is read from the status operation): a gateway's own word, such as
    // `SUCCESSFUL`, must not be refused.
    status: z.string(),
    amount: optNumber,
    currency: optString,
    policyNumber: optString,
    policyStatus: optString,
    paidAt: optString,
  })
  .register(named, { id: 'PaymentWebhook' });
/** Payment webhook body. */
export type PaymentWebhook = z.infer<typeof PaymentWebhook>;

/** One delivery of the payment callback (shape not shown; assumed). */
export const CallbackDelivery = z
  .looseObject({
    id: optString,
    url: optString,
    attemptedAt: optString,
    statusCode: optInteger,
    success: optBoolean,
    error: optString,
  })
  .register(named, { id: 'CallbackDelivery' });
/** One delivery of the payment callback. */
export type CallbackDelivery = z.infer<typeof CallbackDelivery>;

/** A payment gateway available to the account (shape not shown; assumed). */
export const PaymentGateway = z
  .looseObject({
    id: z.union([z.string(), z.number()]),
    name: z.string(),
    method: optString,
    currency: optString,
  })
  .register(named, { id: 'PaymentGateway' });
/** A payment gateway available to the account. */
export type PaymentGateway = z.infer<typeof PaymentGateway>;

/** Body of "Initiate farmer premium payment" (not shown; assumed). */
export const FarmerPremiumPaymentBody = z
  .looseObject({
    reference: z.string().min(1),
    clientId: Id,
    farmId: z.union([z.string(), z.number()]).optional(),
    amount: z.number().positive(),
    currency: z.string().optional(),
    payment: PaymentObject.optional(),
  })
  .register(named, { id: 'FarmerPremiumPaymentBody' });
/** Body of "Initiate farmer premium payment". */
export type FarmerPremiumPaymentBody = z.infer<typeof FarmerPremiumPaymentBody>;

// ---------------------------------------------------------------------------------------------
// Products and pricing

/** The insurer as embedded in products. */
export const Insurer = z
  .looseObject({
    id: z.union([z.string(), z.number()]).nullish(),
    createdAt: optString,
    updatedAt: optString,
    name: optString,
    shortName: optString,
    logoUrl: optString,
    address: optString,
    email: optString,
    externalInsurerId: z.union([z.string(), z.number()]).nullish(),
  })
  .register(named, { id: 'Insurer' });
/** The insurer as embedded in products. */
export type Insurer = z.infer<typeof Insurer>;

/** A product document. */
export const ProductDocument = z
  .looseObject({
    id: z.union([z.string(), z.number()]).nullish(),
    createdAt: optString,
    updatedAt: optString,
    riskCategoryId: z.union([z.string(), z.number()]).nullish(),
    productId: z.union([z.string(), z.number()]).nullish(),
    url: optString,
    name: optString,
  })
  .register(named, { id: 'ProductDocument' });
/** A product document. */
export type ProductDocument = z.infer<typeof ProductDocument>;

/** Motor `durationType` values (published). */
export const MotorDurationType = z
  .enum(['Days', 'Months', 'Years', 'Quarters'])
  .register(named, { id: 'MotorDurationType' });
/** Motor `durationType` values. */
export type MotorDurationType = z.infer<typeof MotorDurationType>;

/** A motor product. The spec gives `id` as an integer; hashed strings are accepted too. */
export const MotorProduct = z
  .looseObject({
    id: z.union([z.number().int(), z.string()]),
    name: optString,
    createdAt: optString,
    updatedAt: optString,
    productType: optString,
    policyClauses: z.array(z.unknown()).nullish(),
    documents: z.array(ProductDocument).nullish(),
    insurer: Insurer.nullish(),
    durationType: optString,
    thirdPartyRates: z.array(z.unknown()).nullish(),
    comprehensiveRates: z.array(z.unknown()).nullish(),
  })
  .register(named, { id: 'MotorProduct' });
/** A motor product. */
export type MotorProduct = z.infer<typeof MotorProduct>;

/** A product of any line (travel, life, general...); fields not shown beyond a motor product's. */
export const Product = z
  .looseObject({
    id: z.union([z.number().int(), z.string()]),
    name: optString,
    description: optString,
    code: optString,
    productType: optString,
    classOfBusiness: optRecord,
    insurer: Insurer.nullish(),
    createdAt: optString,
    updatedAt: optString,
  })
  .register(named, { id: 'Product' });
/** A product of any line. */
export type Product = z.infer<typeof Product>;

/** A motor risk category (shape not shown; assumed). */
export const MotorRiskCategory = z
  .looseObject({
    id: z.union([z.number().int(), z.string()]),
    name: z.string(),
    description: optString,
  })
  .register(named, { id: 'MotorRiskCategory' });
/** A motor risk category. */
export type MotorRiskCategory = z.infer<typeof MotorRiskCategory>;

/** Motor pricing option. */
export const MotorPricingOption = z
  .looseObject({
    duration: z.number().int(),
    label: z.string(),
    basicPremium: z.number(),
    levyPremium: z.number(),
    grossPremium: z.number(),
    currency: z.string(),
    startDate: optString,
    endDate: optString,
  })
  .register(named, { id: 'MotorPricingOption' });
/** Motor pricing option. */
export type MotorPricingOption = z.infer<typeof MotorPricingOption>;

/** Body of "Motor pricing". */
export const MotorPricingBody = z
  .looseObject({
    productId: z.union([z.string().min(1), z.number().int()]),
    riskCategoryId: z.union([z.string().min(1), z.number().int()]),
    startDate: IsoDate.optional(),
    endDate: IsoDate.optional(),
    sumInsured: z.number().optional(),
  })
  .register(named, { id: 'MotorPricingBody' });
/** Body of "Motor pricing". */
export type MotorPricingBody = z.infer<typeof MotorPricingBody>;

/** Response of "Motor pricing". */
export const MotorPricing = z
  .looseObject({
    productId: z.union([z.string(), z.number()]),
    productName: optString,
    productType: optString,
    durationType: optString,
    pricingOptions: z.array(MotorPricingOption),
  })
  .register(named, { id: 'MotorPricing' });
/** Response of "Motor pricing". */
export type MotorPricing = z.infer<typeof MotorPricing>;

/** Credit-life product (array element of the product listing). */
export const CreditLifeProduct = z
  .looseObject({
    id: z.union([z.number().int(), z.string()]),
    name: z.string(),
    description: optString,
    code: optString,
    insurerName: optString,
    insurerLogoUrl: optString,
    fixedPremiumAmount: optNumber,
    freeCoverLimit: optNumber,
    coverPeriodMonths: optInteger,
    coverPeriodDuration: optInteger,
    coverPeriodDurationType: optString,
    premiumGraceDays: optNumber,
    aggregateClaimLimit: optNumber,
    claimNotificationDays: optNumber,
    minimumAge: optNumber,
    maximumAge: optNumber,
    maxTenure: optNumber,
    rateBands: z
      .array(z.looseObject({ fromMonths: optNumber, toMonths: optNumber, rate: optNumber }))
      .nullish(),
    scopesOfCover: z
      .array(
        z.looseObject({
          id: z.union([z.string(), z.number()]).nullish(),
          name: optString,
          description: optString,
          percentageOfSumAssured: optNumber,
          clauses: z.unknown().optional(),
          claimRequirements: z.unknown().optional(),
        }),
      )
      .nullish(),
    documents: z
      .array(
        z.looseObject({
          id: z.union([z.string(), z.number()]).nullish(),
          name: optString,
          url: optString,
        }),
      )
      .nullish(),
  })
  .register(named, { id: 'CreditLifeProduct' });
/** Credit-life product. */
export type CreditLifeProduct = z.infer<typeof CreditLifeProduct>;

// ---------------------------------------------------------------------------------------------
// Quotations and motor policies

/** Body of "Motor quotation inquiry" (nothing persisted). */
export const MotorInquiryBody = z
  .looseObject({
    productId: z.union([z.string().min(1), z.number().int()]),
    duration: z.number().int().positive(),
    currency: z.string().min(1),
    startDate: IsoDate,
    policyHolder: PolicyHolderObject,
    risks: z.array(MotorRisk).min(1),
    reference: z.string().optional(),
  })
  .register(named, { id: 'MotorInquiryBody' });
/** Body of "Motor quotation inquiry". */
export type MotorInquiryBody = z.infer<typeof MotorInquiryBody>;

/** Body of "Instant issue motor policy, no payment": the inquiry body; reference for reconciliation. */
export const MotorInstantIssueBody = MotorInquiryBody;
/** Body of "Instant issue motor policy, no payment". */
export type MotorInstantIssueBody = z.infer<typeof MotorInstantIssueBody>;

/** Body of "Instant issue and pay motor policy": reference is the unique transaction reference. */
export const MotorInstantIssuePayBody = MotorInquiryBody.extend({
  reference: z.string().min(1),
  payment: PaymentObject,
}).register(named, { id: 'MotorInstantIssuePayBody' });
/** Body of "Instant issue and pay motor policy". */
export type MotorInstantIssuePayBody = z.infer<typeof MotorInstantIssuePayBody>;

/** Motor premium estimate (inquiry/comparison response; not shown, assumed). */
export const MotorPremiumEstimate = z
  .looseObject({
    productId: z.union([z.string(), z.number()]).nullish(),
    productName: optString,
    basicPremium: optNumber,
    levyPremium: optNumber,
    premiumLevy: optNumber,
    grossPremium: optNumber,
    premium: optNumber,
    currency: optString,
    startDate: optString,
    endDate: optString,
  })
  .register(named, { id: 'MotorPremiumEstimate' });
/** Motor premium estimate. */
export type MotorPremiumEstimate = z.infer<typeof MotorPremiumEstimate>;

/** Body of "Motor quotation comparison": the inquiry body for several products. */
export const MotorComparisonBody = MotorInquiryBody.omit({ productId: true })
  .extend({
    productIds: z.array(z.union([z.string().min(1), z.number().int()])).min(1),
  })
  .register(named, { id: 'MotorComparisonBody' });
/** Body of "Motor quotation comparison". */
export type MotorComparisonBody = z.infer<typeof MotorComparisonBody>;

/** A motor risk on a quotation: a registered vehicle. */
export const MotorQuotationRisk = z
  .looseObject({
    vehicleId: Id,
    sumInsured: z.number().optional(),
    photosUrls: z.array(z.string()).optional(),
  })
  .register(named, { id: 'MotorQuotationRisk' });
/** A motor risk on a quotation. */
export type MotorQuotationRisk = z.infer<typeof MotorQuotationRisk>;

/** Body of "Create motor quotation": client and vehicles already registered. */
export const CreateMotorQuotationBody = z
  .looseObject({
    productId: z.union([z.string().min(1), z.number().int()]),
    duration: z.number().int().positive(),
    currency: z.string().min(1),
    startDate: IsoDate,
    clientId: Id,
    risks: z.array(MotorQuotationRisk).min(1),
  })
  .register(named, { id: 'CreateMotorQuotationBody' });
/** Body of "Create motor quotation". */
export type CreateMotorQuotationBody = z.infer<typeof CreateMotorQuotationBody>;

/** A motor quotation as returned on creation (id is the quoteId used for payment). */
export const MotorQuotation = z
  .looseObject({
    id: Id,
    premium: z.number(),
    status: z.string(),
    quotationNumber: optString,
    basicPremium: optNumber,
    premiumLevy: optNumber,
    grossPremium: optNumber,
    currency: optString,
    startDate: optString,
    endDate: optString,
    createdAt: optString,
  })
  .register(named, { id: 'MotorQuotation' });
/** A motor quotation. */
export type MotorQuotation = z.infer<typeof MotorQuotation>;

/** A policy record of any line (motor, travel, life): fields not shown; assumed common ones. */
export const PolicyRecord = z
  .looseObject({
    id: Id,
    policyNumber: optString,
    status: z.string(),
    premiumStatus: optString,
    startDate: optString,
    endDate: optString,
    approvedDate: optString,
    basicPremium: optNumber,
    premiumLevy: optNumber,
    grossPremium: optNumber,
    currency: optString,
    clientId: optString,
    productId: z.union([z.string(), z.number()]).nullish(),
    quoteId: optString,
    registrationNumber: optString,
    createdAt: optString,
    updatedAt: optString,
  })
  .register(named, { id: 'PolicyRecord' });
/** A policy record. */
export type PolicyRecord = z.infer<typeof PolicyRecord>;

/** A motor policy record (not shown; the common policy record). */
export const MotorPolicy = PolicyRecord;
/** A motor policy record. */
export type MotorPolicy = z.infer<typeof MotorPolicy>;

/** Result of instant issue of a motor policy without payment (not shown; assumed). */
export const MotorIssueResult = z
  .looseObject({
    status: optString,
    message: optString,
    policy: MotorPolicy.nullish(),
  })
  .register(named, { id: 'MotorIssueResult' });
/** Result of instant issue of a motor policy without payment. */
export type MotorIssueResult = z.infer<typeof MotorIssueResult>;

/** Result of an issue-and-pay or renew/extend-and-pay call: the payment result plus the policy. */
export const PaidIssueResult = PaymentResult.extend({
  policy: PolicyRecord.nullish(),
}).register(named, { id: 'PaidIssueResult' });
/** Result of an issue-and-pay call. */
export type PaidIssueResult = z.infer<typeof PaidIssueResult>;

/** Premiums for a motor renewal or extension (not shown; assumed like a pricing option). */
export const MotorPremiumQuote = z
  .looseObject({
    policyId: optString,
    basicPremium: z.number(),
    levyPremium: optNumber,
    grossPremium: z.number(),
    currency: optString,
    startDate: optString,
    endDate: optString,
  })
  .register(named, { id: 'MotorPremiumQuote' });
/** Premiums for a motor renewal or extension. */
export type MotorPremiumQuote = z.infer<typeof MotorPremiumQuote>;

/** Body of motor renew / extend (not shown; assumed: the new period). */
export const MotorPeriodBody = z
  .looseObject({
    startDate: IsoDate.optional(),
    endDate: IsoDate.optional(),
    duration: z.number().int().positive().optional(),
  })
  .register(named, { id: 'MotorPeriodBody' });
/** Body of motor renew / extend. */
export type MotorPeriodBody = z.infer<typeof MotorPeriodBody>;

/** Body of motor renew-and-pay / extend-and-pay: the period plus reference and payment. */
export const MotorPeriodPayBody = MotorPeriodBody.extend({
  reference: z.string().min(1),
  payment: PaymentObject,
}).register(named, { id: 'MotorPeriodPayBody' });
/** Body of motor renew-and-pay / extend-and-pay. */
export type MotorPeriodPayBody = z.infer<typeof MotorPeriodPayBody>;

/** Body of issuing a policy from a quotation (not shown; assumed optional reference). */
export const IssueFromQuotationBody = z
  .looseObject({
    reference: z.string().optional(),
  })
  .register(named, { id: 'IssueFromQuotationBody' });
/** Body of issuing a policy from a quotation. */
export type IssueFromQuotationBody = z.infer<typeof IssueFromQuotationBody>;

/** A date-time window filter for list endpoints ("two date-time filters", names assumed). */
export const DateWindowQuery = PageQuery.extend({
  FromDate: z.string().optional(),
  ToDate: z.string().optional(),
});
/** A date-time window filter for list endpoints. */
export type DateWindowQuery = z.infer<typeof DateWindowQuery>;

// ---------------------------------------------------------------------------------------------
// Travel

/** Travel beneficiary (quotation variant). */
export const TravelBeneficiary = z
  .looseObject({
    firstName: z.string().min(1).max(FIELD_LENGTHS.firstName),
    lastName: z.string().min(1).max(FIELD_LENGTHS.lastName),
    relationship: z.string().optional(),
    idNumber: z.string().optional(),
    idType: z.string().optional(),
    phoneNumber: z.string().optional(),
    email: z.string().optional(),
    dateOfBirth: z.string().optional(),
  })
  .register(named, { id: 'TravelBeneficiary' });
/** Travel beneficiary (quotation variant). */
export type TravelBeneficiary = z.infer<typeof TravelBeneficiary>;

/** Travel beneficiary, policy-issue variant. */
export const TravelPolicyBeneficiary = TravelBeneficiary.extend({
  gender: z.string().optional(),
  dependantType: z.string().optional(),
  isNextOfKin: z.boolean().optional(),
}).register(named, { id: 'TravelPolicyBeneficiary' });
/** Travel beneficiary, policy-issue variant. */
export type TravelPolicyBeneficiary = z.infer<typeof TravelPolicyBeneficiary>;

/** Travel policy (instant issue result). */
export const TravelPolicy = z
  .looseObject({
    id: Id,
    policyNumber: z.string(),
    status: z.string(),
    startDate: optString,
    endDate: optString,
    currency: optString,
    basicPremium: optNumber,
    premiumLevy: optNumber,
    grossPremium: optNumber,
  })
  .register(named, { id: 'TravelPolicy' });
/** Travel policy. */
export type TravelPolicy = z.infer<typeof TravelPolicy>;

const travelIssueFields = {
  packageId: z.union([z.string().min(1), z.number().int()]),
  clientId: z.string().optional(),
  destination: z.string().min(1).max(FIELD_LENGTHS.destination),
  startDate: IsoDate,
  endDate: IsoDate.optional(),
  policyHolder: PolicyHolderObject.optional(),
  mobileMoneyAccountNumber: z.string().optional(),
  cardDetails: CardDetails.optional(),
  reference: z.string().min(1),
};

/** Body of "Instant issue travel policy (policy route)". */
export const TravelPolicyInstantIssueBody = z
  .looseObject({
    ...travelIssueFields,
    beneficiaries: z.array(TravelPolicyBeneficiary),
  })
  .register(named, { id: 'TravelPolicyInstantIssueBody' });
/** Body of "Instant issue travel policy (policy route)". */
export type TravelPolicyInstantIssueBody = z.infer<typeof TravelPolicyInstantIssueBody>;

/** Body of "Instant issue travel policy (quotation route)". */
export const TravelQuotationInstantIssueBody = z
  .looseObject({
    ...travelIssueFields,
    beneficiaries: z.array(TravelBeneficiary),
  })
  .register(named, { id: 'TravelQuotationInstantIssueBody' });
/** Body of "Instant issue travel policy (quotation route)". */
export type TravelQuotationInstantIssueBody = z.infer<typeof TravelQuotationInstantIssueBody>;

/**
 * Response of travel instant issue: status, message, txnId, policy. The quotation and its premium
 * (`quoteId`, `grossPremium`, …) are not shown by the spec; assumed, so the price can be shown
 * before paying (status `Quoted` when the quotation route is called without payment details).
 */
export const TravelInstantIssueResult = z
  .looseObject({
    status: z.string(),
    message: optString,
    txnId: optString,
    redirectUrl: optString,
    quoteId: optString,
    basicPremium: optNumber,
    premiumLevy: optNumber,
    grossPremium: optNumber,
    currency: optString,
    policy: TravelPolicy.nullish(),
  })
  .register(named, { id: 'TravelInstantIssueResult' });
/** Response of travel instant issue. */
export type TravelInstantIssueResult = z.infer<typeof TravelInstantIssueResult>;

/** A travel or life quotation (record fields not shown; assumed). */
export const Quotation = z
  .looseObject({
    id: Id,
    quotationNumber: optString,
    status: z.string(),
    productId: z.union([z.string(), z.number()]).nullish(),
    clientId: optString,
    basicPremium: optNumber,
    premiumLevy: optNumber,
    grossPremium: optNumber,
    premium: optNumber,
    currency: optString,
    startDate: optString,
    endDate: optString,
    createdAt: optString,
  })
  .register(named, { id: 'Quotation' });
/** A travel or life quotation. */
export type Quotation = z.infer<typeof Quotation>;

/** Body of "generate (travel) quotation" (not shown; assumed from the instant-issue body). */
export const CreateTravelQuotationBody = z
  .looseObject({
    packageId: z.union([z.string().min(1), z.number().int()]),
    clientId: z.string().optional(),
    destination: z.string().min(1).max(FIELD_LENGTHS.destination),
    startDate: IsoDate,
    endDate: IsoDate.optional(),
    policyHolder: PolicyHolderObject.optional(),
    beneficiaries: z.array(TravelBeneficiary).optional(),
  })
  .register(named, { id: 'CreateTravelQuotationBody' });
/** Body of "generate (travel) quotation". */
export type CreateTravelQuotationBody = z.infer<typeof CreateTravelQuotationBody>;

/** Body of a renew-through-the-payment-gateway call (travel and life; assumed). */
export const RenewPayBody = z
  .looseObject({
    reference: z.string().min(1),
    startDate: IsoDate.optional(),
    endDate: IsoDate.optional(),
    payment: PaymentObject.optional(),
  })
  .register(named, { id: 'RenewPayBody' });
/** Body of a renew-through-the-payment-gateway call. */
export type RenewPayBody = z.infer<typeof RenewPayBody>;

// ---------------------------------------------------------------------------------------------
// Life

/** Body of "create (life) quotation" (not shown; assumed). */
export const CreateLifeQuotationBody = z
  .looseObject({
    productId: z.union([z.string().min(1), z.number().int()]),
    clientId: z.string().optional(),
    policyHolder: PolicyHolderObject.optional(),
    sumAssured: z.number().positive().optional(),
    startDate: IsoDate.optional(),
    duration: z.number().int().positive().optional(),
    beneficiaries: z.array(TravelBeneficiary).optional(),
  })
  .register(named, { id: 'CreateLifeQuotationBody' });
/** Body of "create (life) quotation". */
export type CreateLifeQuotationBody = z.infer<typeof CreateLifeQuotationBody>;

/** Body of life instant issue (not shown; assumed: the quotation body plus payment). */
export const LifeInstantIssueBody = CreateLifeQuotationBody.extend({
  reference: z.string().min(1),
  payment: PaymentObject.optional(),
}).register(named, { id: 'LifeInstantIssueBody' });
/** Body of life instant issue. */
export type LifeInstantIssueBody = z.infer<typeof LifeInstantIssueBody>;

// ---------------------------------------------------------------------------------------------
// General

/** A general policy's client. */
const GeneralPolicyClient = z.looseObject({
  id: z.union([z.string(), z.number()]).nullish(),
  createdAt: optString,
  updatedAt: optString,
  email: optString,
  phoneNumber: optString,
  physicalAddress: optString,
  type: optString,
  status: optString,
  taxPayerId: optString,
  dateOfBirth: optString,
  farms: z.array(Farm).nullish(),
  name: optString,
  identificationNumber: optString,
});

/** A general policy's product. */
const GeneralPolicyProduct = z.looseObject({
  id: z.union([z.string(), z.number()]).nullish(),
  createdAt: optString,
  updatedAt: optString,
  name: optString,
  description: optString,
  code: optString,
  source: optString,
  partnerId: z.union([z.string(), z.number()]).nullish(),
  partner: optRecord,
  insurer: Insurer.nullish(),
  classOfBusiness: z
    .looseObject({
      id: z.union([z.string(), z.number()]).nullish(),
      name: optString,
      order: optNumber,
    })
    .nullish(),
  category: z.unknown().optional(),
  productCategoryName: optString,
  paymentMethods: z.array(z.string()).nullish(),
  codeRules: z
    .array(
      z.looseObject({
        clientType: optString,
        riskCategoryId: z.union([z.string(), z.number()]).nullish(),
        code: optString,
      }),
    )
    .nullish(),
});

/** A risk item of a general policy. */
export const GeneralPolicyRisk = z
  .looseObject({
    id: z.union([z.string(), z.number()]).nullish(),
    createdAt: optString,
    updatedAt: optString,
    riskId: z.union([z.string(), z.number()]).nullish(),
    description: optString,
    location: optString,
    sumInsured: optNumber,
    sumInsuredDescription: optString,
    coveredItems: z.unknown().optional(),
    premiumLevy: optNumber,
    basicPremium: optNumber,
    grossPremium: optNumber,
    extensionsPremium: optNumber,
    discountsPremium: optNumber,
    premiumRate: optNumber,
    extensions: z.unknown().optional(),
    discounts: z.unknown().optional(),
  })
  .register(named, { id: 'GeneralPolicyRisk' });
/** A risk item of a general policy. */
export type GeneralPolicyRisk = z.infer<typeof GeneralPolicyRisk>;

/** General policy (result of the endDate operation). */
export const GeneralPolicy = z
  .looseObject({
    id: Id,
    createdAt: optString,
    updatedAt: optString,
    policyNumber: optString,
    status: z.string(),
    premiumStatus: optString,
    approvedDate: optString,
    startDate: optString,
    endDate: optString,
    client: GeneralPolicyClient.nullish(),
    product: GeneralPolicyProduct.nullish(),
    premiumLevy: optNumber,
    basicPremium: optNumber,
    grossPremium: optNumber,
    currency: optString,
    insurer: Insurer.nullish(),
    risks: z.array(GeneralPolicyRisk).nullish(),
    riskId: z.union([z.string(), z.number()]).nullish(),
    territorialLimits: z.array(z.string()).nullish(),
    clauses: z.array(z.string()).nullish(),
    policyHolder: PolicyHolderObject.nullish(),
  })
  .register(named, { id: 'GeneralPolicy' });
/** General policy. */
export type GeneralPolicy = z.infer<typeof GeneralPolicy>;

/** Body of "Extend general policy". */
export const ExtendGeneralPolicyBody = z
  .looseObject({ endDate: IsoDate })
  .register(named, { id: 'ExtendGeneralPolicyBody' });
/** Body of "Extend general policy". */
export type ExtendGeneralPolicyBody = z.infer<typeof ExtendGeneralPolicyBody>;

/** Body of general renew (published: startDate, endDate). */
export const RenewGeneralPolicyBody = z
  .looseObject({ startDate: IsoDate, endDate: IsoDate })
  .register(named, { id: 'RenewGeneralPolicyBody' });
/** Body of general renew. */
export type RenewGeneralPolicyBody = z.infer<typeof RenewGeneralPolicyBody>;

/** Body of general instant issue (not shown; assumed from the travel/motor bodies). */
export const GeneralInstantIssueBody = z
  .looseObject({
    productId: z.union([z.string().min(1), z.number().int()]),
    startDate: IsoDate,
    endDate: IsoDate,
    currency: z.string().optional(),
    policyHolder: PolicyHolderObject,
    risks: z.array(GeneralPolicyRisk).optional(),
    reference: z.string().optional(),
    payment: PaymentObject.optional(),
  })
  .register(named, { id: 'GeneralInstantIssueBody' });
/** Body of general instant issue. */
export type GeneralInstantIssueBody = z.infer<typeof GeneralInstantIssueBody>;

// ---------------------------------------------------------------------------------------------
// Credit life

/** A covered loan. */
export const Loan = z
  .looseObject({
    id: z.union([z.string(), z.number()]),
    clientName: optString,
    nrcNumber: optString,
    amount: optNumber,
    coveredAmount: optNumber,
    premiumRate: optNumber,
    netPremium: optNumber,
    levy: optNumber,
    grossPremium: optNumber,
    status: optString,
    startDate: optString,
    endDate: optString,
    partnerLoanReference: optString,
    interestRate: optNumber,
  })
  .register(named, { id: 'Loan' });
/** A covered loan. */
export type Loan = z.infer<typeof Loan>;

/** A row skipped because the loan is already on cover. */
export const SkippedRow = z
  .looseObject({
    nrcNumber: optString,
    partnerLoanReference: optString,
    existingLoanId: z.number().int().nullish(),
  })
  .register(named, { id: 'SkippedRow' });
/** A row skipped because the loan is already on cover. */
export type SkippedRow = z.infer<typeof SkippedRow>;

/** Batch statuses the spec names. */
export const BatchStatus = z
  .enum(['Pending', 'Approved', 'PartiallyReceipted', 'Receipted'])
  .register(named, { id: 'BatchStatus' });
/** Batch statuses the spec names. */
export type BatchStatus = z.infer<typeof BatchStatus>;

/**
 * Credit-life batch (schedule). Status: the spec's batch states, or any word, since names after
 * payment confirmation are not shown.
 */
export const CreditLifeBatch = z
  .looseObject({
    id: Id,
    number: optString,
    status: z.union([BatchStatus, z.string()]),
    type: optString,
    totalLoans: optInteger,
    loanAmount: optNumber,
    netPremium: optNumber,
    levy: optNumber,
    grossPremium: optNumber,
    amountReceipted: optNumber,
    outstandingPremium: optNumber,
    currency: optString,
    createdAt: optString,
    loans: z.array(Loan).nullish(),
    skipped: z.array(SkippedRow).nullish(),
  })
  .register(named, { id: 'CreditLifeBatch' });
/** Credit-life batch (schedule). */
export type CreditLifeBatch = z.infer<typeof CreditLifeBatch>;

/** A loan row placed on cover. */
export const LoanRow = z
  .looseObject({
    fullName: z.string().min(1),
    nrcNumber: z.string().min(1),
    dateOfBirth: IsoDate,
    amount: z.number().positive(),
    startDate: IsoDate,
    endDate: IsoDate,
    partnerLoanReference: z.string().min(1),
    interestRate: z.number().optional(),
  })
  .register(named, { id: 'LoanRow' });
/** A loan row placed on cover. */
export type LoanRow = z.infer<typeof LoanRow>;

/** The methods a batch premium may be paid by. */
const BATCH_PAYMENT_METHODS: readonly string[] = ['MobileMoney', 'Card'];

/**
 * Errors rule 4: a batch premium is paid by mobile money or card only, and the caller never sends
 * a gateway (the gateway is resolved from the account).
 */
function batchPaymentRule(
  value: {
    method?: unknown;
    mobileMoneyAccountNumber?: unknown;
    cardDetails?: unknown;
    gateway?: unknown;
  },
  ctx: z.RefinementCtx,
): void {
  if (value.gateway !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['gateway'],
      message: 'A batch premium payment sends no gateway; it is resolved from the account',
    });
  }
  if (typeof value.method === 'string' && !BATCH_PAYMENT_METHODS.includes(value.method)) {
    ctx.addIssue({
      code: 'custom',
      path: ['method'],
      message: 'A batch premium is paid by mobile money or card only',
    });
  }
  const hasMobile = value.mobileMoneyAccountNumber !== undefined;
  const hasCard = value.cardDetails !== undefined;
  if (hasMobile === hasCard) {
    ctx.addIssue({
      code: 'custom',
      path: ['mobileMoneyAccountNumber'],
      message: 'A batch premium is paid by mobile money or card only: give exactly one of them',
    });
  }
}

const batchPaymentShape = {
  reference: z.string().min(1),
  method: z.string().optional(),
  mobileMoneyAccountNumber: z.string().min(1).optional(),
  cardDetails: CardDetails.optional(),
  gateway: z.unknown().optional(),
};

/** Payment of a batch premium (schedule pay, renew-and-pay): mobile money or card only. */
export const BatchPayment = z
  .looseObject(batchPaymentShape)
  .superRefine(batchPaymentRule)
  .register(named, { id: 'BatchPayment' });
/** Payment of a batch premium. */
export type BatchPayment = z.infer<typeof BatchPayment>;

/** Body of "Place a batch of loans on cover and pay". */
export const PlaceLoansAndPayBody = z
  .looseObject({
    loans: z.array(LoanRow).min(1),
    payment: BatchPayment,
  })
  .register(named, { id: 'PlaceLoansAndPayBody' });
/** Body of "Place a batch of loans on cover and pay". */
export type PlaceLoansAndPayBody = z.infer<typeof PlaceLoansAndPayBody>;

/** Body of "place a batch of loans on cover" (ordinary submit, no payment). */
export const PlaceLoansBody = z
  .looseObject({ loans: z.array(LoanRow).min(1) })
  .register(named, { id: 'PlaceLoansBody' });
/** Body of "place a batch of loans on cover". */
export type PlaceLoansBody = z.infer<typeof PlaceLoansBody>;

/** Response of placing (or renewing with) a loan batch and paying: schedule plus payment. */
export const ScheduleAndPayment = z
  .looseObject({
    schedule: CreditLifeBatch,
    payment: PaymentResult,
  })
  .register(named, { id: 'ScheduleAndPayment' });
/** Response of placing a loan batch and paying. */
export type ScheduleAndPayment = z.infer<typeof ScheduleAndPayment>;

/** Cover state (credit-life policy). */
export const CoverState = z
  .looseObject({
    status: z.string(),
    currentPeriodIndex: optInteger,
    currentPeriodStart: optString,
    currentPeriodEnd: optString,
    graceEndsAt: optString,
    unpaidPeriods: z.array(z.number().int()).nullish(),
    premiumPerPeriod: optNumber,
    totalCoveredAmount: optNumber,
    aggregateClaimLimit: optNumber,
    uncoveredAmount: optNumber,
  })
  .register(named, { id: 'CoverState' });
/** Cover state (credit-life policy). */
export type CoverState = z.infer<typeof CoverState>;

/** Response of "Renew and pay a credit-life policy period". */
export const RenewPayResult = z
  .looseObject({
    payment: PaymentResult,
    coverState: CoverState,
  })
  .register(named, { id: 'RenewPayResult' });
/** Response of "Renew and pay a credit-life policy period". */
export type RenewPayResult = z.infer<typeof RenewPayResult>;

/** A credit-life policy (record not shown; assumed). Created Active. */
export const CreditLifePolicy = z
  .looseObject({
    id: Id,
    policyNumber: optString,
    status: z.string(),
    quotationId: z.union([z.string(), z.number()]).nullish(),
    clientId: optString,
    productId: z.union([z.string(), z.number()]).nullish(),
    prepaid: optBoolean,
    startDate: optString,
    endDate: optString,
    currency: optString,
    rateBands: z.array(z.unknown()).nullish(),
    coverState: CoverState.nullish(),
    createdAt: optString,
  })
  .register(named, { id: 'CreditLifePolicy' });
/** A credit-life policy. */
export type CreditLifePolicy = z.infer<typeof CreditLifePolicy>;

/** A negotiated quotation (credit life or group life; record not shown, assumed). */
export const NegotiatedQuotation = z
  .looseObject({
    id: z.union([z.string(), z.number()]),
    name: optString,
    status: optString,
    clientId: optString,
    productId: z.union([z.string(), z.number()]).nullish(),
    currency: optString,
    freeCoverLimit: optNumber,
    rateBands: z.array(z.unknown()).nullish(),
    ageRates: z.array(z.unknown()).nullish(),
    createdAt: optString,
  })
  .register(named, { id: 'NegotiatedQuotation' });
/** A negotiated quotation. */
export type NegotiatedQuotation = z.infer<typeof NegotiatedQuotation>;

/** Body of "create a policy" (credit life; assumed: the approved quotation). */
export const CreateCreditLifePolicyBody = z
  .looseObject({
    quotationId: z.union([z.string().min(1), z.number().int()]),
    startDate: IsoDate.optional(),
    prepaid: z.boolean().optional(),
  })
  .register(named, { id: 'CreateCreditLifePolicyBody' });
/** Body of "create a policy" (credit life). */
export type CreateCreditLifePolicyBody = z.infer<typeof CreateCreditLifePolicyBody>;

/** Body of "buy credit life cover in one call" (assumed). */
export const BuyCreditLifeCoverBody = z
  .looseObject({
    quotationId: z.union([z.string().min(1), z.number().int()]),
    client: z.union([CreateCorporateBody, CreateIndividualBody]).optional(),
    clientId: z.string().optional(),
    startDate: IsoDate.optional(),
    loans: z.array(LoanRow).optional(),
    // Not held to the batch-payment rule here: a payment that cannot be started leaves the cover
    // standing and comes back as paymentError (errors rule 5), so the insurer must receive it.
    payment: z.looseObject(batchPaymentShape).optional(),
  })
  .register(named, { id: 'BuyCreditLifeCoverBody' });
/** Body of "buy credit life cover in one call". */
export type BuyCreditLifeCoverBody = z.infer<typeof BuyCreditLifeCoverBody>;

/** Response of "buy credit life cover in one call". */
export const BuyCreditLifeCoverResult = z
  .looseObject({
    client: looseRecord,
    policy: CreditLifePolicy,
    batch: CreditLifeBatch.nullish(),
    payment: PaymentResult.nullish(),
    paymentError: optString,
  })
  .register(named, { id: 'BuyCreditLifeCoverResult' });
/** Response of "buy credit life cover in one call". */
export type BuyCreditLifeCoverResult = z.infer<typeof BuyCreditLifeCoverResult>;

/** Response of "quote a loan without placing it" (nothing written; assumed). */
export const LoanQuote = z
  .looseObject({
    amount: optNumber,
    coveredAmount: optNumber,
    premiumRate: optNumber,
    netPremium: optNumber,
    levy: optNumber,
    grossPremium: z.number(),
    currency: optString,
  })
  .register(named, { id: 'LoanQuote' });
/** Response of "quote a loan without placing it". */
export type LoanQuote = z.infer<typeof LoanQuote>;

/** Body of "quote a loan without placing it". */
export const QuoteLoanBody = LoanRow.partial({
  fullName: true,
  nrcNumber: true,
  partnerLoanReference: true,
  dateOfBirth: true,
}).register(named, { id: 'QuoteLoanBody' });
/** Body of "quote a loan without placing it". */
export type QuoteLoanBody = z.infer<typeof QuoteLoanBody>;

/**
 * Errors rule 1: a loan is identified by loanId or partnerLoanReference, exactly one.
 * Exported so callers and the sandbox can check a loan reference on its own.
 */
export function loanIdentityRule(
  value: { loanId?: unknown; partnerLoanReference?: unknown },
  ctx: z.RefinementCtx,
): void {
  const hasId = value.loanId !== undefined;
  const hasRef = value.partnerLoanReference !== undefined;
  if (hasId === hasRef) {
    ctx.addIssue({
      code: 'custom',
      path: hasId ? ['partnerLoanReference'] : ['loanId'],
      message: hasId
        ? 'Identify the loan by loanId or partnerLoanReference, not both'
        : 'Identify the loan by loanId or partnerLoanReference',
    });
  }
}

/** A loan identified by loanId or partnerLoanReference, exactly one. */
export const LoanIdentity = z
  .looseObject({
    loanId: z.union([z.string().min(1), z.number().int()]).optional(),
    partnerLoanReference: z.string().min(1).optional(),
  })
  .superRefine(loanIdentityRule)
  .register(named, { id: 'LoanIdentity' });
/** A loan identified by loanId or partnerLoanReference. */
export type LoanIdentity = z.infer<typeof LoanIdentity>;

/** Body of "take loans off cover on early repayment". */
export const TakeLoansOffCoverBody = z
  .looseObject({
    loans: z.array(LoanIdentity).min(1),
    repaymentDate: IsoDate.optional(),
  })
  .register(named, { id: 'TakeLoansOffCoverBody' });
/** Body of "take loans off cover on early repayment". */
export type TakeLoansOffCoverBody = z.infer<typeof TakeLoansOffCoverBody>;

/** Response of taking loans or members off cover (assumed). */
export const OffCoverResult = z
  .looseObject({
    removed: z.number().int().nullish(),
    endorsementId: optString,
    items: z.array(looseRecord).nullish(),
  })
  .register(named, { id: 'OffCoverResult' });
/** Response of taking loans or members off cover. */
export type OffCoverResult = z.infer<typeof OffCoverResult>;

/** Claim states the spec names. */
export const ClaimStatus = z
  .enum(['Intimated', 'Documented'])
  .register(named, { id: 'ClaimStatus' });
/** Claim states the spec names. */
export type ClaimStatus = z.infer<typeof ClaimStatus>;

/**
 * A claim record (fields not shown; assumed). Status: the spec's states, or any word, since the
 * insurer's later steps (check, approve, settle) have states the spec does not show.
 */
export const Claim = z
  .looseObject({
    id: Id,
    claimNumber: z.string(),
    status: z.union([ClaimStatus, z.string()]),
    policyId: optString,
    loanId: z.union([z.string(), z.number()]).nullish(),
    partnerLoanReference: optString,
    memberId: z.union([z.string(), z.number()]).nullish(),
    nrcNumber: optString,
    claimType: optString,
    lossDate: optString,
    description: optString,
    amountClaimed: optNumber,
    payable: z.looseObject({}).nullish(),
    currency: optString,
    documents: z.array(z.looseObject({ url: z.string(), name: optString })).nullish(),
    /** The phone that reported the claim (assumed field): a relative may report a death. */
    intimatedByPhone: optString,
    createdAt: optString,
    updatedAt: optString,
  })
  .register(named, { id: 'Claim' });
/** A claim record. */
export type Claim = z.infer<typeof Claim>;

/** Body of "intimate a claim against a covered loan" (loanId xor partnerLoanReference). */
export const IntimateCreditLifeClaimBody = z
  .looseObject({
    loanId: z.union([z.string().min(1), z.number().int()]).optional(),
    partnerLoanReference: z.string().min(1).max(FIELD_LENGTHS.partnerLoanReference).optional(),
    claimType: z.string().min(1),
    lossDate: IsoDate,
    description: z.string().max(FIELD_LENGTHS.description).optional(),
    amountClaimed: z.number().positive().optional(),
    /** The phone reporting the claim (assumed field), kept with it for the access rule. */
    intimatedByPhone: z.string().min(1).optional(),
  })
  .superRefine(loanIdentityRule)
  .register(named, { id: 'IntimateCreditLifeClaimBody' });
/** Body of "intimate a claim against a covered loan". */
export type IntimateCreditLifeClaimBody = z.infer<typeof IntimateCreditLifeClaimBody>;

/** Body of "attach supporting documents": URLs of files in the partner's own storage. */
export const AttachClaimDocumentsBody = z
  .looseObject({
    documents: z.array(z.looseObject({ url: z.url(), name: z.string().optional() })).min(1),
  })
  .register(named, { id: 'AttachClaimDocumentsBody' });
/** Body of "attach supporting documents". */
export type AttachClaimDocumentsBody = z.infer<typeof AttachClaimDocumentsBody>;

/** Query of claim lists ("track my claims"). */
export const ClaimListQuery = PageQuery.extend({ Status: z.string().optional() });
/** Query of claim lists. */
export type ClaimListQuery = z.infer<typeof ClaimListQuery>;

// ---------------------------------------------------------------------------------------------
// Group life

/** Group-life batch. */
export const GroupLifeBatch = z
  .looseObject({
    id: Id,
    number: optString,
    status: z.string(),
    type: optString,
    totalMembers: optInteger,
    netPremium: optNumber,
    levy: optNumber,
    grossPremium: optNumber,
    amountReceipted: optNumber,
    outstandingPremium: optNumber,
    currency: optString,
    createdAt: optString,
  })
  .register(named, { id: 'GroupLifeBatch' });
/** Group-life batch. */
export type GroupLifeBatch = z.infer<typeof GroupLifeBatch>;

/** A member row of a group-life census. */
export const MemberRow = z
  .looseObject({
    fullName: z.string().min(1),
    nrcNumber: z.string().min(1),
    dateOfBirth: IsoDate,
    annualSalary: z.number().nonnegative(),
  })
  .register(named, { id: 'MemberRow' });
/** A member row of a group-life census. */
export type MemberRow = z.infer<typeof MemberRow>;

/** Body of "Enrol a group-life batch". */
export const EnrolGroupLifeBody = z
  .looseObject({
    members: z.array(MemberRow).min(1),
    currency: z.string().optional(),
    exchangeRate: z.number().positive().optional(),
    midTermAddition: z.boolean().optional(),
  })
  .register(named, { id: 'EnrolGroupLifeBody' });
/** Body of "Enrol a group-life batch". */
export type EnrolGroupLifeBody = z.infer<typeof EnrolGroupLifeBody>;

/** A covered group-life member (record not shown; assumed). */
export const GroupLifeMember = z
  .looseObject({
    id: z.union([z.string(), z.number()]),
    fullName: optString,
    nrcNumber: optString,
    dateOfBirth: optString,
    annualSalary: optNumber,
    sumAssured: optNumber,
    freeCoverExcess: optNumber,
    status: optString,
    policyId: optString,
    batchId: optString,
  })
  .register(named, { id: 'GroupLifeMember' });
/** A covered group-life member. */
export type GroupLifeMember = z.infer<typeof GroupLifeMember>;

/** A group-life policy (record not shown; assumed). */
export const GroupLifePolicy = z
  .looseObject({
    id: Id,
    policyNumber: optString,
    status: z.string(),
    quotationId: z.union([z.string(), z.number()]).nullish(),
    clientId: optString,
    startDate: optString,
    endDate: optString,
    currency: optString,
    createdAt: optString,
  })
  .register(named, { id: 'GroupLifePolicy' });
/** A group-life policy. */
export type GroupLifePolicy = z.infer<typeof GroupLifePolicy>;

/** Body of "open a group life policy on an approved quotation". */
export const CreateGroupLifePolicyBody = z
  .looseObject({
    quotationId: z.union([z.string().min(1), z.number().int()]),
    startDate: IsoDate.optional(),
  })
  .register(named, { id: 'CreateGroupLifePolicyBody' });
/** Body of "open a group life policy". */
export type CreateGroupLifePolicyBody = z.infer<typeof CreateGroupLifePolicyBody>;

/** Body of "quote a census without enrolling". */
export const QuoteCensusBody = z
  .looseObject({ members: z.array(MemberRow).min(1) })
  .register(named, { id: 'QuoteCensusBody' });
/** Body of "quote a census without enrolling". */
export type QuoteCensusBody = z.infer<typeof QuoteCensusBody>;

/** Response of "quote a census": non-zero freeCoverExcess needs underwriting (Errors rule 7). */
export const CensusQuote = z
  .looseObject({
    totalMembers: optInteger,
    netPremium: optNumber,
    levy: optNumber,
    grossPremium: z.number(),
    currency: optString,
    freeCoverExcess: optNumber,
    members: z.array(GroupLifeMember).nullish(),
  })
  .register(named, { id: 'CensusQuote' });
/** Response of "quote a census". */
export type CensusQuote = z.infer<typeof CensusQuote>;

/**
 * Errors rule 2: members are identified by memberId or nrcNumber (memberIds or nrcNumbers),
 * exactly one.
 */
export function memberIdentityRule(
  value: { memberId?: unknown; nrcNumber?: unknown; memberIds?: unknown; nrcNumbers?: unknown },
  ctx: z.RefinementCtx,
): void {
  const single = value.memberId !== undefined || value.nrcNumber !== undefined;
  const [idKey, nrcKey] = single ? ['memberId', 'nrcNumber'] : ['memberIds', 'nrcNumbers'];
  const hasId = value[idKey as 'memberId'] !== undefined;
  const hasNrc = value[nrcKey as 'nrcNumber'] !== undefined;
  if (hasId === hasNrc) {
    ctx.addIssue({
      code: 'custom',
      path: [hasId ? nrcKey : idKey],
      message: hasId
        ? `Identify members by ${idKey} or ${nrcKey}, not both`
        : `Identify members by ${idKey} or ${nrcKey}`,
    });
  }
}

/** Body of "intimate a death claim against a covered member" (memberId xor nrcNumber). */
export const IntimateGroupLifeClaimBody = z
  .looseObject({
    memberId: z.union([z.string().min(1), z.number().int()]).optional(),
    nrcNumber: z.string().min(1).optional(),
    lossDate: IsoDate,
    causeOfDeath: z.string().optional(),
    description: z.string().max(FIELD_LENGTHS.description).optional(),
    /** The phone reporting the death (assumed field): a relative's, kept with the claim. */
    intimatedByPhone: z.string().min(1).optional(),
  })
  .superRefine(memberIdentityRule)
  .register(named, { id: 'IntimateGroupLifeClaimBody' });
/** Body of "intimate a death claim against a covered member". */
export type IntimateGroupLifeClaimBody = z.infer<typeof IntimateGroupLifeClaimBody>;

/** Body of "take members off cover" (memberIds xor nrcNumbers). */
export const TakeMembersOffCoverBody = z
  .looseObject({
    memberIds: z
      .array(z.union([z.string().min(1), z.number().int()]))
      .min(1)
      .optional(),
    nrcNumbers: z.array(z.string().min(1)).min(1).optional(),
    effectiveDate: IsoDate.optional(),
  })
  .superRefine(memberIdentityRule)
  .register(named, { id: 'TakeMembersOffCoverBody' });
/** Body of "take members off cover". */
export type TakeMembersOffCoverBody = z.infer<typeof TakeMembersOffCoverBody>;

// ---------------------------------------------------------------------------------------------
// Group funeral

/** Group-funeral household (covered household, looked up by principal). */
export const GroupFuneralHousehold = z
  .looseObject({
    id: z.union([z.string(), z.number()]),
    createdAt: optString,
    updatedAt: optString,
    clientId: z.union([z.string(), z.number()]).nullish(),
    client: z
      .looseObject({
        id: z.union([z.string(), z.number()]).nullish(),
        createdAt: optString,
        updatedAt: optString,
        email: optString,
        taxPayerId: optString,
        bankDetail: BankDetail.nullish(),
        phoneNumber: optString,
        physicalAddress: optString,
        insurerId: z.union([z.string(), z.number()]).nullish(),
        partnerId: z.union([z.string(), z.number()]).nullish(),
        type: optString,
        status: optString,
        dateOfBirth: optString,
        createdById: z.union([z.string(), z.number()]).nullish(),
        createdBy: z.unknown().optional(),
        intermediaryId: z.union([z.string(), z.number()]).nullish(),
        userId: z.union([z.string(), z.number()]).nullish(),
        farms: z.array(Farm).nullish(),
        firstName: optString,
        middleName: optString,
        lastName: optString,
        idNumber: optString,
        idType: optString,
        gender: optString,
        fullName: optString,
        maritalStatus: optString,
      })
      .nullish(),
    policyId: z.union([z.string(), z.number()]).nullish(),
    policy: z
      .looseObject({
        id: z.union([z.string(), z.number()]).nullish(),
        createdAt: optString,
        updatedAt: optString,
        clientId: z.union([z.string(), z.number()]).nullish(),
        client: z.unknown().optional(),
        policyNumber: optString,
        status: optString,
        approvedDate: optString,
        startDate: optString,
        endDate: optString,
        partnerId: z.union([z.string(), z.number()]).nullish(),
        partner: z.unknown().optional(),
        insurerId: z.union([z.string(), z.number()]).nullish(),
        insurer: z.unknown().optional(),
        productId: z.union([z.string(), z.number()]).nullish(),
        product: z.unknown().optional(),
        createdById: z.union([z.string(), z.number()]).nullish(),
        createdBy: z.unknown().optional(),
        currency: optString,
        exchangeRate: optNumber,
        sourceOfBusiness: z.unknown().optional(),
        sourceOfBusinessId: z.union([z.string(), z.number()]).nullish(),
        premiumLevy: optNumber,
        basicPremium: optNumber,
        grossPremium: optNumber,
        extensionsPremium: optNumber,
        discountsPremium: optNumber,
        intermediaryId: z.union([z.string(), z.number()]).nullish(),
        intermediary: z.unknown().optional(),
        branch: z.unknown().optional(),
        branchId: z.union([z.string(), z.number()]).nullish(),
        paymentPlanId: z.union([z.string(), z.number()]).nullish(),
        paymentPlan: z.unknown().optional(),
      })
      .nullish(),
  })
  .register(named, { id: 'GroupFuneralHousehold' });
/** Group-funeral household. */
export type GroupFuneralHousehold = z.infer<typeof GroupFuneralHousehold>;

/** A downloaded document or CSV: the client hands back a stream, so no JSON shape applies. */
export const BinaryDocument = z.string().meta({ format: 'binary' });
