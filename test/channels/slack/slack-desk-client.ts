import { expect } from 'vitest';
import { eventually } from '../../support/eventually.js';
import type { FakeSlack } from './fake-slack.js';
import { signSlackRequest } from './sign-slack-request.js';

/** Who is asking, and where: the staff member, their workspace and the channel they type in. */
export interface SlackDeskCaller {
  /** The server's base URL, read when a request goes (servers start after the client is made). */
  readonly serverUrl: () => string;
  readonly slack: FakeSlack;
  readonly signingSecret: string;
  readonly user: string;
  readonly team: string;
  readonly channel: string;
}

/** The desk's answer to one `/insure`: the body posted to its response_url. */
export interface DeskAnswer {
  /** The answer as JSON text, for `toContain` on what it shows. */
  readonly text: string;
  readonly ephemeral: boolean;
}

/** Signed requests to the server's Slack route, as a staff member's Slack sends them. */
export interface SlackDeskClient {
  /** Posts `body` signed with the caller's secret; the HTTP status and raw answer. */
  post(
    body: string,
    contentType?: string,
  ): Promise<{ readonly status: number; readonly body: string }>;
  /** `/insure <text>`; resolves the answer sent to its response_url (never "Looking up…"). */
  insure(
    text: string,
    options?: { readonly user?: string; readonly channel?: string },
  ): Promise<DeskAnswer>;
}

// Across every client of a test file, so two clients' response_urls never share an id.
let asked = 0;

/**
 * One home for the signed `/insure` round trip the server tests make: each test used to write its
 * own signing, form body and wait for the response_url.
 */
export function slackDeskClient(caller: SlackDeskCaller): SlackDeskClient {
  const post: SlackDeskClient['post'] = async (
    body,
    contentType = 'application/x-www-form-urlencoded',
  ) => {
    const timestamp = String(Math.floor(Date.now() / 1_000));
    const response = await fetch(`${caller.serverUrl()}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': signSlackRequest(caller.signingSecret, timestamp, body),
      },
      body,
    });
    return { status: response.status, body: await response.text() };
  };
  return {
    post,
    async insure(text, options = {}) {
      asked += 1;
      const respondId = `${caller.user}-${asked}`;
      const { status } = await post(
        new URLSearchParams({
          command: '/insure',
          text,
          team_id: caller.team,
          user_id: options.user ?? caller.user,
          channel_id: options.channel ?? caller.channel,
          response_url: `${caller.slack.baseUrl}/respond/${respondId}`,
          trigger_id: `trigger-${caller.user}-${asked}`,
        }).toString(),
      );
      expect(status).toBe(200);
      // An interim "Looking up…" may come first: the answer is the first response that is not it.
      const body = await eventually(`the desk answered ${text}`, () =>
        caller.slack
          .callsTo('/respond')
          .filter((call) => call.respondId === respondId)
          .map((call) => call.body as { response_type?: string })
          .find((answer) => !JSON.stringify(answer).includes('Looking up')),
      );
      return { text: JSON.stringify(body), ephemeral: body.response_type === 'ephemeral' };
    },
  };
}
