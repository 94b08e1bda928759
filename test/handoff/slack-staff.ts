import { expect } from 'vitest';
import type { FakeSlack, SlackCall } from '../channels/slack/fake-slack.js';
import { signSlackRequest } from '../channels/slack/sign-slack-request.js';
import { eventually } from '../support/eventually.js';

/** One message insurechat posted in the local Slack, as its Web API client sent it. */
export interface PostedMessage {
  readonly channel: string;
  readonly text: string;
  readonly threadTs: string | undefined;
  /** The blocks as JSON text (the client sends them form-encoded). */
  readonly blocks: string;
}

function asPosted(call: SlackCall): PostedMessage {
  const body = (call.body ?? {}) as Record<string, unknown>;
  const text = (value: unknown) =>
    typeof value === 'string' ? value : JSON.stringify(value ?? '');
  return {
    channel: text(body.channel),
    text: text(body.text),
    threadTs: typeof body.thread_ts === 'string' ? body.thread_ts : undefined,
    blocks: text(body.blocks),
  };
}

/**
 * Staff in the handoff channel of a local Slack: what insurechat posted there, and their replies
 * and Resolve clicks sent to the server signed as Slack signs them.
 */
export function slackStaff(options: {
  readonly slack: FakeSlack;
  readonly signingSecret: string;
  readonly channel: string;
}) {
  const { slack, signingSecret, channel } = options;
  let eventId = 0;

  // Only what Slack accepted (a refused call got no ts).
  const accepted = () =>
    slack.callsTo('/api/chat.postMessage').filter((call) => call.ts !== undefined);
  const posted = (): PostedMessage[] =>
    accepted()
      .map(asPosted)
      .filter((message) => message.channel === channel);
  const rootCount = () => posted().filter((message) => message.threadTs === undefined).length;
  // Threads opened before these staff arrived are not theirs to wait for.
  let seenRoots = rootCount();

  const send = async (
    serverUrl: string,
    body: string,
    contentType: string,
    signature?: string,
  ): Promise<number> => {
    const timestamp = String(Math.floor(Date.now() / 1_000));
    const response = await fetch(`${serverUrl}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': signature ?? signSlackRequest(signingSecret, timestamp, body),
      },
      body,
    });
    return response.status;
  };

  return {
    posted,
    /** Waits for the next thread root in the handoff channel and returns it with its ts. */
    async threadOpened(): Promise<PostedMessage & { readonly ts: string }> {
      seenRoots += 1;
      const count = seenRoots;
      await eventually('a handoff thread was opened in Slack', () => rootCount() >= count);
      const roots = accepted()
        .map((call) => ({ ...asPosted(call), ts: call.ts ?? '' }))
        .filter((message) => message.channel === channel && message.threadTs === undefined);
      return roots[count - 1] as PostedMessage & { readonly ts: string };
    },
    /** What insurechat posted into one thread. */
    inThread: (threadTs: string) => posted().filter((message) => message.threadTs === threadTs),
    /** A staff member's message in the thread, as the Events API delivers it. */
    reply(
      serverUrl: string,
      threadTs: string,
      text: string,
      signature?: string,
      /** More event fields: `bot_id` for the bot's own post, `subtype` for an edit. */
      extra: Record<string, unknown> = {},
    ): Promise<number> {
      eventId += 1;
      const body = JSON.stringify({
        type: 'event_callback',
        team_id: 'T0STAFF',
        event_id: `Ev0HANDOFF${Date.now()}${eventId}`,
        event: {
          type: 'message',
          channel,
          user: 'U0AGENT',
          text,
          ts: `1800000000.${String(eventId).padStart(6, '0')}`,
          thread_ts: threadTs,
          ...extra,
        },
      });
      return send(serverUrl, body, 'application/json', signature);
    },
    /**
     * A click on a button of a message inside the thread (`messageTs`), as Slack's interactivity
     * delivers it: Reopen on the closed notice.
     */
    click(serverUrl: string, threadTs: string, actionId: string, messageTs: string) {
      const payload = JSON.stringify({
        type: 'block_actions',
        team: { id: 'T0STAFF' },
        user: { id: 'U0AGENT', team_id: 'T0STAFF' },
        channel: { id: channel },
        container: {
          type: 'message',
          channel_id: channel,
          message_ts: messageTs,
          thread_ts: threadTs,
        },
        trigger_id: `trigger-${Date.now()}`,
        actions: [{ type: 'button', action_id: actionId, value: 'reopen', action_ts: '1.0' }],
      });
      return send(
        serverUrl,
        new URLSearchParams({ payload }).toString(),
        'application/x-www-form-urlencoded',
      );
    },
    /** A click on the thread root's Resolve button, as Slack's interactivity delivers it. */
    resolve(serverUrl: string, threadTs: string): Promise<number> {
      const payload = JSON.stringify({
        type: 'block_actions',
        team: { id: 'T0STAFF' },
        user: { id: 'U0AGENT', team_id: 'T0STAFF' },
        channel: { id: channel },
        container: { type: 'message', channel_id: channel, message_ts: threadTs },
        trigger_id: `trigger-${Date.now()}`,
        actions: [
          { type: 'button', action_id: 'handoff.resolve', value: 'resolve', action_ts: '1.0' },
        ],
      });
      const body = new URLSearchParams({ payload }).toString();
      return send(serverUrl, body, 'application/x-www-form-urlencoded');
    },
  };
}

/** Asserts a Slack text shows no NRC or phone number in clear. */
export function expectMasked(text: string, clear: readonly string[]): void {
  for (const value of clear) expect(text).not.toContain(value);
}
