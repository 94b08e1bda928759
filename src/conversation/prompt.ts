import { z } from 'zod';
import { INSURER_WORD_KINDS } from './insurer-words.js';

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
  /**
   * What insurer data a literal label is (a product, a risk category, a scope of cover): shown in
   * the caller's words through the one mapping (insurer-words.ts), the insurer's when unknown.
   */
  words: z.enum(INSURER_WORD_KINDS).optional(),
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
  /**
   * The text is read whole (a notice someone agrees to): a USSD screen pages it with `98 More`,
   * its choices after it, instead of shortening it so the choices fit the first screen.
   */
  paged: z.boolean().optional(),
  /**
   * The call is let go with this screen though the conversation goes on (a mobile-money PIN
   * prompt needs the handset the call holds): a USSD gateway is answered `END`, and the next dial
   * offers to continue. Channels that hold no call show it as any other screen.
   */
  endsCall: z.boolean().optional(),
});
/** What a flow shows the user. */
export type Prompt = z.infer<typeof Prompt>;

const INPUT_KINDS: ReadonlySet<unknown> = new Set(InputKind.options);
const INSURER_KINDS: ReadonlySet<unknown> = new Set(INSURER_WORD_KINDS);

function isParams(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) {
    const param = (value as Record<string, unknown>)[key];
    if (typeof param !== 'string' && typeof param !== 'number') return false;
  }
  return true;
}

function isListOf(value: unknown, item: (entry: Record<string, unknown>) => boolean): boolean {
  if (value === undefined) return true;
  if (!Array.isArray(value)) return false;
  for (const entry of value) {
    if (typeof entry !== 'object' || entry === null || !item(entry)) return false;
  }
  return true;
}

/**
 * True when `value` is a Prompt. The same rules as the {@link Prompt} schema, checked by hand:
 * the engine checks the flow's prompt on every turn, where a zod parse is a measurable share.
 */
export function isPrompt(value: unknown): value is Prompt {
  if (typeof value !== 'object' || value === null) return false;
  const prompt = value as Record<string, unknown>;
  return (
    typeof prompt.key === 'string' &&
    INPUT_KINDS.has(prompt.input) &&
    typeof prompt.final === 'boolean' &&
    (prompt.paged === undefined || typeof prompt.paged === 'boolean') &&
    (prompt.endsCall === undefined || typeof prompt.endsCall === 'boolean') &&
    isParams(prompt.params) &&
    isListOf(prompt.notes, (note) => typeof note.key === 'string' && isParams(note.params)) &&
    isListOf(
      prompt.choices,
      (choice) =>
        typeof choice.id === 'string' &&
        typeof choice.label === 'string' &&
        isParams(choice.params) &&
        (choice.literal === undefined || typeof choice.literal === 'boolean') &&
        (choice.words === undefined || INSURER_KINDS.has(choice.words)),
    ) &&
    isListOf(
      prompt.attachments,
      (attachment) =>
        (attachment.kind === 'link' || attachment.kind === 'document') &&
        typeof attachment.url === 'string' &&
        typeof attachment.label === 'string' &&
        (attachment.fileName === undefined || typeof attachment.fileName === 'string'),
    )
  );
}
