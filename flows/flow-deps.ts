/*
 * What the flows' actors need from the outside world, and the helpers they share. Each flow's
 * actors live beside it (`<flow>-actors.ts`); production and tests differ only in these deps.
 */

import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { fromPromise } from 'xstate';
import { type OneTimeCodes, principalOf, type Registrations } from '../src/access/index.js';
import type { BillingAddress, Claim, PartnerClient, PaymentObject } from '../src/api/index.js';
import type { TurnRoute } from '../src/conversation/flow.js';
import type { Prompt } from '../src/conversation/prompt.js';
import { CodedError } from '../src/errors/index.js';
import type { HoldingFact, HoldingsIndex } from '../src/holdings/index.js';
import { LimitReachedError, type LimitRequest, type Limits } from '../src/limits/index.js';
import { sameMsisdn } from '../src/msisdn/index.js';
import type { PersonalData } from '../src/privacy/index.js';
import type { RenewalOffer } from '../src/reminders/index.js';
import type { UnknownAnswerReporter } from './cover-status.js';
import {
  type PayLater,
  type PayLaterRequest,
  type PaymentRequest,
  type PaymentStarted,
  providedPayment,
} from './payment-machine.js';
import type { UnknownStatusReporter } from './status-words.js';
import {
  isNotFound,
  type Note,
  type PaymentChoice,
  paymentOutcome,
  RefusalError,
} from './support.js';

/** One attempt at paying for one purchase, as the flows hand it to the payment service. */
export interface PaymentAttemptRequest {
  /** Unique per purchase: the quotation or policy and a key made when it was priced. */
  readonly purchase: string;
  /** 1 for the first attempt, one more for each Pay again after a confirmed failure. */
  readonly attempt: number;
  /** Where the outcome goes (this conversation); without it only Check status tells. */
  readonly route?: TurnRoute | undefined;
  /** What is bought, in the user's words: one unsettled payment of the holder's each. */
  readonly item?: string | undefined;
  /** The car bought for (its plate): one unsettled payment of the holder's per car. */
  readonly vehicle?: string | undefined;
  /** The amount shown on screen, repeated where the user is told out of turn. */
  readonly due?: { readonly amount: number; readonly currency: string } | undefined;
}

/** Payments as the flows need them (src/payments provides them). */
export interface FlowPayments {
  /**
   * Starts one attempt once, however often it is asked for: the service derives the attempt's
   * reference and hands it to `pay`, which sends it to the insurer.
   */
  start(
    attempt: PaymentAttemptRequest,
    pay: (
      reference: string,
    ) => Promise<{ status: string; redirectUrl?: string | null | undefined }>,
  ): Promise<{ reference: string; status: string; redirectUrl?: string | undefined }>;
  /**
   * Reads where a payment stands for the conversation on `route` ("Check status"); a final
   * outcome read here is not pushed again. Resolves `paid`, `failed` or `pending`.
   */
  check(reference: string, route?: TurnRoute): Promise<'paid' | 'failed' | 'pending'>;
  /**
   * True while a payment of the holder on `route` for `item` (a product and plate), or for any
   * cover of `vehicle` (a plate), is still unsettled: a second purchase of it is not started.
   * Without it only paying refuses one.
   */
  unsettled?(route: TurnRoute, item: string, vehicle?: string): Promise<boolean>;
  /**
   * Sends the conversation on `route` a `payment.proceed` event (with the id it resolves) a
   * short while from now, durably and once: a handset's call is let go before the mobile-money
   * PIN prompt, and the payment starts after. Without it such payments start at once.
   */
  later?(route: TurnRoute): Promise<string>;
}

/** A paid motor policy, new or renewed, as the flow that sold it knows it. */
export interface PaidPolicy {
  /** The conversation it was bought in: the channel and address the holder is reached at. */
  readonly route: TurnRoute;
  readonly policyId: string;
  readonly policyNumber: string;
  /** What is insured, in the holder's words (product and plate). */
  readonly what: string;
  /** Last day of cover, `YYYY-MM-DD`. */
  readonly endDate: string;
  readonly renewal: boolean;
}

/** Renewal reminders as the flows need them (src/reminders provides them). */
export interface FlowReminders {
  /**
   * Records where the holder of a paid policy is reached, for its renewal reminders. Never
   * rejects; resolves whether the closing screen should say reminders will come and how to stop
   * them (false when they are off, or when the notice goes by SMS to keep a USSD screen short).
   */
  recordPurchase(policy: PaidPolicy): Promise<{ readonly notice: boolean }>;
  /** The holder's covers ending soon (offered first in the menu) and whether reminders are on. */
  offersFor(route: TurnRoute): Promise<{
    offers: RenewalOffer[];
    remindersOn: boolean;
    /** True when the holder has covers we remind of and turned their reminders off. */
    remindersOff?: boolean;
  }>;
  /** Turns the holder's reminders off (the menu item). */
  stop(route: TurnRoute): Promise<void>;
  /** Turns the holder's reminders back on (the menu item shown while they are off). */
  start(route: TurnRoute): Promise<void>;
}

