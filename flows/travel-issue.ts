import { assertEvent, assign, setup } from 'xstate';
import { FIELD_LENGTHS } from '../src/api/index.js';
import type {
  FlowContextBase,
  FlowDefinition,
  FlowOutput,
  FlowStartInput,
  TurnRoute,
} from '../src/conversation/flow.js';
import type { Choice } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { checkFutureDate, checkName, checkNrc, checkPhone, checkWords } from './checks.js';
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
  rejected,
  TO_MAIN_MENU,
  toRefusedQuestion,
  UNEXPECTED_REPLIES,
  unexpected,
} from './support.js';

/** A travel package offered for sale. */
export interface TravelPackage {
  id: string;
  name: string;
}

/** The policy paid for (by id, or by its payment's reference) and who holds it. */
export interface TravelCertificateInput {
  policyId?: string;
  reference?: string;
  /** Recorded in the holdings index: My cover shows the policy at once. */
  holder?: { phone: string; nrc: string };
}

/** A traveller besides the policyholder. */
export interface Traveller {
  name: string;
  relationship: 'spouse' | 'child' | 'parent' | 'other';
}

/** What is priced: the trip and the party, for one package. */
export interface TravelQuoteRequest {
  packageId: string;
  destination: string;
  startDate: string;
  endDate: string;
  holder: { name: string; nrc: string; phone: string };
  travellers: Traveller[];
}

/** A package priced for the trip and the party: the insurer's quotation. */
export interface TravelQuote {
  packageId: string;
  quoteId: string;
  premium: number;
  currency: string;
  /** Unique per purchase (the quote and a key made when it was priced): names its payments. */
  purchase: string;
}

/** The paid policy as issued (number and dates are known only once paid) and its certificate. */
export interface TravelCertificate {
  policyId?: string;
  policyNumber?: string;
  startDate?: string;
  endDate?: string;
  url?: string;
}

/** Context of travel-issue. */
export interface TravelIssueContext extends FlowContextBase {
  tries: number;
  today: string;
  callerPhone: string | null;
  route: TurnRoute | null;
  packages: TravelPackage[];
  /** Every package priced for this trip and party, shown before the traveller chooses. */
  quotes: TravelQuote[];
  answers: {
    packageId?: string;
    destination?: string;
    startDate?: string;
    days?: string;
    name?: string;
    nrc?: string;
    travellers?: Traveller[];
    travellerName?: string;
  };
  pay: PayState | null;
  policy: TravelCertificate | null;
  certificateUrl: string | null;
  failure: (Failure & { op: 'packages' | 'quote' | 'pay' | 'status' }) | null;
}

/** How long a trip may be, in days. */
const MAX_DAYS = 180;

/** Trip length in days: a whole number from 1 to {@link MAX_DAYS}. */
export function checkDays(text: string): Checked<string> {
  const days = Number(text.trim());
  return Number.isInteger(days) && days >= 1 && days <= MAX_DAYS
    ? { ok: true, value: String(days) }
    : { ok: false, reason: 'travel.note.badDays', params: { max: MAX_DAYS } };
}

