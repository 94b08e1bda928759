/*
 * The sandbox's own reading of the fields the spec calls required, kept apart from the client's
 * zod schemas on purpose: the sandbox also validates with those schemas, so a field a wrong
 * client schema made optional would pass on both sides. This list is copied from the spec's words
 * (docs/partner-insurance-api.md), and a request missing one of these fields is refused with 400
 * whatever the client's schema says.
 */
import type { OperationName } from '../api/index.js';
import type { FieldErrors } from './sandbox-error.js';

const MOTOR_INQUIRY = ['productId', 'duration', 'currency', 'startDate', 'policyHolder', 'risks'];

/** Required body fields by operation, in the spec's words. */
const SPEC_REQUIRED: Readonly<Partial<Record<OperationName, readonly string[]>>> = {
  // "Create individual … (required: firstName, lastName, phoneNumber, email, idNumber, idType)"
  createIndividual: ['firstName', 'lastName', 'phoneNumber', 'email', 'idNumber', 'idType'],
  // "Create corporate (required: name, email, phoneNumber, taxPayerId)"
  createCorporate: ['name', 'email', 'phoneNumber', 'taxPayerId'],
  // Vehicle: "Required on create: make, model, yearOfManufacture, registrationNumber,
  // chassisNumber, engineNumber, motorRiskCategoryId"
  createVehicle: [
    'make',
    'model',
    'yearOfManufacture',
    'registrationNumber',
    'chassisNumber',
    'engineNumber',
    'motorRiskCategoryId',
  ],
  // "required: productId, duration, currency, startDate, policyHolder, risks"
  motorQuotationInquiry: MOTOR_INQUIRY,
  // "body as for the inquiry"
  instantIssueMotorPolicy: MOTOR_INQUIRY,
  // "… plus payment …; reference is the unique transaction reference"
  instantIssueAndPayMotorPolicy: [...MOTOR_INQUIRY, 'reference', 'payment'],
};

/**
 * Required fields of each motor risk, by operation: the inquiry's "risks (with
 * motorRiskCategoryId, registration info, sumInsured for comprehensive cover)"; registration
 * info is the risk's registrationNumber. Motor pricing (`getMotorPricing`) names no plate, so it
 * is not here. sumInsured depends on the product's cover and is left to the pricing itself.
 */
const SPEC_RISK_REQUIRED: Readonly<Partial<Record<OperationName, readonly string[]>>> = {
  motorQuotationInquiry: ['motorRiskCategoryId', 'registrationNumber'],
  // "body as for the inquiry"
  instantIssueMotorPolicy: ['motorRiskCategoryId', 'registrationNumber'],
  instantIssueAndPayMotorPolicy: ['motorRiskCategoryId', 'registrationNumber'],
  // "premiums across several motor products for the same vehicle": the inquiry body (contract).
  compareMotorQuotations: ['motorRiskCategoryId', 'registrationNumber'],
};

const REQUIRED = 'Required by the Partner Insurance API';

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** The spec's required fields missing from a request body, as field errors (empty: none). */
export function missingSpecFields(operation: OperationName, body: unknown): FieldErrors {
  const given = asRecord(body);
  const errors: FieldErrors = {};
  for (const field of SPEC_REQUIRED[operation] ?? []) {
    if (isBlank(given[field])) errors[field] = [REQUIRED];
  }
  const riskFields = SPEC_RISK_REQUIRED[operation];
  if (riskFields && Array.isArray(given.risks)) {
    for (const [index, risk] of given.risks.entries()) {
      for (const field of riskFields) {
        if (isBlank(asRecord(risk)[field])) errors[`risks.${index}.${field}`] = [REQUIRED];
      }
    }
  }
  return errors;
}
