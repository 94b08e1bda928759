import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { auditHeadKey, auditStreamKey } from '../../../src/privacy/index.js';
import { startTestServer, type TestServer } from '../../server/test-server.js';
import { eventually } from '../../support/eventually.js';
import { FakeSlack } from './fake-slack.js';
import { slackDeskClient } from './slack-desk-client.js';

// Issue 40: a look-up typed in the "Another lookup" modal is answered in the modal, where only
// the staff member who asked sees it, never posted to the channel the button was in; it is
// audited as the slash command is; "Looking up…" shows at once and the answer replaces it.

const SIGNING_SECRET = 'lookup-modal-secret';
const TEAM = 'T0DESK';
const STAFF = 'U0STAFF';
const SHARED = 'C0SHARED';

const slack = new FakeSlack();
let harness: TestServer;
let stream: string;
let sent = 0;

beforeAll(async () => {
  await slack.start();
  harness = await startTestServer({
    SLACK_BOT_TOKEN: 'xoxb-modal',
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: `${slack.baseUrl}/api`,
    SLACK_ALLOWED_USERS: STAFF,
    AUDIT_SECRET: 'lookup-modal-audit-secret-0123456789',
  });
  stream = auditStreamKey(harness.prefix);
});
afterAll(async () => {
  await harness.close();
  await slack.stop();
});
beforeEach(async () => {
  await harness.redis.del(stream, auditHeadKey(harness.prefix));
});

const desk = slackDeskClient({
  serverUrl: () => harness.url,
  slack,
  signingSecret: SIGNING_SECRET,
  user: STAFF,
  team: TEAM,
  channel: SHARED,
});

/** Posts an interactivity payload to the Slack route, signed as Slack signs it. */
function postPayload(payload: object) {
  return desk.post(new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
}

/** The lookup modal, opened from the shared channel, submitted with `typed`. */
function submit(typed: string, viewId: string) {
  sent += 1;
  return postPayload({
    type: 'view_submission',
    team: { id: TEAM, domain: 'desk' },
    user: { id: STAFF, team_id: TEAM },
    api_app_id: 'A1',
    token: 'legacy',
    trigger_id: `trigger-${sent}`,
    view: {
      id: viewId,
      team_id: TEAM,
      type: 'modal',
      callback_id: 'insure_lookup',
      private_metadata: JSON.stringify({ channelId: SHARED }),
      state: { values: { lookup: { command: { type: 'plain_text_input', value: typed } } } },
    },
  });
}

/** A tap on a button of the answer shown in modal `viewId`. */
function tapInModal(value: string, viewId: string) {
  sent += 1;
  return postPayload({
    type: 'block_actions',
    team: { id: TEAM, domain: 'desk' },
    user: { id: STAFF, team_id: TEAM },
    api_app_id: 'A1',
    token: 'legacy',
    trigger_id: `trigger-${sent}`,
    container: { type: 'view', view_id: viewId },
    view: {
      id: viewId,
      team_id: TEAM,
      type: 'modal',
      callback_id: 'insure_lookup',
      private_metadata: JSON.stringify({ channelId: SHARED }),
      state: { values: {} },
    },
    actions: [
      {
        type: 'button',
        action_id: `choice:${value}`,
        block_id: 'b1',
        value,
        action_ts: '1.0',
      },
    ],
  });
}

/** The views.update calls for one modal, each view as an object. */
function updatesOf(viewId: string) {
  return slack
    .callsTo('/api/views.update')
    .map((call) => call.body as { view_id?: string; view?: string })
    .filter((body) => body.view_id === viewId)
    .map(
      (body) =>
        JSON.parse(String(body.view)) as {
          blocks: { type: string; elements?: { value?: string }[] }[];
        },
    );
}

/** Whatever reached the conversation: posted, ephemeral, or through a response URL. */
const toConversation = () =>
  slack.calls.filter((call) =>
    ['/api/chat.postMessage', '/api/chat.postEphemeral', '/respond'].includes(call.path),
  ).length;

/** The stored audit entries' fields, oldest first. */
async function auditEntries(): Promise<Record<string, string>[]> {
  const rows = await harness.redis.xrange(stream, '-', '+');
  return rows.map(([, flat]) => {
    const fields: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i] as string] = flat[i + 1] as string;
    return fields;
  });
}

it('answers a modal look-up in the modal, says "Looking up…" at once, posts nothing, and audits it', async () => {
  const before = toConversation();
  const response = await submit('policy MTR-DEMO-000001', 'VMODAL1');
  expect(response.status).toBe(200);
  // The acknowledgement itself turns the modal into "Looking up…".
  const ack = JSON.parse(response.body) as { response_action?: string; view?: unknown };
  expect(ack.response_action).toBe('update');
  expect(JSON.stringify(ack.view)).toContain('Looking up…');

  await eventually('the answer replaced "Looking up…" in the modal', () =>
    updatesOf('VMODAL1').some((view) => JSON.stringify(view).includes('MTR-DEMO-000001')),
  );
  const answer = updatesOf('VMODAL1').at(-1);
  // The field for the next look-up stays under the answer.
  expect(answer?.blocks.at(-1)?.type).toBe('input');
  expect(toConversation()).toBe(before);

  await eventually('the look-up was audited', async () => (await auditEntries()).length >= 1);
  expect((await auditEntries())[0]).toMatchObject({
    who: `${TEAM}:${STAFF}`,
    route: 'modal',
    outcome: 'looked-up',
    what: 'policy MTR-DEMO-000001',
  });
});

it('keeps the buttons of an answer in the modal: another look-up and a choice, both private', async () => {
  const before = toConversation();
  await submit('claims', 'VMODAL2');
  await eventually('the claims answered in the modal', () => updatesOf('VMODAL2').length > 0);
  const opened = slack.callsTo('/api/views.open').length;
  const updates = () => updatesOf('VMODAL2').length;

  // "Another lookup" inside the modal gives the empty field again, in the same modal.
  const afterAnswer = updates();
  expect((await tapInModal('another', 'VMODAL2')).status).toBe(200);
  await eventually('the modal was cleared for another look-up', () => updates() > afterAnswer);
  expect(
    updatesOf('VMODAL2')
      .at(-1)
      ?.blocks.map((block) => block.type),
  ).toEqual(['input']);
  expect(slack.callsTo('/api/views.open')).toHaveLength(opened);

  // A choice tapped in the modal is audited as a button and answered there too.
  const afterAnother = updates();
  expect((await tapInModal('today', 'VMODAL2')).status).toBe(200);
  await eventually('the choice was answered in the modal', () => updates() >= afterAnother + 2);
  expect(JSON.stringify(updatesOf('VMODAL2')[afterAnother])).toContain('Looking up…');
  expect(toConversation()).toBe(before);
  await eventually('both look-ups were audited', async () => (await auditEntries()).length >= 2);
  expect((await auditEntries()).map((entry) => [entry.route, entry.what])).toEqual([
    ['modal', 'claims'],
    ['button', 'today'],
  ]);
});
