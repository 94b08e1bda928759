import type { Prompt, RenderedChoice, RenderedPrompt } from '../../conversation/index.js';
import { attachmentFileName, type RenderPrompt, renderKey } from '../shared/index.js';
import { type Row, WHATSAPP_LIMITS, type WhatsAppMessage } from './cloud-api/index.js';

/** A list row's id that asks for the next page of a long list: `wa.page:<n>`. */
export const PAGE_PREFIX = 'wa.page:';
/** A button answering a phone question with the sender's own number, which WhatsApp vouches for. */
export const OWN_NUMBER = 'wa.own-number';

/** Cuts `text` to `max` characters, ending with an ellipsis when something was cut. */
function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** Splits text into parts of at most `max` characters, at line breaks where it can. */
function splitText(text: string, max: number): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const cut = rest.lastIndexOf('\n', max);
    const at = cut > 0 ? cut : max;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^\n+/, '');
  }
  if (rest.length > 0 || parts.length === 0) parts.push(rest);
  return parts;
}

/** Text messages of at most 4096 characters each. */
const texts = (text: string): WhatsAppMessage[] =>
  splitText(text, WHATSAPP_LIMITS.textBody).map((body) => ({ type: 'text', text: { body } }));

/** The choices of one page of a long list: 9 and a "More" row while more follow. */
function pageOf(choices: RenderedPrompt['choices'], page: number, more: string) {
  const size = WHATSAPP_LIMITS.listRows - 1;
  const start = Math.min(page, Math.floor((choices.length - 1) / size)) * size;
  if (choices.length <= WHATSAPP_LIMITS.listRows) return [...choices];
  const shown = choices.slice(start, start + size);
  const next = start + size < choices.length ? start / size + 1 : 0;
  return [...shown, { id: `${PAGE_PREFIX}${next}`, label: more }];
}

/**
 * `text` cut at a word to at most `max` characters, without an ellipsis: a row's title is a
 * handle, and what it leaves out is in the row's description.
 */
function titleOf(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, max + 1).join('');
  const space = head.lastIndexOf(' ');
  const cut = space > 0 ? head.slice(0, space) : chars.slice(0, max).join('');
  return cut.replace(/[\s,:;(-]+$/u, '');
}

const fitsTitle = (text: string) => [...text].length <= WHATSAPP_LIMITS.rowTitle;

/**
 * A list row: the label as title when it fits; else the catalogue's short title (or, for
 * insurer data, the label cut at a word) with the whole label as the description. `shortened`:
 * the list already shows short titles, and this row follows suit when it has one.
 */
function rowOf(choice: RenderedChoice, shortened: boolean): Row {
  const title = shortened ? (choice.short ?? choice.label) : choice.label;
  if (title === choice.label && fitsTitle(title)) return { id: choice.id, title };
  return {
    id: choice.id,
    title: titleOf(title, WHATSAPP_LIMITS.rowTitle),
    description: clip(choice.label, WHATSAPP_LIMITS.rowDescription),
  };
}

/**
 * The rows of one list. When a label does not fit a title, every row with a short title shows
 * it (records all by their number, not some by number and some in words); two rows never read
 * the same (a repeated title gets its place in the list).
 */
function rowsOf(choices: readonly RenderedChoice[]): Row[] {
  const shortened = choices.some((choice) => !fitsTitle(choice.label));
  const rows = choices.map((choice) => rowOf(choice, shortened));
  const count = new Map<string, number>();
  for (const row of rows) count.set(row.title, (count.get(row.title) ?? 0) + 1);
  return rows.map((row, index) =>
    (count.get(row.title) ?? 0) > 1
      ? {
          ...row,
          title: titleOf(`${index + 1}. ${row.title}`, WHATSAPP_LIMITS.rowTitle),
          description: row.description ?? row.title,
        }
      : row,
  );
}

/** The interactive message for the choices, with `body` as its text (≤ 1024 characters). */
function choiceMessage(
  body: string,
  choices: RenderedPrompt['choices'],
  // The list's own button ("Choose"), in the customer's language.
  listButton: string,
): WhatsAppMessage {
  const short = choices.every((choice) => [...choice.label].length <= WHATSAPP_LIMITS.buttonTitle);
  if (choices.length <= WHATSAPP_LIMITS.buttons && short) {
    const buttons = choices.map((choice) => ({
      type: 'reply' as const,
      reply: { id: choice.id, title: choice.label },
    }));
    return {
      type: 'interactive',
      interactive: { type: 'button', body: { text: body }, action: { buttons } },
    };
  }
  const button = clip(listButton, WHATSAPP_LIMITS.listButton);
  return {
    type: 'interactive',
    interactive: {
      type: 'list',
      body: { text: body },
      action: { button, sections: [{ rows: rowsOf(choices) }] },
    },
  };
}

/** Options of {@link toWhatsAppMessages}. */
interface WhatsAppRenderOptions {
  /** Channel notices shown above the screen's text (a hint). */
  readonly before?: readonly string[];
  /** Which page of a list longer than 10 choices; default the first. */
  readonly page?: number;
}

/**
 * Turns a Prompt into WhatsApp messages: the text with its choices as up to 3 reply buttons or a
 * list of up to 10 rows (longer lists paged, "More" last), each link as a URL button, each document
 * as a document message under its file name. Text too long for an interactive body goes first as
 * plain text, split at line breaks.
 */
export function toWhatsAppMessages(
  prompt: Prompt,
  render: RenderPrompt,
  locale: string,
  options: WhatsAppRenderOptions = {},
): WhatsAppMessage[] {
  const rendered = render(prompt, locale);
  const text = [...(options.before ?? []), rendered.text].join('\n\n');
  const out: WhatsAppMessage[] = [];
  // Telegram's "share my contact", without the sharing: the number the message came from.
  const asksPhone = prompt.input === 'contact' || prompt.input === 'phone';
  const choices =
    rendered.choices.length === 0 && asksPhone
      ? [{ id: OWN_NUMBER, label: renderKey(render, 'ussd.useMyNumber', locale) }]
      : rendered.choices;
  if (choices.length === 0) out.push(...texts(text));
  else {
    const parts = splitText(text, WHATSAPP_LIMITS.interactiveBody);
    const body = parts.pop() ?? '';
    if (parts.length > 0) out.push(...texts(parts.join('\n')));
    const more = renderKey(render, 'ussd.more', locale);
    const listButton = renderKey(render, 'whatsapp.choose', locale);
    out.push(choiceMessage(body, pageOf(choices, options.page ?? 0, more), listButton));
  }
  for (const attachment of prompt.attachments ?? []) {
    const label = renderKey(render, attachment.label, locale);
    if (attachment.kind === 'link') {
      out.push({
        type: 'interactive',
        interactive: {
          type: 'cta_url',
          body: { text: clip(label, WHATSAPP_LIMITS.interactiveBody) },
          action: {
            name: 'cta_url',
            parameters: {
              display_text: clip(label, WHATSAPP_LIMITS.ctaDisplayText),
              url: attachment.url,
            },
          },
        },
      });
    } else {
      out.push({
        type: 'document',
        document: {
          link: attachment.url,
          filename: attachmentFileName(prompt, attachment.fileName),
          caption: clip(label, WHATSAPP_LIMITS.caption),
        },
      });
    }
  }
  return out;
}
