/*
 * The payment every paying flow shares, as one machine a flow invokes as a child actor: confirm
 * amount and choose method → start → wait → outcome → pay again / change method. The flow hands
 * it the priced purchase and its own confirm screen (input) and learns how it ended (output);
 * while it runs, the flow mirrors the screen the child waits on from its snapshots (see
 * {@link paymentStage}), so the engine reads the flow's `awaitingInput` tag and `context.prompt`
 * as for any other state, and a persisted flow restores with its child.
 */
import {
  assertEvent,
  assign,
  type DoneActorEvent,
  type EventObject,
  forwardTo,
  type MachineContext,
  setup,
} from 'xstate';
import { phoneOf } from '../src/access/index.js';
import { lusakaClock } from '../src/clock/index.js';
import { AWAITING_INPUT, type FlowInput, type TurnRoute } from '../src/conversation/flow.js';
import type { Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { checkPhone } from './checks.js';
import {
  ask,
  choice,
  chose,
  type Failure,
  failedCallTo,
  money,
  notProvided,
  type PaymentChoice,
  rejected,
  replyGuards,
  unexpected,
} from './support.js';

/**
 * What is paid for: a quotation, or the renewal of a policy; or a price not quoted yet (a flow
 * that writes nothing at the insurer before the user chooses to pay: the child then ends
 * `chosen` with the method, and the flow makes the quotation and starts it again `at` paying).
 */
type PaymentSubject =
  | { kind: 'quote'; quoteId: string }
  | { kind: 'renewal'; policyId: string }
  | { kind: 'unquoted' };

/** A quotation the insurer priced, as a paying flow keeps it until it is paid. */
export interface PricedQuote {
  quoteId: string;
  premium: number;
  currency: string;
  /** Unique per purchase (the quote and a key made when it was priced): names its payments. */
  purchase: string;
}

/** Where a flow's payment stands; `null` in the flow's context until a price is known. */
export interface PayState {
  subject: PaymentSubject;
  /** Unique per purchase: the subject and a key made when it was priced (see flows' actors). */
  purchase: string;
  /** What is bought, in the user's words (a product and plate, a trip). */
  what: string;
  /** The car bought for (its plate), when it is one: one unsettled payment per car. */
  vehicle?: string | undefined;
  amount: number;
  currency: string;
  /** 1, then one more for each Pay again after a confirmed failure. */
  attempt: number;
  // What is not known yet is left out rather than null: the payment is persisted with every
  // turn of a paying flow, in its payment child's snapshot.
  method?: PaymentChoice | undefined;
  reference?: string | undefined;
  status: 'unpaid' | 'pending' | 'paid' | 'failed';
  redirectUrl?: string | undefined;
  /** When the attempt started (ISO), for "still waiting since 10:42". */
  since?: string | undefined;
  /** True once Check status found it still pending. */
  checked?: true | undefined;
  /** Why the insurer said it failed, when it said. */
  reason?: string | undefined;
  /** The policy paid for, when the outcome named it. */
  policyId?: string | undefined;
  policyNumber?: string | undefined;
  /** The pay answer was lost: being confirmed with the insurer (looked up until it has it). */
  unconfirmed?: true | undefined;
  /** The insurer holds nothing under the reference: Pay again sends the same attempt. */
  notTaken?: true | undefined;
  /**
   * A handset's call was let go before this attempt's PIN prompt: where it stands is shown as a
   * screen that lets the call go again, the result coming by SMS.
   */
  released?: true | undefined;
}

/** The part of the payment machine's context its screens and requests read. */
export interface PayingContext {
  prompt: Prompt;
  tries: number;
  callerPhone: string | null;
  route: TurnRoute | null;
  pay: PayState | null;
}

/** What `startPayment` is given: one attempt of one purchase. */
export interface PaymentRequest {
  subject: PaymentSubject;
  purchase: string;
  attempt: number;
  payment: PaymentChoice;
  amount: number;
  currency: string;
  route?: TurnRoute;
  /** What is bought, in the user's words (a product and plate): one unsettled payment each. */
  item?: string;
  /** The car bought for (its plate): one unsettled payment per car, whatever the product. */
  vehicle?: string;
  /** The caller's own number ("My number"): a prompt to any other is limited (src/limits). */
  callerPhone?: string;
}

/** What `startPayment` and `paymentStatus` resolve to. */
export interface PaymentStarted {
  reference: string;
  status: 'pending' | 'paid' | 'failed';
  redirectUrl?: string;
  /** When the attempt started (ISO). */
  startedAt?: string;
  reason?: string;
  policyId?: string;
  policyNumber?: string;
  /** The answer was lost and no lookup found it yet. */
  unconfirmed?: true;
  /** The insurer holds no transaction under the reference. */
  notTaken?: true;
}

/** A fresh payment for a priced purchase. */
export function newPayment(
  subject: PaymentSubject,
  purchase: string,
  what: string,
  amount: number,
  currency: string,
  vehicle?: string,
): PayState {
  return {
    subject,
    purchase,
    what,
    ...(vehicle ? { vehicle } : {}),
    amount,
    currency,
    attempt: 1,
    status: 'unpaid',
  };
}

/** The request for the current attempt. */
function paymentRequest(context: {
  pay: PayState | null;
  route?: TurnRoute | null | undefined;
  callerPhone?: string | null | undefined;
}): PaymentRequest {
  const pay = context.pay;
  return {
    subject: pay?.subject ?? { kind: 'quote', quoteId: '' },
    purchase: pay?.purchase ?? '',
    attempt: pay?.attempt ?? 1,
    payment: pay?.method ?? { method: 'card' },
    amount: pay?.amount ?? 0,
    currency: pay?.currency ?? '',
    ...(context.route ? { route: context.route } : {}),
    ...(pay?.what ? { item: pay.what } : {}),
    ...(pay?.vehicle ? { vehicle: pay.vehicle } : {}),
    ...(context.callerPhone ? { callerPhone: context.callerPhone } : {}),
  };
}

/** An ISO instant as users in Zambia read its time (src/clock's): `10:42`; `''` for none. */
export function clockTime(iso: string | null | undefined): string {
  const at = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(at) ? '' : lusakaClock(at);
}

/**
 * The number "My number" pays from: the caller's handset (`callerPhone`), else the phone a
 * messaging platform vouches for (a WhatsApp sender's), which a paying flow keeps as `payPhone`
 * (see {@link payPhoneOf}). The payment child has only `callerPhone`, already resolved.
 */
function ownPayNumber(context: {
  callerPhone: string | null;
  payPhone?: string | undefined;
}): string | null {
  return context.callerPhone ?? context.payPhone ?? null;
}

/**
 * A paying flow's `payPhone` from its input: the principal's verified phone, kept only when there
 * is no caller handset (a USSD snapshot carries the number once; SMS links stay the handset's).
 */
export function payPhoneOf(input: FlowInput): { payPhone?: string } {
  const phone = input.callerPhone ? undefined : phoneOf(input.principal);
  return phone === undefined ? {} : { payPhone: phone };
}

/** The choices of every screen that asks how to pay. */
export function paymentChoices(context: Parameters<typeof ownPayNumber>[0]) {
  return [
    ...(ownPayNumber(context) ? [choice('own', 'pay.choice.ownNumber')] : []),
    choice('other', 'pay.choice.otherNumber'),
    choice('card', 'pay.choice.card'),
  ];
}

/**
 * The screen while a payment is with the phone or the card page: the amount due, a Check button
 * and, for card, the link to the insurer's payment page; after a check, since when it waits.
 */
export function paymentWaitPrompt(pay: PayState | null): Prompt {
  const card = pay?.method?.method === 'card';
  const url = pay?.redirectUrl;
  const key = pay?.unconfirmed ? 'pay.waitConfirming' : card ? 'pay.waitCard' : 'pay.waitPhone';
  const prompt = ask(key, 'choice', {
    params: {
      amount: money(pay?.amount ?? 0),
      currency: pay?.currency ?? '',
      what: pay?.what ?? '',
    },
    choices: [choice('check', 'pay.choice.check')],
    ...(card && url
      ? { attachments: [{ kind: 'link' as const, url, label: 'pay.cardLink' }] }
      : {}),
  });
  if (pay?.checked) {
    prompt.notes = [{ key: 'pay.note.stillPending', params: { since: clockTime(pay.since) } }];
  }
  return prompt;
}

/**
 * The screen that lets a handset's call go once mobile money is chosen: the network's PIN prompt
 * cannot show while the call holds the screen, so the caller is told to approve it when asked,
 * and the result comes by SMS.
 */
function paymentReleasedPrompt(pay: PayState | null): Prompt {
  return {
    ...ask('pay.released', 'none', {
      params: {
        amount: money(pay?.amount ?? 0),
        currency: pay?.currency ?? '',
        what: pay?.what ?? '',
      },
    }),
    endsCall: true,
  };
}

/**
 * Where a mobile-money payment stands when a handset dials back while it waits: with the phone
 * (or being confirmed with the insurer), the result to come by SMS; the call is let go again.
 */
function paymentHandsetWaitPrompt(pay: PayState | null): Prompt {
  const prompt = ask(pay?.unconfirmed ? 'pay.waitConfirming' : 'pay.waitHandset', 'none', {
    params: {
      amount: money(pay?.amount ?? 0),
      currency: pay?.currency ?? '',
      what: pay?.what ?? '',
    },
  });
  return { ...prompt, endsCall: true };
}

/** The question of the number to pay from, with the amount it will be asked to approve. */
export function paymentPhonePrompt(pay: PayState | null): Prompt {
  return ask('pay.askPhone', 'phone', {
    params: { amount: money(pay?.amount ?? 0), currency: pay?.currency ?? '' },
  });
}

/**
 * The screen after a failed payment: which purchase, why if known, and Pay again or End; a
 * handset that dials back to it may also go straight to Card.
 */
export function paymentFailedPrompt(pay: PayState | null, handset = false): Prompt {
  const prompt = ask('pay.failed', 'choice', {
    params: {
      amount: money(pay?.amount ?? 0),
      currency: pay?.currency ?? '',
      what: pay?.what ?? '',
    },
    choices: [
      choice('retry', 'pay.choice.tryAgain'),
      ...(handset ? [choice('card', 'pay.choice.card')] : []),
      choice('end', 'flow.choice.end'),
    ],
  });
  if (pay?.reason) prompt.notes = [{ key: 'pay.note.reason', params: { reason: pay.reason } }];
  return prompt;
}

// ------------------------------------------------------------------ context changes (assigners)

/** `pay` after the user chose how to pay. */
function chosen(pay: PayState | null, method: PaymentChoice): PayState | null {
  return pay ? { ...pay, method } : null;
}

/** `pay` after the user picked their own number, typed one or shared a contact. */
export function chosenFrom(
  context: Pick<PayingContext, 'pay' | 'callerPhone'>,
  event: Reply,
): PayState | null {
  if (event.type === 'user.choice' && event.id === 'card') {
    return chosen(context.pay, { method: 'card' });
  }
  const phone =
    event.type === 'user.text'
      ? event.text
      : event.type === 'user.contact'
        ? event.phone
        : event.type === 'user.choice' && event.id === 'own'
          ? (context.callerPhone ?? '')
          : '';
  const checked = checkPhone(phone);
  return checked.ok
    ? chosen(context.pay, { method: 'mobileMoney', msisdn: checked.value })
    : context.pay;
}

/** `pay` once the start (or a status read) answered. */
export function answered(pay: PayState | null, output: PaymentStarted): PayState | null {
  if (!pay) return null;
  return {
    ...pay,
    reference: output.reference,
    status: output.status,
    redirectUrl: output.redirectUrl ?? pay.redirectUrl,
    since: output.startedAt ?? pay.since,
    reason: output.reason ?? pay.reason,
    policyId: output.policyId ?? pay.policyId,
    policyNumber: output.policyNumber ?? pay.policyNumber,
    checked:
      pay.checked || (output.startedAt === undefined && output.status === 'pending') || undefined,
    // Still being confirmed while a check finds it pending; a found final status ends it.
    unconfirmed: output.unconfirmed ?? (output.status === 'pending' ? pay.unconfirmed : undefined),
    notTaken: output.notTaken,
  };
}

/** `pay` once the outcome was pushed into the conversation. */
function settled(pay: PayState | null, event: Reply): PayState | null {
  if (!pay || event.type !== 'payment.settled') return pay;
  // Still pending after every poll: the wait screen says since when, and that it goes on.
  if (event.outcome === 'pending') return { ...pay, checked: true };
  return {
    ...pay,
    status: event.outcome === 'paid' ? 'paid' : 'failed',
    unconfirmed: undefined,
    reason: event.reason ?? pay.reason,
    policyId: event.policyId ?? pay.policyId,
    policyNumber: event.policyNumber ?? pay.policyNumber,
  };
}

/** `pay` for the next attempt, after the insurer confirmed this one failed. */
export function again(pay: PayState | null): PayState | null {
  if (pay?.status !== 'failed') return pay;
  return {
    ...pay,
    // Never taken by the insurer: the same attempt, under the same reference, is sent again.
    attempt: pay.notTaken ? pay.attempt : pay.attempt + 1,
    notTaken: undefined,
    unconfirmed: undefined,
    reference: undefined,
    status: 'unpaid',
    redirectUrl: undefined,
    since: undefined,
    checked: undefined,
    reason: undefined,
    released: undefined,
  };
}

// ------------------------------------------------------------------ the machine

/**
 * Where a payment (re)starts: the confirm screen, or again after the flow's failure screen:
 * `paying` starts it at once (the flow made the writes it needed, the call already let go),
 * `start` as the method chosen (on a handset call, letting the call go first).
 */
export type PaymentStep = 'confirm' | 'start' | 'paying' | 'wait' | 'checking';

/**
 * What the payment machine asks when a handset's call is let go: to be sent `payment.proceed`
 * (with the id it resolves) a short while after, once the call has ended. Resolves
 * `{ later: false }` where nothing can send it: the payment then starts at once, as in a chat.
 */
export type PayLater = { later: true; id: string } | { later: false };

/** What {@link PayLater} is asked with: whose payment, and where the event goes. */
export interface PayLaterRequest {
  purchase: string;
  attempt: number;
  route?: TurnRoute;
}

/**
 * What a flow hands the payment machine: the priced purchase. The confirm screen (what is bought
 * for how much, and how to pay) is the flow's own: the flow makes it (see {@link paymentScreen}).
 */
interface PaymentInput {
  pay: PayState;
  callerPhone: string | null;
  route: TurnRoute | null;
  /** Where to start; the confirm screen unless the flow's failure screen retries or goes back. */
  at?: PaymentStep | undefined;
  /**
   * The caller is on a handset call (USSD): a mobile-money PIN prompt cannot show until the call
   * ends, so choosing mobile money lets the call go and the payment starts on `payment.proceed`.
   */
  handset?: true | undefined;
}

/** A call of the payment machine that failed: the flow shows its failure screen for it. */
type PaymentFailure = Failure & { op: 'pay' | 'status' };

/** How a payment ended, with the payment as it stands: the flow goes on from there. */
type PaymentOutput =
  | { outcome: 'paid' | 'back' | 'cancelled' | 'chosen'; pay: PayState }
  | { outcome: 'failed'; pay: PayState; failure: PaymentFailure };

/** The states that show a screen, each named after it; its Prompt is made from it (see screenOf). */
type PaymentScreen = 'confirm' | 'phone' | 'released' | 'wait' | 'failed';

/**
 * The payment machine's context. The screen shown follows from the state, and the context keeps
 * only its notes rather than the Prompt itself: a persisted flow carries its child's snapshot.
 */
interface PaymentContext {
  /** The notes of a re-asked screen (what to fix), until the screen changes. */
  notes?: NonNullable<Prompt['notes']> | undefined;
  tries: number;
  callerPhone: string | null;
  /** Where the outcome goes, when the conversation has an address (absent, not null: small). */
  route?: TurnRoute | undefined;
  pay: PayState;
  /** Where it starts (see PaymentInput); cleared once started. */
  at?: PaymentStep | undefined;
  failure?: PaymentFailure | undefined;
  /** On a handset call (see PaymentInput.handset). */
  handset?: true | undefined;
  /** The `payment.proceed` awaited once the call was let go; cleared when it came. */
  proceedId?: string | undefined;
  /** How it ended, once it did (for the output). */
  ended?: PaymentOutput['outcome'] | undefined;
}

/** The Prompt of `screen`, with the flow's confirm screen. */
function screenOf(
  screen: PaymentScreen,
  context: PaymentContext,
  confirm: (pay: PayState) => Prompt,
): Prompt {
  const handset = context.handset === true;
  const prompt =
    screen === 'confirm'
      ? confirm(context.pay)
      : screen === 'phone'
        ? paymentPhonePrompt(context.pay)
        : screen === 'released'
          ? paymentReleasedPrompt(context.pay)
          : screen === 'wait'
            ? handset && context.pay.released && context.pay.method?.method === 'mobileMoney'
              ? paymentHandsetWaitPrompt(context.pay)
              : paymentWaitPrompt(context.pay)
            : paymentFailedPrompt(context.pay, handset && context.pay.released === true);
  return context.notes ? { ...prompt, notes: context.notes } : prompt;
}

/**
 * The context change for a screen re-asked by `reask` (a support helper on a Prompt): only the
 * notes it adds are kept, and they depend only on what the screen takes (`input`).
 */
function reasked(
  context: PaymentContext,
  input: 'choice' | 'phone',
  reask: (shown: { prompt: Prompt; tries: number }) => { prompt: Prompt; tries: number },
): Pick<PaymentContext, 'notes' | 'tries'> {
  const { prompt, tries } = reask({ prompt: ask('pay.screen', input), tries: context.tries });
  return { notes: prompt.notes, tries };
}

/** The id a flow invokes the payment machine under: events are forwarded to it by this id. */
const PAYMENT_ACTOR_ID = 'payment';

/** A failed call `op`: its failure screen, which hands the failure to the flow. */
const failedCall = failedCallTo<PaymentContext, Reply>('callFailed');

const payment = setup({
  types: {
    context: {} as PaymentContext,
    events: {} as Reply,
    input: {} as PaymentInput,
    output: {} as PaymentOutput,
  },
  actors: {
    startPayment: notProvided<PaymentStarted, PaymentRequest>('startPayment'),
    paymentStatus: notProvided<PaymentStarted, { reference: string; route?: TurnRoute }>(
      'paymentStatus',
    ),
    payLater: notProvided<PayLater, PayLaterRequest>('payLater'),
  },
  actions: {
    shown: assign({ notes: undefined, tries: 0 }),
    unexpected: assign(({ context }, params: { input: 'choice' | 'phone' }) =>
      reasked(context, params.input, unexpected),
    ),
    end: assign((_, params: { outcome: PaymentOutput['outcome'] }) => ({ ended: params.outcome })),
    choose: assign({ pay: ({ context, event }) => chosenFrom(context, event) ?? context.pay }),
    settle: assign({ pay: ({ context, event }) => settled(context.pay, event) ?? context.pay }),
    again: assign({ pay: ({ context }) => again(context.pay) ?? context.pay }),
    phoneRejected: assign(({ context, event }) => {
      assertEvent(event, 'user.text');
      const checked = checkPhone(event.text);
      return reasked(context, 'phone', (shown) =>
        rejected(shown, checked.ok ? 'flow.note.typeAnswer' : checked),
      );
    }),
  },
  guards: {
    chose: replyGuards.chose,
    ownNumber: ({ context, event }) =>
      replyGuards.chose({ event }, { id: 'own' }) && context.callerPhone !== null,
    validPhone: ({ event }) =>
      (event.type === 'user.text' && checkPhone(event.text).ok) ||
      (event.type === 'user.contact' && checkPhone(event.phone).ok),
    settledHere: ({ context, event }) =>
      event.type === 'payment.settled' && event.reference === context.pay.reference,
    status: ({ context }, params: { status: PayState['status'] }) =>
      context.pay.status === params.status,
    startsAt: ({ context }, params: { step: PaymentStep }) => context.at === params.step,
    unquoted: ({ context }) => context.pay.subject.kind === 'unquoted',
    // Mobile money from a handset on a call: the call is let go before the PIN prompt.
    handsetMoney: ({ context }) =>
      context.handset === true && context.pay.method?.method === 'mobileMoney',
    proceedsHere: ({ context, event }) =>
      event.type === 'payment.proceed' && event.id === context.proceedId,
  },
});

const WAITS = { tags: AWAITING_INPUT } as const;
/** Both calls' answer (an attempt started, or where it stands) kept, then routed by its status. */
const ANSWER_KEPT = {
  target: 'started',
  actions: assign<PaymentContext, DoneActorEvent<PaymentStarted>, undefined, Reply, never>({
    pay: ({ context, event }) => answered(context.pay, event.output) ?? context.pay,
  }),
} as const;
// A reply a screen did not expect: the same screen, a note saying what to do. Every screen but the
// phone question offers choices.
const UNEXPECTED_CHOICE = { type: 'unexpected', params: { input: 'choice' } } as const;
const UNEXPECTED_PHONE = { type: 'unexpected', params: { input: 'phone' } } as const;

/**
 * One payment of one priced purchase: `pickPayment` (confirm amount, choose method),
 * `askPayPhone`, `paying` (start the attempt), `paymentStarted` (route by outcome),
 * `awaitingPayment`, `checkingPayment`, `paymentFailed` (Pay again goes back to choosing a method
 * for a new attempt). On a handset call mobile money first lets the call go (`handingOver`,
 * then `released` until `payment.proceed` comes: issue 38). Ends `paid`, `back` (from the
 * confirm screen), `cancelled` (End after a failure), `chosen` (an `unquoted` purchase's method
 * chosen: the flow quotes it) or `failed` (a call failed: the flow's failure screen, which may
 * start it again `at` the call or the screen before it).
 */
export const paymentMachine = payment.createMachine({
  id: 'payment',
  context: ({ input }) => ({
    tries: 0,
    callerPhone: input.callerPhone,
    ...(input.route ? { route: input.route } : {}),
    pay: input.pay,
    at: input.at,
    ...(input.handset ? { handset: true as const } : {}),
  }),
  initial: 'opening',
  on: {
    'user.text': { actions: UNEXPECTED_CHOICE },
    'user.choice': { actions: UNEXPECTED_CHOICE },
    'user.photo': { actions: UNEXPECTED_CHOICE },
    'user.contact': { actions: UNEXPECTED_CHOICE },
  },
  states: {
    opening: {
      exit: assign({ at: undefined }),
      always: [
        { guard: { type: 'startsAt', params: { step: 'paying' } }, target: 'paying' },
        { guard: { type: 'startsAt', params: { step: 'start' } }, target: 'decided' },
        {
          guard: { type: 'startsAt', params: { step: 'wait' } },
          target: 'wait',
        },
        {
          guard: { type: 'startsAt', params: { step: 'checking' } },
          target: 'checking',
        },
        { target: 'confirm' },
      ],
    },
    confirm: {
      ...WAITS,
      entry: 'shown',
      on: {
        'user.choice': [
          { guard: 'ownNumber', target: 'decided', actions: 'choose' },
          { guard: chose('other'), target: 'phone' },
          { guard: chose('card'), target: 'decided', actions: 'choose' },
        ],
        'user.back': 'back',
      },
    },
    phone: {
      ...WAITS,
      entry: 'shown',
      on: {
        'user.text': [
          { guard: 'validPhone', target: 'decided', actions: 'choose' },
          { actions: 'phoneRejected' },
        ],
        'user.contact': [
          { guard: 'validPhone', target: 'decided', actions: 'choose' },
          { actions: UNEXPECTED_PHONE },
        ],
        'user.choice': { actions: UNEXPECTED_PHONE },
        'user.photo': { actions: UNEXPECTED_PHONE },
        'user.back': 'confirm',
      },
    },
    // The method is chosen: paid now, or first quoted by the flow (nothing written before); on
    // a handset call, mobile money lets the call go first.
    decided: {
      always: [
        { guard: 'handsetMoney', target: 'handingOver' },
        { guard: 'unquoted', target: 'chosen' },
        { target: 'paying' },
      ],
    },
    // Asks for `payment.proceed` a short while after the call ends (durable: a restart in
    // between keeps it); nothing is written at the insurer before it comes.
    handingOver: {
      invoke: {
        src: 'payLater',
        input: ({ context }) => ({
          purchase: context.pay.purchase,
          attempt: context.pay.attempt,
          ...(context.route ? { route: context.route } : {}),
        }),
        onDone: [
          {
            guard: ({ event }) => event.output.later,
            target: 'released',
            actions: assign({
              proceedId: ({ event }) => (event.output.later ? event.output.id : undefined),
              pay: ({ context }) => ({ ...context.pay, released: true as const }),
            }),
          },
          { target: 'proceeding' },
        ],
        onError: failedCall('pay'),
      },
    },
    // The call is let go with "approve when your phone asks"; a dial back shows it again.
    released: {
      ...WAITS,
      entry: 'shown',
      on: {
        'payment.proceed': {
          guard: 'proceedsHere',
          target: 'proceeding',
          actions: assign({ proceedId: undefined }),
        },
        'user.back': 'released',
      },
    },
    proceeding: {
      always: [{ guard: 'unquoted', target: 'chosen' }, { target: 'paying' }],
    },
    paying: {
      invoke: {
        src: 'startPayment',
        input: ({ context }) => paymentRequest(context),
        onDone: ANSWER_KEPT,
        onError: failedCall('pay'),
      },
    },
    started: {
      always: [
        { guard: { type: 'status', params: { status: 'paid' } }, target: 'paid' },
        { guard: { type: 'status', params: { status: 'failed' } }, target: 'failed' },
        { target: 'wait' },
      ],
    },
    wait: {
      ...WAITS,
      entry: 'shown',
      on: {
        'payment.settled': { guard: 'settledHere', target: 'started', actions: 'settle' },
        'user.choice': { guard: chose('check'), target: 'checking' },
        // The payment is with the phone or the card page now: Back shows this screen again.
        'user.back': 'wait',
      },
    },
    checking: {
      invoke: {
        src: 'paymentStatus',
        input: ({ context }) => ({
          reference: context.pay.reference ?? '',
          ...(context.route ? { route: context.route } : {}),
        }),
        onDone: ANSWER_KEPT,
        onError: failedCall('status'),
      },
    },
    failed: {
      ...WAITS,
      entry: 'shown',
      on: {
        'user.choice': [
          { guard: chose('retry'), target: 'confirm', actions: 'again' },
          // Offered to a handset only: straight to the card page, as a new attempt.
          { guard: chose('card'), target: 'decided', actions: ['again', 'choose'] },
          { guard: chose('end'), target: 'cancelled' },
        ],
        'user.back': { target: 'confirm', actions: 'again' },
      },
    },
    paid: { type: 'final', entry: { type: 'end', params: { outcome: 'paid' } } },
    chosen: { type: 'final', entry: { type: 'end', params: { outcome: 'chosen' } } },
    back: { type: 'final', entry: { type: 'end', params: { outcome: 'back' } } },
    cancelled: { type: 'final', entry: { type: 'end', params: { outcome: 'cancelled' } } },
    callFailed: { type: 'final', entry: { type: 'end', params: { outcome: 'failed' } } },
  },
  output: ({ context }): PaymentOutput =>
    context.ended === 'failed' && context.failure
      ? { outcome: 'failed', pay: context.pay, failure: context.failure }
      : {
          outcome: context.ended === 'failed' ? 'cancelled' : (context.ended ?? 'cancelled'),
          pay: context.pay,
        },
});

/** The flow's payment child, started where a flow's failure screen sends it back (see PaymentInput). */
function paymentInput(
  context: Parameters<typeof ownPayNumber>[0] & {
    route?: TurnRoute | null | undefined;
    pay?: PayState | null | undefined;
  },
  at?: PaymentStep,
): PaymentInput {
  return {
    pay: context.pay ?? newPayment({ kind: 'quote', quoteId: '' }, '', '', 0, ''),
    callerPhone: ownPayNumber(context),
    route: context.route ?? null,
    ...(at ? { at } : {}),
    // Only a handset on a call has a `callerPhone` (a chat's vouched phone is its `payPhone`).
    ...(context.callerPhone ? { handset: true as const } : {}),
  };
}

/** The child's snapshot from a flow's `onSnapshot` event (typed as the flow's own events there). */
interface ChildSnapshot {
  value: unknown;
  context: PaymentContext;
  tags: Set<string>;
}

function childSnapshot(event: unknown): ChildSnapshot | undefined {
  return (event as { snapshot?: ChildSnapshot }).snapshot;
}

const SCREENS: ReadonlySet<unknown> = new Set<PaymentScreen>([
  'confirm',
  'phone',
  'released',
  'wait',
  'failed',
]);

/** Guard for a flow's `onSnapshot`: its payment child waits on a screen. */
function paymentWaits(event: unknown): boolean {
  return childSnapshot(event)?.tags.has(AWAITING_INPUT) === true;
}

/**
 * A flow's context change from its payment child's snapshot: the screen the child shows, the
 * confirm screen being the flow's own (`confirm`, for the payment as it stands). The child holds
 * the payment while it runs (its output hands it back), so the flow keeps none meanwhile.
 */
function paymentScreen(
  event: unknown,
  confirm: (pay: PayState) => Prompt,
): { prompt?: Prompt; tries?: number; pay?: undefined } {
  const snapshot = childSnapshot(event);
  if (!snapshot || !SCREENS.has(snapshot.value)) return {};
  const screen = snapshot.value as PaymentScreen;
  const context = snapshot.context;
  return context
    ? { prompt: screenOf(screen, context, confirm), tries: context.tries, pay: undefined }
    : {};
}

/** How a flow's payment child ended, from the done event (typed as the flow's own events). */
function paymentOutputOf(event: unknown): PaymentOutput | undefined {
  return (event as { output?: PaymentOutput }).output;
}

/** A flow's context change once its payment child ended: the payment, and any failed call. */
function paymentResult(event: unknown): { pay?: PayState; failure?: PaymentFailure } {
  const output = paymentOutputOf(event);
  if (!output) return {};
  return output.outcome === 'failed'
    ? { pay: output.pay, failure: output.failure }
    : { pay: output.pay };
}

/**
 * The replies a flow passes on to its payment child while that waits on a screen: the flow
 * names `toPayment` in its setup as `forwardTo(PAYMENT_ACTOR_ID)`.
 */
const TO_PAYMENT = {
  'user.text': { actions: 'toPayment' },
  'user.choice': { actions: 'toPayment' },
  'user.photo': { actions: 'toPayment' },
  'user.contact': { actions: 'toPayment' },
  'user.back': { actions: 'toPayment' },
  'payment.settled': { actions: 'toPayment' },
  'payment.proceed': { actions: 'toPayment' },
} as const;

/**
 * The substates of the flow's state that invokes the payment child: `working` while the child
 * calls the insurer, `waiting` (tagged) while it shows a screen, every reply passed on to it.
 * The flow's `onSnapshot` moves between them (see {@link paymentWaits}).
 */
const PAYMENT_SCREENS = {
  initial: 'working',
  states: {
    working: {},
    waiting: { tags: AWAITING_INPUT, on: TO_PAYMENT },
  },
} as const;

/**
 * The payment machine with its two calls provided: what a paying flow's actors give it under
 * `paymentMachine` (the calls are the child's own; a flow's `provide` does not reach them).
 */
export function providedPayment(actors: PaymentActors) {
  return paymentMachine.provide({ actors });
}

/** The two calls the payment machine makes: start an attempt, read where it stands. */
type PaymentActors = NonNullable<Parameters<typeof paymentMachine.provide>[0]['actors']>;

/** The payment child started again at `step`: where a flow's failure screen sends Retry or Back. */
export const resumePayment = (step: PaymentStep) =>
  ({ target: 'payment', actions: { type: 'payFrom', params: { step } } }) as const;

/** Guards a paying flow names in its setup for the state {@link paymentStage} makes. */
export const PAYMENT_GUARDS = {
  paymentWaits: ({ event }: { event: unknown }) => paymentWaits(event),
  paymentEnded: (
    { event }: { event: unknown },
    params: { outcome: PaymentOutput['outcome'] },
  ): boolean => paymentOutputOf(event)?.outcome === params.outcome,
};

/** What a paying flow's context holds for the actions of {@link paymentActions}. */
interface PaymentActionsContext extends MachineContext {
  prompt: Prompt;
  tries: number;
  pay?: PayState | null | undefined;
  payAt?: PaymentStep | undefined;
}

/**
 * The actions a paying flow names in its setup for the state {@link paymentStage} makes:
 * `toPayment`, `showPaymentScreen` (the child's screen, its confirm screen drawn by `confirm`),
 * `paymentResult` and `payFrom`. Built once, when the flow's setup is: spread them into its
 * `actions` as `...paymentActions<FlowContext, Reply>(confirmPrompt)`.
 */
export function paymentActions<TContext extends PaymentActionsContext, TEvent extends EventObject>(
  confirm: (context: TContext) => Prompt,
) {
  // Each change names only fields of PaymentActionsContext, which TContext extends; TypeScript
  // cannot tell that such an object is a Partial of a type parameter, hence the casts.
  return {
    toPayment: forwardTo<TContext, TEvent, undefined, TEvent>(PAYMENT_ACTOR_ID),
    showPaymentScreen: assign<TContext, TEvent, undefined, TEvent, never>(
      ({ context, event }) =>
        paymentScreen(event, (pay) => confirm({ ...context, pay })) as Partial<TContext>,
    ),
    paymentResult: assign<TContext, TEvent, undefined, TEvent, never>(
      ({ event }) => paymentResult(event) as Partial<TContext>,
    ),
    payFrom: assign<TContext, TEvent, { step: PaymentStep | undefined }, TEvent, never>(
      (_, params) => ({ payAt: params.step }) as Partial<TContext>,
    ),
  };
}

/**
 * The flow's state that pays: invokes the payment child (under {@link PAYMENT_ACTOR_ID}, src
 * `paymentMachine`), mirrors its screens, and leaves by how it ended: to `exits`. The flow names
 * in its setup the guards {@link PAYMENT_GUARDS} and the actions {@link paymentActions}
 * (`toPayment`, `showPaymentScreen`, `paymentResult` and `payFrom`).
 */
export function paymentStage(exits: {
  paid: string;
  back: string;
  failed: string;
  cancelled: string;
  /** Where an `unquoted` purchase goes once its method is chosen (the flow quotes it). */
  chosen?: string;
}) {
  const ended = (outcome: PaymentOutput['outcome'], target: string) =>
    ({
      guard: { type: 'paymentEnded', params: { outcome } },
      target,
      actions: 'paymentResult',
    }) as const;
  return {
    invoke: {
      id: PAYMENT_ACTOR_ID,
      src: 'paymentMachine',
      input: ({
        context,
      }: {
        context: Parameters<typeof paymentInput>[0] & { payAt?: PaymentStep | undefined };
      }) => paymentInput(context, context.payAt),
      onSnapshot: [
        { guard: 'paymentWaits', target: '.waiting', actions: 'showPaymentScreen' },
        { target: '.working' },
      ],
      onDone: [
        ...(exits.chosen ? [ended('chosen', exits.chosen)] : []),
        ended('paid', exits.paid),
        ended('back', exits.back),
        ended('failed', exits.failed),
        { target: exits.cancelled, actions: 'paymentResult' },
      ],
    },
    // Started again from the confirm screen next time, unless a failure screen says where.
    exit: { type: 'payFrom', params: { step: undefined } },
    ...PAYMENT_SCREENS,
  } as const;
}
