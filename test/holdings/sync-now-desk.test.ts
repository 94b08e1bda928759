import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditStreamKey } from '../../src/privacy/index.js';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { signSlackRequest } from '../channels/slack/sign-slack-request.js';
import { sandboxOf, startTestServer, type TestServer } from '../server/test-server.js';
import { eventually } from '../support/eventually.js';

// Issue 36: staff run the holdings sync now with `/insure sync`, recorded in the staff audit like
// every desk look-up. Through the real server, Redis, the Slack route and the embedded sandbox.

const SIGNING_SECRET = 'sync-now-signing-secret';
const TEAM = 'T0DESK';
const STAFF = 'U0STAFF';

const slack = new FakeSlack();
let harness: TestServer;

beforeAll(async () => {
  await slack.start();
  harness = await startTestServer({
    SLACK_BOT_TOKEN: 'xoxb-sync',
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: `${slack.baseUrl}/api`,
    SLACK_ALLOWED_USERS: STAFF,
    SLACK_AUDIT_ADMINS: STAFF,
    AUDIT_SECRET: 'sync-now-audit-secret-0123456789',
  });
}, 60_000);
afterAll(async () => {
  await harness?.close();
  await slack.stop();
});

it('indexes at once what the insurer added, answers in Slack and is audited', async () => {
  const id = `trv_desk_${Date.now()}`;
  const seeded = [...sandboxOf(harness).state.policies.values()].find((p) => p.line === 'motor');
  if (!seeded) throw new Error('no seeded policy');
  const now = new Date().toISOString();
  sandboxOf(harness).state.policies.set(id, {
    ...seeded,
    id,
    line: 'travel',
    registrationNumbers: [],
    destination: 'Kenya',
    policyNumber: `TRV-DESK-${id.slice(-6)}`,
    clientId: null,
    policyHolder: { idType: 'NRC', idNumber: '717171/71/1', phone: '260977717171' },
    createdAt: now,
    updatedAt: now,
  });
  const held = async () =>
    (await harness.server.holdings.ofNrcs(['717171/71/1']))[0]?.refs.map((ref) => ref.policyId);
  expect(await held()).toEqual([]);

  const body = new URLSearchParams({
    command: '/insure',
    text: 'sync',
    team_id: TEAM,
    user_id: STAFF,
    channel_id: 'D0STAFF',
    response_url: `${slack.baseUrl}/respond/1`,
    trigger_id: 'trigger-1',
  }).toString();
  const timestamp = String(Math.floor(Date.now() / 1_000));
  const response = await fetch(`${harness.url}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signSlackRequest(SIGNING_SECRET, timestamp, body),
    },
    body,
  });
  expect(response.status).toBe(200);
  await eventually('the desk answered the sync', () =>
    slack.calls.some((call) =>
      /Holdings index synced\* · every list complete/.test(JSON.stringify(call.body)),
    ),
  );
  expect(await held()).toEqual([id]);

  const rows = await harness.redis.xrange(auditStreamKey(harness.prefix), '-', '+');
  const whats = rows.map(([, flat]) => flat[flat.indexOf('what') + 1]);
  expect(whats).toContain('sync');
}, 60_000);
