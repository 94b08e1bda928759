import type { RespondFn, types, webApi } from '@slack/bolt';
import { type Prompt, type RenderPrompt, renderKey } from '../../conversation/index.js';
import { maskFileText } from '../../privacy/index.js';
import { isShared, openDm, uploadFile } from './bolt/index.js';
import { toSlackMessage } from './render-slack-message.js';

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
  return isShared(target.channelId) ? openDm(target.client, target.userId) : target.channelId;
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
    // A register in a shared channel keeps its shape, not whom it lists.
    const fileMask = isShared(fileChannelId);
    for (const file of message.files) {
      await uploadFile(target.client, fileChannelId, file, (content) =>
        fileMask ? maskFileText(file.fileName, content) : content,
      );
    }
  };
}
