import type { types } from '@slack/bolt';
import { z } from 'zod';

/** The lookup modal's `callback_id`: its submissions and the taps on its buttons carry it. */
export const LOOKUP_CALLBACK = 'insure_lookup';
/** The `block_id` of the modal's command field (errors are shown under it). */
export const LOOKUP_BLOCK = 'lookup';
/** The `action_id` of the modal's command field. */
export const LOOKUP_INPUT = 'command';

// Slack's limit on the blocks of one view; the field and its divider keep their place.
const MAX_VIEW_BLOCKS = 100;

const ModalMetadata = z.object({ channelId: z.string().min(1).max(40) });

/** The channel a lookup modal was opened from, kept in its private metadata. */
export function channelOfModal(metadata: string | undefined): string | undefined {
  try {
    const parsed = ModalMetadata.safeParse(JSON.parse(metadata ?? ''));
    return parsed.success ? parsed.data.channelId : undefined;
  } catch {
    return undefined;
  }
}

/** One message key's text. */
type Text = (key: string) => string;

const frame = (channelId: string, text: Text) => ({
  type: 'modal' as const,
  callback_id: LOOKUP_CALLBACK,
  // Where files go and whether names are masked follow the conversation the modal came from.
  private_metadata: JSON.stringify({ channelId }),
  title: { type: 'plain_text' as const, text: text('slack.lookup.title') },
  close: { type: 'plain_text' as const, text: text('slack.lookup.close') },
});

/**
 * The lookup modal: an answer (when there is one) above the field for the next command. The
 * answer lives in the modal, seen by the staff member who asked and by nobody else.
 */
export function lookupModal(
  channelId: string,
  text: Text,
  answer: readonly types.KnownBlock[] = [],
): types.ModalView {
  const shown = answer.slice(0, MAX_VIEW_BLOCKS - 2);
  const field: types.InputBlock = {
    type: 'input',
    block_id: LOOKUP_BLOCK,
    label: { type: 'plain_text', text: text('slack.lookup.label') },
    hint: { type: 'plain_text', text: text('slack.lookup.hint') },
    element: { type: 'plain_text_input', action_id: LOOKUP_INPUT },
  };
  return {
    ...frame(channelId, text),
    submit: { type: 'plain_text', text: text('slack.lookup.submit') },
    blocks: [...shown, ...(shown.length > 0 ? [{ type: 'divider' as const }] : []), field],
  };
}

/** The answer to a lookup modal's submission that keeps it open with `message` under its field. */
export function fieldError(message: string) {
  return { response_action: 'errors' as const, errors: { [LOOKUP_BLOCK]: message } };
}

/** The modal while a look-up runs ("Looking up…"), or with one line instead of an answer. */
export function noticeModal(channelId: string, text: Text, key: string): types.ModalView {
  return {
    ...frame(channelId, text),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: text(key) } }],
  };
}

/** The App Home: a short explanation of the desk commands, then (when given) today's summary. */
export function homeView(body: string, summary: readonly types.KnownBlock[] = []): types.HomeView {
  const explanation: types.KnownBlock = { type: 'section', text: { type: 'mrkdwn', text: body } };
  return {
    type: 'home',
    blocks: summary.length > 0 ? [explanation, { type: 'divider' }, ...summary] : [explanation],
  };
}

/**
 * Block Kit's limits, as Slack publishes them: characters of a section's text, of one field and
 * of a button's text; fields in a section and elements in an actions block.
 */
export const BLOCK_KIT = {
  sectionChars: 3_000,
  fieldChars: 2_000,
  fields: 10,
  buttonChars: 75,
  elements: 25,
} as const;