/** Where files the flows produce (certificates, bordereaux) are kept and served from. */
export interface FlowFileStore {
  /** Stores a file; resolves the expiring URL the user is given. */
  save(file: { fileName: string; contentType: string; body: Readable }): Promise<{ url: string }>;
}

/** What the flows need from the outside world. */
export interface FlowDeps {
  readonly client: PartnerClient;
  readonly payments: FlowPayments;
  /** Without it, certificates and bordereaux are not offered as links. */
  readonly files?: FlowFileStore;
  /** Billing address sent with card payments (chat users are not asked for one). */
  readonly cardBilling?: BillingAddress;
  /** Today's date as YYYY-MM-DD; defaults to today in Lusaka from src/clock (tests pin it). */
  readonly today?: () => string;
  /** A key unique to one priced purchase; defaults to a random UUID (tests pin it). */
  readonly purchaseKey?: () => string;
  /**
   * Sends a Prompt by SMS to a phone: cover details to the phone on record, a certificate link to
   * a USSD caller. Without it neither is offered.
   */
  readonly sms?: (phone: string, prompt: Prompt) => Promise<void>;
  /**
   * The caller `from` (a phone) may be offered to SMS `phone` on their next turn: what that SMS
   * needs (the recipient's language) is then read with that turn's session. A hint only.
   */
  readonly smsSoon?: (from: string, phone: string) => void;
  /** Renewal reminders; without them nothing is recorded and the menu offers no renewal. */
  readonly reminders?: FlowReminders;
  /**
   * Hears every insurer status no mapping knows (it is shown as "could not confirm"); the
   * deployment logs it. Status words only: never personal data.
   */
  readonly onUnknownStatus?: UnknownStatusReporter;
  /**
   * Hears every insurer call a cover lookup could not read in time or at all (the cover is then
   * said to be unknown); the deployment logs it. Operation and reason only.
   */
  readonly onUnknownAnswer?: UnknownAnswerReporter;
  /**
   * Sends a Prompt to a conversation's user outside the turn, on their own channel (an SMS to a
   * USSD caller, a Telegram message): a claim's confirmation. Without it none is sent.
   */
  readonly notify?: (route: TurnRoute, prompt: Prompt) => Promise<void>;
  /** Claim documents from any phone; without it USSD callers are not offered the link. */
  readonly claimUploads?: FlowClaimUploads;
  /**
   * Posts a file a chat stored to its claim as evidence (src/claim-documents provides it): kept
   * for the claim, sent as its kept link and name. Without it the upload's URL is posted as is.
   */
  readonly claimEvidence?: FlowClaimEvidence;
  /**
   * Who reported each claim, and whether it is to verify (reported by someone not on record):
   * the member is told once, staff see the reporter, documents wait for staff. Without it (a
   * flow test) nothing is recorded and the member's SMS goes on every intimation.
   */
  readonly claimReports?: FlowClaimReports;
  /**
   * The USSD short code, named in the SMS that tells a member of a claim made on their record
   * (how to reach a person to object). Without it the SMS names none.
   */
  readonly serviceCode?: string;
  /**
   * Tells the insurer's staff something, in their Slack channel: each claim intimated, and a
   * claim reported from a phone not on record for its member or borrower. Without it nothing is
   * posted. Never rejects: what it tells of has happened already.
   */
  readonly staff?: (prompt: Prompt) => Promise<void>;
  /**
   * Consent to the privacy notice and "My data"; without it no notice is asked and My data shows
   * nothing held (nothing records consent).
   */
  readonly privacy?: PersonalData;
  /**
   * Who holds what (src/holdings): cover lookups read it, sales write it. Without it a lookup
   * makes only the direct look-ups by NRC (a funeral household).
   */
  readonly holdings?: HoldingsIndex;
  /**
   * Runs the holdings sync now, a full pass, and tells whether the index is complete after it
   * (the staff desk's `sync`).
   */
  readonly syncHoldings?: () => Promise<{ complete: boolean }>;
  /**
   * The individuals insurechat registered and whether their NRC was proven (src/access): one
   * created from an unproven typed NRC is never on record for that NRC. Without it (a flow test)
   * every individual the insurer holds counts.
   */
  readonly registrations?: Registrations;
  /**
   * How often SMS, codes, payment prompts to another number and look-ups by a typed NRC, claim
   * number or plate may be asked for (src/limits). Without it nothing is limited (tests).
   */
  readonly limits?: Limits;
  /**
   * One-time codes sent to the phone on record for a typed NRC (src/access): the caller proves
   * the NRC is theirs. Without them (or without `sms`) no code is offered.
   */
  readonly oneTimeCodes?: OneTimeCodes;
}

