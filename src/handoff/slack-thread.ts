import type { types, webApi } from '@slack/bolt';
import { z } from 'zod';
import { escapeMrkdwn } from '../channels/slack/index.js';
import {
  type ChannelName,
  type Prompt,
  renderPrompt,
  type SessionGlance,
  t,
} from '../conversation/index.js';
import { CodedError } from '../errors/index.js';
import { maskName, maskNameParams, maskPersonalData } from '../privacy/index.js';

/** `action_id` of the Resolve button on a handoff's thread root. */
export const RESOLVE_ACTION = 'handoff.resolve';
/** `action_id` of the Reopen button on the notice a staff reply after Resolve gets. */
export const REOPEN_ACTION = 'handoff.reopen';

/** Raised when Slack does not accept a handoff message. */
export class HandoffSlackError extends CodedError<'HANDOFF_SLACK_FAILED'> {
  override readonly name = 'HandoffSlackError';
  constructor(message: string, options?: { readonly cause?: unknown }) {
    super('HANDOFF_SLACK_FAILED', message, options);
  }
}

/** The Slack Web API calls a handoff makes (a `WebClient` has them; tests may fake them). */
export interface HandoffSlackClient {
  readonly chat: Pick<webApi.WebClient['chat'], 'postMessage' | 'update'>;
  /** Customer files go into the thread (`files:write`); without it they are refused. */
  readonly files?: Pick<webApi.WebClient['files'], 'uploadV2'>;
}

/** A customer's words for a shared staff channel: masked, escaped, clipped. */
export function customerText(text: string, max = 2_000): string {
  const masked = escapeMrkdwn(maskPersonalData(text));
  return masked.length <= max ? masked : `${masked.slice(0, max - 1)}…`;
}

/**
 * A staff reply as plain text for a customer: Slack's mentions, channel links and URL markup
 * turned back into words, its escapes undone.
 */
export function staffText(text: string): string {
  return text
    .replace(/<@[UW][A-Z0-9]+(?:\|([^>]*))?>/g, (_whole, label: string | undefined) =>
      label ? `@${label}` : '@staff',
    )
    .replace(/<#[CG][A-Z0-9]+\|([^>]*)>/g, '#$1')
    .replace(/<!(?:here|channel|everyone)[^>]*>/g, '')
    .replace(/<((?:https?|mailto|tel):[^|>]+)\|([^>]+)>/g, '$2 ($1)')
    .replace(/<((?:https?|mailto|tel):[^>]+)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
}

// `firstName`, `lastName`, `holder`…; not `holderPhone` or `holderNrc` (masked as such below).
const NAME_KEY = /^(?:\w*name|holder|principal)$/i;
const MAX_ANSWERS = 12;

/**
 * The flow's answers as `key: value` lines: top-level words and numbers only (ids, plates,
 * dates, amounts), names reduced to initials, NRCs and phone numbers masked.
 */
function describeAnswers(answers: unknown): string[] {
  if (typeof answers !== 'object' || answers === null) return [];
  const lines: string[] = [];
  for (const [key, value] of Object.entries(answers)) {
    if (lines.length >= MAX_ANSWERS) break;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
      continue;
    const shown = typeof value === 'string' && NAME_KEY.test(key) ? maskName(value) : String(value);
    lines.push(`${key}: ${customerText(shown, 80)}`);
  }
  return lines;
}

/** Where the customer is, masked: a phone number keeps its last three digits. */
function describeCustomer(channel: ChannelName, address: string): string {
  if (channel === 'ussd') return maskPersonalData(`+${address.replace(/^\+/, '')}`);
  return `${'•'.repeat(Math.max(address.length - 3, 0))}${address.slice(-3)}`;
}

/** What staff see of the conversation when a handoff opens. */
export interface HandoffContext {
  readonly channel: ChannelName;
  readonly address: string;
  readonly locale: string;
  readonly glance: SessionGlance | undefined;
}

const say = (key: string, params?: Record<string, string>) => t(key, params);

/** The step the customer is on, as they see it (rendered with its choices), masked. */
function describeStep(prompt: Prompt | undefined, locale: string): string {
  if (!prompt) return say('handoff.slack.noStep');
  const params = maskNameParams(prompt.params);
  const rendered = renderPrompt({ ...prompt, ...(params ? { params } : {}) }, locale);
  const choices = rendered.choices.map((choice, index) => `${index + 1}. ${choice.label}`);
  return customerText([rendered.text, ...choices].join('\n'), 1_500);
}

/** The thread root: who asks, where they are in which flow, what they answered, and Resolve. */
export function handoffRootBlocks(context: HandoffContext): {
  text: string;
  blocks: types.KnownBlock[];
} {
  const channel = say(`handoff.slack.channel.${context.channel}`);
  const title = say('handoff.slack.title', { channel });
  const answers = describeAnswers(context.glance?.answers);
  const fields: types.MrkdwnElement[] = [
    {
      type: 'mrkdwn',
      text: `*${say('handoff.slack.customer')}*\n${describeCustomer(context.channel, context.address)}`,
    },
    {
      type: 'mrkdwn',
      text: `*${say('handoff.slack.flow')}*\n${context.glance?.flowId ?? say('handoff.slack.noFlow')}`,
    },
  ];
  const blocks: types.KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `*${title}*` }, fields },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `*${say('handoff.slack.step')}*\n${describeStep(context.glance?.prompt, context.locale)}`,
      },
    },
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `*${say('handoff.slack.answers')}*\n${answers.length > 0 ? answers.join('\n') : say('handoff.slack.noAnswers')}`,
      },
    },
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: say('handoff.slack.howTo') }],
    },
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: RESOLVE_ACTION,
          style: 'primary',
          text: { type: 'plain_text', text: say('handoff.slack.resolve') },
          value: 'resolve',
        },
      ],
    },
  ];
  return { text: title, blocks };
}

