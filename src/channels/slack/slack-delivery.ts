import type { RespondFn, types, webApi } from '@slack/bolt';
import type { Prompt } from '../../conversation/index.js';
// The file store's own limit: nothing it serves is larger.
import { MAX_FILE_BYTES } from '../../files/index.js';
import { maskCsv, maskPersonalData } from '../../privacy/index.js';
import {
  type RenderPrompt,
  renderKey,
  type SlackFile,
  toSlackMessage,
} from './render-slack-message.js';
import { SlackChannelError } from './slack-channel-error.js';
import { isShared } from './slack-payload.js';

/** Where one answer goes: who asked, in which conversation, and how to reply there. */
export interface SlackTarget {
  readonly teamId: string;
  readonly userId: string;
  readonly channelId: string;
  /** The request's response URL; without it the answer goes by `chat.postMessage`. */
  readonly respond?: RespondFn;
  /**
   * Shows the answer privately in place (the lookup modal): taken before `respond` and
   * `chat.postMessage`, so nothing is posted to the conversation.
   */
  readonly show?: (answer: {
    readonly text: string;
    readonly blocks: types.KnownBlock[];
  }) => Promise<void>;
  readonly client: webApi.WebClient;
  /** Where files go: a channel named in the command; by default the requester's DM. */
  readonly fileChannelId?: string;
}

/** Delivers a Prompt to a {@link SlackTarget}: Block Kit, then its files (masked where shared). */
export type SlackDeliver = (prompt: Prompt, target: SlackTarget) => Promise<void>;

/** The channel files go to: the one named, the DM the command came from, or a new DM. */
async function fileChannelOf(target: SlackTarget): Promise<string> {
  if (target.fileChannelId) return target.fileChannelId;
  if (!isShared(target.channelId)) return target.channelId;
  const opened = await target.client.conversations.open({ users: target.userId });
  const id = opened.channel?.id;
  if (!id) throw new SlackChannelError('SLACK_ADDRESS_INVALID', 'Slack opened no DM');
  return id;
}

async function uploadFile(
  channelId: string,
  client: webApi.WebClient,
  file: SlackFile,
  mask: boolean,
): Promise<void> {
  const response = await fetch(file.url);
  if (!response.ok) {
    throw new SlackChannelError('SLACK_FILE_UNAVAILABLE', `file fetch answered ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_FILE_BYTES) {
    throw new SlackChannelError('SLACK_FILE_UNAVAILABLE', 'file too large to upload');
  }
  const content = await response.text();
  await client.files.uploadV2({
    channel_id: channelId,
    filename: file.fileName,
    title: file.title,
    // A register in a shared channel keeps its shape, not whom it lists.
    content: mask
      ? file.fileName.toLowerCase().endsWith('.csv')
        ? maskCsv(content)
        : maskPersonalData(content)
      : content,
  });
}

/** Creates the {@link SlackDeliver} of a renderer and locale. */
export function createSlackDelivery(render: RenderPrompt, locale: string): SlackDeliver {
  const text = (key: string, params?: Prompt['params']) => renderKey(render, key, locale, params);
  return async (prompt, target) => {
    const mask = isShared(target.channelId);
    const message = toSlackMessage(prompt, render, locale, { mask });
    // Files (the bordereau lists borrowers) go privately to the requester unless a channel was
    // named; the answer says where they went.
    const fileChannelId = message.files.length > 0 ? await fileChannelOf(target) : undefined;
    const blocks: typeof message.blocks = [...message.blocks];
    if (fileChannelId && fileChannelId !== target.channelId) {
      const where = target.fileChannelId
        ? text('slack.fileSentTo', { channel: `<#${fileChannelId}>` })
        : text('slack.fileSentPrivately');
      blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: where }] });
    }
    if (target.show) await target.show({ text: message.text, blocks });
    else if (target.respond) {
      await target.respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: message.text,
        blocks,
      });
    } else {
      await target.client.chat.postMessage({
        channel: target.channelId,
        text: message.text,
        blocks,
      });
    }
    if (!fileChannelId) return;
    const fileMask = isShared(fileChannelId);
    for (const file of message.files)
      await uploadFile(fileChannelId, target.client, file, fileMask);
  };
}
