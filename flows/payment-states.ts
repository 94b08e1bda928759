/*
 * The payment part every paying flow shares: choose method → confirm amount → start → wait →
 * outcome → pay again / change method. A flow spreads `paymentStates(...)` into its states,
 * spreads `PAYMENT_GUARDS` into its setup and provides the actions named in PaymentActionName
 * (each a one-line `assign` of a function exported here), so the states exist once.
 */
import type { TurnRoute } from '../src/conversation/flow.js';
import type { Prompt } from '../src/conversation/prompt.js';
import type { Reply } from '../src/conversation/reply.js';
import { checkPhone } from './checks.js';
import { ask, choice, isChoice, money, type PaymentChoice } from './support.js';

/** What is paid for: a quotation, or the renewal of a policy. */
export type PaymentSubject =
  | { kind: 'quote'; quoteId: string }
  | { kind: 'renewal'; policyId: string };

/** Where a flow's payment stands; `null` in the flow's context until a price is known. */
export interface PayState {
  subject: PaymentSubject;
  /** Unique per purchase: the subject and a key made when it was priced (see flows' actors). */
  purchase: string;
  /** What is bought, in the user's words (a product and plate, a trip). */
  what: string;
  amount: number;
  currency: string;
  /** 1, then one more for each Pay again after a confirmed failure. */
  attempt: number;
  method: PaymentChoice | null;
  reference: string | null;
  status: 'unpaid' | 'pending' | 'paid' | 'failed';
  redirectUrl: string | null;
  /** When the attempt started (ISO), for "still waiting since 10:42". */
  since: string | null;
  /** True once Check status found it still pending. */
  checked: boolean;
  /** Why the insurer said it failed, when it said. */
  reason: string | null;
  /** The policy paid for, when the outcome named it. */
  policyId: string | null;
  policyNumber: string | null;
}

/** The part of a paying flow's context the payment states read and write. */
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
}

/** A fresh payment for a priced purchase. */
export function newPayment(
  subject: PaymentSubject,
  purchase: string,
  what: string,
  amount: number,
  currency: string,
): PayState {
  return {
    subject,
    purchase,
    what,
    amount,
    currency,
    attempt: 1,
    method: null,
    reference: null,
    status: 'unpaid',
    redirectUrl: null,
    since: null,
    checked: false,
    reason: null,
    policyId: null,
    policyNumber: null,
  };
}

/** The request for the current attempt. */
export function paymentRequest(context: PayingContext): PaymentRequest {
  const pay = context.pay;
  return {
    subject: pay?.subject ?? { kind: 'quote', quoteId: '' },
    purchase: pay?.purchase ?? '',
    attempt: pay?.attempt ?? 1,
    payment: pay?.method ?? { method: 'card' },
    amount: pay?.amount ?? 0,
    currency: pay?.currency ?? '',
    ...(context.route ? { route: context.route } : {}),
  };
}

const LUSAKA_TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Africa/Lusaka',
  hour: '2-digit',
  minute: '2-digit',
});

/** A time as users in Zambia read it: `10:42`. */
export function clockTime(iso: string | null): string {
  const date = iso ? new Date(iso) : undefined;
  return date && !Number.isNaN(date.getTime()) ? LUSAKA_TIME.format(date) : '';
}

