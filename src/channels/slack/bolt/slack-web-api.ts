import type { RespondFn, types, webApi } from '@slack/bolt';
// The file store's own limit: nothing it serves is larger.
import { MAX_FILE_BYTES } from '../../../files/index.js';
import { SlackChannelError } from './slack-channel-error.js';

/** A file to upload next to a message (the bordereau CSV). */
export interface SlackFile {
  readonly url: string;
  readonly title: string;
  readonly fileName: string;
}

/** A message as Slack takes it: its fallback text and its Block Kit blocks. */
interface SlackAnswer {
  readonly text: string;
  readonly blocks: types.KnownBlock[];
}

/** Where an answer to a request is put, and by which of Slack's three ways. */
export interface AnswerTarget {
  readonly channelId: string;
  readonly client: webApi.WebClient;
  /** The request's response URL; without it the answer goes by `chat.postMessage`. */
  readonly respond?: RespondFn;
  /** Shows the answer privately in place (the lookup modal): before `respond` and posting. */
  readonly show?: (answer: SlackAnswer) => Promise<void>;
}

/**
 * Puts an answer where the request came from: in place when it can be shown there, privately by
 * the response URL (ephemeral, the original kept), else posted to the conversation.
 */
export async function postAnswer(to: AnswerTarget, answer: SlackAnswer): Promise<void> {
  if (to.show) await to.show(answer);
  else if (to.respond) {
    await to.respond({ response_type: 'ephemeral', replace_original: false, ...answer });
  } else await to.client.chat.postMessage({ channel: to.channelId, ...answer });
}

/** The id of the direct-message conversation with `userId` (`conversations.open`). */
export async function openDm(client: webApi.WebClient, userId: string): Promise<string> {
  const opened = await client.conversations.open({ users: userId });
  const id = opened.channel?.id;
  if (!id) throw new SlackChannelError('SLACK_ADDRESS_INVALID', 'Slack opened no DM');
  return id;
}

/**
 * Fetches `file` from our file store and uploads it to `channelId` (`files.uploadV2`), its text
 * as `shown` makes it (masked where the conversation is shared).
 */
export async function uploadFile(
  client: webApi.WebClient,
  channelId: string,
  file: SlackFile,
  shown: (content: string) => string,
): Promise<void> {
  const response = await fetch(file.url);
  if (!response.ok) {
    throw new SlackChannelError('SLACK_FILE_UNAVAILABLE', `file fetch answered ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_FILE_BYTES) {
    throw new SlackChannelError('SLACK_FILE_UNAVAILABLE', 'file too large to upload');
  }
  await client.files.uploadV2({
    channel_id: channelId,
    filename: file.fileName,
    title: file.title,
    content: shown(await response.text()),
  });
}

/** Answers on a request's `response_url` with an ephemeral text (the apology after a failure). */
export async function respondEphemeral(responseUrl: string, text: string): Promise<void> {
  await fetch(responseUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ response_type: 'ephemeral', text }),
  });
}
