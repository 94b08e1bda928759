import { InlineKeyboard, Keyboard } from 'grammy';
import type { InlineKeyboardMarkup, ReplyKeyboardMarkup, ReplyKeyboardRemove } from 'grammy/types';
import type { Prompt, RenderedPrompt } from '../../conversation/index.js';

/** Renders a Prompt in a locale: the conversation engine's `renderPrompt`, or a test double. */
export type RenderPrompt = (prompt: Prompt, locale: string) => RenderedPrompt;

/** A document to send after the message (the certificate). */
export interface TelegramDocument {
  readonly url: string;
  readonly caption: string;
  readonly fileName?: string;
}

/** What one Prompt becomes on Telegram: one message, then its documents. */
export interface TelegramMessage {
  readonly text: string;
  readonly replyMarkup?: InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove;
  /** Link attachments, kept apart so they can go into the text when Telegram refuses a URL button. */
  readonly links: readonly { readonly label: string; readonly url: string }[];
  readonly documents: readonly TelegramDocument[];
}

// Telegram refuses callback data longer than 64 bytes.
const MAX_CALLBACK_DATA_BYTES = 64;

/** Renders the text of a single message key (attachment labels, channel notices). */
export function renderKey(render: RenderPrompt, key: string, locale: string): string {
  return render({ key, input: 'none', final: false }, locale).text;
}

/**
 * Turns a Prompt into a Telegram message: choices become an inline keyboard whose callback data is
 * the choice id, link attachments become URL buttons, `contact`/`phone` input gets a one-time
 * contact-request keyboard, document attachments are sent after the message.
 */
export function toTelegramMessage(
  prompt: Prompt,
  render: RenderPrompt,
  locale: string,
): TelegramMessage {
  const rendered = render(prompt, locale);
  const links: { label: string; url: string }[] = [];
  const documents: TelegramDocument[] = [];
  for (const attachment of prompt.attachments ?? []) {
    const label = renderKey(render, attachment.label, locale);
    if (attachment.kind === 'link') links.push({ label, url: attachment.url });
    else
      documents.push({
        url: attachment.url,
        caption: label,
        ...(attachment.fileName === undefined ? {} : { fileName: attachment.fileName }),
      });
  }

  const choices = rendered.choices.filter(
    (choice) => Buffer.byteLength(choice.id, 'utf8') <= MAX_CALLBACK_DATA_BYTES,
  );
  if (choices.length > 0 || links.length > 0) {
    // One button per row: labels are sentences, too long to sit side by side on a phone.
    const keyboard = InlineKeyboard.from([
      ...choices.map((choice) => [InlineKeyboard.text(choice.label, choice.id)]),
      ...links.map((link) => [InlineKeyboard.url(link.label, link.url)]),
    ]);
    return { text: rendered.text, replyMarkup: keyboard, links, documents };
  }
  if (prompt.input === 'contact' || prompt.input === 'phone') {
    const shareLabel = renderKey(render, 'telegram.shareContact', locale);
    const keyboard = new Keyboard().requestContact(shareLabel).oneTime().resized();
    return { text: rendered.text, replyMarkup: keyboard, links, documents };
  }
  // A contact keyboard from an earlier prompt would otherwise linger under every later message.
  return { text: rendered.text, replyMarkup: { remove_keyboard: true }, links, documents };
}
