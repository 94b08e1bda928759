import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { slackDeskClient } from '../channels/slack/slack-desk-client.js';
import { eventually } from '../support/eventually.js';
import { startTestServer, type TestServer } from './test-server.js';

/*
 * Issue 30: the staff desk finds what customers are given. Every number the README prints, typed
 * after /insure through signed requests to the real server, finds its record; "Another lookup"
 * opens a modal whose text is answered like the slash command.
 */

const SECRET = 'printed-numbers-signing-secret';
const STAFF = 'U0NUMBERS';
const TEAM = 'T0NUMBERS';
const DM = 'D0NUMBERS';
const { motor, funeral, groupLife, creditLife, claims } = DEMO_BOOK;

let app: TestServer;
const slack = new FakeSlack();

beforeAll(async () => {
  await slack.start();
  app = await startTestServer({
    SLACK_BOT_TOKEN: 'xoxb-printed-numbers',
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_ALLOWED_USERS: STAFF,
    SLACK_API_URL: `${slack.baseUrl}/api/`,
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await slack?.stop();
});

const desk = slackDeskClient({
  serverUrl: () => app.url,
  slack,
  signingSecret: SECRET,
  user: STAFF,
  team: TEAM,
  channel: DM,
});

/** `/insure <text>` from the allowed staff member's DM; resolves the answer posted back. */
async function insure(text: string): Promise<string> {
  return (await desk.insure(text)).text;
}

/** A Slack interactivity payload, signed; the HTTP status. */
async function signedPost(body: string): Promise<number> {
  return (await desk.post(body)).status;
}

const PRINTED: ReadonlyArray<readonly [string, readonly string[]]> = [
  [`policy ${motor.insured.policyNumber}`, [motor.insured.policyNumber, 'Active']],
  [`policy ${motor.renewal.policyNumber}`, [motor.renewal.policyNumber]],
  [`policy ${motor.insured.registrationNumber}`, [motor.insured.policyNumber]],
  [`policy ${groupLife.policyNumber}`, [groupLife.policyNumber, 'Group life', groupLife.employer]],
  [`policy ${creditLife.payroll.policyNumber}`, [creditLife.payroll.policyNumber, 'Credit life']],
  [`policy ${creditLife.prepaid.policyNumber}`, [creditLife.prepaid.policyNumber]],
  [`policy ${creditLife.inGrace.policyNumber}`, [creditLife.inGrace.policyNumber]],
  [`policy ${funeral.policyNumber}`, [funeral.policyNumber, 'Group funeral']],
  [`claim ${claims.documented.claimNumber}`, [claims.documented.claimNumber, 'Documented']],
  [`claim ${claims.intimated.claimNumber}`, [claims.intimated.claimNumber, 'Intimated']],
  [`household ${funeral.principal.nrcNumber}`, [funeral.policyNumber]],
];

it.each(PRINTED)('finds the record of `/insure %s`', async (command, expected) => {
  const answer = await insure(command);
  for (const text of expected) expect(answer).toContain(text);
  expect(answer).not.toMatch(/Nothing found|No policy|No claim/i);
});

it('sends the bordereau of a credit-life policy asked for by its printed number', async () => {
  const answer = await insure(`bordereau ${creditLife.payroll.policyNumber}`);
  expect(answer).toContain(`bordereau-${creditLife.payroll.policyNumber}.csv`);
  await eventually(
    'the CSV was uploaded',
    () => slack.callsTo('/api/files.completeUploadExternal').length > 0,
  );
  // The insurer's register of that policy is what was uploaded: its loans by partner reference.
  const upload = slack.callsTo('/upload').at(-1);
  expect(String(upload?.body)).toContain(creditLife.payroll.activeLoan.reference);
});

it('opens a modal for "Another lookup" and answers what is typed in it in the modal', async () => {
  const result = await insure(`claim ${claims.intimated.claimNumber}`);
  expect(result).toContain('Another lookup');
  const tap = JSON.stringify({
    type: 'block_actions',
    team: { id: TEAM, domain: 'x' },
    user: { id: STAFF, team_id: TEAM },
    channel: { id: DM, name: 'directmessage' },
    api_app_id: 'A1',
    token: 'legacy',
    trigger_id: 'trigger-modal',
    response_url: `${slack.baseUrl}/respond/modal`,
    actions: [
      {
        type: 'button',
        action_id: 'choice:another',
        block_id: 'b1',
        value: 'another',
        text: { type: 'plain_text', text: 'Another lookup' },
        action_ts: '1.0',
      },
    ],
  });
  expect(await signedPost(new URLSearchParams({ payload: tap }).toString())).toBe(200);
  await eventually('the modal opened', () => slack.callsTo('/api/views.open').length > 0);
  const opened = slack.callsTo('/api/views.open')[0]?.body as {
    trigger_id?: string;
    view?: string;
  };
  expect(opened.trigger_id).toBe('trigger-modal');
  const view = JSON.parse(String(opened.view)) as {
    callback_id: string;
    private_metadata: string;
    blocks: { type: string; block_id: string; element: { type: string; action_id: string } }[];
  };
  expect(view.blocks[0]?.type).toBe('input');
  expect(view.blocks[0]?.element.type).toBe('plain_text_input');

  const posted = slack.callsTo('/api/chat.postMessage').length;
  const submission = JSON.stringify({
    type: 'view_submission',
    team: { id: TEAM, domain: 'x' },
    user: { id: STAFF, team_id: TEAM },
    api_app_id: 'A1',
    token: 'legacy',
    trigger_id: 'trigger-submit',
    view: {
      id: 'V1',
      team_id: TEAM,
      type: 'modal',
      callback_id: view.callback_id,
      private_metadata: view.private_metadata,
      state: {
        values: {
          [view.blocks[0]?.block_id ?? '']: {
            [view.blocks[0]?.element.action_id ?? '']: {
              type: 'plain_text_input',
              value: `policy ${groupLife.policyNumber}`,
            },
          },
        },
      },
    },
  });
  expect(await signedPost(new URLSearchParams({ payload: submission }).toString())).toBe(200);
  // Answered in the modal, seen by the staff member alone (issue 40): nothing is posted.
  const inModal = () =>
    slack
      .callsTo('/api/views.update')
      .filter((call) => JSON.stringify(call.body).includes(groupLife.policyNumber));
  await eventually('the lookup was answered in the modal', () => inModal().length > 0);
  expect((inModal().at(-1)?.body as { view_id?: string } | undefined)?.view_id).toBe('V1');
  expect(slack.callsTo('/api/chat.postMessage')).toHaveLength(posted);
});