/** The choices of every screen that asks how to pay. */
export function paymentChoices(context: Pick<PayingContext, 'callerPhone'>) {
  return [
    ...(context.callerPhone ? [choice('own', 'pay.choice.ownNumber')] : []),
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
  const prompt = ask(card ? 'pay.waitCard' : 'pay.waitPhone', 'choice', {
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

/** The question of the number to pay from, with the amount it will be asked to approve. */
export function paymentPhonePrompt(pay: PayState | null): Prompt {
  return ask('pay.askPhone', 'phone', {
    params: { amount: money(pay?.amount ?? 0), currency: pay?.currency ?? '' },
  });
}

/** The screen after a failed payment: which purchase, why if known, and Pay again or End. */
export function paymentFailedPrompt(pay: PayState | null): Prompt {
  const prompt = ask('pay.failed', 'choice', {
    params: {
      amount: money(pay?.amount ?? 0),
      currency: pay?.currency ?? '',
      what: pay?.what ?? '',
    },
    choices: [choice('retry', 'pay.choice.tryAgain'), choice('end', 'flow.choice.end')],
  });
  if (pay?.reason) prompt.notes = [{ key: 'pay.note.reason', params: { reason: pay.reason } }];
  return prompt;
}

// ------------------------------------------------------------------ context changes (assigners)

/**
 * The payment actor's result from a done event. Named actions are typed with the flow's own
 * events, so the actor's done event reaches them untyped; an event without one reads as pending.
 */
export function outputOf(event: unknown): PaymentStarted {
  const output = (event as { output?: PaymentStarted } | null)?.output;
  return output ?? { reference: '', status: 'pending' };
}

/** The error of an actor's error event (typed like {@link outputOf}'s event). */
export function errorOf(event: unknown): { error: unknown } {
  return { error: (event as { error?: unknown } | null)?.error };
}

/** `pay` after the user chose how to pay. */
export function chosen(pay: PayState | null, method: PaymentChoice): PayState | null {
  return pay ? { ...pay, method } : null;
}

/** `pay` after the user picked their own number, typed one or shared a contact. */
export function chosenFrom(context: PayingContext, event: Reply): PayState | null {
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
    checked: pay.checked || (output.startedAt === undefined && output.status === 'pending'),
  };
}

/** `pay` once the outcome was pushed into the conversation. */
export function settled(pay: PayState | null, event: Reply): PayState | null {
  if (!pay || event.type !== 'payment.settled') return pay;
  // Still pending after every poll: the wait screen says since when, and that it goes on.
  if (event.outcome === 'pending') return { ...pay, checked: true };
  return {
    ...pay,
    status: event.outcome === 'paid' ? 'paid' : 'failed',
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
    attempt: pay.attempt + 1,
    reference: null,
    status: 'unpaid',
    redirectUrl: null,
    since: null,
    checked: false,
    reason: null,
  };
}

// ------------------------------------------------------------------ guards

type GuardArgs = { context: PayingContext; event: Reply };

/** Guards the payment states name; spread into the flow's `setup({ guards })`. */
export const PAYMENT_GUARDS = {
  payOwnNumber: ({ context, event }: GuardArgs) =>
    isChoice('own')({ event }) && context.callerPhone !== null,
  payIsPaid: ({ context }: GuardArgs) => context.pay?.status === 'paid',
  payIsFailed: ({ context }: GuardArgs) => context.pay?.status === 'failed',
  payValidPhone: ({ event }: GuardArgs) =>
    (event.type === 'user.text' && checkPhone(event.text).ok) ||
    (event.type === 'user.contact' && checkPhone(event.phone).ok),
  paySettledHere: ({ context, event }: GuardArgs) =>
    event.type === 'payment.settled' && event.reference === context.pay?.reference,
};

/**
 * Actions the payment states name; each flow provides them with its own `assign`:
 * - `payConfirmScreen`: the flow's screen that shows the amount and asks how to pay;
 * - `payChoose` (assign `pay: chosenFrom`), `payAnswered` (`answered`), `paySettled` (`settled`),
 *   `payAgain` (`again`);
 * - `payPhoneScreen`: the "number to pay from" question, tries reset;
 * - `payWaitScreen` / `payFailedScreen`: prompt from {@link paymentWaitPrompt} /
 *   {@link paymentFailedPrompt}, tries reset;
 * - `payStartFailed` / `payCheckFailed`: the flow's failure record for the failed call;
 * - `payPhoneRejected`: the phone question again with the reason.
 */
export type PaymentActionName =
  | 'payConfirmScreen'
  | 'payChoose'
  | 'payAnswered'
  | 'paySettled'
  | 'payAgain'
  | 'payPhoneScreen'
  | 'payWaitScreen'
  | 'payFailedScreen'
  | 'payStartFailed'
  | 'payCheckFailed'
  | 'payPhoneRejected';

/** Where the payment states lead out of themselves. */
export interface PaymentExits {
  /** Back from the confirm screen. */
  back: string;
  /** Once paid (the policy and certificate are fetched there). */
  paid: string;
  /** A failed call (start, status read): the flow's failure screen. */
  failed: string;
  /** End after a failed payment. */
  cancelled: string;
}

/**
 * The payment states: `pickPayment` (confirm amount, choose method), `askPayPhone`, `paying`
 * (start the attempt), `paymentStarted` (route by outcome), `awaitingPayment`, `checkingPayment`,
 * `paymentFailed` (Pay again goes back to choosing a method for a new attempt).
 */
export function paymentStates(exits: PaymentExits) {
  return {
    pickPayment: {
      tags: 'awaitingInput',
      entry: 'payConfirmScreen',
      on: {
        'user.choice': [
          { guard: 'payOwnNumber', target: 'paying', actions: 'payChoose' },
          { guard: isChoice('other'), target: 'askPayPhone' },
          { guard: isChoice('card'), target: 'paying', actions: 'payChoose' },
        ],
        'user.back': exits.back,
      },
    },
    askPayPhone: {
      tags: 'awaitingInput',
      entry: 'payPhoneScreen',
      on: {
        'user.text': [
          { guard: 'payValidPhone', target: 'paying', actions: 'payChoose' },
          { actions: 'payPhoneRejected' },
        ],
        'user.contact': { guard: 'payValidPhone', target: 'paying', actions: 'payChoose' },
        'user.back': 'pickPayment',
      },
    },
    paying: {
      invoke: {
        src: 'startPayment',
        input: ({ context }: { context: PayingContext }) => paymentRequest(context),
        onDone: { target: 'paymentStarted', actions: 'payAnswered' },
        onError: { target: exits.failed, actions: 'payStartFailed' },
      },
    },
    paymentStarted: {
      always: [
        { guard: 'payIsPaid', target: exits.paid },
        { guard: 'payIsFailed', target: 'paymentFailed' },
        { target: 'awaitingPayment' },
      ],
    },
    awaitingPayment: {
      tags: 'awaitingInput',
      entry: 'payWaitScreen',
      on: {
        'payment.settled': {
          guard: 'paySettledHere',
          target: 'paymentStarted',
          actions: 'paySettled',
        },
        'user.choice': { guard: isChoice('check'), target: 'checkingPayment' },
        // The payment is with the phone or the card page now: Back shows this screen again.
        'user.back': 'awaitingPayment',
      },
    },
    checkingPayment: {
      invoke: {
        src: 'paymentStatus',
        input: ({ context }: { context: PayingContext }) => ({
          reference: context.pay?.reference ?? '',
          ...(context.route ? { route: context.route } : {}),
        }),
        onDone: { target: 'paymentStarted', actions: 'payAnswered' },
        onError: { target: exits.failed, actions: 'payCheckFailed' },
      },
    },
    paymentFailed: {
      tags: 'awaitingInput',
      entry: 'payFailedScreen',
      on: {
        'user.choice': [
          { guard: isChoice('retry'), target: 'pickPayment', actions: 'payAgain' },
          { guard: isChoice('end'), target: exits.cancelled },
        ],
        'user.back': { target: 'pickPayment', actions: 'payAgain' },
      },
    },
  } as const;
}
