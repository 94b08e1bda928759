import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackChannel, type SlackChannel } from '../../../src/channels/slack/index.js';
import { CountingEngine } from '../../support/counting-engine.js';
import { createRealStack, type RealStack } from '../telegram/real-stack.js';
import { silentLogger } from '../telegram/test-support.js';
import { FakeSlack } from './fake-slack.js';
import { signSlackRequest } from './sign-slack-request.js';

const SIGNING_SECRET = 'engine-calls-secret';
const TEAM = 'T0COUNT';
const STAFF = 'U0COUNT';
const DM = 'D0COUNT';

const slashCommand = (text: string, respondTo: string) =>
  new URLSearchParams({
    command: '/insure',
    text,
    team_id: TEAM,
    user_id: STAFF,
    channel_id: DM,
    response_url: respondTo,
    trigger_id: 'trigger',
  }).toString();

const interaction = (payload: object) =>
  new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

const tap = (value: string) =>
  interaction({
    type: 'block_actions',
    team: { id: TEAM, domain: 'desk' },
    user: { id: STAFF, team_id: TEAM },
    channel: { id: DM, name: 'directmessage' },
    api_app_id: 'A1',
    token: 'legacy',
    trigger_id: 'trigger',
    actions: [
      {
        type: 'button',
        action_id: `choice:${value}`,
        block_id: 'b1',
        value,
        text: { type: 'plain_text', text: value },
        action_ts: '1.0',
      },
    ],
  });

const lookupSubmitted = (command: string) =>
  interaction({
    type: 'view_submission',
    team: { id: TEAM, domain: 'desk' },
    user: { id: STAFF, team_id: TEAM },
    api_app_id: 'A1',
    token: 'legacy',
    trigger_id: 'trigger',
    view: {
      id: 'V1',
      team_id: TEAM,
      type: 'modal',
      callback_id: 'insure_lookup',
      private_metadata: JSON.stringify({ channelId: DM }),
      state: { values: { lookup: { command: { type: 'plain_text_input', value: command } } } },
    },
  });

const homeOpened = JSON.stringify({
  type: 'event_callback',
  team_id: TEAM,
  api_app_id: 'A1',
  event_id: 'Ev1',
  event_time: 1,
  event: { type: 'app_home_opened', user: STAFF, channel: DM, tab: 'home' },
});

// Issue 26: a channel only carries messages; a slash command was three turns steered by the staff
// menu, and is now one start of the staff desk.
describe('Slack channel: one engine call per inbound request', () => {
  let stack: RealStack;
  let slack: FakeSlack;
  let engine: CountingEngine;
  let channel: SlackChannel;
  let server: FastifyInstance;

  beforeAll(async () => {
    stack = await createRealStack();
    slack = new FakeSlack();
    await slack.start();
    engine = new CountingEngine(stack.engine);
    channel = createSlackChannel({
      botToken: 'xoxb-count',
      signingSecret: SIGNING_SECRET,
      allowedUsers: [STAFF],
      engine,
      logger: silentLogger,
      clientOptions: { slackApiUrl: `${slack.baseUrl}/api/`, retryConfig: { retries: 0 } },
    });
    server = Fastify();
    channel.registerRoutes(server);
    await server.ready();
  });

  afterAll(async () => {
    await channel?.stop();
    await server?.close();
    await slack?.stop();
    await stack?.close();
  });

  const respondUrl = () => `${slack.baseUrl}/respond/1`;

  /** Posts one signed request, waits until it is handled and returns the engine calls made. */
  async function callsFor(body: string, contentType: string): Promise<number> {
    engine.reset();
    const timestamp = String(Math.floor(Date.now() / 1_000));
    const response = await server.inject({
      method: 'POST',
      url: '/slack/events',
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': signSlackRequest(SIGNING_SECRET, timestamp, body),
      },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    // Waits for the work Slack was acknowledged before.
    await channel.stop();
    return engine.calls;
  }

  const form = 'application/x-www-form-urlencoded';
  it.each([
    ['a slash command', () => slashCommand('policy NO-SUCH-POLICY', respondUrl()), form],
    ['a slash command without arguments', () => slashCommand('claims', respondUrl()), form],
    ['a tap on a desk choice', () => tap('policy'), form],
    ['a lookup typed in the modal', () => lookupSubmitted('claims'), form],
    ['the App Home opened', () => homeOpened, 'application/json'],
  ])('%s: one engine call', async (_name, body, contentType) => {
    expect(await callsFor(body(), contentType)).toBe(1);
  });
});
