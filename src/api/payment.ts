import { checkZambianMobile } from '../msisdn/index.js';
import { ValidationError } from './errors.js';
import { CardDetails, type PayQuotationBody } from './schemas.js';

/** The pay request for a quotation (`POST /payments/{quoteId}/pay`), built by the helpers below. */
export type PaymentRequest = PayQuotationBody;

/**
 * Pay by mobile money: `{reference, payment: {method: 'MobileMoney', mobileMoneyAccountNumber}}`,
 * the number in the API's `260XXXXXXXXX` form whatever form it was typed in. Throws
 * ValidationError (field `phone`) for anything that is not a Zambian mobile number. The payment
 * comes back pending; read the outcome from the transaction status.
 */
export function mobileMoneyPayment(msisdn: string, reference: string): PaymentRequest {
  const checked = checkZambianMobile(msisdn);
  if (!checked.ok) {
    throw new ValidationError({
      field: 'phone',
      message: 'Enter a Zambian mobile number, e.g. 0971234567 or +260971234567',
    });
  }
  return {
    reference: requireReference(reference),
    payment: { method: 'MobileMoney', mobileMoneyAccountNumber: checked.msisdn },
  };
}

/** The billing address a card payment needs. */
export type BillingAddress = CardDetails;

/**
 * Pay by card: the billing address becomes `payment.cardDetails`. The response's `redirectUrl`
 * is where the payer completes 3-D Secure.
 */
export function cardPayment(billing: BillingAddress, reference: string): PaymentRequest {
  const parsed = CardDetails.safeParse(billing);
  if (!parsed.success) throw ValidationError.fromZod(parsed.error, 'cardDetails');
  return {
    reference: requireReference(reference),
    payment: { method: 'Card', cardDetails: parsed.data },
  };
}

/** PayLater: the payment object is omitted; the partner must be set up for deferred billing. */
export function payLaterPayment(reference: string): PaymentRequest {
  return { reference: requireReference(reference) };
}

/** External: the partner settles outside the platform. */
export function externalPayment(reference: string): PaymentRequest {
  return { reference: requireReference(reference), payment: { method: 'External' } };
}

/**
 * The flat payment fields some bodies use (travel instant issue, credit-life renew/schedule pay):
 * `{reference, mobileMoneyAccountNumber?, cardDetails?}` from a built payment.
 */
export function flatPayment(request: PaymentRequest): {
  reference: string;
  mobileMoneyAccountNumber?: string;
  cardDetails?: CardDetails;
} {
  const flat: { reference: string; mobileMoneyAccountNumber?: string; cardDetails?: CardDetails } =
    { reference: request.reference };
  if (request.payment?.mobileMoneyAccountNumber !== undefined) {
    flat.mobileMoneyAccountNumber = request.payment.mobileMoneyAccountNumber;
  }
  if (request.payment?.cardDetails !== undefined) flat.cardDetails = request.payment.cardDetails;
  return flat;
}

function requireReference(reference: string): string {
  if (typeof reference !== 'string' || reference.trim() === '') {
    throw new ValidationError({
      field: 'reference',
      message: 'A payment needs a unique reference',
    });
  }
  return reference;
}
