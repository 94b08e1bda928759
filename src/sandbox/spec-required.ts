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
export const SPEC_REQUIRED: Readonly<Partial<Record<OperationName, readonly string[]>>> = {
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

/** The spec's required fields missing from a request body, as field errors (empty: none). */
export function missingSpecFields(operation: OperationName, body: unknown): FieldErrors {
  const required = SPEC_REQUIRED[operation];
  if (!required) return {};
  const given = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const errors: FieldErrors = {};
  for (const field of required) {
    const value = given[field];
    if (value === undefined || value === null || value === '') {
      errors[field] = ['Required by the Partner Insurance API'];
    }
  }
  return errors;
}
