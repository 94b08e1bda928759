import { assign, setup } from 'xstate';
import { FIELD_LENGTHS } from '../src/api/index.js';
import type {
  FlowContextBase,
  FlowDefinition,
  FlowOutput,
  FlowStartInput,
  TurnRoute,
} from '../src/conversation/flow.js';
import { nestedMessage } from '../src/conversation/nested-message.js';
import type { Choice } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { type AnswerChecks, asked, askText, keptBy } from './ask-text.js';
import {
  checkCountry,
  checkFutureDate,
  checkNameParts,
  checkNrc,
  coversDestination,
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
  answeredGuard,
  ask,
  CANCELLED,
  type Checked,
  callFailureGuards,
  choice,
  chose,
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
  rejectedAnswer,
  replyGuards,
  stageFailure,
  TO_MAIN_MENU,
  toRefusedAnswer,
  unexpected,
} from './support.js';

/** A travel package offered for sale. */
export interface TravelPackage {
  id: string;
  name: string;
  /** Where it covers, in the insurer's word (`Africa`, `Worldwide`), when the product says. */
  region?: string;
}

/** The policy paid for (by id, or by its payment's reference) and who holds it. */
export interface TravelCertificateInput {
  policyId?: string;
  reference?: string;
  /** Recorded in the holdings index: My cover shows the policy at once. */
  holder?: { phone: string; nrc: string };
}