/** The last day of a trip of `days` days from `startDate` (YYYY-MM-DD). */
export function tripEnd(startDate: string, days: number): string {
  const end = new Date(`${startDate}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + days - 1);
  return end.toISOString().slice(0, 10);
}

const MAX_TRAVELLERS = 4;
const MAX_PACKAGES = 6;

/**
 * The question that asked for each field of a quotation the insurer may refuse. A traveller's
 * name is not listed: the quote's own Back goes to the list of travellers.
 */
const BACK_TO_QUESTION = toRefusedQuestion<TravelIssueContext>({
  destination: 'askDestination',
  startDate: 'askStartDate',
  endDate: 'askDays',
  name: 'askName',
  idNumber: 'askNrc',
  nrcNumber: 'askNrc',
});
const RELATIONSHIPS: readonly Traveller['relationship'][] = ['spouse', 'child', 'parent', 'other'];

/** A full name: at least two words, each a name. */
export function checkFullName(text: string): Checked<string> {
  const name = checkName(text, FIELD_LENGTHS.firstName);
  if (!name.ok) return name;
  return name.value.includes(' ') ? name : { ok: false, reason: 'flow.note.fullName' };
}

function quoteRequests(context: TravelIssueContext): TravelQuoteRequest[] {
  const a = context.answers;
  const startDate = a.startDate ?? '';
  return context.packages.map((p) => ({
    packageId: p.id,
    destination: a.destination ?? '',
    startDate,
    endDate: tripEnd(startDate, Number(a.days ?? 1)),
    holder: { name: a.name ?? '', nrc: a.nrc ?? '', phone: context.callerPhone ?? '' },
    travellers: a.travellers ?? [],
  }));
}

/** What is bought, in the traveller's words: the package, where, and for how many. */
function tripOf(context: TravelIssueContext, packageId: string): string {
  const name = context.packages.find((p) => p.id === packageId)?.name ?? 'Travel cover';
  return `${name} to ${context.answers.destination ?? ''}`;
}

function checkPhoneReason(text: string) {
  const checked = checkPhone(text);
  return checked.ok ? 'flow.note.typeAnswer' : checked;
}

const travel = setup({
  types: {
    context: {} as TravelIssueContext,
    events: {} as Reply,
    input: {} as FlowStartInput,
    output: {} as FlowOutput,
  },
  actors: {
    listPackages: notProvided<TravelPackage[], Record<string, never>>('listPackages'),
    quoteTravel: notProvided<TravelQuote[], { requests: TravelQuoteRequest[] }>('quoteTravel'),
    startPayment: notProvided<PaymentStarted, PaymentRequest>('startPayment'),
    paymentStatus: notProvided<PaymentStarted, { reference: string; route?: TurnRoute }>(
      'paymentStatus',
    ),
    travelCertificate: notProvided<TravelCertificate, TravelCertificateInput>('travelCertificate'),
  },
  actions: {
    unexpected: assign(({ context }) => unexpected(context)),
    payConfirmScreen: assign({
      tries: 0,
      prompt: ({ context }) =>
        ask('travel.confirmQuote', 'choice', {
          params: {
            what: context.pay?.what ?? '',
            amount: money(context.pay?.amount ?? 0),
            currency: context.pay?.currency ?? '',
            travellers: (context.answers.travellers?.length ?? 0) + 1,
            startDate: context.answers.startDate ?? '',
            endDate: tripEnd(context.answers.startDate ?? '', Number(context.answers.days ?? 1)),
          },
          choices: paymentChoices(context),
        }),
    }),
    payChoose: assign({ pay: ({ context, event }) => chosenFrom(context, event) }),
    payAnswered: assign({ pay: ({ context, event }) => answered(context.pay, outputOf(event)) }),
    paySettled: assign({ pay: ({ context, event }) => settled(context.pay, event) }),
    payAgain: assign({ pay: ({ context }) => again(context.pay) }),
    payPhoneScreen: assign({ tries: 0, prompt: ({ context }) => paymentPhonePrompt(context.pay) }),
    payWaitScreen: assign({ tries: 0, prompt: ({ context }) => paymentWaitPrompt(context.pay) }),
    payFailedScreen: assign({
      tries: 0,
      prompt: ({ context }) => paymentFailedPrompt(context.pay),
    }),
    payStartFailed: assign({ failure: ({ event }) => failedAt('pay')({ event: errorOf(event) }) }),
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
    listedPackage: ({ context, event }) =>
      event.type === 'user.choice' && context.quotes.some((q) => q.packageId === event.id),
    canAddTraveller: ({ context, event }) =>
      isChoice('add')({ event }) && (context.answers.travellers?.length ?? 0) < MAX_TRAVELLERS,
    pickedRelationship: ({ event }) =>
      event.type === 'user.choice' && RELATIONSHIPS.some((r) => r === event.id),
  },
});

type TextField = 'destination' | 'startDate' | 'days' | 'name' | 'nrc' | 'travellerName';

// One question answered by typing: a valid answer is kept and moves on; a bad one re-asks with
// the reason and keeps every earlier answer; the third bad one ends politely.
const askText = (
  key: string,
  input: 'text' | 'date' | 'nrc' | 'amount',
  field: TextField,
  check: (text: string, context: TravelIssueContext) => Checked<string>,
  target: string,
  back: string,
) =>
  travel.createStateConfig({
    tags: 'awaitingInput',
    entry: travel.assign({ tries: 0, prompt: ask(key, input) }),
    on: {
      'user.text': [
        {
          guard: ({ context, event }) =>
            event.type === 'user.text' && check(event.text, context).ok,
          target,
          actions: travel.assign(({ context, event }) => {
            assertEvent(event, 'user.text');
            const checked = check(event.text, context);
            return checked.ok ? { answers: { ...context.answers, [field]: checked.value } } : {};
          }),
        },
        {
          actions: travel.assign(({ context, event }) => {
            assertEvent(event, 'user.text');
            const checked = check(event.text, context);
            return rejected(context, checked.ok ? 'flow.note.typeAnswer' : checked);
          }),
        },
      ],
      'user.back': back,
    },
  });

/** Travel cover: package, destination, start date, travellers, payment, policy and certificate. */
export const travelIssueMachine = travel.createMachine({
  id: 'travel-issue',
  context: ({ input }) => ({
    prompt: ask('travel.loading', 'none'),
    tries: 0,
    today: input.today,
    callerPhone: input.callerPhone ?? null,
    route: input.route ?? null,
    packages: [],
    quotes: [],
    answers: {},
    pay: null,
    policy: null,
    certificateUrl: null,
    failure: null,
  }),
  initial: 'loadingPackages',
  on: UNEXPECTED_REPLIES,
  states: {
    loadingPackages: {
      invoke: {
        src: 'listPackages',
        input: () => ({}),
        onDone: [
          {
            guard: ({ event }) => event.output.length === 0,
            target: 'noPackages',
          },
          {
            target: 'askDestination',
            actions: assign({
              packages: ({ event }) =>
                event.output.slice(0, MAX_PACKAGES).map((p) => ({ id: p.id, name: p.name })),
            }),
          },
        ],
        onError: { target: 'failed', actions: assign({ failure: failedAt('packages') }) },
      },
    },
    noPackages: {
      type: 'final',
      entry: assign({ prompt: end('travel.noPackages') }),
    },
    quoting: {
      invoke: {
        src: 'quoteTravel',
        input: ({ context }) => ({ requests: quoteRequests(context) }),
        onDone: {
          target: 'pickPackage',
          actions: assign({ quotes: ({ event }) => event.output, failure: null }),
        },
        onError: { target: 'failed', actions: assign({ failure: failedAt('quote') }) },
      },
    },
    // Every package with its premium for this trip and party: the price comes first.
    pickPackage: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ({ context }) =>
          ask('travel.pickPackage', 'choice', {
            params: { travellers: (context.answers.travellers?.length ?? 0) + 1 },
            choices: context.quotes.map((q) =>
              dataChoice(
                q.packageId,
                `${context.packages.find((p) => p.id === q.packageId)?.name ?? q.packageId}: ${q.currency} ${money(q.premium)}`,
              ),
            ),
          }),
      }),
      on: {
        'user.choice': {
          guard: 'listedPackage',
          target: 'pickPayment',
          actions: assign(({ context, event }) => {
            const id = event.type === 'user.choice' ? event.id : '';
            const quote = context.quotes.find((q) => q.packageId === id);
            return {
              answers: { ...context.answers, packageId: id },
              pay: quote
                ? newPayment(
                    { kind: 'quote', quoteId: quote.quoteId },
                    quote.purchase,
                    tripOf(context, id),
                    quote.premium,
                    quote.currency,
                  )
                : null,
            };
          }),
        },
        'user.back': 'travellers',
      },
    },
    askDestination: askText(
      'travel.askDestination',
      'text',
      'destination',
      (t) => checkWords(t, FIELD_LENGTHS.destination),
      'askStartDate',
      'mainMenu',
    ),
    askStartDate: askText(
      'travel.askStartDate',
      'date',
      'startDate',
      (t, c) => checkFutureDate(t, c.today),
      'askDays',
      'askDestination',
    ),
    askDays: askText(
      'travel.askDays',
      'amount',
      'days',
      (t) => checkDays(t),
      'askName',
      'askStartDate',
    ),
    askName: askText(
      'travel.askName',
      'text',
      'name',
      (t) => checkFullName(t),
      'askNrc',
      'askDays',
    ),
    askNrc: askText('travel.askNrc', 'nrc', 'nrc', (t) => checkNrc(t), 'travellers', 'askName'),
    travellers: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ({ context }) => {
          const count = context.answers.travellers?.length ?? 0;
          const choices: Choice[] = [];
          if (count < MAX_TRAVELLERS) choices.push(choice('add', 'travel.choice.addTraveller'));
          choices.push(choice('continue', 'travel.choice.continue'));
          return ask('travel.travellers', 'choice', { params: { count: count + 1 }, choices });
        },
      }),
      on: {
        'user.choice': [
          { guard: 'canAddTraveller', target: 'askTravellerName' },
          { guard: isChoice('continue'), target: 'quoting' },
        ],
        'user.back': 'askNrc',
      },
    },
    askTravellerName: askText(
      'travel.askTravellerName',
      'text',
      'travellerName',
      (t) => checkFullName(t),
      'askRelationship',
      'travellers',
    ),
    askRelationship: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ask('travel.askRelationship', 'choice', {
          choices: RELATIONSHIPS.map((r) => choice(r, `travel.relationship.${r}`)),
        }),
      }),
      on: {
        'user.choice': {
          guard: 'pickedRelationship',
          target: 'travellers',
          actions: assign({
            answers: ({ context, event }) => {
              const relationship = RELATIONSHIPS.find((r) => r === event.id) ?? 'other';
              return {
                ...context.answers,
                travellers: [
                  ...(context.answers.travellers ?? []),
                  { name: context.answers.travellerName ?? '', relationship },
                ],
              };
            },
          }),
        },
        'user.back': 'askTravellerName',
      },
    },
    ...paymentStates({
      back: 'pickPackage',
      paid: 'loadingCertificate',
      failed: 'failed',
      cancelled: 'cancelled',
    }),
    loadingCertificate: {
      invoke: {
        src: 'travelCertificate',
        // The policy of what was paid for: named by the payment, never searched for.
        input: ({ context }) => ({
          ...(context.pay?.policyId ? { policyId: context.pay.policyId } : {}),
          ...(context.pay?.reference ? { reference: context.pay.reference } : {}),
          holder: { phone: context.callerPhone ?? '', nrc: context.answers.nrc ?? '' },
        }),
        onDone: {
          target: 'done',
          actions: assign({
            certificateUrl: ({ event }) => event.output.url ?? null,
            policy: ({ event }) => event.output,
          }),
        },
        // The policy is paid for: a missing certificate must not hide the policy number.
        onError: { target: 'done' },
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
          {
            guard: ({ context, event }) =>
              isChoice('retry')({ event }) && context.failure?.op === 'packages',
            target: 'loadingPackages',
          },
          {
            guard: ({ context, event }) =>
              isChoice('retry')({ event }) && context.failure?.op === 'quote',
            target: 'quoting',
          },
          {
            guard: ({ context, event }) =>
              isChoice('retry')({ event }) && context.failure?.op === 'pay',
            target: 'paying',
          },
          { guard: isChoice('retry'), target: 'checkingPayment' },
          ...BACK_TO_QUESTION.choice,
          { guard: isChoice('back'), target: 'failedBack' },
          { guard: isChoice('end'), target: 'cancelled' },
        ],
        'user.back': [...BACK_TO_QUESTION.back, { target: 'failedBack' }],
      },
    },
    failedBack: {
      always: [
        { guard: ({ context }) => context.failure?.op === 'status', target: 'awaitingPayment' },
        { guard: ({ context }) => context.failure?.op === 'pay', target: 'pickPayment' },
        { guard: ({ context }) => context.failure?.op === 'quote', target: 'travellers' },
        { target: 'cancelled' },
      ],
    },
    done: {
      type: 'final',
      entry: assign({
        prompt: ({ context }) =>
          end(
            'travel.done',
            {
              what: context.pay?.what ?? '',
              amount: money(context.pay?.amount ?? 0),
              currency: context.pay?.currency ?? '',
              policyNumber: context.policy?.policyNumber ?? context.pay?.policyNumber ?? '',
              startDate: context.policy?.startDate ?? context.answers.startDate ?? '',
              endDate: context.policy?.endDate ?? '',
            },
            context.certificateUrl
              ? [{ kind: 'document', url: context.certificateUrl, label: 'travel.certificate' }]
              : undefined,
          ),
      }),
    },
    cancelled: { type: 'final', entry: assign({ prompt: CANCELLED }) },
    mainMenu: { type: 'final', entry: assign({ prompt: TO_MAIN_MENU }) },
  },
  output: flowOutput,
});

/** Travel cover as the engine registers it. */
export const travelIssueFlow: FlowDefinition<typeof travelIssueMachine> = {
  id: 'travel-issue',
  version: 2,
  machine: travelIssueMachine,
};
