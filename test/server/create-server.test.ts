import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prompt } from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import { signSlackRequest } from '../channels/slack/sign-slack-request.js';
import { engineOf } from '../support/turn-engine-double.js';
import { GATEWAY_SECRET, startTestServer, type TestServer } from './test-server.js';

let harness: TestServer;
const logLines: string[] = [];

beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  harness = await startTestServer({}, { logger: createLogger({ level: 'debug', destination }) });
});
afterAll(async () => {
  await harness.close();
});

describe('the insurechat server', () => {
  it('answers /healthz', async () => {
    const response = await fetch(`${harness.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('reports ready when Redis answers', async () => {
    const response = await fetch(`${harness.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ready',
      checks: { redis: 'ok', upstreamCircuit: 'ok' },
      upstreamCircuit: 'closed',
    });
  });

  it('reports not ready with 503 when a dependency is down', async () => {
    const broken = await startTestServer(
      {},
      {
        readiness: [
          {
            name: 'upstream',
            check: async () => {
              throw new Error('connection refused');
            },
          },
        ],
      },
    );
    try {
      const response = await fetch(`${broken.url}/readyz`);
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body).toMatchObject({
        status: 'not_ready',
        checks: { upstream: 'down', redis: 'ok' },
      });
      expect(JSON.stringify(body)).not.toContain('connection refused');
    } finally {
      await broken.close();
    }
  });

  it('counts turns by channel and flow in /metrics', async () => {
    await fetch(`${harness.url}/simulator/ussd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: 'metrics-1', phoneNumber: '0955123001', input: null }),
    });
    const text = await (await fetch(`${harness.url}/metrics`)).text();
    expect(text).toMatch(/insurechat_turns_total\{channel="ussd",flow="[a-z-]+"\} \d+/);
    expect(text).toContain('insurechat_turn_duration_seconds_bucket');
  });

  it('serves the simulator page with its stable test ids', async () => {
    const response = await fetch(`${harness.url}/`);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    for (const id of ['phone-number', 'dial-button', 'ussd-screen', 'reply-input', 'sms-inbox']) {
      expect(html).toContain(`data-testid="${id}"`);
    }
    expect(html).toContain('0971234567');
  });

  it('answers malformed JSON with 400 and no stack trace', async () => {
    const response = await fetch(`${harness.url}/simulator/ussd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"sessionId": ',
    });
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(body).not.toMatch(/at .*\.(ts|js):\d+/);
    expect(JSON.parse(body)).toMatchObject({ error: 'bad_request' });
  });

  it('refuses a body over the limit with 413', async () => {
    const response = await fetch(`${harness.url}/simulator/ussd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sessionId: 'x',
        phoneNumber: '0955123002',
        input: 'x'.repeat(400_000),
      }),
    });
    expect(response.status).toBe(413);
  });

  it('answers an unknown route with 404 JSON', async () => {
    const response = await fetch(`${harness.url}/nowhere?secret=abc`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });

  it('rejects a payment callback with a wrong secret', async () => {
    const response = await fetch(`${harness.url}/payments/callback/wrong-secret`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ partnerReference: 'IC1', status: 'Success' }),
    });
    expect(response.status).toBe(401);
  });

  it('never writes the gateway secret or the caller number to its logs', async () => {
    await fetch(`${harness.url}/ussd/africastalking?secret=${GATEWAY_SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        sessionId: 'log-1',
        serviceCode: '*1#',
        phoneNumber: '+260955777888',
        text: '',
      }),
    });
    await fetch(`${harness.url}/ussd/africastalking`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-ussd-secret': 'guess' },
      body: new URLSearchParams({
        sessionId: 'log-2',
        serviceCode: '*1#',
        phoneNumber: '+260955777888',
        text: '',
      }),
    });
    const log = logLines.join('');
    expect(log).toContain('"route":"/ussd/africastalking"');
    expect(log).not.toContain(GATEWAY_SECRET);
    expect(log).not.toContain('955777888');
  });
});

describe('allow-lists from the environment', () => {
  it('refuses a payment callback from outside PAYMENT_CALLBACK_ALLOWED_IPS, even with the secret', async () => {
    const post = (url: string) =>
      fetch(`${url}/payments/callback/allow-list-secret`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ partnerReference: 'IC-ALLOW-1', status: 'Pending' }),
      });
    const fenced = await startTestServer({
      PAYMENT_CALLBACK_SECRET: 'allow-list-secret',
      PAYMENT_CALLBACK_ALLOWED_IPS: '203.0.113.7',
    });
    const local = await startTestServer({
      PAYMENT_CALLBACK_SECRET: 'allow-list-secret',
      PAYMENT_CALLBACK_ALLOWED_IPS: '203.0.113.7,127.0.0.1',
    });
    try {
      expect((await post(fenced.url)).status).toBe(403);
      expect((await post(local.url)).status).toBe(200);
    } finally {
      await local.server.payments.idle();
      await Promise.all([fenced.close(), local.close()]);
    }
  });

  it('refuses an allowed Slack user who writes from a workspace outside SLACK_ALLOWED_TEAMS', async () => {
    const signingSecret = 'slack-signing-secret';
    const desk = await startTestServer({
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_ALLOWED_USERS: 'U0STAFF',
      SLACK_ALLOWED_TEAMS: 'T0DESK',
    });
    try {
      const body = new URLSearchParams({
        command: '/insure',
        text: 'help',
        team_id: 'T0OTHER',
        user_id: 'U0STAFF',
        channel_id: 'D0DM',
        response_url: `${desk.url}/nowhere`,
      }).toString();
      const timestamp = String(Math.floor(Date.now() / 1_000));
      const response = await fetch(`${desk.url}/slack/events`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-slack-request-timestamp': timestamp,
          'x-slack-signature': signSlackRequest(signingSecret, timestamp, body),
        },
        body,
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        text: expect.stringMatching(/only for insurer staff/),
      });
    } finally {
      await desk.close();
    }
  });
});

describe('the server in production', () => {
  it('does not serve the simulator, which could speak as any phone', async () => {
    const production = await startTestServer({
      NODE_ENV: 'production',
      PAYMENT_CALLBACK_SECRET: 'p',
      FILES_SIGNING_SECRET: 'f',
    });
    try {
      const page = await fetch(`${production.url}/`);
      expect(await page.text()).not.toContain('ussd-screen');
      const step = await fetch(`${production.url}/simulator/ussd`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sessionId: 'p', phoneNumber: '0955123003', input: null }),
      });
      expect(step.status).toBe(404);
    } finally {
      await production.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('lets a turn in flight finish and answer before the server closes', async () => {
    let release: (prompt: Prompt) => void = () => undefined;
    let started: () => void = () => undefined;
    const turnStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = await startTestServer(
      {},
      {
        engine: engineOf({
          turn: () => {
            started();
            return new Promise<Prompt>((resolve) => {
              release = resolve;
            });
          },
        }),
      },
    );
    const answer = fetch(`${slow.url}/simulator/ussd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: 'slow', phoneNumber: '0955123004', input: null }),
    });
    await turnStarted;
    let closed = false;
    const closing = slow.close().then(() => {
      closed = true;
    });
    // The server is closing but waits for the turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    release({ key: 'engine.goodbye', input: 'none', final: true });
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ end: true });
    await closing;
    expect(closed).toBe(true);
  });
});