/** The root once the handoff ended: the same context, Resolve replaced by who ended it. */
export function endedRootBlocks(
  blocks: readonly unknown[],
  endedBy: { readonly staffUserId: string } | 'customer',
): types.KnownBlock[] {
  const kept = blocks.filter(
    (block): block is types.KnownBlock =>
      typeof block === 'object' &&
      block !== null &&
      (block as { type?: unknown }).type !== 'actions',
  );
  const note =
    endedBy === 'customer'
      ? say('handoff.slack.endedByCustomer')
      : say('handoff.slack.resolvedBy', { user: `<@${endedBy.staffUserId}>` });
  return [...kept, { type: 'context', elements: [{ type: 'mrkdwn', text: note }] }];
}

/** A file a staff member attached to a thread reply, as the Events API describes it. */
export const StaffFile = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  title: z.string().optional(),
  mimetype: z.string().optional(),
  size: z.number().optional(),
  url_private_download: z.string().optional(),
});
/** A file a staff member attached to a thread reply. */
export type StaffFile = z.infer<typeof StaffFile>;

// What Slack sends: a message event in a thread, or a click on Resolve or Reopen. A reply sent
// "also to the channel" (`thread_broadcast`) or with files (`file_share`) is a reply all the
// same; every other subtype (edits, deletions, joins, bot messages) is not.
const ThreadMessageBody = z.looseObject({
  type: z.literal('event_callback'),
  event: z.looseObject({
    type: z.literal('message'),
    channel: z.string(),
    user: z.string(),
    text: z.string().optional(),
    ts: z.string(),
    thread_ts: z.string(),
    subtype: z.enum(['thread_broadcast', 'file_share']).optional(),
    bot_id: z.undefined().optional(),
    files: z.array(StaffFile).optional(),
  }),
});
const ActionBody = z.looseObject({
  type: z.literal('block_actions'),
  user: z.looseObject({ id: z.string() }),
  container: z.looseObject({
    channel_id: z.string(),
    message_ts: z.string(),
    thread_ts: z.string().optional(),
  }),
  actions: z.array(z.looseObject({ action_id: z.string(), value: z.string().optional() })).min(1),
});

/** A Slack request that belongs to a handoff. */
export type HandoffSlackEvent =
  | {
      readonly kind: 'reply';
      readonly slackChannel: string;
      readonly threadTs: string;
      readonly userId: string;
      /** The reply's own ts: a reply kept for a Reopen is delivered once. */
      readonly ts: string;
      readonly text: string;
      readonly files: readonly StaffFile[];
    }
  | {
      readonly kind: 'resolve' | 'reopen';
      readonly slackChannel: string;
      readonly threadTs: string;
      readonly userId: string;
    };

/**
 * Reads a Slack request as a handoff's, or undefined when it is not one: a person's message in a
 * thread of the handoff channel (not the bot's own, not an edit or a join; a broadcast or one
 * with files is), or a click on Resolve or Reopen there.
 */
export function readHandoffEvent(
  body: unknown,
  handoffChannel: string,
): HandoffSlackEvent | undefined {
  const message = ThreadMessageBody.safeParse(body);
  if (message.success) {
    const event = message.data.event;
    // A thread's root carries its own ts as thread_ts once replied to; it is not a reply.
    if (event.channel !== handoffChannel || event.thread_ts === event.ts) return undefined;
    return {
      kind: 'reply',
      slackChannel: event.channel,
      threadTs: event.thread_ts,
      userId: event.user,
      ts: event.ts,
      text: event.text ?? '',
      files: event.files ?? [],
    };
  }
  const action = ActionBody.safeParse(body);
  if (!action.success) return undefined;
  const { container, actions, user } = action.data;
  if (container.channel_id !== handoffChannel) return undefined;
  if (actions.some((entry) => entry.action_id === RESOLVE_ACTION)) {
    return {
      kind: 'resolve',
      slackChannel: container.channel_id,
      threadTs: container.message_ts,
      userId: user.id,
    };
  }
  // Reopen sits on a notice inside the thread: the thread is its root's ts.
  const threadTs = container.thread_ts;
  if (!threadTs || !actions.some((entry) => entry.action_id === REOPEN_ACTION)) return undefined;
  return { kind: 'reopen', slackChannel: container.channel_id, threadTs, userId: user.id };
}

/** The thread's answer to a staff reply after the handoff ended: it is closed, Reopen? */
export function closedNoticeBlocks(): { text: string; blocks: types.KnownBlock[] } {
  const text = say('handoff.slack.closed');
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text } },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: REOPEN_ACTION,
            text: { type: 'plain_text', text: say('handoff.slack.reopen') },
            value: 'reopen',
          },
        ],
      },
    ],
  };
}
