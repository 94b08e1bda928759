import { assertEvent, assign, setup } from 'xstate';
import type {
  FlowContextBase,
  FlowDefinition,
  FlowInput,
  FlowOutput,
} from '../src/conversation/flow.js';
import type { Choice } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { checkFutureDate, checkName, checkNrc, checkPhone, checkWords } from './checks.js';
import {
  PAYMENT_FAILED,
  payFromContact,
  payFromText,
  paymentFailedState,
  paymentWaitPrompt,
  statusFailed,
  statusPaid,
  stillPending,
} from './payment-states.js';
import {
  ask,
  CANCELLED,
  type Checked,
  choice,
  dataChoice,
  end,
  exhausted,
  type Failure,
  failedAt,
  failureScreen,
  isChoice,
  notProvided,
  type PaymentChoice,
  type PaymentStarted,
  passes,
  rejected,
  rejectedBy,
  stableReference,
  TOO_MANY_TRIES,
  today,
  UNEXPECTED_REPLIES,
  unexpected,
} from './support.js';

/** A travel package offered for sale. */
export interface TravelPackage {
  id: string;
  name: string;
}

/** A traveller besides the policyholder. */
export interface Traveller {
  name: string;
  relationship: 'spouse' | 'child' | 'parent' | 'other';
}

/** What is sent to the instant-issue operation. */
export interface TravelIssueRequest {
  reference: string;
  packageId: string;
  destination: string;
  startDate: string;
  holder: { name: string; nrc: string; phone: string };
  travellers: Traveller[];
  payment: PaymentChoice;
}

/** The issued policy and its payment, as the flow keeps them. */
export interface TravelIssued extends PaymentStarted {
  policyId: string;
  policyNumber: string;
  startDate: string;
  endDate: string;
  grossPremium: number;
  currency: string;
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
  packages: TravelPackage[];
  answers: {
    packageId?: string;
    destination?: string;
    startDate?: string;
    name?: string;
    nrc?: string;
    travellers?: Traveller[];
    travellerName?: string;
    payment?: PaymentChoice;
  };
  policy: TravelIssued | null;
  certificateUrl: string | null;
  failure: (Failure & { op: 'packages' | 'issue' | 'status' }) | null;
}

const MAX_TRAVELLERS = 4;
const MAX_PACKAGES = 6;
const RELATIONSHIPS: readonly Traveller['relationship'][] = ['spouse', 'child', 'parent', 'other'];

/** A full name: at least two words, each a name. */
export function checkFullName(text: string): Checked<string> {
  const name = checkName(text);
  if (!name.ok) return name;
  return name.value.includes(' ') ? name : { ok: false, reason: 'flow.note.fullName' };
}

function travelReference(context: TravelIssueContext): string {
  const a = context.answers;
  return stableReference('TRV', [
    a.packageId ?? '',
    a.nrc ?? '',
    a.destination ?? '',
    a.startDate ?? '',
    String(a.travellers?.length ?? 0),
  ]);
}

function issueRequest(context: TravelIssueContext): TravelIssueRequest {
  const a = context.answers;
  return {
    reference: travelReference(context),
    packageId: a.packageId ?? '',
    destination: a.destination ?? '',
    startDate: a.startDate ?? '',
    holder: { name: a.name ?? '', nrc: a.nrc ?? '', phone: context.callerPhone ?? '' },
    travellers: a.travellers ?? [],
    payment: a.payment ?? { method: 'card' },
  };
}

const travel = setup({
  types: {
    context: {} as TravelIssueContext,
    events: {} as Reply,
    input: {} as FlowInput,
    output: {} as FlowOutput,
  },
  actors: {
    listPackages: notProvided<TravelPackage[], Record<string, never>>('listPackages'),
    issueTravel: notProvided<TravelIssued, TravelIssueRequest>('issueTravel'),
    paymentStatus: notProvided<PaymentStarted, { reference: string }>('paymentStatus'),
    travelCertificate: notProvided<TravelCertificate, { policyId: string; reference: string }>(
      'travelCertificate',
    ),
  },
  actions: {
    unexpected: assign(({ context }) => unexpected(context)),
  },
  guards: {
    exhausted,
    listedPackage: ({ context, event }) =>
      event.type === 'user.choice' && context.packages.some((p) => p.id === event.id),
    canAddTraveller: ({ context, event }) =>
      isChoice('add')({ event }) && (context.answers.travellers?.length ?? 0) < MAX_TRAVELLERS,
    pickedRelationship: ({ event }) =>
      event.type === 'user.choice' && RELATIONSHIPS.some((r) => r === event.id),
    ownNumber: ({ context, event }) => isChoice('own')({ event }) && context.callerPhone !== null,
    isPaid: ({ context }) => context.policy?.status === 'paid',
    isFailed: ({ context }) => context.policy?.status === 'failed',
    settledPaid: ({ context, event }) =>
      event.type === 'payment.settled' &&
      event.reference === context.policy?.reference &&
      event.outcome === 'paid',
    settledFailed: ({ context, event }) =>
      event.type === 'payment.settled' &&
      event.reference === context.policy?.reference &&
      event.outcome === 'failed',
  },
});

