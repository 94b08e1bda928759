import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { signSlackRequest } from '../channels/slack/sign-slack-request.js';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../support/eventually.js';
import { startTestServer, type TestServer } from './test-server.js';

const TOKEN = '424242:offline-test-token';
const WEBHOOK_SECRET = 'telegram-webhook-secret';
const SIGNING_SECRET = 'slack-signing-secret';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(env: Record<string, string>): Promise<TestServer> {
  const started = await startTestServer(env);
  cleanups.push(() => started.close());
  return started;
}

describe('channels against local emulators, with no internet', () => {
  it('starts Telegram against TELEGRAM_API_ROOT, registers its webhook there, and answers 401 to a wrong secret', async () => {
    const emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
    await emulator.start();
    cleanups.push(async () => {
      await emulator.stop();
    });
    const app = await server({
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      TELEGRAM_API_ROOT: emulator.config.apiURL,
      PUBLIC_URL: 'https://insurechat.example.test',
    });
    const update = (id: number) =>
      JSON.stringify({
        update_id: id,
        message: {
          message_id: id,
          date: Math.floor(Date.now() / 1_000),
          chat: { id: 5151, type: 'private' },
          from: { id: 5151, is_bot: false, first_name: 'Mutale' },
          text: '/start',
        },
      });
    // The server itself, not PUBLIC_URL (where Telegram would reach it through a proxy).
    const local = `http://127.0.0.1:${app.server.info.bound?.port}`;
    const post = (secret: string, id: number) =>
      fetch(`${local}/telegram/webhook`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-telegram-bot-api-secret-token': secret,
        },
        body: update(id),
      });

    // The webhook was set on the emulator, not on api.telegram.org.
    const webhooks = (emulator as unknown as { webhooks: Record<string, { url: string }> })
      .webhooks;
    expect(webhooks[TOKEN]?.url).toBe('https://insurechat.example.test/telegram/webhook');
    expect((await post('forged', 1)).status).toBe(401);
    expect((await post(WEBHOOK_SECRET, 2)).status).toBe(200);

    // The answer to the genuine update went out through the emulator.
    await eventually('the bot answered chat 5151', () =>
      emulator.storage.botMessages.some((sent) => String(sent.message.chat_id) === '5151'),
    );
  });

  it('starts Slack against SLACK_API_URL, answers 401 to a forged request and calls the local Web API', async () => {
    const slack = new FakeSlack();
    await slack.start();
    cleanups.push(() => slack.stop());
    const app = await server({
      SLACK_BOT_TOKEN: 'xoxb-offline',
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_ALLOWED_USERS: 'U0STAFF',
      SLACK_API_URL: `${slack.baseUrl}/api`,
    });
    const body = JSON.stringify({
      type: 'event_callback',
      team_id: 'T0DESK',
      event_id: 'Ev0OFFLINE',
      event: { type: 'app_home_opened', user: 'U0STAFF', tab: 'home' },
    });
    const post = (signature: string) => {
      const timestamp = String(Math.floor(Date.now() / 1_000));
      return fetch(`${app.url}/slack/events`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-slack-request-timestamp': timestamp,
          'x-slack-signature': signature || signSlackRequest(SIGNING_SECRET, timestamp, body),
        },
        body,
      });
    };

    expect((await post('v0=forged')).status).toBe(401);
    expect(slack.callsTo('/api/views.publish')).toHaveLength(0);
    expect((await post('')).status).toBe(200);
    await eventually(
      'the App Home was published on the local Web API',
      () => slack.callsTo('/api/views.publish').length === 1,
    );
  });
});
