import type { types } from '@slack/bolt';
import { type Prompt, type RenderPrompt, renderKey } from '../../conversation/index.js';
import { maskPersonalData, maskPromptNames } from '../../privacy/index.js';
import { BLOCK_KIT, escapeMrkdwn, type SlackFile } from './bolt/index.js';

/** What one Prompt becomes in Slack: a message with Block Kit blocks, then its files. */
interface SlackMessage {
  /** Plain fallback for notifications and screen readers. */
  readonly text: string;
  readonly blocks: types.KnownBlock[];
  readonly files: readonly SlackFile[];
}

/** Options of {@link toSlackMessage}. */
interface SlackRenderOptions {
  /** Mask names, NRCs and phone numbers: true everywhere but a direct message. */
  readonly mask: boolean;
}

/** Prefix of the `action_id` of a choice button; the button's value is the choice id. */
export const CHOICE_ACTION_PREFIX = 'choice:';
/** Prefix of the `action_id` of a link button (Slack still sends an action when it is clicked). */
export const LINK_ACTION_PREFIX = 'link:';

// Slack user ids are capitals and digits: anything else in `who` is shown as text, never a mention.
const USER_ID = /^[UW][A-Z0-9]{2,}$/;

/**
 * How the staff audit's reading shows an entry in mrkdwn: `who` (`<team>:<user>`) as a mention of
 * the user, or as text when it is not an id; `what` as inert text: `&`, `<`, `>` escaped (no
 * mention, channel ping or link can form), inside inline code so `*`, `_` and `~` format nothing,
 * a backtick (which would end the code) shown as a similar mark.
 */
export const auditShown = {
  who(who: string): string {
    const user = who.split(':').at(-1) ?? who;
    return USER_ID.test(user) ? `<@${user}>` : escapeMrkdwn(who);
  },
  what: (what: string): string => `\`${escapeMrkdwn(what.replace(/`/g, 'ˋ'))}\``,
};

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** True when an attachment should be uploaded as a file rather than linked. */
function isUpload(attachment: NonNullable<Prompt['attachments']>[number]): boolean {
  return (
    attachment.kind === 'document' || attachment.fileName?.toLowerCase().endsWith('.csv') === true
  );
}

/**
 * Turns a Prompt into Block Kit: a section with its message; its notes below, those shaped
 * `label\nvalue` as a grid of fields (a result's details), the rest as lines; an actions block with
 * one button per choice (`action_id` `choice:<id>`, value the choice id) and URL buttons for links;
 * documents and CSV attachments become files to upload. In shared channels names become initials
 * and NRCs and phone numbers are masked.
 */
export function toSlackMessage(
  prompt: Prompt,
  render: RenderPrompt,
  locale: string,
  options: SlackRenderOptions,
): SlackMessage {
  const shown = (text: string) => (options.mask ? maskPersonalData(text) : text);
  const visible = options.mask ? maskPromptNames(prompt) : prompt;
  const rendered = render(visible, locale);
  const text = shown(rendered.text);
  const headline = shown(render({ ...visible, notes: [] }, locale).text);
  const notes = (visible.notes ?? []).map((note) =>
    shown(renderKey(render, note.key, locale, note.params)),
  );
  const fields = notes.filter((note) => note.includes('\n'));
  const lines = notes.filter((note) => !note.includes('\n'));
  const section = (body: string): types.KnownBlock => ({
    type: 'section',
    text: { type: 'mrkdwn', text: clip(escapeMrkdwn(body), BLOCK_KIT.sectionChars) },
  });
  const blocks: types.KnownBlock[] = [section(headline)];
  for (let start = 0; start < fields.length; start += BLOCK_KIT.fields) {
    blocks.push({
      type: 'section',
      fields: fields.slice(start, start + BLOCK_KIT.fields).map((field) => ({
        type: 'mrkdwn',
        text: clip(escapeMrkdwn(field), BLOCK_KIT.fieldChars),
      })),
    });
  }
  if (lines.length > 0) blocks.push(section(lines.join('\n')));

  const elements: types.Button[] = rendered.choices.map((choice) => ({
    type: 'button',
    action_id: `${CHOICE_ACTION_PREFIX}${choice.id}`,
    value: choice.id,
    text: { type: 'plain_text', text: clip(shown(choice.label), BLOCK_KIT.buttonChars) },
  }));
  const files: SlackFile[] = [];
  (prompt.attachments ?? []).forEach((attachment, index) => {
    const label = renderKey(render, attachment.label, locale);
    if (isUpload(attachment)) {
      files.push({ url: attachment.url, title: label, fileName: attachment.fileName ?? 'file' });
      return;
    }
    // A link with a file name (a claim document) says which file it opens.
    const caption = attachment.fileName ? `${label} ${attachment.fileName}` : label;
    elements.push({
      type: 'button',
      action_id: `${LINK_ACTION_PREFIX}${index}`,
      url: attachment.url,
      text: { type: 'plain_text', text: clip(caption, BLOCK_KIT.buttonChars) },
    });
  });
  for (let start = 0; start < elements.length; start += BLOCK_KIT.elements) {
    blocks.push({ type: 'actions', elements: elements.slice(start, start + BLOCK_KIT.elements) });
  }
  return { text, blocks, files };
}