/** A traveller besides the policyholder. */
interface Traveller {
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
export interface TravelQuote extends PricedQuote {
  packageId: string;
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
interface TravelIssueContext extends FlowContextBase {
  tries: number;
  today: string;
  callerPhone: string | null;
  /** The phone "My number" pays from when there is no caller handset (see payPhoneOf). */
  payPhone?: string;
  /** Where the conversation is reached (for payment outcomes); absent when it has no address. */
  route?: TurnRoute | undefined;
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
  /** The payment of what is priced; absent while the payment child holds it. */
  pay?: PayState | null | undefined;
  /** Where the payment child starts: the confirm screen, or where the failure screen sends it. */
  payAt?: PaymentStep | undefined;
  policy: TravelCertificate | null;
  certificateUrl: string | null;
  failure: (Failure & { op: 'packages' | 'quote' | 'pay' | 'status' }) | null;
}

/** How long a trip may be, in days. */
const MAX_DAYS = 180;

/** Trip length in days: a whole number from 1 to {@link MAX_DAYS}. */
function checkDays(text: string): Checked<string> {
  const days = Number(text.trim());
  return Number.isInteger(days) && days >= 1 && days <= MAX_DAYS
    ? { ok: true, value: String(days) }
    : { ok: false, reason: 'travel.note.badDays', params: { max: MAX_DAYS } };
}

/** The last day of a trip of `days` days from `startDate` (YYYY-MM-DD). */
function tripEnd(startDate: string, days: number): string {
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
const QUESTION_OF: RefusedQuestions = {
  destination: '#travel-issue.trip.askDestination',
  startDate: '#travel-issue.trip.askStartDate',
  endDate: '#travel-issue.trip.askDays',
  name: '#travel-issue.holder.askName',
  idNumber: '#travel-issue.holder.askNrc',
  nrcNumber: '#travel-issue.holder.askNrc',
};
const RELATIONSHIPS: readonly Traveller['relationship'][] = ['spouse', 'child', 'parent', 'other'];

/** A full name: at least two words, each a name (checks' rule, kept as one answer). */
export function checkFullName(text: string): Checked<string> {
  const parts = checkNameParts(text, {
    first: FIELD_LENGTHS.firstName,
    last: FIELD_LENGTHS.lastName,
  });
  return parts.ok ? { ok: true, value: `${parts.value.firstName} ${parts.value.lastName}` } : parts;
}

/** What is priced for the trip answered: one request per package that covers its destination. */
export function quoteRequests(
  context: Pick<TravelIssueContext, 'answers' | 'packages' | 'callerPhone'>,
): TravelQuoteRequest[] {
  const a = context.answers;
  const startDate = a.startDate ?? '';
  // Only packages that cover the destination are priced and offered; were none to, every one is
  // (the insurer judges), rather than a list with nothing to pick.
  const covering = context.packages.filter((p) => coversDestination(p.region, a.destination ?? ''));
  return (covering.length > 0 ? covering : context.packages).map((p) => ({
    packageId: p.id,
    destination: a.destination ?? '',
    startDate,
    endDate: tripEnd(startDate, Number(a.days ?? 1)),
    holder: { name: a.name ?? '', nrc: a.nrc ?? '', phone: context.callerPhone ?? '' },
    travellers: a.travellers ?? [],
  }));
}

/**
 * What is bought: the package and where, as a message rendered in the caller's language
 * (`what.travel`), kept as the payment's item in no language.
 */
function tripOf(context: TravelIssueContext, packageId: string): string {
  const product = context.packages.find((p) => p.id === packageId)?.name;
  const destination = context.answers.destination ?? '';
  return product
    ? nestedMessage('what.travel', { product, destination })
    : nestedMessage('what.travelCover', { destination });
}

/** The screen that shows the trip and party for how much and asks how to pay. */
function confirmPrompt(context: TravelIssueContext) {
  return ask('travel.confirmQuote', 'choice', {
    params: {
      what: context.pay?.what ?? '',
      amount: money(context.pay?.amount ?? 0),
      currency: context.pay?.currency ?? '',
      travellers: (context.answers.travellers?.length ?? 0) + 1,
      startDate: context.answers.startDate ?? '',
      endDate: tripEnd(context.answers.startDate ?? '', Number(context.answers.days ?? 1)),
    },
    choices: paymentChoices(context),
  });
}

type TextField = 'destination' | 'startDate' | 'days' | 'name' | 'nrc' | 'travellerName';

/** The check of each answer typed to a question of {@link askText}. */
const CHECKS: AnswerChecks<TravelIssueContext, TextField> = {
  destination: (t) => checkCountry(t),
  startDate: (t, c) => checkFutureDate(t, c.today),
  days: (t) => checkDays(t),
  name: (t) => checkFullName(t),
  nrc: (t) => checkNrc(t),
  travellerName: (t) => checkFullName(t),
};

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
    paymentMachine,
    travelCertificate: notProvided<TravelCertificate, TravelCertificateInput>('travelCertificate'),
  },
  actions: {
    unexpected: assign(({ context }) => unexpected(context)),
    ask: assign(asked),
    keepAnswer: assign(keptBy(CHECKS)),
    rejectAnswer: assign(rejectedAnswer(CHECKS)),
    showFailure: assign({ tries: 0, prompt: failureScreen }),
    ...paymentActions<TravelIssueContext, Reply>(confirmPrompt),
  },
  guards: {
    ...replyGuards,
    ...callFailureGuards,
    ...failureGuards,
    answered: answeredGuard(CHECKS),
    ...PAYMENT_GUARDS,
    listedPackage: ({ context, event }) =>
      event.type === 'user.choice' && context.quotes.some((q) => q.packageId === event.id),
    canAddTraveller: ({ context, event }) =>
      replyGuards.chose({ event }, { id: 'add' }) &&
      (context.answers.travellers?.length ?? 0) < MAX_TRAVELLERS,
    noneListed: ({ event }) =>
      'output' in event && Array.isArray(event.output) && event.output.length === 0,
    refusedAnswer: ({ context }) => refusedQuestion(QUESTION_OF, context.failure) !== undefined,
    pickedRelationship: ({ event }) =>
      event.type === 'user.choice' && RELATIONSHIPS.some((r) => r === event.id),
  },
});

/** A failed call `op`: the failure screen of the stage that made it, or `target` outside one. */
const failedCall = (op: NonNullable<TravelIssueContext['failure']>['op'], target = 'failed') =>
  failedCallTo<TravelIssueContext, Reply>(target)(op);