/**
 * Counts `request` against the limits; throws {@link LimitReachedError} when they refuse it (the
 * flow's failure screen then says "asked too often" and when to try again).
 */
export async function withinLimits(deps: FlowDeps, request: LimitRequest): Promise<void> {
  if (!deps.limits) return;
  const verdict = await deps.limits.take(request);
  if (!verdict.allowed) throw new LimitReachedError(request.kind, verdict);
}

/**
 * Records who holds what was just sold; never fails the sale (the sync catches up). The policy is
 * filed under the phone that bought it and under the NRC typed, never linking the two: a typed
 * NRC makes no phone its owner (src/access); the sync links the phones on record by the rule.
 */
export async function recordHolding(deps: FlowDeps, facts: readonly HoldingFact[]): Promise<void> {
  const unlinked = facts.flatMap(({ phone, nrc, ref }): HoldingFact[] =>
    ref ? [...(phone ? [{ phone, ref }] : []), ...(nrc ? [{ nrc, ref }] : [])] : [],
  );
  await deps.holdings?.record(unlinked).catch(() => undefined);
}

/** The web page a claim's documents are sent from (src/claim-documents provides it). */
export interface FlowClaimUploads {
  /**
   * A short signed link, for this claim only and expiring, to the page that takes its files;
   * `phone`, the phone it is sent to, owns what is sent through it (My data); `locale`, the
   * caller's language, is the page's.
   */
  link(claim: {
    line: 'credit-life' | 'group-life';
    claimId: string;
    number: string;
    phone?: string;
    locale?: string;
  }): string;
}

/** Chat uploads posted to claims (src/claim-documents' ClaimEvidence provides it). */
export interface FlowClaimEvidence {
  /**
   * Posts the upload (a URL the file store signed) to the claim; resolves the claim after. On a
   * claim to verify, a file from anyone but a phone on record (`from`) is held, not posted, and
   * the result says `held`.
   */
  attachUpload(
    claim: FlowClaimKey,
    url: string,
    from?: { readonly onRecord: boolean },
  ): Promise<Claim & { readonly held?: boolean }>;
  /** Staff confirmed the claim: its held files are posted. Undefined: no report of it. */
  release(claim: FlowClaimKey, member: string): Promise<{ posted: number } | undefined>;
}

/** A claim as the insurer's claim calls name it. */
interface FlowClaimKey {
  readonly line: 'credit-life' | 'group-life';
  readonly claimId: string;
}

/** Who reported a claim, as the flows record and read it (src/claim-documents' ClaimReports). */
interface FlowClaimReport {
  readonly number: string;
  /** The channel it was reported on. */
  readonly channel: string;
  /** The reporter's verified phone, API form. */
  readonly phone: string | null;
  /** The reporter's phone is on record for the member or borrower. */
  readonly onRecord: boolean;
  readonly state?: 'own' | 'to-verify' | 'confirmed';
  readonly confirmedBy?: string | undefined;
  /** The conversation the reporter is told of the claim's progress in. */
  readonly reach?: Pick<TurnRoute, 'channel' | 'address' | 'locale'> | undefined;
}

/** Claim reports as the flows need them (src/claim-documents provides them). */
export interface FlowClaimReports {
  /** Records who reported the claim, once: true the first time (its notices go then only). */
  reported(claim: FlowClaimKey, report: FlowClaimReport): Promise<boolean>;
  /** Who reported the claim; undefined when it was not reported through insurechat. */
  of(claim: FlowClaimKey): Promise<FlowClaimReport | undefined>;
  /** The files held for the claim until staff confirm it. */
  held(claim: FlowClaimKey): Promise<string[]>;
}

const DEFAULT_BILLING: BillingAddress = {
  city: 'Lusaka',
  country: 'ZM',
  address: 'Lusaka',
  zip: 10101,
};

/** Resolves to `fallback` when the call answered 404; other errors propagate. */
export async function orNotFound<T, F>(call: Promise<T>, fallback: F): Promise<T | F> {
  try {
    return await call;
  } catch (error) {
    if (isNotFound(error)) return fallback;
    throw error;
  }
}

/** The API's payment object for how the user chose to pay. */
export function paymentObject(choice: PaymentChoice, deps: FlowDeps): PaymentObject {
  return choice.method === 'mobileMoney'
    ? { method: 'MobileMoney', mobileMoneyAccountNumber: choice.msisdn }
    : { method: 'Card', cardDetails: deps.cardBilling ?? DEFAULT_BILLING };
}

