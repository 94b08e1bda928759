import { assertEvent, assign, setup } from 'xstate';
import { type Principal, principalOf } from '../src/access/index.js';
import { FIELD_LENGTHS } from '../src/api/index.js';
import type {
  FlowContextBase,
  FlowDefinition,
  FlowOutput,
  FlowStartInput,
  TurnRoute,
} from '../src/conversation/flow.js';
import type { Choice, Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import {
  checkAmount,
  checkEmail,
  checkIdentifier,
  checkName,
  checkNrc,
  checkPhone,
  checkPlate,
  checkWords,
  checkYear,
} from './checks.js';
import {
  again,
  answered,
  chosenFrom,
  errorOf,
  newPayment,
  outputOf,
  PAYMENT_GUARDS,
  type PaymentRequest,
  type PaymentStarted,
  type PayState,
  paymentChoices,
  paymentFailedPrompt,
  paymentPhonePrompt,
  paymentStates,
  paymentWaitPrompt,
  settled,
} from './payment-states.js';
import {
  ask,
  CANCELLED,
  type Checked,
  choice,
  dataChoice,
  end,
  type Failure,
  failedAt,
  failureScreen,
  flowOutput,
  isChoice,
  money,
  notProvided,
  passes,
  type RefusedQuestions,
  rejected,
  rejectedBy,
  TO_MAIN_MENU,
  toRefusedQuestion,
  UNEXPECTED_REPLIES,
  unexpected,
} from './support.js';

/** A motor product as the flow lists it. */
export interface MotorProduct {
  id: string;
  name: string;
  /** Comprehensive and TPFT cover are priced on the vehicle's value. */
  needsSumInsured: boolean;
}

/** One page of motor products. */
export interface MotorProductPage {
  products: MotorProduct[];
  hasMore: boolean;
}

/** A registered vehicle found by its plate. */
export interface FoundVehicle {
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
export interface PricingOption {
  duration: number;
  label: string;
  basic: number;
  levy: number;
  gross: number;
  currency: string;
}

/** A policyholder found or registered. */
export interface Holder {
  clientId: string;
  name: string;
}

/** A created quotation. */
export interface MotorQuote {
  quoteId: string;
  premium: number;
  currency: string;
  /** Unique per purchase (the quote and a key made when it was priced): names its payments. */
  purchase: string;
}

/**
 * A plate that is registered or insured under another holder than the caller: they learn only
 * that, and may have the holder told by SMS (when the deployment sends SMS and a phone is on record).
 */
export interface HeldElsewhere {
  heldElsewhere: true;
  canTell: boolean;
}

/** Whether an actor's answer is {@link HeldElsewhere}. */
const isElsewhere = (found: unknown): found is HeldElsewhere =>
  typeof found === 'object' && found !== null && 'heldElsewhere' in found;

/** A motor policy found for renewal. */
export interface MotorPolicyFound {
  policyId: string;
  policyNumber: string;
}

/** Renewal premiums for the next period. */
export interface RenewalQuote {
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
  | 'registerVehicle'
  | 'quote'
  | 'pay'
  | 'status'
  | 'policy'
  | 'renewal'
  | 'tell'
  | 'certificate';

/** Context of motor-quote: answers typed so far, ids from the API, the payment in flight. */
export interface MotorQuoteContext extends FlowContextBase {
  tries: number;
  today: string;
  callerPhone: string | null;
  /** Who is asking: a plate's car and cover are shown only to the phone on record for them. */
  principal: Principal;
  /** The plate typed is another holder's: set from the plate step, shown instead of its details. */
  elsewhere?: { canTell: boolean; told: boolean } | undefined;
  route: TurnRoute | null;
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
  };
  vehicle: FoundVehicle | null;
  holder: Holder | null;
  holderLookup: 'phone' | 'nrc';
  quote: MotorQuote | null;
  policy: (MotorPolicyFound & { renewal?: RenewalQuote }) | null;
  pay: PayState | null;
  policyNumber: string | null;
  /** The period of the policy paid for, once known. */
  period: { startDate: string; endDate: string } | null;
  certificateUrl: string | null;
  remindersNotice: boolean;
  failure: (Failure & { op: Op }) | null;
}

const PAGE_SIZE = 5;

const motor = setup({
  types: {
    context: {} as MotorQuoteContext,
    events: {} as Reply,
    input: {} as FlowStartInput,
    output: {} as FlowOutput,
  },
  actors: {
    listProducts: notProvided<MotorProductPage, { page: number; pageSize: number }>('listProducts'),
    findVehicle: notProvided<
      FoundVehicle | HeldElsewhere | null,
      { plate: string; principal: Principal }
    >('findVehicle'),
    listRiskCategories: notProvided<RiskCategory[], Record<string, never>>('listRiskCategories'),
    priceMotor: notProvided<
      PricingOption[],
      { productId: string; riskCategoryId: string; sumInsured?: number; startDate: string }
    >('priceMotor'),
    findHolder: notProvided<Holder | null, { phone?: string; nrc?: string; principal: Principal }>(
      'findHolder',
    ),
    registerHolder: notProvided<
      Holder,
      { firstName: string; lastName: string; phone: string; email: string; nrc: string }
    >('registerHolder'),
    registerVehicle: notProvided<{ vehicleId: string }, NewVehicle>('registerVehicle'),
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
    startPayment: notProvided<PaymentStarted, PaymentRequest>('startPayment'),
    paymentStatus: notProvided<PaymentStarted, { reference: string; route?: TurnRoute }>(
      'paymentStatus',
    ),
    findPolicy: notProvided<
      MotorPolicyFound | HeldElsewhere | null,
      { plate: string; principal: Principal }
    >('findPolicy'),
    tellHolder: notProvided<{ told: boolean }, { plate: string; mode: 'new' | 'renew' }>(
      'tellHolder',
    ),
    renewalPremiums: notProvided<RenewalQuote, { policyId: string }>('renewalPremiums'),
    motorCertificate: notProvided<MotorCertificate, MotorCertificateInput>('motorCertificate'),
  },
  actions: {
    unexpected: assign(({ context }) => unexpected(context)),
    payConfirmScreen: assign({ tries: 0, prompt: ({ context }) => confirmPrompt(context) }),
    payChoose: assign({ pay: ({ context, event }) => chosenFrom(context, event) }),
    payAnswered: assign({
      pay: ({ context, event }) => answered(context.pay, outputOf(event)),
    }),
    paySettled: assign({ pay: ({ context, event }) => settled(context.pay, event) }),
    payAgain: assign({ pay: ({ context }) => again(context.pay) }),
    payPhoneScreen: assign({ tries: 0, prompt: ({ context }) => paymentPhonePrompt(context.pay) }),
    payWaitScreen: assign({ tries: 0, prompt: ({ context }) => paymentWaitPrompt(context.pay) }),
    payFailedScreen: assign({
      tries: 0,
      prompt: ({ context }) => paymentFailedPrompt(context.pay),
    }),
    payStartFailed: assign({
      failure: ({ event }) => failedAt('pay')({ event: errorOf(event) }),
    }),
    payCheckFailed: assign({
      failure: ({ event }) => failedAt('status')({ event: errorOf(event) }),
    }),
    payPhoneRejected: assign(({ context, event }) =>
      rejected(
        context,
        event.type === 'user.text' ? checkPhoneReason(event.text) : 'flow.note.typeAnswer',
      ),
    ),
  },
  guards: {
    ...PAYMENT_GUARDS,
    listedProduct: ({ context, event }) =>
      event.type === 'user.choice' && context.products.some((p) => p.id === event.id),
    listedCategory: ({ context, event }) =>
      event.type === 'user.choice' && context.categories.some((c) => c.id === event.id),
    listedOption: ({ context, event }) =>
      event.type === 'user.choice' && context.options.some((o) => String(o.duration) === event.id),
    moreProducts: ({ context, event }) => isChoice('more')({ event }) && context.hasMore,
    needsSumInsured: ({ context }) =>
      context.products.find((p) => p.id === context.answers.productId)?.needsSumInsured === true,
    vehicleHasCategory: ({ context }) => context.vehicle?.riskCategoryId !== undefined,
    hasVehicleId: ({ context }) => context.vehicle !== null,
    isRenewal: ({ context }) => context.mode === 'renew',
  },
});

type TextField =
  | 'plate'
  | 'make'
  | 'model'
  | 'year'
  | 'chassis'
  | 'engine'
  | 'sumInsured'
  | 'holderPhone'
  | 'holderNrc'
  | 'firstName'
  | 'lastName'
  | 'email';

// One typed question: a valid answer is kept and moves on; a bad one re-asks with the reason and
// keeps every earlier answer; the third bad one ends politely.
const askText = (
  key: string,
  input: 'text' | 'nrc' | 'phone' | 'amount',
  field: TextField,
  check: (text: string, context: MotorQuoteContext) => Checked<string>,
  target: string,
  back: string,
) =>
  motor.createStateConfig({
    tags: 'awaitingInput',
    entry: motor.assign({ tries: 0, prompt: ask(key, input) }),
    on: {
      'user.text': [
        {
          guard: ({ context, event }) =>
            event.type === 'user.text' && check(event.text, context).ok,
          target,
          actions: motor.assign(({ context, event }) => {
            assertEvent(event, 'user.text');
            const checked = check(event.text, context);
            return checked.ok ? { answers: { ...context.answers, [field]: checked.value } } : {};
          }),
        },
        {
          actions: motor.assign(({ context, event }) => {
            assertEvent(event, 'user.text');
            const checked = check(event.text, context);
            return rejected(context, checked.ok ? 'flow.note.typeAnswer' : checked);
          }),
        },
      ],
      'user.back': back,
    },
  });

const asString = <T>(checked: Checked<T>): Checked<string> =>
  checked.ok ? { ok: true, value: String(checked.value) } : checked;

/** Where Retry goes after each failed call: the call again. */
const RETRY: Record<Op, string> = {
  products: 'loadingProducts',
  vehicle: 'findingVehicle',
  categories: 'loadingCategories',
  pricing: 'pricing',
  holder: 'findingHolder',
  register: 'registeringHolder',
  registerVehicle: 'registeringVehicle',
  quote: 'quoting',
  pay: 'paying',
  status: 'checkingPayment',
  policy: 'findingPolicy',
  renewal: 'loadingRenewal',
  tell: 'tellingHolder',
  certificate: 'loadingCertificate',
};

/** Where Back goes after each failed call: the question before it. */
const BACK: Record<Op, string> = {
  products: 'mode',
  vehicle: 'askPlate',
  categories: 'askYear',
  pricing: 'pickProduct',
  holder: 'askHolderPhone',
  register: 'askEmail',
  registerVehicle: 'askHolderPhone',
  quote: 'pickDuration',
  pay: 'pickPayment',
  status: 'awaitingPayment',
  policy: 'askRenewPlate',
  renewal: 'askRenewPlate',
  tell: 'noPolicy',
  certificate: 'loadingCertificate',
};

const OPS = Object.keys(RETRY) as Op[];

/**
 * The question that asked for each field the insurer may refuse: "Change my answer" goes straight
 * to it, so the user fixes the plate or the chassis number instead of walking back screen by
 * screen. Renewals ask only for the plate, so their refusals keep {@link BACK}.
 */
const QUESTION_OF: RefusedQuestions = {
  registrationNumber: 'askPlate',
  vehicleId: 'askPlate',
  make: 'askMake',
  model: 'askModel',
  yearOfManufacture: 'askYear',
  chassisNumber: 'askChassis',
  engineNumber: 'askEngine',
  sumInsured: 'askSumInsured',
  idNumber: 'askHolderNrc',
  nrcNumber: 'askHolderNrc',
  firstName: 'askFirstName',
  lastName: 'askLastName',
  email: 'askEmail',
};

/** Back from a failure: to the question whose answer the insurer refused, when it said which. */
const BACK_TO_QUESTION = toRefusedQuestion<MotorQuoteContext>(
  QUESTION_OF,
  (context) => context.mode !== 'renew',
);

function checkPhoneReason(text: string) {
  const checked = checkPhone(text);
  return checked.ok ? 'flow.note.typeAnswer' : checked;
}

/** What is bought, in the user's words: the cover and the vehicle. */
function purchaseOf(context: MotorQuoteContext): string {
  const product = context.products.find((p) => p.id === context.answers.productId)?.name;
  const plate = context.answers.plate ?? '';
  // A renewal opened from the menu or a reminder never asked for the plate.
  return context.mode === 'renew'
    ? `renewal of ${context.policy?.policyNumber ?? ''}${plate ? ` (${plate})` : ''}`
    : `${product ?? 'Motor cover'} for ${plate}`;
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
  return ask(renewal ? 'motor.confirmRenewal' : 'motor.confirmQuote', 'choice', {
    params: renewal
      ? {
          policyNumber: context.policy?.policyNumber ?? '',
          amount: money(due.amount),
          currency: due.currency,
          startDate: context.policy?.renewal?.startDate ?? '',
          endDate: context.policy?.renewal?.endDate ?? '',
        }
      : {
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
 * Motor cover end to end: product → vehicle → sum insured → duration → policyholder → quotation →
 * payment → policy number and certificate; or renewal of a policy found by its plate.
 */
export const motorQuoteMachine = motor.createMachine({
  id: 'motor-quote',
  context: ({ input }) => ({
    prompt: ask('motor.mode', 'choice'),
    tries: 0,
    today: input.today,
    callerPhone: input.callerPhone ?? null,
    principal: input.principal,
    route: input.route ?? null,
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
  on: UNEXPECTED_REPLIES,
  states: {
    // Handed over from the menu's "Renew MTR-…" (or a reminder's Renew now): straight to its price.
    opening: {
      always: [
        {
          guard: ({ context }) => context.mode === 'renew' && context.policy !== null,
          target: 'loadingRenewal',
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
            guard: isChoice('new'),
            target: 'loadingProducts',
            actions: assign({ mode: 'new', page: 1 }),
          },
          {
            guard: isChoice('renew'),
            target: 'askRenewPlate',
            // A renewal needs no product list: the snapshot stays small with the principal in it.
            actions: assign({ mode: 'renew', products: [], hasMore: false }),
          },
        ],
        'user.back': 'mainMenu',
      },
    },

    // ---------------------------------------------------------------- product
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
        onError: { target: 'failed', actions: assign({ failure: failedAt('products') }) },
      },
    },
    pickProduct: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ({ context }) => {
          const choices: Choice[] = context.products.map((p) => dataChoice(p.id, p.name));
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
            target: 'askPlate',
            actions: assign({
              answers: ({ context, event }) => ({ ...context.answers, productId: event.id }),
            }),
          },
          {
            guard: 'moreProducts',
            target: 'loadingProducts',
            actions: assign({ page: ({ context }) => context.page + 1 }),
          },
          { guard: isChoice('back'), target: 'mode' },
        ],
        'user.back': [
          {
            guard: ({ context }) => context.page > 1,
            target: 'loadingProducts',
            actions: assign({ page: ({ context }) => context.page - 1 }),
          },
          { target: 'mode' },
        ],
      },
    },

    // ---------------------------------------------------------------- vehicle
    askPlate: askText(
      'motor.askPlate',
      'text',
      'plate',
      (t) => checkPlate(t),
      'findingVehicle',
      'pickProduct',
    ),
    findingVehicle: {
      invoke: {
        src: 'findVehicle',
        input: ({ context }) => ({
          plate: context.answers.plate ?? '',
          principal: context.principal,
        }),
        onDone: [
          {
            guard: ({ event }) => isElsewhere(event.output),
            target: 'noPolicy',
            actions: assign({
              vehicle: null,
              elsewhere: ({ event }) => ({
                canTell: isElsewhere(event.output) && event.output.canTell,
                told: false,
              }),
            }),
          },
          {
            guard: ({ event }) => event.output !== null,
            target: 'confirmVehicle',
            actions: assign({
              vehicle: ({ event }) => (isElsewhere(event.output) ? null : event.output),
            }),
          },
          { target: 'askMake', actions: assign({ vehicle: null }) },
        ],
        onError: { target: 'failed', actions: assign({ failure: failedAt('vehicle') }) },
      },
    },
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
          {
            guard: ({ context, event }) =>
              isChoice('yes')({ event }) && context.vehicle?.riskCategoryId !== undefined,
            target: 'afterVehicle',
            actions: assign({
              answers: ({ context }) => ({
                ...context.answers,
                riskCategoryId: context.vehicle?.riskCategoryId ?? '',
              }),
            }),
          },
          { guard: isChoice('yes'), target: 'loadingCategories' },
          { guard: isChoice('no'), target: 'askPlate', actions: assign({ vehicle: null }) },
        ],
        'user.back': { target: 'askPlate', actions: assign({ vehicle: null }) },
      },
    },
    askMake: askText(
      'motor.askMake',
      'text',
      'make',
      (t) => checkWords(t, FIELD_LENGTHS.make),
      'askModel',
      'askPlate',
    ),
    askModel: askText(
      'motor.askModel',
      'text',
      'model',
      (t) => checkWords(t, FIELD_LENGTHS.model),
      'askYear',
      'askMake',
    ),
    askYear: askText(
      'motor.askYear',
      'text',
      'year',
      (t, c) => asString(checkYear(t, c.today)),
      'loadingCategories',
      'askModel',
    ),
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
        onError: { target: 'failed', actions: assign({ failure: failedAt('categories') }) },
      },
    },
    pickCategory: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ({ context }) =>
          ask('motor.pickCategory', 'choice', {
            choices: context.categories.map((c) => dataChoice(c.id, c.name)),
          }),
      }),
      on: {
        'user.choice': [
          {
            guard: ({ context, event }) =>
              event.type === 'user.choice' &&
              context.vehicle !== null &&
              context.categories.some((c) => c.id === event.id),
            target: 'afterVehicle',
            actions: assign({
              answers: ({ context, event }) => ({ ...context.answers, riskCategoryId: event.id }),
            }),
          },
          {
            guard: 'listedCategory',
            target: 'askChassis',
            actions: assign({
              answers: ({ context, event }) => ({ ...context.answers, riskCategoryId: event.id }),
            }),
          },
        ],
        'user.back': [{ guard: 'hasVehicleId', target: 'confirmVehicle' }, { target: 'askYear' }],
      },
    },
    askChassis: askText(
      'motor.askChassis',
      'text',
      'chassis',
      (t) => checkIdentifier(t, FIELD_LENGTHS.chassisNumber),
      'askEngine',
      'pickCategory',
    ),
    askEngine: askText(
      'motor.askEngine',
      'text',
      'engine',
      (t) => checkIdentifier(t, FIELD_LENGTHS.engineNumber),
      'afterVehicle',
      'askChassis',
    ),
    afterVehicle: {
      always: [{ guard: 'needsSumInsured', target: 'askSumInsured' }, { target: 'pricing' }],
    },
    askSumInsured: askText(
      'motor.askSumInsured',
      'amount',
      'sumInsured',
      (t) => asString(checkAmount(t)),
      'pricing',
      'askPlate',
    ),

    // ---------------------------------------------------------------- pricing
    pricing: {
      invoke: {
        src: 'priceMotor',
        input: ({ context }) => ({
          productId: context.answers.productId ?? '',
          riskCategoryId: context.answers.riskCategoryId ?? '',
          startDate: context.today,
          ...(context.answers.sumInsured ? { sumInsured: Number(context.answers.sumInsured) } : {}),
        }),
        onDone: {
          target: 'pickDuration',
          actions: assign({ options: ({ event }) => event.output.slice(0, 6) }),
        },
        onError: { target: 'failed', actions: assign({ failure: failedAt('pricing') }) },
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
            guard: 'listedOption',
            target: 'askHolderPhone',
            actions: assign({
              answers: ({ context, event }) => ({ ...context.answers, duration: Number(event.id) }),
            }),
          },
          { guard: isChoice('back'), target: 'askPlate' },
        ],
        'user.back': 'askPlate',
      },
    },

    // ---------------------------------------------------------------- policyholder
    askHolderPhone: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ({ context }) =>
          ask('motor.askHolderPhone', 'phone', {
            ...(context.callerPhone ? { choices: [choice('own', 'pay.choice.ownNumber')] } : {}),
          }),
      }),
      on: {
        'user.choice': {
          guard: 'payOwnNumber',
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
          guard: ({ event }) => checkPhone(event.phone).ok,
          target: 'findingHolder',
          actions: assign({
            holderLookup: 'phone',
            answers: ({ context, event }) => {
              const phone = checkPhone(event.phone);
              return phone.ok ? { ...context.answers, holderPhone: phone.value } : context.answers;
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
            guard: passes(checkPhone),
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
          { actions: assign(rejectedBy(checkPhone)) },
        ],
        'user.back': 'pickDuration',
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
            guard: ({ event }) => event.output !== null,
            target: 'confirmHolder',
            actions: assign({ holder: ({ event }) => event.output }),
          },
          {
            guard: ({ context }) => context.holderLookup === 'phone',
            target: 'askHolderNrc',
            actions: assign({ holder: null }),
          },
          { target: 'askFirstName', actions: assign({ holder: null }) },
        ],
        onError: { target: 'failed', actions: assign({ failure: failedAt('holder') }) },
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
          { guard: isChoice('yes'), target: 'registeringVehicle' },
          { guard: isChoice('no'), target: 'askHolderPhone', actions: assign({ holder: null }) },
        ],
        'user.back': { target: 'askHolderPhone', actions: assign({ holder: null }) },
      },
    },
    askHolderNrc: {
      ...askText(
        'motor.askHolderNrc',
        'nrc',
        'holderNrc',
        (t) => checkNrc(t),
        'findingHolder',
        'askHolderPhone',
      ),
      exit: assign({ holderLookup: 'nrc' }),
    },
    askFirstName: askText(
      'motor.askFirstName',
      'text',
      'firstName',
      (t) => checkName(t, FIELD_LENGTHS.firstName),
      'askLastName',
      'askHolderNrc',
    ),
    askLastName: askText(
      'motor.askLastName',
      'text',
      'lastName',
      (t) => checkName(t, FIELD_LENGTHS.lastName),
      'askEmail',
      'askFirstName',
    ),
    askEmail: askText(
      'motor.askEmail',
      'text',
      'email',
      (t) => checkEmail(t),
      'registeringHolder',
      'askLastName',
    ),
    registeringHolder: {
      invoke: {
        src: 'registerHolder',
        input: ({ context }) => ({
          firstName: context.answers.firstName ?? '',
          lastName: context.answers.lastName ?? '',
          phone: context.answers.holderPhone ?? '',
          email: context.answers.email ?? '',
          nrc: context.answers.holderNrc ?? '',
        }),
        onDone: {
          target: 'registeringVehicle',
          actions: assign({ holder: ({ event }) => event.output }),
        },
        onError: { target: 'failed', actions: assign({ failure: failedAt('register') }) },
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
        onDone: {
          target: 'quoting',
          actions: assign({
            vehicle: ({ context, event }) => ({
              vehicleId: event.output.vehicleId,
              riskCategoryId: context.answers.riskCategoryId ?? '',
              description: `${context.answers.make ?? ''} ${context.answers.model ?? ''}`.trim(),
            }),
          }),
        },
        onError: { target: 'failed', actions: assign({ failure: failedAt('registerVehicle') }) },
      },
    },

    // ---------------------------------------------------------------- quotation
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
          ...(context.answers.sumInsured ? { sumInsured: Number(context.answers.sumInsured) } : {}),
        }),
        onDone: {
          target: 'pickPayment',
          actions: assign(({ context, event }) => ({
            quote: event.output,
            pay: newPayment(
              { kind: 'quote', quoteId: event.output.quoteId },
              event.output.purchase,
              purchaseOf(context),
              event.output.premium,
              event.output.currency,
            ),
          })),
        },
        onError: { target: 'failed', actions: assign({ failure: failedAt('quote') }) },
      },
    },

    // ---------------------------------------------------------------- renewal
    askRenewPlate: askText(
      'motor.askRenewPlate',
      'text',
      'plate',
      (t) => checkPlate(t),
      'findingPolicy',
      'mode',
    ),
    findingPolicy: {
      invoke: {
        src: 'findPolicy',
        input: ({ context }) => ({
          plate: context.answers.plate ?? '',
          principal: context.principal,
        }),
        onDone: [
          {
            guard: ({ event }) => isElsewhere(event.output),
            target: 'noPolicy',
            actions: assign({
              elsewhere: ({ event }) => ({
                canTell: isElsewhere(event.output) && event.output.canTell,
                told: false,
              }),
            }),
          },
          {
            guard: ({ event }) => event.output !== null,
            target: 'loadingRenewal',
            actions: assign({
              elsewhere: undefined,
              policy: ({ event }) =>
                event.output === null || isElsewhere(event.output) ? null : event.output,
            }),
          },
          { target: 'noPolicy', actions: assign({ elsewhere: undefined }) },
        ],
        onError: { target: 'failed', actions: assign({ failure: failedAt('policy') }) },
      },
    },
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
          guard: ({ context, event }) =>
            context.elsewhere !== undefined &&
            context.principal.kind === 'nobody' &&
            checkPhone(event.phone).ok,
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
            guard: ({ context, event }) =>
              isChoice('tell')({ event }) &&
              context.elsewhere?.canTell === true &&
              !context.elsewhere.told,
            target: 'tellingHolder',
          },
          {
            guard: ({ context, event }) => isChoice('again')({ event }) && context.mode === 'new',
            target: 'askPlate',
            actions: assign({ elsewhere: undefined }),
          },
          {
            guard: isChoice('again'),
            target: 'askRenewPlate',
            actions: assign({ elsewhere: undefined }),
          },
          {
            guard: isChoice('new'),
            target: 'loadingProducts',
            actions: assign({ mode: 'new', page: 1 }),
          },
          { guard: isChoice('end'), target: 'cancelled' },
        ],
        'user.back': [
          {
            guard: ({ context }) => context.mode === 'new',
            target: 'askPlate',
            actions: assign({ elsewhere: undefined }),
          },
          { target: 'askRenewPlate', actions: assign({ elsewhere: undefined }) },
        ],
      },
    },
    // The plate looked up again for the phone just shared.
    plateAgain: {
      always: [
        { guard: ({ context }) => context.mode === 'new', target: 'findingVehicle' },
        { target: 'findingPolicy' },
      ],
    },
    tellingHolder: {
      invoke: {
        src: 'tellHolder',
        input: ({ context }) => ({ plate: context.answers.plate ?? '', mode: context.mode }),
        onDone: {
          target: 'noPolicy',
          actions: assign({
            elsewhere: ({ context }) =>
              context.elsewhere ? { ...context.elsewhere, told: true } : undefined,
          }),
        },
        onError: { target: 'failed', actions: assign({ failure: failedAt('tell') }) },
      },
    },
    loadingRenewal: {
      invoke: {
        src: 'renewalPremiums',
        input: ({ context }) => ({ policyId: context.policy?.policyId ?? '' }),
        onDone: {
          target: 'pickPayment',
          actions: assign(({ context, event }) => ({
            policy: context.policy ? { ...context.policy, renewal: event.output } : null,
            pay: newPayment(
              { kind: 'renewal', policyId: context.policy?.policyId ?? '' },
              event.output.purchase,
              purchaseOf(context),
              event.output.gross,
              event.output.currency,
            ),
          })),
        },
        onError: { target: 'failed', actions: assign({ failure: failedAt('renewal') }) },
      },
    },

    // ---------------------------------------------------------------- payment
    ...paymentStates({
      back: 'paymentBack',
      paid: 'loadingCertificate',
      failed: 'failed',
      cancelled: 'cancelled',
    }),
    paymentBack: {
      always: [{ guard: 'isRenewal', target: 'askRenewPlate' }, { target: 'pickDuration' }],
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
        onError: { target: 'failed', actions: assign({ failure: failedAt('certificate') }) },
      },
    },

    failed: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: failureScreen,
      }),
      on: {
        'user.choice': [
          ...OPS.map((op) => ({
            guard: ({ context, event }: { context: MotorQuoteContext; event: Reply }) =>
              isChoice('retry')({ event }) && context.failure?.op === op,
            target: RETRY[op],
          })),
          ...BACK_TO_QUESTION.choice,
          ...OPS.map((op) => ({
            guard: ({ context, event }: { context: MotorQuoteContext; event: Reply }) =>
              isChoice('back')({ event }) && context.failure?.op === op,
            target: BACK[op],
          })),
          { guard: isChoice('end'), target: 'cancelled' },
        ],
        'user.back': [
          ...BACK_TO_QUESTION.back,
          ...OPS.map((op) => ({
            guard: ({ context }: { context: MotorQuoteContext }) => context.failure?.op === op,
            target: BACK[op],
          })),
          { target: 'mode' },
        ],
      },
    },
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

/** Motor cover and renewal as the engine registers them. */
export const motorQuoteFlow: FlowDefinition<typeof motorQuoteMachine> = {
  id: 'motor-quote',
  version: 4,
  machine: motorQuoteMachine,
};
