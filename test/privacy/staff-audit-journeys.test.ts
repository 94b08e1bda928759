import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_RETENTION_MS, auditHeadKey, auditStreamKey } from '../../src/privacy/index.js';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { slackDeskClient } from '../channels/slack/slack-desk-client.js';
import { startTestServer, type TestServer } from '../server/test-server.js';
import { eventually } from '../support/eventually.js';
import { manualClock } from '../support/manual-clock.js';

// Issue 37 through the real server, Redis and sandbox: every route of the Slack desk records its
// look-ups (and refused attempts) before they run, the stored line is masked and inert, and
// `/insure audit verify` finds what raw Redis commands did to the chain.

const SIGNING_SECRET = 'audit-signing-secret';
const TEAM = 'T0DESK';
const ADMIN = 'U0ADMIN';
const STAFF = 'U0STAFF';
const OUTSIDER = 'U0OUTSIDE';
const DM = 'D0STAFF';

const slack = new FakeSlack();
const clock = manualClock();
let harness: TestServer;
let stream: string;
let sent = 0;

beforeAll(async () => {
  await slack.start();
  harness = await startTestServer(
    {
      SLACK_BOT_TOKEN: 'xoxb-audit',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: `${slack.baseUrl}/api`,
      SLACK_ALLOWED_USERS: `${ADMIN},${STAFF}`,
      SLACK_AUDIT_ADMINS: ADMIN,
      AUDIT_SECRET: 'audit-journeys-secret-0123456789',
    },
    { auditClock: clock.now },
  );
  stream = auditStreamKey(harness.prefix);
});
afterAll(async () => {
  await harness.close();
  await slack.stop();
});
// Each test starts a chain of its own.
beforeEach(async () => {
  await harness.redis.del(stream, auditHeadKey(harness.prefix));
});

const desk = slackDeskClient({
  serverUrl: () => harness.url,
  slack,
  signingSecret: SIGNING_SECRET,
  user: STAFF,
  team: TEAM,
  channel: DM,
});

/** Posts a body to the Slack route, signed as Slack signs it. */
function postSigned(body: string, contentType: string) {
  return desk.post(body, contentType);
}

/** `/insure <text>` from `user`; the acknowledgement's text (the audit answers in it). */
async function slash(text: string, user: string): Promise<string> {
  sent += 1;
  const body = new URLSearchParams({
    command: '/insure',
    text,
    team_id: TEAM,
    user_id: user,
    channel_id: DM,
    response_url: `${slack.baseUrl}/respond/${sent}`,
    trigger_id: `trigger-${sent}`,
  }).toString();
  const response = await postSigned(body, 'application/x-www-form-urlencoded');
  expect(response.status).toBe(200);
  return response.body === '' ? '' : ((JSON.parse(response.body) as { text?: string }).text ?? '');
}

/** The "Another lookup" modal submitted with `typed`, as Slack's interactivity posts it. */
async function submitLookupModal(typed: string, user: string) {
  sent += 1;
  const payload = JSON.stringify({
    type: 'view_submission',
    team: { id: TEAM, domain: 'desk' },
    user: { id: user, team_id: TEAM },
    api_app_id: 'A1',
    token: 'legacy',
    trigger_id: `trigger-${sent}`,
    view: {
      id: `V${sent}`,
      team_id: TEAM,
      type: 'modal',
      callback_id: 'insure_lookup',
      private_metadata: JSON.stringify({ channelId: DM }),
      state: { values: { lookup: { command: { type: 'plain_text_input', value: typed } } } },
    },
  });
  return postSigned(
    new URLSearchParams({ payload }).toString(),
    'application/x-www-form-urlencoded',
  );
}

/** The stored entries, oldest first, as field records. */
async function entries(): Promise<Array<{ id: string; fields: Record<string, string> }>> {
  const rows = await harness.redis.xrange(stream, '-', '+');
  return rows.map(([id, flat]) => {
    const fields: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i] as string] = flat[i + 1] as string;
    return { id, fields };
  });
}

/** Waits until the stream holds `count` entries (a command is recorded after its ack). */
async function recorded(count: number): Promise<void> {
  await eventually(
    `${count} entries in the audit`,
    async () => (await harness.redis.xlen(stream)) >= count,
  );
}

/** Three look-ups a day apart, recorded. */
async function threeLookups(): Promise<void> {
  for (const [n, command] of [
    'policy MTR-DEMO-000001',
    'claim GLC-DEMO-0001',
    'claims',
  ].entries()) {
    await slash(command, STAFF);
    await recorded(n + 1);
    clock.advance(86_400_000);
  }
}

/** `/insure audit verify` as the admin. */
const verify = () => slash('audit verify', ADMIN);

