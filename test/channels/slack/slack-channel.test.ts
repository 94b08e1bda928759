import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STAFF_TOPICS } from '../../../flows/index.js';
import {
  createSlackChannel,
  type SlackChannel,
  SlackChannelError,
} from '../../../src/channels/slack/index.js';
import { eventually } from '../../support/eventually.js';
import { silentLogger, testRender } from '../telegram/test-support.js';
import { AnsweringEngine, FakeSlack } from './fake-slack.js';
import { signSlackRequest } from './sign-slack-request.js';

const SIGNING_SECRET = 'slack-signing-secret-for-tests';
const TEAM = 'T0001';
const STAFF = 'U0STAFF';

interface SignedRequest {
  readonly body: string;
  readonly contentType?: string;
  readonly timestamp?: number;
  readonly secret?: string;
  readonly headers?: Record<string, string>;
  readonly unsigned?: boolean;
}

describe('Slack staff desk over the HTTP receiver', () => {
  let slack: FakeSlack;
  let engine: AnsweringEngine;
  let channel: SlackChannel;
  let server: FastifyInstance;

  beforeEach(async () => {
    slack = new FakeSlack();
    await slack.start();
    engine = new AnsweringEngine();
    channel = createSlackChannel({
      botToken: 'xoxb-test',
      signingSecret: SIGNING_SECRET,
      allowedUsers: [STAFF],
      allowedTeams: [TEAM],
      engine,
      deskFlow: 'staff-desk',
      deskTopics: STAFF_TOPICS,
      render: testRender,
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
  });

  function post(request: SignedRequest) {
    const timestamp = String(request.timestamp ?? Math.floor(Date.now() / 1_000));
    const signature = signSlackRequest(request.secret ?? SIGNING_SECRET, timestamp, request.body);
    return server.inject({
      method: 'POST',
      url: '/slack/events',
      headers: {
        'content-type': request.contentType ?? 'application/x-www-form-urlencoded',
        ...(request.unsigned
          ? {}
          : { 'x-slack-request-timestamp': timestamp, 'x-slack-signature': signature }),
        ...request.headers,
      },
      payload: request.body,
    });
  }

  function slashCommand(text: string, overrides: Record<string, string> = {}): string {
    return new URLSearchParams({
      command: '/insure',
      text,
      team_id: TEAM,
      user_id: STAFF,
      channel_id: 'D0DM',
      response_url: `${slack.baseUrl}/respond/1`,
      trigger_id: `trigger-${Math.random()}`,
      ...overrides,
    }).toString();
  }

  it('answers a correctly signed slash command after acknowledging it', async () => {
    engine.answer = {
      key: 'staff.policy',
      params: { policyNumber: 'P-1' },
      input: 'choice',
      final: false,
      choices: [
        { id: 'again', label: 'staff.again' },
        { id: 'done', label: 'staff.done' },
      ],
    };
    const response = await post({ body: slashCommand('policy P-1') });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');

    const [answer] = await eventually('the bot answered on response_url', () => {
      const calls = slack.callsTo('/respond');
      return calls.length > 0 ? calls : undefined;
    });
    expect(answer?.body).toMatchObject({
      response_type: 'ephemeral',
      text: 'staff.policy {"policyNumber":"P-1"}',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: 'staff.policy {"policyNumber":"P-1"}' } },
        {
          type: 'actions',
          elements: [
            { type: 'button', action_id: 'choice:again', value: 'again' },
            { type: 'button', action_id: 'choice:done', value: 'done' },
          ],
        },
      ],
    });
    expect(engine.calls).toEqual([
      {
        sessionKey: `slack:${TEAM}:${STAFF}`,
        reply: { type: 'user.text', text: 'policy P-1' },
        options: expect.objectContaining({
          audience: 'staff',
          address: { channel: 'slack', address: `${TEAM}:D0DM:${STAFF}`, locale: 'en' },
        }),
      },
    ]);
  });

  // Issue 26: a slash command was three turns steered by the staff menu's message key; it is now
  // one start of the staff desk, which runs the command (flows/staff-desk.ts, FlowStart.command).
  it('starts the staff desk afresh for every slash command', async () => {
    await post({ body: slashCommand('policy P-1') });
    await channel.stop();
    expect(engine.starts).toEqual([{ sessionKey: `slack:${TEAM}:${STAFF}`, flowId: 'staff-desk' }]);
  });

  it('runs the command in the one engine call that opens the desk', async () => {
    engine.answer = { key: 'staff.policy', input: 'text', final: false };
    await post({ body: slashCommand('policy P-1') });
    await channel.stop();
    expect(engine.calls.map((call) => call.reply)).toEqual([
      { type: 'user.text', text: 'policy P-1' },
    ]);
    expect(slack.callsTo('/respond').map((call) => (call.body as { text: string }).text)).toEqual([
      'staff.policy',
    ]);
  });

  it.each([
    ['unsigned', { unsigned: true }],
    ['stale', { timestamp: Math.floor(Date.now() / 1_000) - 6 * 60 }],
    // Issue 23: Bolt alone let a request dated ten minutes ahead through.
    ['future-dated', { timestamp: Math.floor(Date.now() / 1_000) + 10 * 60 }],
    ['wrongly signed', { secret: 'not-the-secret' }],
  ] as const)('rejects a %s request with 401 and no effect', async (_name, variant) => {
    const response = await post({ body: slashCommand('policy P-1'), ...variant });
    expect(response.statusCode).toBe(401);
    expect(engine.calls).toEqual([]);
    expect(slack.calls).toEqual([]);
  });

  it('rejects a body altered after signing', async () => {
    const timestamp = String(Math.floor(Date.now() / 1_000));
    const body = slashCommand('policy P-1');
    const response = await server.inject({
      method: 'POST',
      url: '/slack/events',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': signSlackRequest(SIGNING_SECRET, timestamp, body),
      },
      payload: body.replace('P-1', 'P-2'),
    });
    expect(response.statusCode).toBe(401);
    expect(engine.calls).toEqual([]);
  });

  it('refuses a user outside the allow-list politely, without calling the engine', async () => {
    const response = await post({ body: slashCommand('policy P-1', { user_id: 'U0STRANGER' }) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      response_type: 'ephemeral',
      text: 'slack.refused',
    });
    expect(engine.calls).toEqual([]);
  });

  it('refuses an allowed user id from a workspace outside the allow-list', async () => {
    const response = await post({ body: slashCommand('policy P-1', { team_id: 'T0OTHER' }) });
    expect(response.json()).toEqual({
      response_type: 'ephemeral',
      text: 'slack.refused',
    });
    expect(engine.calls).toEqual([]);
  });

  it('handles a retried request once', async () => {
    const body = slashCommand('claim 42');
    const first = await post({ body });
    const retry = await post({ body, headers: { 'x-slack-retry-num': '1' } });
    expect(first.statusCode).toBe(200);
    expect(retry.statusCode).toBe(200);
    await eventually(
      'the bot answered on response_url',
      () => slack.callsTo('/respond').length > 0,
    );
    await channel.stop();
    expect(engine.calls).toHaveLength(1);
    expect(slack.callsTo('/respond')).toHaveLength(1);
  });

  it('answers an unknown subcommand with what was not understood and the help, no engine call', async () => {
    const response = await post({ body: slashCommand('delete everything') });
    expect(response.json()).toMatchObject({
      response_type: 'ephemeral',
      text: 'slack.usage {"command":"delete"}\n\nslack.help',
    });
    expect(engine.calls).toEqual([]);
  });

  it.each(['', 'help'])('answers `/insure %s` with the help, no engine call', async (text) => {
    const response = await post({ body: slashCommand(text) });
    expect(response.json()).toMatchObject({ response_type: 'ephemeral', text: 'slack.help' });
    expect(engine.calls).toEqual([]);
  });

  it('turns a button tap into user.choice', async () => {
    const payload = JSON.stringify({
      type: 'block_actions',
      team: { id: TEAM, domain: 'x' },
      user: { id: STAFF, team_id: TEAM },
      channel: { id: 'D0DM', name: 'directmessage' },
      api_app_id: 'A1',
      token: 'legacy',
      trigger_id: 'trigger-1',
      response_url: `${slack.baseUrl}/respond/2`,
      actions: [
        {
          type: 'button',
          action_id: 'choice:again',
          block_id: 'b1',
          value: 'again',
          text: { type: 'plain_text', text: 'Again' },
          action_ts: '1.0',
        },
      ],
    });
    const response = await post({ body: new URLSearchParams({ payload }).toString() });
    expect(response.statusCode).toBe(200);
    await eventually(
      'the bot answered on response_url',
      () => slack.callsTo('/respond').length > 0,
    );
    expect(engine.calls.map((call) => call.reply)).toEqual([{ type: 'user.choice', id: 'again' }]);
  });

  it('reduces names to initials in a shared channel but not in a direct message', async () => {
    engine.answer = {
      key: 'staff.policy',
      params: { policyNumber: 'P-1' },
      notes: [{ key: 'staff.field.holder', params: { holder: 'Mwila Banda' } }],
      input: 'text',
      final: false,
    };
    await post({ body: slashCommand('policy P-1', { channel_id: 'C0SHARED' }) });
    await post({ body: slashCommand('policy P-1', { channel_id: 'D0DM' }) });
    await channel.stop();
    const answers = slack.callsTo('/respond').map((call) => JSON.stringify(call.body));
    expect(answers).toHaveLength(2);
    expect(answers.filter((answer) => answer.includes('M. B.'))).toHaveLength(1);
    expect(answers.filter((answer) => answer.includes('Mwila Banda'))).toHaveLength(1);
  });

  it('masks NRCs and phone numbers in a shared channel but not in a direct message', async () => {
    engine.answer = {
      key: 'staff.household',
      params: { nrc: '479974/11/1', phone: '260971234567' },
      input: 'text',
      final: false,
    };
    await post({ body: slashCommand('household 479974/11/1', { channel_id: 'C0SHARED' }) });
    await post({ body: slashCommand('household 479974/11/1', { channel_id: 'D0DM' }) });
    await channel.stop();
    const texts = slack.callsTo('/respond').map((call) => (call.body as { text: string }).text);
    expect(texts).toHaveLength(2);
    expect(texts).toContain('staff.household {"nrc":"••••••/••/•","phone":"•••••••••567"}');
    expect(texts).toContain('staff.household {"nrc":"479974/11/1","phone":"260971234567"}');
  });

  it('uploads the bordereau as a CSV file', async () => {
    engine.answer = {
      key: 'staff.bordereau',
      input: 'text',
      final: false,
      attachments: [
        {
          kind: 'link',
          url: `${slack.baseUrl}/files/bordereau.csv`,
          label: 'staff.bordereau.link',
          fileName: 'bordereau.csv',
        },
      ],
    };
    await post({ body: slashCommand('bordereau POL-1') });
    await channel.stop();
    expect(slack.callsTo('/api/files.getUploadURLExternal')[0]?.body).toMatchObject({
      filename: 'bordereau.csv',
    });
    const uploads = slack.callsTo('/upload');
    expect(uploads).toHaveLength(1);
    expect(String(uploads[0]?.body)).toContain(slack.csv);
    expect(slack.callsTo('/api/files.completeUploadExternal')[0]?.body).toMatchObject({
      channel_id: 'D0DM',
    });
  });

  it('uploads the bordereau privately to the requester when asked in a shared channel', async () => {
    engine.answer = bordereauAnswer();
    await post({ body: slashCommand('bordereau POL-1', { channel_id: 'C0SHARED' }) });
    await channel.stop();
    expect(slack.callsTo('/api/conversations.open')[0]?.body).toMatchObject({ users: STAFF });
    expect(slack.callsTo('/api/files.completeUploadExternal')[0]?.body).toMatchObject({
      channel_id: 'D0OPENED',
    });
    // Not masked: only the requester reads a direct message.
    expect(String(slack.callsTo('/upload')[0]?.body)).toContain('479974/11/1');
    const [answer] = slack.callsTo('/respond');
    expect(JSON.stringify(answer?.body)).toContain('slack.fileSentPrivately');
  });

  it('uploads the bordereau to a channel the command names, masked', async () => {
    engine.answer = bordereauAnswer();
    await post({ body: slashCommand('bordereau POL-1 <#C0OPS|ops>', { channel_id: 'D0DM' }) });
    await channel.stop();
    expect(engine.calls[0]?.reply).toEqual({ type: 'user.text', text: 'bordereau POL-1' });
    expect(slack.callsTo('/api/files.completeUploadExternal')[0]?.body).toMatchObject({
      channel_id: 'C0OPS',
    });
    expect(String(slack.callsTo('/upload')[0]?.body)).not.toContain('479974/11/1');
    // Issue 23: names too, reduced to initials.
    expect(String(slack.callsTo('/upload')[0]?.body)).not.toContain('Mwila Banda');
    expect(String(slack.callsTo('/upload')[0]?.body)).toContain('M. B.');
  });

  function bordereauAnswer() {
    return {
      key: 'staff.bordereau',
      input: 'text' as const,
      final: false,
      attachments: [
        {
          kind: 'document' as const,
          url: `${slack.baseUrl}/files/bordereau.csv`,
          label: 'staff.bordereau.link',
          fileName: 'bordereau.csv',
        },
      ],
    };
  }

  it('apologises through the response_url when the engine fails', async () => {
    engine.failWith = new Error('engine down');
    const response = await post({ body: slashCommand('txn REF-1') });
    expect(response.statusCode).toBe(200);
    await channel.stop();
    expect(slack.callsTo('/respond').map((call) => call.body)).toEqual([
      { response_type: 'ephemeral', text: 'engine.error' },
    ]);
  });

  it('answers the Events API url_verification challenge', async () => {
    const response = await post({
      contentType: 'application/json',
      body: JSON.stringify({ type: 'url_verification', challenge: 'abc', token: 't' }),
    });
    expect(response.json()).toEqual({ challenge: 'abc' });
  });

  it('publishes the App Home for an allowed user', async () => {
    const response = await post({
      contentType: 'application/json',
      body: JSON.stringify({
        type: 'event_callback',
        team_id: TEAM,
        api_app_id: 'A1',
        event_id: 'Ev1',
        event_time: 1,
        event: { type: 'app_home_opened', user: STAFF, channel: 'D0DM', tab: 'home' },
      }),
    });
    expect(response.statusCode).toBe(200);
    await channel.stop();
    expect(slack.callsTo('/api/views.publish')).toHaveLength(1);
  });

  it('summarises today on the App Home through the desk’s `today` query', async () => {
    engine.answer = {
      key: 'staff.today',
      params: { paidPolicies: 2 },
      input: 'choice',
      final: false,
      choices: [{ id: 'another', label: 'staff.choice.another' }],
    };
    await post({
      contentType: 'application/json',
      body: JSON.stringify({
        type: 'event_callback',
        team_id: TEAM,
        api_app_id: 'A1',
        event_id: 'Ev2',
        event_time: 1,
        event: { type: 'app_home_opened', user: STAFF, channel: 'D0DM', tab: 'home' },
      }),
    });
    await channel.stop();
    expect(engine.calls[0]).toMatchObject({
      sessionKey: `slack-home:${TEAM}:${STAFF}`,
      reply: { type: 'user.text', text: 'today' },
    });
    const published = slack.callsTo('/api/views.publish')[0]?.body as { view: string };
    const view = published.view;
    expect(view).toContain('staff.today {\\"paidPolicies\\":2}');
    // The Home shows the summary, not the desk's buttons.
    expect(view).not.toContain('choice:another');
  });

  it('notifies a Slack conversation with chat.postMessage', async () => {
    await channel.notifier.notify(
      { channel: 'slack', address: `${TEAM}:C0SHARED:${STAFF}`, locale: 'en' },
      { key: 'payment.paid', params: { phone: '0971234567' }, input: 'none', final: true },
    );
    const [post] = slack.callsTo('/api/chat.postMessage');
    expect(post?.body).toMatchObject({
      channel: 'C0SHARED',
      text: 'payment.paid {"phone":"•••••••567"}',
    });
  });
});

describe('Slack channel configuration', () => {
  const base = {
    botToken: 'xoxb-test',
    allowedUsers: [STAFF],
    engine: new AnsweringEngine(),
    deskFlow: 'staff-desk',
    deskTopics: STAFF_TOPICS,
    logger: silentLogger,
  };

  it('refuses to run over HTTP without a signing secret', () => {
    expect(() => createSlackChannel(base)).toThrow(SlackChannelError);
  });

  it('mounts no HTTP route in Socket Mode', async () => {
    const channel = createSlackChannel({ ...base, appToken: 'xapp-test' });
    const server = Fastify();
    channel.registerRoutes(server);
    const response = await server.inject({ method: 'POST', url: '/slack/events', payload: '' });
    expect(response.statusCode).toBe(404);
    await server.close();
  });
});