type TextField = 'destination' | 'startDate' | 'name' | 'nrc' | 'travellerName';

// One question answered by typing: a valid answer is kept and moves on; a bad one re-asks with
// the reason and keeps every earlier answer; the third bad one ends politely.
const askText = (
  key: string,
  input: 'text' | 'date' | 'nrc',
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
        { guard: 'exhausted', target: 'tooManyTries' },
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
    today: today(),
    callerPhone: input.callerPhone ?? null,
    packages: [],
    answers: {},
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
            target: 'pickPackage',
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
    pickPackage: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ({ context }) =>
          ask('travel.pickPackage', 'choice', {
            choices: context.packages.map((p) => dataChoice(p.id, p.name)),
          }),
      }),
      on: {
        'user.choice': {
          guard: 'listedPackage',
          target: 'askDestination',
          actions: assign({
            answers: ({ context, event }) => ({ ...context.answers, packageId: event.id }),
          }),
        },
        'user.back': 'cancelled',
      },
    },
    askDestination: askText(
      'travel.askDestination',
      'text',
      'destination',
      (t) => checkWords(t),
      'askStartDate',
      'pickPackage',
    ),
    askStartDate: askText(
      'travel.askStartDate',
      'date',
      'startDate',
      (t, c) => checkFutureDate(t, c.today),
      'askName',
      'askDestination',
    ),
    askName: askText(
      'travel.askName',
      'text',
      'name',
      (t) => checkFullName(t),
      'askNrc',
      'askStartDate',
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
          { guard: isChoice('continue'), target: 'pickPayment' },
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
    pickPayment: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ({ context }) =>
          ask('travel.pickPayment', 'choice', {
            params: { travellers: (context.answers.travellers?.length ?? 0) + 1 },
            choices: [
              ...(context.callerPhone ? [choice('own', 'pay.choice.ownNumber')] : []),
              choice('other', 'pay.choice.otherNumber'),
              choice('card', 'pay.choice.card'),
            ],
          }),
      }),
      on: {
        'user.choice': [
          {
            guard: 'ownNumber',
            target: 'issuing',
            actions: assign({
              answers: ({ context }) => ({
                ...context.answers,
                payment: { method: 'mobileMoney', msisdn: context.callerPhone ?? '' },
              }),
            }),
          },
          { guard: isChoice('other'), target: 'askPayPhone' },
          {
            guard: isChoice('card'),
            target: 'issuing',
            actions: assign({
              answers: ({ context }) => ({ ...context.answers, payment: { method: 'card' } }),
            }),
          },
        ],
        'user.back': 'travellers',
      },
    },
    askPayPhone: {
      tags: 'awaitingInput',
      entry: assign({ tries: 0, prompt: ask('pay.askPhone', 'phone') }),
      on: {
        'user.text': [
          {
            guard: passes(checkPhone),
            target: 'issuing',
            actions: assign({
              answers: payFromText,
            }),
          },
          { guard: 'exhausted', target: 'tooManyTries' },
          { actions: assign(rejectedBy(checkPhone)) },
        ],
        'user.contact': {
          guard: ({ event }) => checkPhone(event.phone).ok,
          target: 'issuing',
          actions: assign({
            answers: payFromContact,
          }),
        },
        'user.back': 'pickPayment',
      },
    },
    issuing: {
      invoke: {
        src: 'issueTravel',
        input: ({ context }) => issueRequest(context),
        onDone: {
          target: 'issued',
          actions: assign({ policy: ({ event }) => event.output, failure: null }),
        },
        onError: { target: 'failed', actions: assign({ failure: failedAt('issue') }) },
      },
    },
    issued: {
      always: [
        { guard: 'isPaid', target: 'loadingCertificate' },
        { guard: 'isFailed', target: 'paymentFailed' },
        { target: 'awaitingPayment' },
      ],
    },
    awaitingPayment: {
      tags: 'awaitingInput',
      entry: assign({
        tries: 0,
        prompt: ({ context }) =>
          paymentWaitPrompt({
            payment: context.answers.payment,
            amount: context.policy?.grossPremium ?? 0,
            currency: context.policy?.currency ?? '',
            redirectUrl: context.policy?.redirectUrl,
          }),
      }),
      on: {
        'payment.settled': [
          {
            guard: 'settledPaid',
            target: 'loadingCertificate',
            actions: assign({
              policy: ({ context, event }) =>
                context.policy
                  ? {
                      ...context.policy,
                      status: 'paid' as const,
                      policyNumber: event.policyNumber ?? context.policy.policyNumber,
                      policyId: event.policyId ?? context.policy.policyId,
                    }
                  : null,
            }),
          },
          { guard: 'settledFailed', target: 'paymentFailed' },
        ],
        'user.choice': { guard: isChoice('check'), target: 'checkingPayment' },
        // Payment is with the phone now; Back shows the same screen.
        'user.back': 'awaitingPayment',
      },
    },
    checkingPayment: {
      invoke: {
        src: 'paymentStatus',
        input: ({ context }) => ({ reference: context.policy?.reference ?? '' }),
        onDone: [
          {
            guard: statusPaid,
            target: 'loadingCertificate',
            actions: assign({
              policy: ({ context }) =>
                context.policy ? { ...context.policy, status: 'paid' as const } : null,
            }),
          },
          { guard: statusFailed, target: 'paymentFailed' },
          {
            target: 'awaitingPayment',
            actions: assign({ prompt: stillPending }),
          },
        ],
        onError: { target: 'failed', actions: assign({ failure: failedAt('status') }) },
      },
    },
    paymentFailed: {
      ...paymentFailedState('pickPayment'),
      entry: assign({ tries: 0, prompt: PAYMENT_FAILED }),
    },
    loadingCertificate: {
      invoke: {
        src: 'travelCertificate',
        input: ({ context }) => ({
          policyId: context.policy?.policyId ?? '',
          reference: context.policy?.reference ?? '',
        }),
        onDone: {
          target: 'done',
          actions: assign({
            certificateUrl: ({ event }) => event.output.url ?? null,
            policy: ({ context, event }) =>
              context.policy
                ? {
                    ...context.policy,
                    policyId: event.output.policyId ?? context.policy.policyId,
                    policyNumber: event.output.policyNumber || context.policy.policyNumber,
                    startDate: event.output.startDate || context.policy.startDate,
                    endDate: event.output.endDate || context.policy.endDate,
                  }
                : null,
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
              isChoice('retry')({ event }) && context.failure?.op === 'issue',
            target: 'issuing',
          },
          { guard: isChoice('retry'), target: 'checkingPayment' },
          {
            guard: ({ context, event }) =>
              isChoice('back')({ event }) && context.failure?.op === 'status',
            target: 'awaitingPayment',
          },
          {
            guard: ({ context, event }) =>
              isChoice('back')({ event }) && context.failure?.op === 'issue',
            target: 'pickPayment',
          },
          { guard: isChoice('back'), target: 'cancelled' },
          { guard: isChoice('end'), target: 'cancelled' },
        ],
        'user.back': [
          { guard: ({ context }) => context.failure?.op === 'status', target: 'awaitingPayment' },
          { guard: ({ context }) => context.failure?.op === 'issue', target: 'pickPayment' },
          { target: 'cancelled' },
        ],
      },
    },
    done: {
      type: 'final',
      entry: assign({
        prompt: ({ context }) =>
          end(
            'travel.done',
            {
              policyNumber: context.policy?.policyNumber ?? '',
              startDate: context.policy?.startDate ?? '',
              endDate: context.policy?.endDate ?? '',
            },
            context.certificateUrl
              ? [{ kind: 'document', url: context.certificateUrl, label: 'travel.certificate' }]
              : undefined,
          ),
      }),
    },
    tooManyTries: { type: 'final', entry: assign({ prompt: TOO_MANY_TRIES }) },
    cancelled: { type: 'final', entry: assign({ prompt: CANCELLED }) },
  },
  output: ({ context }): FlowOutput => ({ prompt: context.prompt }),
});

/** Travel cover as the engine registers it. */
export const travelIssueFlow: FlowDefinition<typeof travelIssueMachine> = {
  id: 'travel-issue',
  version: 1,
  machine: travelIssueMachine,
};