/** Travel cover: package, destination, start date, travellers, payment, policy and certificate. */
export const travelIssueMachine = travel.createMachine({
  id: 'travel-issue',
  context: ({ input }) => ({
    prompt: ask('travel.loading', 'none'),
    tries: 0,
    today: input.today,
    callerPhone: input.callerPhone ?? null,
    // A chat's vouched phone (a WhatsApp sender) pays in one tap too.
    ...payPhoneOf(input),
    ...(input.route ? { route: input.route } : {}),
    packages: [],
    quotes: [],
    answers: {},
    pay: null,
    policy: null,
    certificateUrl: null,
    failure: null,
  }),
  initial: 'loadingPackages',
  on: ENDING_REPLIES,
  states: {
    loadingPackages: {
      invoke: {
        src: 'listPackages',
        input: () => ({}),
        onDone: [
          {
            guard: 'noneListed',
            target: 'noPackages',
          },
          {
            target: 'trip',
            actions: assign({
              packages: ({ event }) =>
                event.output.slice(0, MAX_PACKAGES).map((p) => ({ id: p.id, name: p.name })),
            }),
          },
        ],
        onError: failedCall('packages', 'packagesFailed'),
      },
    },
    noPackages: {
      type: 'final',
      entry: assign({ prompt: end('travel.noPackages') }),
    },
    pricing: {
      initial: 'quoting',
      states: {
        quoting: {
          invoke: {
            src: 'quoteTravel',
            input: ({ context }) => ({ requests: quoteRequests(context) }),
            onDone: {
              target: 'pickPackage',
              actions: assign({ quotes: ({ event }) => event.output, failure: null }),
            },
            onError: failedCall('quote'),
          },
        },
        failed: stageFailure({ quote: 'quoting' }),
        failedBack: failureBack(
          { quote: '#travel-issue.party.travellers' },
          { guard: 'refusedAnswer', target: '#travel-issue.changeAnswer' },
        ),
        // Every package with its premium for this trip and party: the price comes first.
        pickPackage: {
          tags: 'awaitingInput',
          entry: assign({
            tries: 0,
            prompt: ({ context }) =>
              ask('travel.pickPackage', 'choice', {
                params: { travellers: (context.answers.travellers?.length ?? 0) + 1 },
                choices: context.quotes.map((q) =>
                  choice(q.packageId, 'travel.packageOption', {
                    product:
                      context.packages.find((p) => p.id === q.packageId)?.name ?? q.packageId,
                    currency: q.currency,
                    amount: money(q.premium),
                  }),
                ),
              }),
          }),
          on: {
            'user.choice': {
              guard: 'listedPackage',
              target: '#travel-issue.payment',
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
            'user.back': '#travel-issue.party.travellers',
          },
        },
      },
    },

    trip: {
      initial: 'askDestination',
      states: {
        askDestination: askText(
          'travel.askDestination',
          'text',
          'destination',
          'askStartDate',
          '#travel-issue.mainMenu',
        ),
        askStartDate: askText(
          'travel.askStartDate',
          'date',
          'startDate',
          'askDays',
          'askDestination',
        ),
        askDays: askText(
          'travel.askDays',
          'amount',
          'days',
          '#travel-issue.holder.askName',
          'askStartDate',
        ),
      },
    },

    holder: {
      initial: 'askName',
      states: {
        askName: askText('travel.askName', 'text', 'name', 'askNrc', '#travel-issue.trip.askDays'),
        askNrc: askText('travel.askNrc', 'nrc', 'nrc', '#travel-issue.party.travellers', 'askName'),
      },
    },

    party: {
      initial: 'travellers',
      states: {
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
              { guard: chose('continue'), target: '#travel-issue.pricing.quoting' },
            ],
            'user.back': '#travel-issue.holder.askNrc',
          },
        },
        askTravellerName: askText(
          'travel.askTravellerName',
          'text',
          'travellerName',
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
      },
    },
    payment: paymentStage({
      paid: 'loadingCertificate',
      back: '#travel-issue.pricing.pickPackage',
      failed: 'paymentFailed',
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
    // The packages could not be listed: nothing to go back to but the end.
    packagesFailed: stageFailure({ packages: 'loadingPackages' }, 'packagesFailedBack'),
    packagesFailedBack: failureBack(
      { packages: 'cancelled' },
      { guard: 'refusedAnswer', target: 'changeAnswer' },
    ),
    // The payment child ended failed: as the method chosen, a handset's call is let go again
    // before the PIN prompt.
    paymentFailed: stageFailure(
      { pay: resumePayment('start'), status: resumePayment('checking') },
      'paymentFailedBack',
    ),
    paymentFailedBack: failureBack(
      { pay: resumePayment('confirm'), status: resumePayment('wait') },
      { guard: 'refusedAnswer', target: 'changeAnswer' },
    ),
    // "Change my answer" after the insurer refused one: straight to the question that asked for it.
    changeAnswer: toRefusedAnswer(QUESTION_OF),
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
  // 3: paying is a child machine (its snapshot persisted with the flow's); older snapshots restart.
  // 4: on a handset call, mobile money lets the call go before the payment starts.
  // 5: each stage owns its failure screen (no shared `failed`): older snapshots restart.
  version: 5,
  machine: travelIssueMachine,
};
