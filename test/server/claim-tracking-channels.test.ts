import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { signSlackRequest } from '../channels/slack/sign-slack-request.js';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../support/eventually.js';
import { telegramChat } from './telegram-webhook-chat.js';
import { GATEWAY_SECRET, startTestServer, type TestServer } from './test-server.js';

/*
 * A claim made on USSD from the caller's own list, then tracked by the number they were given
 * (CLC-…) on Telegram and on the staff desk in Slack: one server, every channel over HTTP.
 */

const TELEGRAM_SECRET = 'claim-tracking-telegram';
const SLACK_SECRET = 'claim-tracking-slack';
const STAFF = 'U0TRACK';
const { creditLife } = DEMO_BOOK;

let emulator: TelegramServer;
let slack: FakeSlack;
let app: TestServer;
let local: string;

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  slack = new FakeSlack();
  await slack.start();
  app = await startTestServer({
    TELEGRAM_BOT_TOKEN: '626262:claim-tracking',
    TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
    TELEGRAM_API_ROOT: emulator.config.apiURL,
    PUBLIC_URL: 'https://insurechat.example.test',
    SLACK_BOT_TOKEN: 'xoxb-claim-tracking',
    SLACK_SIGNING_SECRET: SLACK_SECRET,
    SLACK_ALLOWED_USERS: STAFF,
    SLACK_API_URL: `${slack.baseUrl}/api/`,
  });
  local = `http://127.0.0.1:${app.server.info.bound?.port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await slack?.stop();
  await emulator?.stop();
});

/** The borrower dials and types `inputs` in one call; returns every screen. */
async function ussd(inputs: readonly string[]): Promise<string[]> {
  const sessionId = `claim-track-${Date.now()}-${Math.random()}`;
  const screens: string[] = [];
  for (let typed = 0; typed <= inputs.length; typed += 1) {
    const response = await fetch(`${local}/ussd/africastalking`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-ussd-secret': GATEWAY_SECRET,
      },
      body: new URLSearchParams({
        sessionId,
        serviceCode: '*384*4628#',
        phoneNumber: `+${creditLife.borrower.phoneNumber}`,
        text: inputs.slice(0, typed).join('*'),
      }),
    });
    screens.push(await response.text());
  }
  return screens;
}

it('tracks a claim made on USSD from the caller’s own loans by its CLC number on Telegram and in Slack', async () => {
  const lossDate = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const [year, month, day] = lossDate.split('-');
  // Claims → "Claim on my cover": the borrower's own loans, found from the phone they dial from.
  const list = (await ussd(['4', '1'])).at(-1) ?? '';
  const pick = list
    .split('\n')
    // The active loan has the demo book's open claim already; a second is refused (issue 23).
    .find((line) => line.includes(creditLife.inGrace.loan.reference))
    ?.split('.')[0];
  expect(pick).toMatch(/^\d$/);
  const made = (
    await ussd(['4', '1', pick ?? '', '1', `${day}/${month}/${year}`, 'Road accident', '1'])
  ).at(-1);
  const claimNumber = /CLC-\d+/.exec(made ?? '')?.[0];
  expect(made).toMatch(/^CON Claim CLC-\d+: claim received/);

  // Telegram: Claims → track → by claim number, typing the number the customer was given.
  const chat = telegramChat({
    emulator,
    serverUrl: local,
    secret: TELEGRAM_SECRET,
    chatId: 8_800_001,
  });
  let screen = await chat.command('/start');
  screen = await chat.tap(screen, /claims/i);
  screen = await chat.tap(screen, /track/i);
  screen = await chat.tap(screen, /number/i);
  screen = await chat.type(claimNumber ?? '');
  expect(screen.message.text).toContain(`Claim ${claimNumber}: claim received`);

  // Slack: staff type the same number on the desk.
  const body = new URLSearchParams({
    command: '/insure',
    text: `claim ${claimNumber}`,
    team_id: 'T0TRACK',
    user_id: STAFF,
    channel_id: 'D0TRACK',
    response_url: `${slack.baseUrl}/respond/D0TRACK`,
    trigger_id: 'trigger-claim-tracking',
  }).toString();
  const timestamp = String(Math.floor(Date.now() / 1_000));
  const response = await fetch(`${local}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signSlackRequest(SLACK_SECRET, timestamp, body),
    },
    body,
  });
  expect(response.status).toBe(200);
  await eventually('the desk answered', () => slack.callsTo('/respond').length > 0);
  const answer = JSON.stringify(slack.callsTo('/respond').at(-1)?.body);
  expect(answer).toContain(claimNumber ?? 'no claim number');
  expect(answer).toContain('Intimated');
}, 90_000);