describe('every route of the desk records the look-up, with the staff id', () => {
  it('records a look-up made through the "Another lookup" modal before it runs, masked', async () => {
    const posted = slack.callsTo('/api/chat.postMessage').length;
    const response = await submitLookupModal('policy 479974/11/1', STAFF);
    expect(response.status).toBe(200);
    await recorded(1);
    const [entry] = await entries();
    expect(entry?.fields).toMatchObject({
      who: `${TEAM}:${STAFF}`,
      route: 'modal',
      outcome: 'looked-up',
      what: 'policy ••••••/••/•',
    });
    expect(JSON.stringify(entry)).not.toContain('479974');
    // The look-up itself ran: its answer was shown in the modal (issue 40), never posted.
    await eventually('the modal look-up answered', () =>
      slack.calls.some(
        (call) =>
          call.path === '/api/views.update' && /MTR-DEMO-000001/.test(JSON.stringify(call.body)),
      ),
    );
    expect(slack.callsTo('/api/chat.postMessage')).toHaveLength(posted);
  });

  it('records a refused attempt from outside the allow-list, and a refused audit request', async () => {
    const refusal = await slash('policy 0971234567', OUTSIDER);
    expect(refusal).toMatch(/this desk is only for insurer staff/);
    expect(await slash('audit', STAFF)).toMatch(/Only the desk's admins may read the audit/);
    await recorded(2);
    const [outsider, staff] = await entries();
    expect(outsider?.fields).toMatchObject({
      who: `${TEAM}:${OUTSIDER}`,
      route: 'command',
      outcome: 'refused',
      what: 'policy •••••••567',
    });
    expect(staff?.fields).toMatchObject({
      who: `${TEAM}:${STAFF}`,
      outcome: 'refused',
      what: 'audit',
    });
    const shown = await slash('audit', ADMIN);
    expect(shown).toContain(`<@${OUTSIDER}> · command · *refused* · \`policy •••••••567\``);
  });

  it('shows a forged newline, mention and link as text: one entry, one line, nobody pinged', async () => {
    const forged =
      'policy MTR-DEMO-000001\n2026-01-01 09:00 UTC · <@U0BOSS> · command · `policy MTR-DEMO-000002` <!channel> <https://evil.example|click> *bold*';
    await slash(forged, STAFF);
    await recorded(1);
    const shown = await slash('audit', ADMIN);
    const lines = shown.split('\n');
    // The header, the forged look-up, and the admin's own reading of the audit: nothing more.
    expect(lines).toHaveLength(3);
    expect(
      lines
        .slice(1)
        .every((line) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC · <@U0[A-Z]+> · /.test(line)),
    ).toBe(true);
    const line = lines.find((candidate) => candidate.includes(`<@${STAFF}>`)) ?? '';
    expect(line).toContain('\\n2026-01-01 09:00 UTC');
    expect(line).toContain('&lt;@U0BOSS&gt;');
    expect(line).toContain('&lt;!channel&gt;');
    expect(line).toContain('&lt;https://evil.example|click&gt;');
    expect(shown).not.toMatch(/<@U0BOSS>|<!channel>|<https:/);
  });
});

describe('the other routes', () => {
  it('records a button that runs a look-up and the App Home summary, each with its route', async () => {
    sent += 1;
    const tap = JSON.stringify({
      type: 'block_actions',
      team: { id: TEAM, domain: 'desk' },
      user: { id: STAFF, team_id: TEAM },
      channel: { id: DM, name: 'directmessage' },
      api_app_id: 'A1',
      token: 'legacy',
      trigger_id: `trigger-${sent}`,
      response_url: `${slack.baseUrl}/respond/${sent}`,
      actions: [
        {
          type: 'button',
          action_id: 'choice:claims',
          block_id: 'b1',
          value: 'claims',
          action_ts: '1.0',
        },
      ],
    });
    expect(
      (
        await postSigned(
          new URLSearchParams({ payload: tap }).toString(),
          'application/x-www-form-urlencoded',
        )
      ).status,
    ).toBe(200);
    await recorded(1);
    const home = JSON.stringify({
      type: 'event_callback',
      team_id: TEAM,
      api_app_id: 'A1',
      event_id: `Ev0HOME${Date.now()}`,
      event_time: Math.floor(Date.now() / 1000),
      event: { type: 'app_home_opened', user: STAFF, channel: DM, tab: 'home' },
    });
    expect((await postSigned(home, 'application/json')).status).toBe(200);
    await recorded(2);
    const found = (await entries()).map(({ fields }) => [fields.who, fields.route, fields.what]);
    expect(found).toEqual([
      [`${TEAM}:${STAFF}`, 'button', 'claims'],
      [`${TEAM}:${STAFF}`, 'home', 'today'],
    ]);
  });
});

describe('/insure audit verify', () => {
  it('says an untouched chain is intact', async () => {
    await threeLookups();
    expect(await verify()).toBe(
      'The audit chain is intact: 3 look-ups verified, none missing or altered.',
    );
  });

  it('finds an old entry deleted with XDEL: a gap after the entry before it', async () => {
    await threeLookups();
    const [first, second] = await entries();
    await harness.redis.xdel(stream, second?.id ?? '');
    const answer = await verify();
    expect(answer).toMatch(/^\*The audit chain is broken\*/);
    const firstAt = `${first?.fields.at?.slice(0, 16).replace('T', ' ')} UTC`;
    expect(answer).toContain(`• gap after ${firstAt}: 1 entry deleted`);
  });

  it('finds the newest entry deleted with XDEL', async () => {
    await threeLookups();
    const all = await entries();
    await harness.redis.xdel(stream, all.at(-1)?.id ?? '');
    const answer = await verify();
    expect(answer).toMatch(/^\*The audit chain is broken\*/);
    expect(answer).toContain('• newest entry missing (after');
  });

  it('finds entries trimmed with XTRIM, which leaves no checkpoint', async () => {
    await threeLookups();
    await harness.redis.xtrim(stream, 'MAXLEN', 1);
    const answer = await verify();
    expect(answer).toMatch(/^\*The audit chain is broken\*/);
    expect(answer).toContain('• entries trimmed without a checkpoint: the oldest 2 entries');
  });

  it('says a chain trimmed by retention a year on is intact', async () => {
    await threeLookups();
    clock.advance(AUDIT_RETENTION_MS);
    await slash('today', STAFF);
    await recorded(1);
    await eventually(
      'the year-old look-ups trimmed',
      async () => (await harness.redis.xlen(stream)) === 1,
    );
    expect((await entries())[0]?.fields.what).toBe('today');
    expect(await verify()).toBe(
      'The audit chain is intact: 1 look-up verified, none missing or altered.',
    );
  });
});
