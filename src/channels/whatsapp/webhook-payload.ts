import { z } from 'zod';

/*
 * The parts of a Cloud API webhook the channel reads. Objects are loose: Meta adds fields
 * without notice, and a field we do not read must not make a real message look forged.
 */

const Media = z.looseObject({
  id: z.string().min(1),
  mime_type: z.string().optional(),
  filename: z.string().optional(),
});

/** One message a customer sent. `type` says which of the optional parts is there. */
export const InboundMessage = z.looseObject({
  from: z.string().regex(/^\d{6,15}$/),
  id: z.string().min(1),
  timestamp: z.string().optional(),
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional(),
  interactive: z
    .looseObject({
      type: z.string(),
      button_reply: z.looseObject({ id: z.string() }).optional(),
      list_reply: z.looseObject({ id: z.string() }).optional(),
    })
    .optional(),
  /** A template's quick-reply button. */
  button: z.looseObject({ payload: z.string().optional(), text: z.string() }).optional(),
  image: Media.optional(),
  document: Media.optional(),
});
/** One message a customer sent. */
export type InboundMessage = z.infer<typeof InboundMessage>;

/** What became of a message we sent. */
export const MessageStatus = z.looseObject({
  id: z.string(),
  status: z.enum(['sent', 'delivered', 'read', 'failed']),
  recipient_id: z.string().optional(),
  errors: z.array(z.looseObject({ code: z.number().optional() })).optional(),
});
/** What became of a message we sent. */
export type MessageStatus = z.infer<typeof MessageStatus>;

/** A whole webhook POST body; only the `messages` field's changes carry anything for us. */
export const WebhookBody = z.looseObject({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(
    z.looseObject({
      changes: z.array(
        z.looseObject({
          field: z.string(),
          value: z.looseObject({
            metadata: z.looseObject({ phone_number_id: z.string() }).optional(),
            messages: z.array(InboundMessage).optional(),
            statuses: z.array(MessageStatus).optional(),
          }),
        }),
      ),
    }),
  ),
});
/** A whole webhook POST body. */
export type WebhookBody = z.infer<typeof WebhookBody>;

/** The messages and statuses of a body, for our phone number only (one app may serve several). */
export function eventsOf(
  body: WebhookBody,
  phoneNumberId: string,
): { readonly messages: InboundMessage[]; readonly statuses: MessageStatus[] } {
  const messages: InboundMessage[] = [];
  const statuses: MessageStatus[] = [];
  for (const entry of body.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'messages') continue;
      const to = change.value.metadata?.phone_number_id;
      if (to !== undefined && to !== phoneNumberId) continue;
      messages.push(...(change.value.messages ?? []));
      statuses.push(...(change.value.statuses ?? []));
    }
  }
  return { messages, statuses };
}

/** The Graph API's answer to a media id: where to download it from. */
export const MediaInfo = z.looseObject({
  url: z.url(),
  mime_type: z.string().optional(),
  file_size: z.number().optional(),
});

/** The Graph API's answer to a sent message. */
export const SendResult = z.looseObject({
  messages: z.array(z.looseObject({ id: z.string() })).min(1),
});
