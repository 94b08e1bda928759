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

/** Every event a flow can receive: channel-neutral user replies plus system events. */
export const Reply = z.discriminatedUnion('type', [
  UserText,
  UserChoice,
  UserContact,
  UserPhoto,
  UserBack,
  UserCancel,
  PaymentSettled,
]);
/** Every event a flow can receive. */
export type Reply = z.infer<typeof Reply>;
/** The `payment.settled` system event. */
export type PaymentSettledEvent = z.infer<typeof PaymentSettled>;