/** Keeps a downloaded file in the file store; undefined when there is none. */
export async function keep(
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

/** A key for a newly priced purchase: its payments' references derive from it. */
export function purchaseKeyOf(deps: FlowDeps, subject: string): string {
  return `${subject}.${(deps.purchaseKey ?? randomUUID)()}`;
}

/**
 * The payment child every paying flow invokes, with its two calls: `startPayment` starts the
 * attempt through the payment service (`pay` is the insurer call for the subject),
 * `paymentStatus` checks it.
 */
export function paymentActors(
  deps: FlowDeps,
  pay: (
    request: PaymentRequest,
    reference: string,
  ) => Promise<{ status: string; redirectUrl?: string | null | undefined }>,
) {
  /** Why the insurer says a payment failed, when it says; never fails the turn that asks. */
  const reasonOf = async (reference: string): Promise<string | undefined> => {
    try {
      const txn = await deps.client.call('getTransaction', { path: { reference } });
      return txn.message ?? undefined;
    } catch {
      return undefined;
    }
  };
  return providedPayment({
    startPayment: fromPromise<PaymentStarted, PaymentRequest>(async ({ input }) => {
      await promptLimit(deps, input);
      const startedAt = new Date().toISOString();
      let result: Awaited<ReturnType<FlowDeps['payments']['start']>>;
      try {
        result = await deps.payments.start(
          {
            purchase: input.purchase,
            attempt: input.attempt,
            route: input.route,
            due: { amount: input.amount, currency: input.currency },
            ...(input.item ? { item: input.item } : {}),
            ...(input.vehicle ? { vehicle: input.vehicle } : {}),
          },
          (reference) => pay(input, reference),
        );
      } catch (error) {
        // The answer was lost and no lookup found it yet: it may have been charged, so it is
        // being confirmed (and followed), never "the insurer cannot be reached".
        const busy = itemBusyNote(error);
        if (busy) throw new RefusalError(busy);
        const reference = unconfirmedReference(error);
        if (reference === undefined) throw error;
        return { reference, status: 'pending', startedAt, unconfirmed: true };
      }
      const out: PaymentStarted = {
        reference: result.reference,
        status: paymentOutcome(result.status),
        startedAt,
      };
      if (result.redirectUrl) out.redirectUrl = result.redirectUrl;
      const reason = out.status === 'failed' ? await reasonOf(out.reference) : undefined;
      if (reason) out.reason = reason;
      return out;
    }),
    paymentStatus: fromPromise<PaymentStarted, { reference: string; route?: TurnRoute }>(
      async ({ input }) => {
        let status: Awaited<ReturnType<FlowDeps['payments']['check']>>;
        try {
          status = await deps.payments.check(input.reference, input.route);
        } catch (error) {
          // The insurer answers and holds nothing under it: nothing was charged, and Pay again
          // sends the same attempt (the same reference) once more.
          if (!hasCode(error, 'PAYMENT_NOT_TAKEN')) throw error;
          return { reference: input.reference, status: 'failed', notTaken: true };
        }
        const reason = status === 'failed' ? await reasonOf(input.reference) : undefined;
        return { reference: input.reference, status, ...(reason ? { reason } : {}) };
      },
    ),
    payLater: fromPromise<PayLater, PayLaterRequest>(async ({ input }) => {
      const later = deps.payments.later;
      // Nothing can send the event back (no route, or no scheduler): paid at once.
      if (!later || !input.route) return { later: false };
      return { later: true, id: await later(input.route) };
    }),
  });
}

/**
 * A mobile-money approval prompt to a number other than the caller's own reaches another person:
 * counted per caller and per number. The caller's own number is never limited.
 */
async function promptLimit(deps: FlowDeps, input: PaymentRequest): Promise<void> {
  if (input.payment.method !== 'mobileMoney') return;
  if (sameMsisdn(input.callerPhone, input.payment.msisdn)) return;
  await withinLimits(deps, {
    kind: 'payment',
    principal: principalOf(input.callerPhone),
    route: input.route,
    target: { kind: 'phone', value: input.payment.msisdn },
  });
}

function hasCode(
  error: unknown,
  code: string,
): error is CodedError<string> & { reference?: unknown } {
  return error instanceof CodedError && error.code === code;
}

/** The reference of a payment start whose fate is unknown (src/payments' PAYMENT_UNCONFIRMED). */
function unconfirmedReference(error: unknown): string | undefined {
  if (!hasCode(error, 'PAYMENT_UNCONFIRMED')) return undefined;
  return typeof error.reference === 'string' ? error.reference : undefined;
}

/**
 * What the holder is told when a payment of theirs for the same item is still unsettled
 * (src/payments' PAYMENT_ITEM_IN_FLIGHT).
 */
function itemBusyNote(error: unknown): Note | undefined {
  if (!hasCode(error, 'PAYMENT_ITEM_IN_FLIGHT')) return undefined;
  const item = (error as { item?: unknown }).item;
  return { key: 'pay.note.itemPending', params: { item: typeof item === 'string' ? item : '' } };
}
