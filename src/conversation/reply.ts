import { z } from 'zod';

/** A user's free text answer. */
const UserText = z.object({ type: z.literal('user.text'), text: z.string() });
/** A user's pick among the Prompt's choices, by choice id. */
const UserChoice = z.object({ type: z.literal('user.choice'), id: z.string() });
/** A phone number the platform vouches for (Telegram contact share, the USSD caller's MSISDN). */
const UserContact = z.object({ type: z.literal('user.contact'), phone: z.string() });
/** A photo or file the channel has stored; `url` is where insurechat can serve it from. */
const UserPhoto = z.object({
  type: z.literal('user.photo'),
  url: z.string(),
  fileName: z.string().optional(),
});
const UserBack = z.object({ type: z.literal('user.back') });
const UserCancel = z.object({ type: z.literal('user.cancel') });
/** A payment reached a final outcome; pushed by src/payments, never by a user. */
const PaymentSettled = z.object({
  type: z.literal('payment.settled'),
  reference: z.string(),
  outcome: z.enum(['paid', 'failed', 'pending']),
  policyNumber: z.string().optional(),
  policyId: z.string().optional(),
  reason: z.string().optional(),
});

/**
 * The moment to start a payment the caller chose while on a handset call: sent by src/payments a
 * short while after the call was let go (the PIN prompt needs the handset), never by a user.
 */
const PaymentProceed = z.object({
  type: z.literal('payment.proceed'),
  /** Names the hand-over it ends: made when the call was let go, taken once by the flow. */
  id: z.string(),
});

/** Every event a flow can receive: channel-neutral user replies plus system events. */
export const Reply = z.discriminatedUnion('type', [
  UserText,
  UserChoice,
  UserContact,
  UserPhoto,
  UserBack,
  UserCancel,
  PaymentSettled,
  PaymentProceed,
]);
/** Every event a flow can receive. */
export type Reply = z.infer<typeof Reply>;
/** The `payment.settled` system event. */
export type PaymentSettledEvent = z.infer<typeof PaymentSettled>;
/** The `payment.proceed` system event. */
export type PaymentProceedEvent = z.infer<typeof PaymentProceed>;

const OUTCOMES: ReadonlySet<unknown> = new Set(['paid', 'failed', 'pending']);
const optionalString = (value: unknown): boolean =>
  value === undefined || typeof value === 'string';

/**
 * True when `value` is a Reply. The same rules as the {@link Reply} schema, checked by hand:
 * the engine asks on every turn, where a zod parse costs more than the rest of a cached turn.
 */
export function isReply(value: unknown): value is Reply {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  switch (event.type) {
    case 'user.text':
      return typeof event.text === 'string';
    case 'user.choice':
      return typeof event.id === 'string';
    case 'user.contact':
      return typeof event.phone === 'string';
    case 'user.photo':
      return typeof event.url === 'string' && optionalString(event.fileName);
    case 'user.back':
    case 'user.cancel':
      return true;
    case 'payment.settled':
      return (
        typeof event.reference === 'string' &&
        OUTCOMES.has(event.outcome) &&
        optionalString(event.policyNumber) &&
        optionalString(event.policyId) &&
        optionalString(event.reason)
      );
    case 'payment.proceed':
      return typeof event.id === 'string';
    default:
      return false;
  }
}
