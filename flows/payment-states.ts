import type { Prompt } from '../src/conversation/prompt.js';
import { checkPhone } from './checks.js';
import {
  ask,
  choice,
  isChoice,
  money,
  type Note,
  type PaymentChoice,
  type PaymentStarted,
} from './support.js';

/** What the payment wait screen shows: how the user pays, what is due, the card page if any. */
export interface PaymentDue {
  payment: PaymentChoice | undefined;
  amount: number;
  currency: string;
  redirectUrl: string | undefined;
}

/**
 * The screen while a payment is with the phone or the card page: the amount due, a Check button
 * and, for card, the link to the insurer's payment page.
 */
export function paymentWaitPrompt(due: PaymentDue): Prompt {
  const card = due.payment?.method === 'card';
  const url = due.redirectUrl;
  return ask(card ? 'pay.waitCard' : 'pay.waitPhone', 'choice', {
    params: { amount: money(due.amount), currency: due.currency },
    choices: [choice('check', 'pay.choice.check')],
    ...(card && url
      ? { attachments: [{ kind: 'link' as const, url, label: 'pay.cardLink' }] }
      : {}),
  });
}

/** The answers with a mobile-money payment from `phone`, when it is a valid number. */
function payFrom<TAnswers extends { payment?: PaymentChoice }>(
  answers: TAnswers,
  phone: string | undefined,
): TAnswers {
  const checked = checkPhone(phone ?? '');
  return checked.ok
    ? { ...answers, payment: { method: 'mobileMoney', msisdn: checked.value } }
    : answers;
}

/** Answers assigner for a typed pay-from number (on `user.text`). */
export const payFromText = <TAnswers extends { payment?: PaymentChoice }>({
  context,
  event,
}: {
  context: { answers: TAnswers };
  event: { type: string; text?: string };
}): TAnswers => payFrom(context.answers, event.text);

/** Answers assigner for a shared contact's number (on `user.contact`). */
export const payFromContact = <TAnswers extends { payment?: PaymentChoice }>({
  context,
  event,
}: {
  context: { answers: TAnswers };
  event: { type: string; phone?: string };
}): TAnswers => payFrom(context.answers, event.phone);

/** Note shown on the wait screen when Check found the payment still pending. */
export const STILL_PENDING: Note = { key: 'pay.note.stillPending' };

/** Prompt assigner: the wait screen again, saying the payment is still pending. */
export const stillPending = ({ context }: { context: { prompt: Prompt } }): Prompt => ({
  ...context.prompt,
  notes: [STILL_PENDING],
});

/** What a `paymentStatus` call's `onDone` hands its guards. */
interface StatusArgs {
  event: { output: PaymentStarted };
}

/** Guard on a `paymentStatus` result: the payment went through. */
export const statusPaid = ({ event }: StatusArgs): boolean => event.output.status === 'paid';
/** Guard on a `paymentStatus` result: the payment failed. */
export const statusFailed = ({ event }: StatusArgs): boolean => event.output.status === 'failed';

/** The screen after a failed payment: try again (choose how to pay again) or end. */
export const PAYMENT_FAILED: Prompt = ask('pay.failed', 'choice', {
  choices: [choice('retry', 'pay.choice.tryAgain'), choice('end', 'flow.choice.end')],
});

/**
 * The payment-failed state's tags and transitions, shared by the paying flows: Try again and Back
 * go to `retry` (the payment method question), End to `cancelled`. The flow adds the entry that
 * shows {@link PAYMENT_FAILED}, typed by its own machine.
 */
export const paymentFailedState = (retry: string) => ({
  tags: 'awaitingInput' as const,
  on: {
    'user.choice': [
      { guard: isChoice('retry'), target: retry },
      { guard: isChoice('end'), target: 'cancelled' },
    ],
    'user.back': retry,
  },
});
