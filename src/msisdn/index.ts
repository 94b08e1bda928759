/*
 * Phone numbers, normalised one way everywhere: the USSD gateways' callers, numbers typed in a
 * conversation, the numbers the insurer's API is sent and those it has on record.
 */
export {
  checkZambianMobile,
  compactZambianMobile,
  type MsisdnCheck,
  type MsisdnProblem,
  normaliseCaller,
  sameMsisdn,
  ZAMBIAN_MOBILES_IN_TEXT,
} from './msisdn.js';
