import { createHash } from 'node:crypto';
import { InlineKeyboard, Keyboard } from 'grammy';
import type { Prompt } from '../../conversation/index.js';
import { attachmentFileName, type RenderPrompt, renderKey } from '../shared/index.js';
import type { TelegramDocument, TelegramMessage } from './bot-api/index.js';

// Telegram refuses callback data longer than 64 bytes.
const MAX_CALLBACK_DATA_BYTES = 64;
// Separates the screen's token from the choice id in callback data (the token never holds one).
const TOKEN_SEPARATOR = '~';

/**
 * A short fingerprint of the screen a keyboard belongs to (its message key, parameters and
 * choices), carried in every button's callback data: a tap whose token is not the current
 * screen's comes from a stale keyboard.
 */
export function promptToken(prompt: Prompt): string {
  const shape = JSON.stringify([
    prompt.key,
    prompt.params ?? null,
    (prompt.choices ?? []).map((choice) => choice.id),
  ]);
  return createHash('sha256').update(shape).digest('base64url').slice(0, 8);
}

/** Reads a button's callback data: the screen's token (absent on older keyboards) and the id. */
export function parseCallbackData(data: string): { token?: string; id: string } {
  const at = data.indexOf(TOKEN_SEPARATOR);
  if (at < 0) return { id: data };
  return { token: data.slice(0, at), id: data.slice(at + TOKEN_SEPARATOR.length) };
}

/**
 * Turns a Prompt into a Telegram message: choices become an inline keyboard whose callback data is
 * the choice id, link attachments become URL buttons, `contact`/`phone` input gets a one-time
 * contact-request keyboard (on a message of its own before the screen when the screen has
 * buttons), document attachments are sent after the message. Each button's callback data is
 * `<screen token>~<choice id>` (see {@link promptToken}); `before` puts channel notices (a hint,
 * "that menu has expired") above the screen's text.
 */
export function toTelegramMessage(
  prompt: Prompt,
  render: RenderPrompt,
  locale: string,
  options: { readonly before?: readonly string[] } = {},
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
        fileName: attachmentFileName(prompt, attachment.fileName),
      });
  }

  const token = promptToken(prompt);
  const dataOf = (id: string) => `${token}${TOKEN_SEPARATOR}${id}`;
  const choices = rendered.choices.filter(
    (choice) => Buffer.byteLength(dataOf(choice.id), 'utf8') <= MAX_CALLBACK_DATA_BYTES,
  );
  const text = [...(options.before ?? []), rendered.text].join('\n\n');
  const asksPhone = prompt.input === 'contact' || prompt.input === 'phone';
  const contactKeyboard = () =>
    new Keyboard()
      .requestContact(renderKey(render, 'telegram.shareContact', locale))
      .oneTime()
      .resized();
  if (choices.length > 0 || links.length > 0) {
    // One button per row: labels are sentences, too long to sit side by side on a phone.
    const keyboard = InlineKeyboard.from([
      ...choices.map((choice) => [InlineKeyboard.text(choice.label, dataOf(choice.id))]),
      ...links.map((link) => [InlineKeyboard.url(link.label, link.url)]),
    ]);
    if (!asksPhone) return { text, replyMarkup: keyboard, links, documents, editable: true };
    // A message has one keyboard: the share button goes on a line of its own, sent first so the
    // screen with its buttons stays the newest message.
    const contactRequest = {
      text: renderKey(render, 'telegram.shareContactBelow', locale),
      replyMarkup: contactKeyboard(),
    };
    return { text, replyMarkup: keyboard, links, documents, contactRequest, editable: false };
  }
  if (asksPhone) return { text, replyMarkup: contactKeyboard(), links, documents, editable: false };
  // A contact keyboard from an earlier prompt would otherwise linger under every later message.
  return { text, replyMarkup: { remove_keyboard: true }, links, documents, editable: true };
}
