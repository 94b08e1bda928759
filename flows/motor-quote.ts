import { and, assertEvent, assign, type DoneActorEvent, setup } from 'xstate';
import { z } from 'zod';
import { type Principal, principalOf } from '../src/access/index.js';
import { FIELD_LENGTHS } from '../src/api/index.js';
import type {
  FlowContextBase,
  FlowDefinition,
  FlowOutput,
  FlowStartInput,
  TurnRoute,
} from '../src/conversation/flow.js';
import { TALK_TO_A_PERSON } from '../src/conversation/handoff.js';
import { nestedMessage } from '../src/conversation/nested-message.js';
import type { Choice, Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { type AnswerChecks, asked, askText, keptBy } from './ask-text.js';
import {
  checkAmount,
  checkChassis,
  checkEmail,
  checkIdentifier,
  checkNameParts,
  checkNrc,
  checkPhone,
  checkPlate,
  checkVehicleName,
} from './checks.js';
import {
  newPayment,
  PAYMENT_GUARDS,
  type PaymentStep,
  type PayState,
  type PricedQuote,
  paymentActions,
  paymentChoices,
  paymentMachine,
  paymentStage,
  payPhoneOf,
  resumePayment,
} from './payment-machine.js';
import {
  answered,
  answeredGuard,
  ask,
  CANCELLED,
  type Checked,
  callFailureGuards,
  choice,
  chose,
  dataChoice,
  ENDING_REPLIES,
  end,
  type Failure,
  failedCallTo,
  failureBack,
  failureGuards,
  failureScreen,
  flowOutput,
  money,
  notProvided,
  type RefusedQuestions,
  refusedQuestion,
  rejectAnswer,
  rejectedAnswer,
  replyGuards,
  stageFailure,
  TO_MAIN_MENU,
  toRefusedAnswer,
  unexpected,
} from './support.js';

/** A motor product as the flow lists it. */
interface MotorProduct {
  id: string;
  name: string;
  /** Comprehensive and TPFT cover are priced on the vehicle's value. */
  needsSumInsured: boolean;
}

/** One page of motor products. */
interface MotorProductPage {
  products: MotorProduct[];
  hasMore: boolean;
}

/** A registered vehicle found by its plate. */
interface FoundVehicle {
  vehicleId: string;
  riskCategoryId?: string;
  description: string;
}

/** A motor risk category (private, commercial, public service). */
export interface RiskCategory {
  id: string;
  name: string;
}

/** A pricing option by duration: premiums as the API returns them. */
interface PricingOption {
  duration: number;
  label: string;
  basic: number;
  levy: number;
  gross: number;
  currency: string;
  /**
   * The last day this option covers, when the insurer says (the pay screen names it); it starts
   * on the start date priced, today.
   */
  endDate?: string;
}

/** A policyholder found or registered. */
export interface Holder {
  clientId: string;
  name: string;
}

/** A created quotation. */
type MotorQuote = PricedQuote;

/**
 * A plate that is registered or insured under another holder than the caller: they learn only
 * that, and may have the holder told by SMS (when the deployment sends SMS and a phone is on record).
 */
export interface HeldElsewhere {
  heldElsewhere: true;
  canTell: boolean;
}

/** What the plate lookups are given: the plate, who asks, and what they are buying. */
export interface PlateQuery {
  plate: string;
  principal: Principal;
  /** Today (`YYYY-MM-DD`): a policy ending before it is not in force. */
  today: string;
  /** What is bought, in the user's words (its unsettled payment is found by it). */
  item?: string;
  route?: TurnRoute;
}

/** Telling a plate's holder someone asked: who asks and where they are reached (limits). */
export interface TellHolder {
  plate: string;
  mode: 'new' | 'renew';
  principal: Principal;
  route?: TurnRoute;
}

/**
 * The caller's own car needs no second purchase: it is insured until `until`, or a payment of
 * theirs for it is still being confirmed (issue 36).
 */
export type AlreadyCovered = { covered: 'insured'; until: string } | { covered: 'unsettled' };

/**
 * The NRC typed is the insurer's with another phone on record: the caller may prove it by a code
 * sent to that phone (shown by its last digits only), or go on as a new holder.
 */
export interface OnRecordElsewhere {
  onRecordElsewhere: true;
  masked: string;
}

/** What an answer to a one-time code came to (src/access' CodeCheck). */
type CodeOutcome =
  | { outcome: 'right' }
  | { outcome: 'wrong'; triesLeft: number }
  | { outcome: 'spent' }
  | { outcome: 'expired' };

const isCovered = (found: unknown): found is AlreadyCovered =>
  typeof found === 'object' && found !== null && 'covered' in found;

const isOnRecordElsewhere = (found: unknown): found is OnRecordElsewhere =>
  typeof found === 'object' && found !== null && 'onRecordElsewhere' in found;

/** A one-time code as typed: six digits (spaces allowed, as an SMS may show them). */
const checkCode = (text: string): Checked<string> => {
  const digits = text.replace(/\s/g, '');
  return /^\d{6}$/.test(digits)
    ? { ok: true, value: digits }
    : { ok: false, reason: 'motor.note.codeFormat' };
};

/** Whether a quotation's price is the one the payment shows (to the ngwee, same currency). */
function samePrice(pay: PayState | null | undefined, premium: number, currency: string): boolean {
  return (
    pay !== null &&
    pay !== undefined &&
    Math.round(pay.amount * 100) === Math.round(premium * 100) &&
    pay.currency === currency
  );
}

/** The payment of a quotation just made, with the method the caller chose kept. */
function quotedPayment(context: MotorQuoteContext, quote: MotorQuote): PayState {
  const fresh = newPayment(
    { kind: 'quote', quoteId: quote.quoteId },
    quote.purchase,
    purchaseOf(context),
    quote.premium,
    quote.currency,
    context.answers.plate,
  );
  // The method chosen, and whether the call was let go for it (see PayState.released), go on.
  const kept = context.pay?.method ? { ...fresh, method: context.pay.method } : fresh;
  return context.pay?.released ? { ...kept, released: true } : kept;
}

/** Whether an actor's answer is {@link HeldElsewhere}. */
const isElsewhere = (found: unknown): found is HeldElsewhere =>
  typeof found === 'object' && found !== null && 'heldElsewhere' in found;

/** A motor policy found for renewal. */
interface MotorPolicyFound {
  policyId: string;
  policyNumber: string;
}

/** Renewal premiums for the next period. */
interface RenewalQuote {
  gross: number;
  currency: string;
  startDate: string;
  endDate: string;
  /** Unique per renewal priced: names its payments. */
  purchase: string;
}

/** The new vehicle's details, for registering it. */
export interface NewVehicle {
  clientId: string;
  plate: string;
  make: string;
  model: string;
  year: number;
  chassis: string;
  engine: string;
  riskCategoryId: string;
}

/** What the certificate step is given: the policy paid for and, for reminders, where and what. */
export interface MotorCertificateInput {
  policyId?: string;
  reference?: string;
  route?: TurnRoute;
  what?: string;
  renewal?: boolean;
  /** Recorded in the holdings index: My cover shows the policy at once. */
  holder?: { phone?: string; nrc?: string };
}

/** The policy paid for and where its certificate is. */
export interface MotorCertificate {
  policyNumber: string;
  /** True when the closing screen should say reminders will come and how to stop them. */
  remindersNotice?: boolean;
  startDate?: string;
  endDate?: string;
  url?: string;
}

type Op =
  | 'products'
  | 'vehicle'
  | 'categories'
  | 'pricing'
  | 'holder'
  | 'register'
  | 'code'
  | 'checkCode'
  | 'registerVehicle'
  | 'quote'
  | 'pay'
  | 'status'
  | 'policy'
  | 'renewal'
  | 'tell'
  | 'certificate';

/** Context of motor-quote: answers typed so far, ids from the API, the payment in flight. */
interface MotorQuoteContext extends FlowContextBase {
  tries: number;
  today: string;
  callerPhone: string | null;
  /** The phone "My number" pays from when there is no caller handset (see payPhoneOf). */
  payPhone?: string;
  /** Who is asking: a plate's car and cover are shown only to the phone on record for them. */
  principal: Principal;
  /** The plate typed is another holder's: set from the plate step, shown instead of its details. */
  elsewhere?: { canTell: boolean; told: boolean } | undefined;
  /** The caller's own car is insured already, or a payment of theirs for it is unsettled. */
  covered?: AlreadyCovered | undefined;
  /**
   * The code that proves the NRC typed: the phone it goes to (last digits), the tries left after
   * a wrong answer, and why none is taken any more.
   */
  code?: { to: string; left?: number; refused?: 'spent' | 'expired' | 'unsent' } | undefined;
  /** The caller proved the NRC with a code: the individual registered for them is on record. */
  proven?: true | undefined;
  /** The quotation's price differs from the one shown: the confirm screen says the new one. */
  repriced?: true | undefined;
  /** Where the conversation is reached (for payment outcomes); absent when it has no address. */
  route?: TurnRoute | undefined;
  mode: 'new' | 'renew';
  page: number;
  products: MotorProduct[];
  hasMore: boolean;
  categories: RiskCategory[];
  options: PricingOption[];
  answers: {
    productId?: string;
    plate?: string;
    make?: string;
    model?: string;
    year?: string;
    riskCategoryId?: string;
    chassis?: string;
    engine?: string;
    sumInsured?: string;
    duration?: number;
    holderPhone?: string;
    holderNrc?: string;
    firstName?: string;
    lastName?: string;
    email?: string;
    /** The one-time code typed, until it is checked. */
    code?: string | undefined;
  };
  vehicle: FoundVehicle | null;
  holder: Holder | null;
  holderLookup: 'phone' | 'nrc';
  quote: MotorQuote | null;
  policy: (MotorPolicyFound & { renewal?: RenewalQuote }) | null;
  /** The payment of what is priced; absent while the payment child holds it. */
  pay?: PayState | null | undefined;
  /** Where the payment child starts: the confirm screen, or where the failure screen sends it. */
  payAt?: PaymentStep | undefined;
  policyNumber: string | null;
  /** The period of the policy paid for, once known. */
  period: { startDate: string; endDate: string } | null;
  certificateUrl: string | null;
  remindersNotice: boolean;
  failure: (Failure & { op: Op }) | null;
}

const PAGE_SIZE = 5;

const asString = <T>(checked: Checked<T>): Checked<string> =>
  checked.ok ? { ok: true, value: String(checked.value) } : checked;

/** The check of each answer typed to a question of {@link askText}. */
const CHECKS: AnswerChecks<MotorQuoteContext, TextField> = {
  plate: (t) => checkPlate(t),
  chassis: (t) => checkChassis(t, FIELD_LENGTHS.chassisNumber),
  engine: (t) => checkIdentifier(t, FIELD_LENGTHS.engineNumber),
  sumInsured: (t) => asString(checkAmount(t)),
  holderNrc: (t) => checkNrc(t),
  email: (t) => checkEmail(t),
};

type TextField = 'plate' | 'chassis' | 'engine' | 'sumInsured' | 'holderNrc' | 'email';

/** Make, model and year as one answer ("Toyota Corolla 2015"): one screen instead of three. */
const vehicleName = (text: string, context: MotorQuoteContext) =>
  checkVehicleName(text, context.today, { make: FIELD_LENGTHS.make, model: FIELD_LENGTHS.model });

/** The holder's name as one answer, split into first and last for the insurer. */
const fullName = (text: string) =>
  checkNameParts(text, { first: FIELD_LENGTHS.firstName, last: FIELD_LENGTHS.lastName });

/**
 * Every typed answer's check, by the field the `answered` guard names: {@link CHECKS}, and those
 * kept their own way (make, model and year; the name in two parts; a code; a phone).
 */
const TYPED = {
  ...CHECKS,
  vehicle: vehicleName,
  name: fullName,
  code: (text: string) => checkCode(text),
  phone: (text: string) => checkPhone(text),
};

/** What an invoked call returned, from its done event; undefined for any other event. */
const outputOf = (event: object): unknown => ('output' in event ? event.output : undefined);

/** Guard reference: the one-time code typed came to `outcome`. */
const codeIs = (outcome: CodeOutcome['outcome']) =>
  ({ type: 'codeIs', params: { outcome } }) as const;

const motor = setup({
  types: {
    context: {} as MotorQuoteContext,
    events: {} as Reply,
    input: {} as FlowStartInput<MotorQuoteStart>,
    output: {} as FlowOutput,
  },
  actors: {
    listProducts: notProvided<MotorProductPage, { page: number; pageSize: number }>('listProducts'),
    findVehicle: notProvided<FoundVehicle | HeldElsewhere | AlreadyCovered | null, PlateQuery>(
      'findVehicle',
    ),
    listRiskCategories: notProvided<RiskCategory[], Record<string, never>>('listRiskCategories'),
    priceMotor: notProvided<
      PricingOption[],
      { productId: string; riskCategoryId: string; sumInsured?: number; startDate: string }
    >('priceMotor'),
    findHolder: notProvided<
      Holder | OnRecordElsewhere | null,
      { phone?: string; nrc?: string; principal: Principal }
    >('findHolder'),
    sendCode: notProvided<
      { sent: boolean },
      { nrc: string; principal: Principal; route?: TurnRoute }
    >('sendCode'),
    checkCode: notProvided<
      CodeOutcome,
      { nrc: string; code: string; principal: Principal; route?: TurnRoute }
    >('checkCode'),
    registerHolder: notProvided<
      Holder,
      {
        firstName: string;
        lastName: string;
        phone: string;
        email: string;
        nrc: string;
        proven?: boolean;
      }
    >('registerHolder'),
    registerVehicle: notProvided<{ vehicleId: string } | { blocked: true }, NewVehicle>(
      'registerVehicle',
    ),
    createQuote: notProvided<
      MotorQuote,
      {
        productId: string;
        duration: number;
        clientId: string;
        vehicleId: string;
        /** The vehicle's category, or the one the user picked for a vehicle without one. */
        riskCategoryId: string;
        sumInsured?: number;
        startDate: string;
      }
    >('createQuote'),
    paymentMachine,
    findPolicy: notProvided<MotorPolicyFound | HeldElsewhere | null, PlateQuery>('findPolicy'),
    tellHolder: notProvided<{ told: boolean }, TellHolder>('tellHolder'),
    renewalPremiums: notProvided<RenewalQuote, { policyId: string }>('renewalPremiums'),
    motorCertificate: notProvided<MotorCertificate, MotorCertificateInput>('motorCertificate'),
  },
  actions: {
    unexpected: assign(({ context }) => unexpected(context)),
    ask: assign(asked),
    keepAnswer: assign(keptBy(CHECKS)),
    rejectAnswer: assign(rejectedAnswer(TYPED)),
    showFailure: assign({ tries: 0, prompt: failureScreen }),
    ...paymentActions<MotorQuoteContext, Reply>(confirmPrompt),
  },
  guards: {
    ...replyGuards,
    ...callFailureGuards,
    answered: answeredGuard(TYPED),
    ...PAYMENT_GUARDS,
    ...failureGuards,
    ownNumber: ({ context, event }) =>
      replyGuards.chose({ event }, { id: 'own' }) && context.callerPhone !== null,
    hasCallerPhone: ({ context }) => context.callerPhone !== null,
    // The holder is the caller's own number, taken without asking (not typed after a "No").
    holderIsCaller: ({ context }) =>
      context.callerPhone !== null && context.answers.holderPhone === context.callerPhone,
    listedProduct: ({ context, event }) =>
      event.type === 'user.choice' && context.products.some((p) => p.id === event.id),
    listedCategory: ({ context, event }) =>
      event.type === 'user.choice' && context.categories.some((c) => c.id === event.id),
    listedOption: ({ context, event }) =>
      event.type === 'user.choice' && context.options.some((o) => String(o.duration) === event.id),
    moreProducts: ({ context, event }) =>
      replyGuards.chose({ event }, { id: 'more' }) && context.hasMore,
    needsSumInsured: ({ context }) =>
      context.products.find((p) => p.id === context.answers.productId)?.needsSumInsured === true,
    hasVehicleId: ({ context }) => context.vehicle !== null,
    hasHolder: ({ context }) => Boolean(context.holder?.clientId),
    isRenewal: ({ context }) => context.mode === 'renew',
    inMode: ({ context }, params: { mode: MotorQuoteContext['mode'] }) =>
      context.mode === params.mode,
    hasPolicy: ({ context }) => context.policy !== null,
    insuredAlready: ({ context }) => context.covered?.covered === 'insured',
    canTellHolder: ({ context }) => context.elsewhere?.canTell === true && !context.elsewhere.told,
    pastFirstPage: ({ context }) => context.page > 1,
    heldElsewhere: ({ context }) => context.elsewhere !== undefined,
    unverified: ({ context }) => context.principal.kind === 'nobody',
    validContact: ({ event }) => {
      assertEvent(event, 'user.contact');
      return checkPhone(event.phone).ok;
    },
    lookedUpByPhone: ({ context }) => context.holderLookup === 'phone',
    codeExpired: ({ context }) => context.code?.refused === 'expired',
    // What a call returned, read from its done event (not one of the flow's Reply events).
    foundCovered: ({ event }) => isCovered(outputOf(event)),
    foundElsewhere: ({ event }) => isElsewhere(outputOf(event)),
    onRecordElsewhere: ({ event }) => isOnRecordElsewhere(outputOf(event)),
    codeSent: ({ event }) => (outputOf(event) as { sent?: unknown } | undefined)?.sent === true,
    codeIs: ({ event }, params: { outcome: CodeOutcome['outcome'] }) =>
      (outputOf(event) as CodeOutcome | undefined)?.outcome === params.outcome,
    vehicleBlocked: ({ event }) => {
      const output = outputOf(event);
      return typeof output === 'object' && output !== null && !('vehicleId' in output);
    },
    quotedAsShown: ({ context, event }) => {
      const quote = outputOf(event) as MotorQuote | undefined;
      return quote !== undefined && samePrice(context.pay, quote.premium, quote.currency);
    },
    // A refused answer the flow asked for, in a new purchase (a renewal asks only for the plate).
    refusedAnswer: ({ context }) =>
      context.mode !== 'renew' && refusedQuestion(QUESTION_OF, context.failure) !== undefined,
  },
});

/**
 * A failed call `op`: the failure screen of the stage that made it (its `failed` state), or
 * `target` for a call made outside a stage.
 */
const failedCall = (op: Op, target = 'failed') =>
  failedCallTo<MotorQuoteContext, Reply>(target)(op);

/** Back into the payment from a stage: the child started again at `step` (see resumePayment). */
const resumeAt = (step: PaymentStep) =>
  ({ ...resumePayment(step), target: '#motor-quote.payment' }) as const;

/** The actors that look a plate up for the caller, and what each finds. */
interface PlateLookup {
  findVehicle: FoundVehicle;
  findPolicy: MotorPolicyFound;
}

/**
 * The state that looks the plate typed up with `src`, for the caller: the caller's own car insured
 * already goes to `covered` (the vehicle lookup only); another holder's plate goes to
 * `elsewhere`, saying only whether that holder can be told (and setting `elsewhereKept` besides);
 * a find goes to `found` with what `keep` makes of it; nothing found goes to `none`, setting
 * `cleared`. The vehicle and the renewal stages differ only in these.
 */
function findingByPlate<S extends keyof PlateLookup>(
  src: S,
  op: Op,
  ways: {
    readonly covered?: string;
    readonly elsewhere: string;
    readonly elsewhereKept: Partial<MotorQuoteContext>;
    readonly found: string;
    readonly keep: (found: PlateLookup[S]) => Partial<MotorQuoteContext>;
    readonly none: string;
    readonly cleared: Partial<MotorQuoteContext>;
  },
) {
  // Typed here as XState types them inline: the state is built outside `createMachine`.
  type Done = DoneActorEvent<PlateLookup[S] | HeldElsewhere | AlreadyCovered | null>;
  const assignDone = assign<MotorQuoteContext, Done, undefined, Reply, never>;
  return {
    invoke: {
      src,
      input: ({ context }: { context: MotorQuoteContext }): PlateQuery => ({
        plate: context.answers.plate ?? '',
        principal: context.principal,
        today: context.today,
        ...(context.mode === 'new' ? { item: purchaseOf(context) } : {}),
        ...(context.route ? { route: context.route } : {}),
      }),
      onDone: [
        ...(ways.covered
          ? [
              {
                guard: 'foundCovered',
                target: ways.covered,
                actions: assignDone(({ event }) => ({
                  covered: isCovered(event.output) ? event.output : undefined,
                })),
              } as const,
            ]
          : []),
        {
          guard: 'foundElsewhere',
          target: ways.elsewhere,
          actions: assignDone(({ event }) => ({
            ...ways.elsewhereKept,
            elsewhere: {
              canTell: isElsewhere(event.output) && event.output.canTell,
              told: false,
            },
          })),
        },
        {
          guard: 'returned',
          target: ways.found,
          actions: assignDone(({ event }) =>
            event.output === null || isElsewhere(event.output) || isCovered(event.output)
              ? {}
              : ways.keep(event.output),
          ),
        },
        { target: ways.none, actions: assignDone(ways.cleared) },
      ],
      onError: failedCall(op),
    },
  } as const;
}

/**
 * The question that asked for each field the insurer may refuse: "Change my answer" goes straight
 * to it (the details stage's `changeAnswer`), so the user fixes the plate or the chassis number
 * instead of walking back screen by screen. Renewals ask only for the plate, so their refusals
 * keep the stage's own Back.
 */
const QUESTION_OF: RefusedQuestions = {
  registrationNumber: 'askPlate',
  vehicleId: 'askPlate',
  make: 'askVehicle',
  model: 'askVehicle',
  yearOfManufacture: 'askVehicle',
  chassisNumber: 'askChassis',
  engineNumber: 'askEngine',
  sumInsured: '#motor-quote.pricing.askSumInsured',
  idNumber: 'askHolderNrc',
  nrcNumber: 'askHolderNrc',
  firstName: 'askName',
  lastName: 'askName',
  email: 'askEmail',
};

/** Back from a failure outside the details stage, when the insurer named the answer it refused. */
const REFUSED = { guard: 'refusedAnswer', target: '#motor-quote.details.changeAnswer' } as const;

/**
 * What is bought: the cover and the vehicle, as a message rendered in the caller's language
 * (`what.motor`). Kept as the payment's item and the reminder's words, it names the purchase in
 * no language, so a payment started in Bemba is found again in English.
 */
function purchaseOf(context: MotorQuoteContext): string {
  const product = context.products.find((p) => p.id === context.answers.productId)?.name;
  const plate = context.answers.plate ?? '';
  const policyNumber = context.policy?.policyNumber ?? '';
  // A renewal opened from the menu or a reminder never asked for the plate.
  if (context.mode === 'renew') {
    return plate
      ? nestedMessage('what.renewalOfPlate', { policyNumber, plate })
      : nestedMessage('what.renewal', { policyNumber });
  }
  return product
    ? nestedMessage('what.motor', { product, plate })
    : nestedMessage('what.motorCover', { plate });
}

/** The closing screen, with how to stop renewal reminders when the holder will get them. */
function withReminderNotice(on: boolean, prompt: Prompt): Prompt {
  return on ? { ...prompt, notes: [...(prompt.notes ?? []), { key: 'reminder.notice' }] } : prompt;
}

/** The screen that shows what is bought for how much and asks how to pay. */
function confirmPrompt(context: MotorQuoteContext) {
  const due = { amount: context.pay?.amount ?? 0, currency: context.pay?.currency ?? '' };
  const option = context.options.find((o) => o.duration === context.answers.duration);
  const renewal = context.mode === 'renew';
  // The quotation's price differs from the one shown before: the amount charged is said anew.
  if (!renewal && context.repriced) {
    return ask('motor.confirmRepriced', 'choice', {
      params: { amount: money(due.amount), currency: due.currency },
      choices: paymentChoices(context),
    });
  }
  if (renewal) {
    return ask('motor.confirmRenewal', 'choice', {
      params: {
        policyNumber: context.policy?.policyNumber ?? '',
        amount: money(due.amount),
        currency: due.currency,
        startDate: context.policy?.renewal?.startDate ?? '',
        endDate: context.policy?.renewal?.endDate ?? '',
      },
      choices: paymentChoices(context),
    });
  }
  // What is paid for, on which car and for when, before the caller picks how to pay; an insurer
  // that gives no dates for the option leaves its period's name ("4 quarters") instead.
  const endDate = option?.endDate;
  return ask(endDate ? 'motor.confirmQuote' : 'motor.confirmQuote.undated', 'choice', {
    params: {
      product: context.products.find((p) => p.id === context.answers.productId)?.name ?? '',
      plate: context.answers.plate ?? '',
      ...(endDate ? { startDate: context.today, endDate } : {}),
      amount: money(due.amount),
      currency: due.currency,
      basic: money(option?.basic ?? 0),
      levy: money(option?.levy ?? 0),
      label: option?.label ?? '',
    },
    choices: paymentChoices(context),
  });
}

/**
 * Motor cover end to end, priced first: product → vehicle use → [value] → period with prices; then,
 * once the caller chooses one, the vehicle (plate, make model and year, chassis, engine) and the
 * policyholder (the caller's own number, NRC, name, email) → payment (the vehicle and quotation
 * made as the caller pays) → policy number and certificate; or renewal of a policy found by its
 * plate.
 */
export const motorQuoteMachine = motor.createMachine({
  id: 'motor-quote',
  context: ({ input }) => ({
    prompt: ask('motor.mode', 'choice'),
    tries: 0,
    today: input.today,
    callerPhone: input.callerPhone ?? null,
    // A chat's vouched phone (a WhatsApp sender) pays in one tap too.
    ...payPhoneOf(input),
    principal: input.principal,
    ...(input.route ? { route: input.route } : {}),
    mode: input.start?.renewal ? 'renew' : 'new',
    page: 1,
    products: [],
    hasMore: false,
    categories: [],
    options: [],
    answers: {},
    vehicle: null,
    holder: null,
    holderLookup: 'phone',
    quote: null,
    policy: input.start?.renewal ?? null,
    pay: null,
    policyNumber: null,
    period: null,
    certificateUrl: null,
    remindersNotice: false,
    failure: null,
  }),
  initial: 'opening',
  on: ENDING_REPLIES,
  states: {
    // Handed over from the menu's "Renew MTR-…" (or a reminder's Renew now): straight to its price.
    opening: {
      always: [
        {
          guard: and([{ type: 'inMode', params: { mode: 'renew' } } as const, 'hasPolicy']),
          target: '#motor-quote.renewal.loadingRenewal',
        },
        { target: 'mode' },
      ],
    },
    mode: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ask('motor.mode', 'choice', {
          choices: [choice('new', 'motor.choice.new'), choice('renew', 'motor.choice.renew')],
        }),
      }),
      on: {
        'user.choice': [
          {
            guard: chose('new'),
            target: 'pricing',
            actions: assign({ mode: 'new', page: 1 }),
          },
          {
            guard: chose('renew'),
            target: 'renewal',
            // A renewal needs no product list: the snapshot stays small with the principal in it.
            actions: assign({
              mode: 'renew',
              products: [],
              hasMore: false,
              categories: [],
              options: [],
            }),
          },
        ],
        'user.back': 'mainMenu',
      },
    },

    // Priced from what pricing takes (cover, use, value, start date): no plate, chassis or NRC.
    pricing: {
      initial: 'loadingProducts',
      states: {
        loadingProducts: {
          invoke: {
            src: 'listProducts',
            input: ({ context }) => ({ page: context.page, pageSize: PAGE_SIZE }),
            onDone: {
              target: 'pickProduct',
              actions: assign({
                products: ({ event }) => event.output.products.slice(0, PAGE_SIZE),
                hasMore: ({ event }) => event.output.hasMore,
              }),
            },
            onError: failedCall('products'),
          },
        },
        pickProduct: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) => {
              const choices: Choice[] = context.products.map((p) =>
                dataChoice(p.id, p.name, 'product'),
              );
              if (context.hasMore) choices.push(choice('more', 'flow.choice.more'));
              return ask(
                context.products.length > 0 ? 'motor.pickProduct' : 'motor.noProducts',
                'choice',
                {
                  choices: choices.length > 0 ? choices : [choice('back', 'flow.choice.back')],
                },
              );
            },
          }),
          on: {
            'user.choice': [
              {
                guard: 'listedProduct',
                target: 'loadingCategories',
                actions: assign({
                  answers: ({ context, event }) => ({ ...context.answers, productId: event.id }),
                }),
              },
              {
                guard: 'moreProducts',
                target: 'loadingProducts',
                actions: assign({ page: ({ context }) => context.page + 1 }),
              },
              { guard: chose('back'), target: '#motor-quote.mode' },
            ],
            'user.back': [
              {
                guard: 'pastFirstPage',
                target: 'loadingProducts',
                actions: assign({ page: ({ context }) => context.page - 1 }),
              },
              { target: '#motor-quote.mode' },
            ],
          },
        },
        loadingCategories: {
          invoke: {
            src: 'listRiskCategories',
            input: () => ({}),
            onDone: {
              target: 'pickCategory',
              actions: assign({
                categories: ({ event }) =>
                  event.output.slice(0, 6).map((c) => ({ id: c.id, name: c.name })),
              }),
            },
            onError: failedCall('categories'),
          },
        },
        pickCategory: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask('motor.pickCategory', 'choice', {
                choices: context.categories.map((c) => dataChoice(c.id, c.name, 'category')),
              }),
          }),
          on: {
            'user.choice': [
              {
                guard: 'listedCategory',
                target: 'afterCategory',
                actions: assign({
                  answers: ({ context, event }) => ({
                    ...context.answers,
                    riskCategoryId: event.id,
                  }),
                }),
              },
            ],
            // The list loaded again: it is not kept once a period is chosen.
            'user.back': 'loadingProducts',
          },
        },
        afterCategory: {
          always: [
            { guard: 'needsSumInsured', target: 'askSumInsured' },
            { target: 'loadingPrices' },
          ],
        },
        askSumInsured: askText(
          'motor.askSumInsured',
          'amount',
          'sumInsured',
          'loadingPrices',
          'loadingCategories',
        ),
        // Back from the prices: the value when the cover needed one, else the vehicle use (the
        // list loaded again: it is not kept once a period is chosen).
        beforeDuration: {
          always: [
            { guard: 'needsSumInsured', target: 'askSumInsured' },
            { target: 'loadingCategories' },
          ],
        },
        loadingPrices: {
          invoke: {
            src: 'priceMotor',
            input: ({ context }) => ({
              productId: context.answers.productId ?? '',
              riskCategoryId: context.answers.riskCategoryId ?? '',
              startDate: context.today,
              ...(context.answers.sumInsured
                ? { sumInsured: Number(context.answers.sumInsured) }
                : {}),
            }),
            onDone: {
              target: 'pickDuration',
              actions: assign({ options: ({ event }) => event.output.slice(0, 6) }),
            },
            onError: failedCall('pricing'),
          },
        },
        pickDuration: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask(context.options.length > 0 ? 'motor.pickDuration' : 'motor.noPricing', 'choice', {
                choices:
                  context.options.length > 0
                    ? context.options.map((o) =>
                        choice(String(o.duration), 'motor.durationOption', {
                          label: o.label,
                          gross: money(o.gross),
                          currency: o.currency,
                        }),
                      )
                    : [choice('back', 'flow.choice.back')],
              }),
          }),
          on: {
            'user.choice': [
              {
                // The caller chose to buy at this price: now what registering needs.
                guard: 'listedOption',
                target: '#motor-quote.details.askPlate',
                // The lists are not kept past here (only the cover chosen): a snapshot stays
                // within 2 KB.
                actions: assign({
                  categories: [],
                  products: ({ context }) =>
                    context.products.filter((p) => p.id === context.answers.productId),
                  answers: ({ context, event }) => ({
                    ...context.answers,
                    duration: Number(event.id),
                  }),
                }),
              },
              { guard: chose('back'), target: 'beforeDuration' },
            ],
            'user.back': 'beforeDuration',
          },
        },
        failed: stageFailure({
          products: 'loadingProducts',
          categories: 'loadingCategories',
          pricing: 'loadingPrices',
        }),
        failedBack: failureBack(
          {
            categories: 'loadingProducts',
            pricing: 'loadingCategories',
            products: '#motor-quote.mode',
          },
          REFUSED,
        ),
      },
    },
    // Asked once the caller chose a priced period: the vehicle, then the policyholder.
    details: {
      initial: 'askPlate',
      states: {
        // Asked once the caller chose a priced period: the plate checks run as it is typed.
        askPlate: askText(
          'motor.askPlate',
          'text',
          'plate',
          'findingVehicle',
          '#motor-quote.pricing.pickDuration',
        ),
        findingVehicle: findingByPlate('findVehicle', 'vehicle', {
          covered: 'alreadyCovered',
          elsewhere: '#motor-quote.renewal.noPolicy',
          elsewhereKept: { vehicle: null },
          found: 'confirmVehicle',
          keep: (vehicle) => ({ vehicle }),
          none: 'askVehicle',
          cleared: { vehicle: null },
        }),
        confirmVehicle: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask('motor.confirmVehicle', 'choice', {
                params: {
                  plate: context.answers.plate ?? '',
                  vehicle: context.vehicle?.description ?? '',
                },
                choices: [choice('yes', 'flow.choice.yes'), choice('no', 'flow.choice.no')],
              }),
          }),
          on: {
            'user.choice': [
              // The use picked for the price stays the one quoted: the price shown is charged.
              { guard: chose('yes'), target: 'holderStart' },
              {
                guard: chose('no'),
                target: 'askPlate',
                actions: assign({ vehicle: null }),
              },
            ],
            'user.back': {
              target: 'askPlate',
              actions: assign({ vehicle: null }),
            },
          },
        },
        // The caller's own car: insured already (Renew may follow), or a payment being confirmed.
        alreadyCovered: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              context.covered?.covered === 'insured'
                ? ask('motor.alreadyInsured', 'choice', {
                    params: { plate: context.answers.plate ?? '', until: context.covered.until },
                    choices: [
                      choice('renew', 'motor.choice.renew'),
                      choice('again', 'motor.choice.otherPlate'),
                      choice('end', 'flow.choice.end'),
                    ],
                  })
                : ask('motor.paymentUnsettled', 'choice', {
                    params: { plate: context.answers.plate ?? '' },
                    choices: [
                      choice('again', 'motor.choice.otherPlate'),
                      choice('end', 'flow.choice.end'),
                    ],
                  }),
          }),
          on: {
            'user.choice': [
              {
                guard: and([chose('renew'), 'insuredAlready']),
                target: '#motor-quote.renewal.findingPolicy',
                // A renewal is priced by the insurer: the new cover's lists are not kept.
                actions: assign({
                  mode: 'renew',
                  covered: undefined,
                  products: [],
                  categories: [],
                  options: [],
                }),
              },
              {
                guard: chose('again'),
                target: 'askPlate',
                actions: assign({ covered: undefined }),
              },
            ],
            'user.back': {
              target: 'askPlate',
              actions: assign({ covered: undefined }),
            },
          },
        },
        // The insurer holds the plate under a client with no cover on it and refuses a second
        // registration (the spec cannot move a vehicle): a person at the desk can.
        plateBlocked: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask('motor.plateBlocked', 'choice', {
                params: { plate: context.answers.plate ?? '' },
                choices: [
                  choice(TALK_TO_A_PERSON, 'menu.choice.person'),
                  choice('again', 'motor.choice.otherPlate'),
                  choice('end', 'flow.choice.end'),
                ],
              }),
          }),
          on: {
            'user.choice': [
              {
                guard: chose('again'),
                target: 'askPlate',
                actions: assign({ vehicle: null }),
              },
            ],
            'user.back': {
              target: 'askPlate',
              actions: assign({ vehicle: null }),
            },
          },
        },
        askVehicle: {
          tags: 'awaitingInput',
          entry: { type: 'ask', params: { key: 'motor.askVehicle', input: 'text' } },
          on: {
            'user.text': [
              {
                guard: answered('vehicle'),
                target: 'askChassis',
                actions: assign({
                  answers: ({ context, event }) => {
                    const typed = vehicleName(event.text, context);
                    return typed.ok ? { ...context.answers, ...typed.value } : context.answers;
                  },
                }),
              },
              { actions: rejectAnswer('vehicle') },
            ],
            'user.back': 'askPlate',
          },
        },
        askChassis: askText('motor.askChassis', 'text', 'chassis', 'askEngine', 'askVehicle'),
        askEngine: askText('motor.askEngine', 'text', 'engine', 'holderStart', 'askChassis'),
        // The vehicle's last question, for Back from the policyholder's first.
        lastQuestion: {
          always: [{ guard: 'hasVehicleId', target: 'confirmVehicle' }, { target: 'askEngine' }],
        },
        // The caller's own number is the holder's unless they say otherwise (confirmHolder's No);
        // a chat with no number of its own is asked for one.
        holderStart: {
          always: [
            {
              guard: 'hasCallerPhone',
              target: 'findingHolder',
              actions: assign({
                holderLookup: 'phone',
                answers: ({ context }) => ({
                  ...context.answers,
                  holderPhone: context.callerPhone ?? '',
                }),
              }),
            },
            { target: 'askHolderPhone' },
          ],
        },
        // Back from the NRC: to the number typed, or past the number taken without asking.
        beforeHolder: {
          always: [
            { guard: 'holderIsCaller', target: 'lastQuestion' },
            { target: 'askHolderPhone' },
          ],
        },
        // Back from a failed look-up: to the NRC it looked up, or before the number.
        lookupBack: {
          always: [
            { guard: 'lookedUpByPhone', target: 'beforeHolder' },
            { target: 'askHolderNrc' },
          ],
        },
        askHolderPhone: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask('motor.askHolderPhone', 'phone', {
                ...(context.callerPhone
                  ? { choices: [choice('own', 'pay.choice.ownNumber')] }
                  : {}),
              }),
          }),
          on: {
            'user.choice': {
              guard: 'ownNumber',
              target: 'findingHolder',
              actions: assign({
                holderLookup: 'phone',
                answers: ({ context }) => ({
                  ...context.answers,
                  holderPhone: context.callerPhone ?? '',
                }),
              }),
            },
            'user.contact': {
              guard: 'validContact',
              target: 'findingHolder',
              actions: assign({
                holderLookup: 'phone',
                answers: ({ context, event }) => {
                  const phone = checkPhone(event.phone);
                  return phone.ok
                    ? { ...context.answers, holderPhone: phone.value }
                    : context.answers;
                },
                // Channels pass on only the sender's own contact: it verifies who is asking.
                principal: ({ context, event }) => {
                  const phone = checkPhone(event.phone);
                  return phone.ok && context.principal.kind === 'nobody'
                    ? principalOf(phone.value)
                    : context.principal;
                },
              }),
            },
            'user.text': [
              {
                guard: answered('phone'),
                target: 'findingHolder',
                actions: assign({
                  holderLookup: 'phone',
                  answers: ({ context, event }) => {
                    const phone = checkPhone(event.text);
                    return phone.ok
                      ? { ...context.answers, holderPhone: phone.value }
                      : context.answers;
                  },
                }),
              },
              { actions: rejectAnswer('phone') },
            ],
            'user.back': 'lastQuestion',
          },
        },
        findingHolder: {
          invoke: {
            src: 'findHolder',
            input: ({ context }) =>
              context.holderLookup === 'nrc'
                ? { nrc: context.answers.holderNrc ?? '', principal: context.principal }
                : { phone: context.answers.holderPhone ?? '', principal: context.principal },
            onDone: [
              {
                guard: 'onRecordElsewhere',
                target: 'offerCode',
                actions: assign({
                  holder: null,
                  code: ({ event }) => ({
                    to: isOnRecordElsewhere(event.output) ? event.output.masked : '',
                  }),
                }),
              },
              {
                guard: 'returned',
                target: 'confirmHolder',
                actions: assign({
                  holder: ({ event }) =>
                    event.output === null || isOnRecordElsewhere(event.output)
                      ? null
                      : event.output,
                }),
              },
              {
                guard: 'lookedUpByPhone',
                target: 'askHolderNrc',
                actions: assign({ holder: null }),
              },
              { target: 'askName', actions: assign({ holder: null }) },
            ],
            onError: failedCall('holder'),
          },
        },
        confirmHolder: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask('motor.confirmHolder', 'choice', {
                params: { name: context.holder?.name ?? '' },
                choices: [choice('yes', 'flow.choice.yes'), choice('no', 'flow.choice.no')],
              }),
          }),
          on: {
            'user.choice': [
              { guard: chose('yes'), target: '#motor-quote.priced' },
              {
                guard: chose('no'),
                target: 'askHolderPhone',
                actions: assign({ holder: null }),
              },
            ],
            'user.back': {
              target: 'askHolderPhone',
              actions: assign({ holder: null }),
            },
          },
        },
        askHolderNrc: {
          ...askText('motor.askHolderNrc', 'nrc', 'holderNrc', 'findingHolder', 'beforeHolder'),
          // A new NRC: any proof of the one before no longer counts.
          exit: assign({ holderLookup: 'nrc', proven: undefined, code: undefined }),
        },
        // The NRC is the insurer's with another phone: prove it by a code, or go on as new.
        offerCode: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask('motor.offerCode', 'choice', {
                choices: [
                  choice('send', 'motor.choice.sendCode', { phone: context.code?.to ?? '' }),
                  choice('new', 'motor.choice.newHolder'),
                ],
              }),
          }),
          on: {
            'user.choice': [
              { guard: chose('send'), target: 'sendingCode' },
              { guard: chose('new'), target: 'askName' },
            ],
            'user.back': 'askHolderNrc',
          },
        },
        sendingCode: {
          invoke: {
            src: 'sendCode',
            input: ({ context }) => ({
              nrc: context.answers.holderNrc ?? '',
              principal: context.principal,
              ...(context.route ? { route: context.route } : {}),
            }),
            onDone: [
              {
                guard: 'codeSent',
                target: 'askCode',
                actions: assign({
                  code: ({ context }) => ({ to: context.code?.to ?? '' }),
                }),
              },
              {
                target: 'codeRefused',
                actions: assign({
                  code: ({ context }) => ({ to: context.code?.to ?? '', refused: 'unsent' }),
                }),
              },
            ],
            onError: failedCall('code'),
          },
        },
        // A redial resumes here (the session is kept): many handsets cannot read an SMS while a
        // USSD session is open.
        askCode: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask('motor.askCode', 'text', {
                params: { phone: context.code?.to ?? '' },
                note:
                  context.code?.left !== undefined
                    ? { key: 'motor.note.codeWrong', params: { left: context.code.left } }
                    : { key: 'motor.note.codeSent' },
              }),
          }),
          on: {
            'user.text': [
              {
                guard: answered('code'),
                target: 'checkingCode',
                actions: assign({
                  answers: ({ context, event }) => {
                    const typed = checkCode(event.text);
                    return { ...context.answers, code: typed.ok ? typed.value : undefined };
                  },
                }),
              },
              { actions: rejectAnswer('code') },
            ],
            'user.back': 'offerCode',
          },
        },
        checkingCode: {
          invoke: {
            src: 'checkCode',
            input: ({ context }) => ({
              nrc: context.answers.holderNrc ?? '',
              code: context.answers.code ?? '',
              principal: context.principal,
              ...(context.route ? { route: context.route } : {}),
            }),
            onDone: [
              {
                guard: codeIs('right'),
                target: 'askName',
                actions: assign({
                  proven: true,
                  code: undefined,
                  answers: ({ context }) => ({ ...context.answers, code: undefined }),
                }),
              },
              {
                guard: codeIs('wrong'),
                target: 'askCode',
                actions: assign({
                  answers: ({ context }) => ({ ...context.answers, code: undefined }),
                  code: ({ context, event }) => ({
                    to: context.code?.to ?? '',
                    left: event.output.outcome === 'wrong' ? event.output.triesLeft : 0,
                  }),
                }),
              },
              {
                target: 'codeRefused',
                actions: assign({
                  answers: ({ context }) => ({ ...context.answers, code: undefined }),
                  code: ({ context, event }) => ({
                    to: context.code?.to ?? '',
                    refused: event.output.outcome === 'expired' ? 'expired' : 'spent',
                  }),
                }),
              },
            ],
            onError: failedCall('checkCode'),
          },
        },
        // No proof: wrong three times (no code for a while), expired, or none could be sent.
        codeRefused: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask(`motor.code.${context.code?.refused ?? 'unsent'}`, 'choice', {
                choices: [
                  ...(context.code?.refused === 'expired'
                    ? [choice('send', 'motor.choice.newCode')]
                    : []),
                  choice('new', 'motor.choice.newHolder'),
                  choice('end', 'flow.choice.end'),
                ],
              }),
          }),
          on: {
            'user.choice': [
              {
                guard: and([chose('send'), 'codeExpired']),
                target: 'sendingCode',
              },
              { guard: chose('new'), target: 'askName' },
            ],
            'user.back': 'askHolderNrc',
          },
        },
        askName: {
          tags: 'awaitingInput',
          entry: { type: 'ask', params: { key: 'motor.askName', input: 'text' } },
          on: {
            'user.text': [
              {
                guard: answered('name'),
                target: 'askEmail',
                actions: assign({
                  answers: ({ context, event }) => {
                    const typed = fullName(event.text);
                    return typed.ok ? { ...context.answers, ...typed.value } : context.answers;
                  },
                }),
              },
              { actions: rejectAnswer('name') },
            ],
            'user.back': 'askHolderNrc',
          },
        },
        // The insurer requires an email to register an individual (the spec's "Create individual").
        askEmail: askText('motor.askEmail', 'text', 'email', '#motor-quote.priced', 'askName'),
        failed: stageFailure({
          vehicle: 'findingVehicle',
          holder: 'findingHolder',
          code: 'sendingCode',
          checkCode: 'checkingCode',
        }),
        failedBack: failureBack(
          { holder: 'lookupBack', code: 'offerCode', checkCode: 'askCode', vehicle: 'askPlate' },
          { guard: 'refusedAnswer', target: 'changeAnswer' },
        ),
        // "Change my answer" after the insurer refused one: straight to the question that asked
        // for it, every answer given still held and the rest of the way as before.
        changeAnswer: toRefusedAnswer(QUESTION_OF),
      },
    },
    // The price shown is the pricing option's: nothing that would block another phone (the
    // vehicle, the quotation) is written at the insurer before the caller chooses to pay.
    priced: {
      always: {
        target: 'payment',
        actions: assign(({ context }) => {
          const option = context.options.find((o) => o.duration === context.answers.duration);
          return {
            quote: null,
            repriced: undefined,
            pay: newPayment(
              { kind: 'unquoted' },
              '',
              purchaseOf(context),
              option?.gross ?? 0,
              option?.currency ?? 'ZMW',
              context.answers.plate,
            ),
          };
        }),
      },
    },
    // ---------------------------------------------------------------- the pay step
    // The caller chose how to pay: a new holder and the vehicle are registered and the
    // quotation made now; the amount charged is the amount shown, or the new one is shown and
    // asked again.
    buying: {
      initial: 'registeringHolder',
      states: {
        // A holder the insurer did not hold yet is registered only now, once the caller chose
        // to pay (issue 38: no write before that choice); one found by phone already is.
        registeringHolder: {
          always: { guard: 'hasHolder', target: 'registeringVehicle' },
          invoke: {
            src: 'registerHolder',
            input: ({ context }) => ({
              firstName: context.answers.firstName ?? '',
              lastName: context.answers.lastName ?? '',
              phone: context.answers.holderPhone ?? '',
              email: context.answers.email ?? '',
              nrc: context.answers.holderNrc ?? '',
              ...(context.proven ? { proven: true } : {}),
            }),
            onDone: {
              target: 'registeringVehicle',
              actions: assign({ holder: ({ event }) => event.output }),
            },
            onError: failedCall('register'),
          },
        },
        registeringVehicle: {
          always: { guard: 'hasVehicleId', target: 'quoting' },
          invoke: {
            src: 'registerVehicle',
            input: ({ context }) => ({
              clientId: context.holder?.clientId ?? '',
              plate: context.answers.plate ?? '',
              make: context.answers.make ?? '',
              model: context.answers.model ?? '',
              year: Number(context.answers.year ?? 0),
              chassis: context.answers.chassis ?? '',
              engine: context.answers.engine ?? '',
              riskCategoryId: context.answers.riskCategoryId ?? '',
            }),
            onDone: [
              {
                guard: 'vehicleBlocked',
                target: '#motor-quote.details.plateBlocked',
                actions: assign({ pay: null }),
              },
              {
                target: 'quoting',
                actions: assign({
                  vehicle: ({ context, event }) => ({
                    vehicleId: 'vehicleId' in event.output ? event.output.vehicleId : '',
                    riskCategoryId: context.answers.riskCategoryId ?? '',
                    description:
                      `${context.answers.make ?? ''} ${context.answers.model ?? ''}`.trim(),
                  }),
                }),
              },
            ],
            onError: failedCall('registerVehicle'),
          },
        },
        quoting: {
          invoke: {
            src: 'createQuote',
            input: ({ context }) => ({
              productId: context.answers.productId ?? '',
              duration: context.answers.duration ?? 1,
              clientId: context.holder?.clientId ?? '',
              vehicleId: context.vehicle?.vehicleId ?? '',
              riskCategoryId: context.answers.riskCategoryId ?? '',
              startDate: context.today,
              ...(context.answers.sumInsured
                ? { sumInsured: Number(context.answers.sumInsured) }
                : {}),
            }),
            onDone: [
              {
                // The amount on screen is the amount charged: paid at once with the method chosen.
                guard: 'quotedAsShown',
                target: 'quoted',
                // The payment names the quotation (its subject): no second copy is kept.
                actions: assign(({ context, event }) => ({
                  payAt: 'paying' as const,
                  pay: quotedPayment(context, event.output),
                })),
              },
              {
                // Another price: shown, and how to pay asked again.
                target: 'quoted',
                actions: assign(({ context, event }) => ({
                  repriced: true as const,
                  pay: quotedPayment(context, event.output),
                })),
              },
            ],
            onError: failedCall('quote'),
          },
        },
        // Quoted at the price shown (paid at once) or at another (shown, how to pay asked again).
        quoted: { always: '#motor-quote.payment' },
        failed: stageFailure({
          register: 'registeringHolder',
          // The writes again with the payment, as the method chosen: a handset's call is let go
          // first.
          registerVehicle: resumeAt('start'),
          quote: resumeAt('start'),
        }),
        failedBack: failureBack(
          { register: '#motor-quote.details.askEmail', quote: resumeAt('confirm') },
          REFUSED,
        ),
      },
    },
    renewal: {
      initial: 'askRenewPlate',
      states: {
        askRenewPlate: askText(
          'motor.askRenewPlate',
          'text',
          'plate',
          'findingPolicy',
          '#motor-quote.mode',
        ),
        findingPolicy: findingByPlate('findPolicy', 'policy', {
          elsewhere: 'noPolicy',
          elsewhereKept: {},
          found: 'loadingRenewal',
          keep: (policy) => ({ elsewhere: undefined, policy }),
          none: 'noPolicy',
          cleared: { elsewhere: undefined },
        }),
        noPolicy: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            // Another holder's plate: that it is theirs, nothing about it, and what the caller can do.
            prompt: ({ context }) => {
              const elsewhere = context.elsewhere;
              if (!elsewhere) {
                return ask('motor.noPolicy', 'choice', {
                  params: { plate: context.answers.plate ?? '' },
                  choices: [
                    choice('again', 'motor.choice.otherPlate'),
                    choice('new', 'motor.choice.new'),
                    choice('end', 'flow.choice.end'),
                  ],
                });
              }
              // A chat that showed no phone yet may share its own: the car may be theirs after all.
              const unverified = context.principal.kind === 'nobody';
              return ask(
                `motor.heldElsewhere.${context.mode}${unverified ? '.contact' : ''}`,
                unverified ? 'contact' : 'choice',
                {
                  params: { plate: context.answers.plate ?? '' },
                  choices: [
                    ...(elsewhere.canTell && !elsewhere.told
                      ? [choice('tell', 'motor.choice.tellHolder')]
                      : []),
                    choice('again', 'motor.choice.otherPlate'),
                    choice('end', 'flow.choice.end'),
                  ],
                  note: elsewhere.told ? { key: 'motor.note.holderTold' } : null,
                },
              );
            },
          }),
          on: {
            'user.contact': {
              guard: and(['heldElsewhere', 'unverified', 'validContact']),
              target: 'plateAgain',
              actions: assign({
                elsewhere: undefined,
                principal: ({ context, event }) => {
                  const phone = checkPhone(event.phone);
                  return phone.ok ? principalOf(phone.value) : context.principal;
                },
              }),
            },
            'user.choice': [
              {
                guard: and([chose('tell'), 'canTellHolder']),
                target: 'tellingHolder',
              },
              {
                guard: chose('again'),
                target: 'otherPlate',
                actions: assign({ elsewhere: undefined }),
              },
              {
                guard: chose('new'),
                target: '#motor-quote.pricing.loadingProducts',
                actions: assign({ mode: 'new', page: 1 }),
              },
            ],
            'user.back': { target: 'otherPlate', actions: assign({ elsewhere: undefined }) },
          },
        },
        // Another plate: asked where this one was, for the cover being bought or renewed.
        otherPlate: {
          always: [
            {
              guard: { type: 'inMode', params: { mode: 'new' } },
              target: '#motor-quote.details.askPlate',
            },
            { target: 'askRenewPlate' },
          ],
        },
        // The plate looked up again for the phone just shared.
        plateAgain: {
          always: [
            {
              guard: { type: 'inMode', params: { mode: 'new' } },
              target: '#motor-quote.details.findingVehicle',
            },
            { target: 'findingPolicy' },
          ],
        },
        tellingHolder: {
          invoke: {
            src: 'tellHolder',
            input: ({ context }): TellHolder => ({
              plate: context.answers.plate ?? '',
              mode: context.mode,
              principal: context.principal,
              ...(context.route ? { route: context.route } : {}),
            }),
            onDone: {
              target: 'noPolicy',
              actions: assign({
                elsewhere: ({ context }) =>
                  context.elsewhere ? { ...context.elsewhere, told: true } : undefined,
              }),
            },
            onError: failedCall('tell'),
          },
        },
        loadingRenewal: {
          invoke: {
            src: 'renewalPremiums',
            input: ({ context }) => ({ policyId: context.policy?.policyId ?? '' }),
            onDone: {
              target: '#motor-quote.payment',
              actions: assign(({ context, event }) => ({
                policy: context.policy ? { ...context.policy, renewal: event.output } : null,
                pay: newPayment(
                  { kind: 'renewal', policyId: context.policy?.policyId ?? '' },
                  event.output.purchase,
                  purchaseOf(context),
                  event.output.gross,
                  event.output.currency,
                  context.answers.plate,
                ),
              })),
            },
            onError: failedCall('renewal'),
          },
        },
        failed: stageFailure({
          policy: 'findingPolicy',
          renewal: 'loadingRenewal',
          tell: 'tellingHolder',
        }),
        failedBack: failureBack(
          { tell: 'noPolicy', policy: 'askRenewPlate', renewal: 'askRenewPlate' },
          REFUSED,
        ),
      },
    },
    // ---------------------------------------------------------------- payment
    payment: paymentStage({
      chosen: 'buying',
      paid: 'loadingCertificate',
      back: 'paymentBack',
      failed: 'paymentFailed',
      cancelled: 'cancelled',
    }),
    paymentBack: {
      always: [
        { guard: 'isRenewal', target: 'renewal' },
        { target: '#motor-quote.pricing.pickDuration' },
      ],
    },
    loadingCertificate: {
      invoke: {
        src: 'motorCertificate',
        // What was paid for names the policy: the payment's own, or the policy renewed.
        input: ({ context }) => {
          const pay = context.pay;
          const policyId =
            pay?.policyId ?? (pay?.subject.kind === 'renewal' ? pay.subject.policyId : undefined);
          return {
            ...(policyId ? { policyId } : {}),
            ...(pay?.reference ? { reference: pay.reference } : {}),
            ...(context.route ? { route: context.route } : {}),
            what: pay?.what ?? '',
            renewal: pay?.subject.kind === 'renewal',
            holder: {
              ...(context.answers.holderPhone ? { phone: context.answers.holderPhone } : {}),
              ...(context.answers.holderNrc ? { nrc: context.answers.holderNrc } : {}),
            },
          };
        },
        onDone: {
          target: 'done',
          actions: assign({
            policyNumber: ({ event }) => event.output.policyNumber,
            period: ({ event }) =>
              event.output.startDate && event.output.endDate
                ? { startDate: event.output.startDate, endDate: event.output.endDate }
                : null,
            certificateUrl: ({ event }) => event.output.url ?? null,
            remindersNotice: ({ event }) => event.output.remindersNotice === true,
          }),
        },
        onError: failedCall('certificate', 'paymentFailed'),
      },
    },

    // The paying stage's failures: the payment child ended failed (starting it, or reading where
    // it stands), or the certificate of the policy paid for could not be had (Try again and Back
    // both ask for it again).
    paymentFailed: stageFailure(
      {
        pay: resumePayment('start'),
        status: resumePayment('checking'),
        certificate: 'loadingCertificate',
      },
      'paymentFailedBack',
    ),
    paymentFailedBack: failureBack(
      {
        pay: resumePayment('confirm'),
        status: resumePayment('wait'),
        certificate: 'loadingCertificate',
      },
      REFUSED,
    ),
    done: {
      type: 'final',
      entry: assign({
        prompt: ({ context }) =>
          withReminderNotice(
            context.remindersNotice,
            end(
              context.mode === 'renew' ? 'motor.renewed' : 'motor.done',
              {
                policyNumber: context.policyNumber ?? context.policy?.policyNumber ?? '',
                what: context.pay?.what ?? '',
                amount: money(context.pay?.amount ?? 0),
                currency: context.pay?.currency ?? '',
                startDate: context.period?.startDate ?? context.policy?.renewal?.startDate ?? '',
                endDate: context.period?.endDate ?? context.policy?.renewal?.endDate ?? '',
              },
              context.certificateUrl
                ? [{ kind: 'document', url: context.certificateUrl, label: 'motor.certificate' }]
                : undefined,
            ),
          ),
      }),
    },
    cancelled: { type: 'final', entry: assign({ prompt: CANCELLED }) },
    mainMenu: { type: 'final', entry: assign({ prompt: TO_MAIN_MENU }) },
  },
  output: flowOutput,
});

/** Where motor-quote starts: a "Renew MTR-…" (the entry menu's, My cover's) opens that renewal. */
export const MotorQuoteStart = z.object({
  renewal: z.object({ policyId: z.string(), policyNumber: z.string() }).optional(),
});
/** What motor-quote takes as its start. */
export type MotorQuoteStart = z.infer<typeof MotorQuoteStart>;

/** Motor cover and renewal as the engine registers them. */
export const motorQuoteFlow: FlowDefinition<typeof motorQuoteMachine> = {
  id: 'motor-quote',
  // 5: paying is a child machine (its snapshot persisted with the flow's); older snapshots restart.
  // 6: the vehicle and quotation are made at the pay step, and a typed NRC may be proven by code.
  // 7: priced before the vehicle and holder are asked; make, model and year, and the name, each
  // one answer.
  // 8: on a handset call, mobile money lets the call go before the writes and the payment.
  // 9: each stage owns its failure screen (no shared `failed`), product and pricing are one
  // stage, vehicle and holder another (`details`): older snapshots restart.
  version: 9,
  machine: motorQuoteMachine,
  start: MotorQuoteStart,
};
