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

/**
 * What became of a message we sent. `status` is any string: besides sent, delivered, read and
 * failed Meta sends played, deleted, warning and more over time, and one we do not know must not
 * fail the POST that carries a customer's message with it.
 */
export const MessageStatus = z.looseObject({
  id: z.string(),
  status: z.string(),
  recipient_id: z.string().optional(),
  errors: z.array(z.looseObject({ code: z.number().optional() })).optional(),
});
/** What became of a message we sent. */
export type MessageStatus = z.infer<typeof MessageStatus>;

/**
 * A whole webhook POST body. Only the envelope is checked here: each message and status is
 * parsed on its own by {@link eventsOf}, so one of a shape we do not know is skipped, never the
 * batch (Meta would retry it, and the customer's message beside it would be lost).
 */
const WebhookBody = z.looseObject({
  object: z.literal('whatsapp_business_account'),
  entry: z.array(
    z.looseObject({
      changes: z.array(z.looseObject({ field: z.string(), value: z.unknown() })),
    }),
  ),
});
/** A whole webhook POST body. */
type WebhookBody = z.infer<typeof WebhookBody>;

/** The raw bytes of a webhook POST as a {@link WebhookBody}; undefined when they are not one. */
export function parseWebhook(raw: Buffer): WebhookBody | undefined {
  try {
    return WebhookBody.safeParse(JSON.parse(raw.toString('utf8'))).data;
  } catch {
    return undefined;
  }
}

const ChangeValue = z.looseObject({
  metadata: z.looseObject({ phone_number_id: z.string() }).optional(),
  messages: z.array(z.unknown()).optional(),
  statuses: z.array(z.unknown()).optional(),
});

/**
 * A template's new status (`message_template_status_update`): APPROVED, PAUSED, REJECTED,
 * DISABLED and more Meta may add, so `event` is any string.
 */
export const TemplateStatusUpdate = z.looseObject({
  event: z.string().min(1),
  message_template_name: z.string().min(1),
  message_template_language: z.string().optional(),
  reason: z.string().nullish(),
});
/** A template's new status. */
export type TemplateStatusUpdate = z.infer<typeof TemplateStatusUpdate>;

/** The events of one POST for our number, and how many items of it could not be read. */
interface WebhookEvents {
  readonly messages: InboundMessage[];
  readonly statuses: MessageStatus[];
  /** Status changes of the account's templates (the account's, whichever number sends them). */
  readonly templates: TemplateStatusUpdate[];
  /** Messages and statuses of a shape we do not know (no sender, no id): skipped, not failed. */
  readonly skipped: number;
}

/** The messages and statuses of a body, for our phone number only (one app may serve several). */
export function eventsOf(body: WebhookBody, phoneNumberId: string): WebhookEvents {
  const messages: InboundMessage[] = [];
  const statuses: MessageStatus[] = [];
  const templates: TemplateStatusUpdate[] = [];
  let skipped = 0;
  const take = <T>(items: readonly unknown[], schema: z.ZodType<T>, into: T[]) => {
    for (const item of items) {
      const parsed = schema.safeParse(item);
      if (parsed.success) into.push(parsed.data);
      else skipped += 1;
    }
  };
  for (const entry of body.entry) {
    for (const change of entry.changes) {
      if (change.field === 'message_template_status_update') {
        take([change.value], TemplateStatusUpdate, templates);
        continue;
      }
      if (change.field !== 'messages') continue;
      const value = ChangeValue.safeParse(change.value);
      if (!value.success) {
        skipped += 1;
        continue;
      }
      const to = value.data.metadata?.phone_number_id;
      if (to !== undefined && to !== phoneNumberId) continue;
      take(value.data.messages ?? [], InboundMessage, messages);
      take(value.data.statuses ?? [], MessageStatus, statuses);
    }
  }
  return { messages, statuses, templates, skipped };
}

/**
 * What the channel does with a message, by its type:
 * - `choice`: a reply button, list row or a template's quick-reply button was tapped;
 * - `text`, `media` (a photo or document);
 * - `cannot-use`: a sticker, voice note, video, location or contact card, which the step cannot
 *   take (the step is shown again with a word on what we cannot use);
 * - `unsupported`: a message WhatsApp itself could not pass on (Meta's `unsupported`): one short
 *   line, since there is nothing the customer did wrong at the step;
 * - `ignored`: a reaction (👍 to one of our messages), a system notice (the customer changed
 *   number) or a type we do not know yet. Nothing is answered: none of them asks anything.
 */
type MessageKind = 'choice' | 'text' | 'media' | 'cannot-use' | 'unsupported' | 'ignored';

const CANNOT_USE: ReadonlySet<string> = new Set([
  'audio',
  'video',
  'sticker',
  'location',
  'contacts',
]);
// Meta marks messages it cannot pass on as `unsupported` (older versions: `unknown`).
const UNSUPPORTED: ReadonlySet<string> = new Set(['unsupported', 'unknown']);

/** The {@link MessageKind} of one message. */
export function kindOf(message: InboundMessage): MessageKind {
  if (message.interactive?.button_reply || message.interactive?.list_reply || message.button)
    return 'choice';
  if (message.text) return 'text';
  if (message.image || message.document) return 'media';
  if (CANNOT_USE.has(message.type)) return 'cannot-use';
  if (UNSUPPORTED.has(message.type)) return 'unsupported';
  // `interactive` of another kind (a flow's reply, an order) lands here as well as reactions.
  return message.type === 'interactive' ? 'cannot-use' : 'ignored';
}

/**
 * A message type or status value fit for a log line: Meta's words are lower-case identifiers;
 * anything else is shown as `other` (a log never holds what a customer could have put there).
 */
export function loggable(word: string): string {
  return /^[a-z_]{1,32}$/.test(word) ? word : 'other';
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
