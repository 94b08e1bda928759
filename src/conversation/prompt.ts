import { z } from 'zod';

/** The kind of input a Prompt expects; channels pick a keypad, keyboard or button from it. */
export const InputKind = z.enum([
  'text',
  'nrc',
  'phone',
  'date',
  'amount',
  'choice',
  'contact',
  'photo',
  'none',
]);
/** The kind of input a Prompt expects. */
export type InputKind = z.infer<typeof InputKind>;

/** Parameters interpolated into a message; JSON only so a Prompt can live in a snapshot. */
export const MessageParams = z.record(z.string(), z.union([z.string(), z.number()]));
/** Parameters interpolated into a message. */
export type MessageParams = z.infer<typeof MessageParams>;

/** One selectable option. `label` is a message key, or literal data when `literal` is true. */
export const Choice = z.object({
  id: z.string(),
  label: z.string(),
  params: MessageParams.optional(),
  /** True when `label` is data from the insurer (a product name), not a catalogue key. */
  literal: z.boolean().optional(),
});
/** One selectable option. */
export type Choice = z.infer<typeof Choice>;

/** A link or file the channel may attach (certificate, card payment page, CSV). */
export const Attachment = z.object({
  kind: z.enum(['link', 'document']),
  url: z.string(),
  /** Message key naming the attachment for the user. */
  label: z.string(),
  fileName: z.string().optional(),
});
/** A link or file the channel may attach. */
export type Attachment = z.infer<typeof Attachment>;

/**
 * What a flow shows the user: data, not text. Channels render it through the locale catalogue.
 * `final` means the conversation ends with this screen.
 */
export const Prompt = z.object({
  key: z.string(),
  params: MessageParams.optional(),
  /** Extra message keys shown after the main one (a validation reason, a notice). */
  notes: z.array(z.object({ key: z.string(), params: MessageParams.optional() })).optional(),
  choices: z.array(Choice).optional(),
  input: InputKind,
  final: z.boolean(),
  attachments: z.array(Attachment).optional(),
});
/** What a flow shows the user. */
export type Prompt = z.infer<typeof Prompt>;
