import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  createSlackChannel,
  type SlackChannel,
  signSlackRequest,
} from '../../../src/channels/slack/index.js';
import { SEED } from '../../../src/sandbox/index.js';
import { createRealStack, type RealStack } from '../telegram/real-stack.js';
import { silentLogger } from '../telegram/test-support.js';
import { FakeSlack } from './fake-slack.js';

const SIGNING_SECRET = 'staff-desk-secret';
const TEAM = 'T0DESK';
const STAFF = 'U0DESK';

let stack: RealStack;
let slack: FakeSlack;
let channel: SlackChannel;
let server: FastifyInstance;

beforeEach(async () => {
  stack = await createRealStack();
  slack = new FakeSlack();
  await slack.start();
  channel = createSlackChannel({
    botToken: 'xoxb-desk',
    signingSecret: SIGNING_SECRET,
    allowedUsers: [STAFF],
    engine: stack.engine,
    logger: silentLogger,
    clientOptions: { slackApiUrl: `${slack.baseUrl}/api/`, retryConfig: { retries: 0 } },
  });
  server = Fastify();
  channel.registerRoutes(server);
  await server.ready();
});

afterEach(async () => {
  await channel.stop();
  await server.close();
  await slack.stop();
  await stack.close();
});

async function insure(text: string, channelId: string): Promise<void> {
  const body = new URLSearchParams({
    command: '/insure',
    text,
    team_id: TEAM,
    user_id: STAFF,
    channel_id: channelId,
    response_url: `${slack.baseUrl}/respond/${channelId}`,
    trigger_id: `trigger-${channelId}-${text}`,
  }).toString();
  const timestamp = String(Math.floor(Date.now() / 1_000));
  const response = await server.inject({
    method: 'POST',
    url: '/slack/events',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signSlackRequest(SIGNING_SECRET, timestamp, body),
    },
    payload: body,
  });
  expect(response.statusCode).toBe(200);
}

it('answers /insure household on a fresh session through the real staff-desk flow', async () => {
  await insure(`household ${SEED.funeralPrincipalNrc}`, 'C0SHARED');
  await channel.stop();
  // One answer: the staff menu and the desk prompt were passed through, the command replayed.
  const answers = slack.callsTo('/respond').map((call) => call.body as { text: string });
  expect(answers).toHaveLength(1);
  expect(answers[0]?.text).toContain('GF-2025-000001');
});

it('offers the flow’s next steps as buttons when a policy is not found', async () => {
  await insure('policy NO-SUCH-POLICY', 'D0DIRECT');
  await channel.stop();
  const [answer] = slack
    .callsTo('/respond')
    .map((call) => call.body as { blocks: { type: string; elements?: { value?: string }[] }[] });
  const values = answer?.blocks.flatMap((block) => block.elements ?? []).map((e) => e.value);
  expect(values).toEqual(expect.arrayContaining(['retry', 'end']));
});
