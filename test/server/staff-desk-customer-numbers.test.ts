import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_BOOK, type Sandbox } from '../../src/sandbox/index.js';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { slackDeskClient } from '../channels/slack/slack-desk-client.js';
import { eventually } from '../support/eventually.js';
import { startTestServer, type TestServer } from './test-server.js';
import { toPayScreen, type UssdCaller, ussdCaller } from './ussd-caller.js';

/*
 * Issue 40: every number a customer is shown, the staff desk finds. Customers walk their journeys
 * through the real server, engine, Redis and sandbox (a purchase paid by mobile money, My cover,
 * a claim); every reference-like token on their screens and in their SMS is collected, and each
 * is typed after `/insure` in signed Slack requests: the answer names it and is not "nothing
 * found". A number that appears on a customer screen but not at the desk fails this test by name.
 */

const SECRET = 'customer-numbers-signing-secret';
const STAFF = 'U0SHOWN';
const TEAM = 'T0SHOWN';
const DM = 'D0SHOWN';
const { creditLife, groupLife } = DEMO_BOOK;

let app: TestServer;
const slack = new FakeSlack();
const desk = slackDeskClient({
  serverUrl: () => app.url,
  slack,
  signingSecret: SECRET,
  user: STAFF,
  team: TEAM,
  channel: DM,
});

beforeAll(async () => {
  await slack.start();
  app = await startTestServer({
    SLACK_BOT_TOKEN: 'xoxb-customer-numbers',
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_ALLOWED_USERS: STAFF,
    SLACK_API_URL: `${slack.baseUrl}/api/`,
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await slack?.stop();
});

function sandbox(): Sandbox {
  const found = app.server.sandbox;
  if (!found) throw new Error('no embedded sandbox');
  return found;
}

/** What customers were shown in these journeys: every screen and SMS, as text. */
const shown: string[] = [];

/** Sends and records the screen. */
async function send(caller: UssdCaller, input: string): Promise<string> {
  const screen = await caller.send(input);
  shown.push(screen);
  return screen;
}

/** The numbered choice on a USSD screen whose label matches. */
function pick(screen: string, label: RegExp): string {
  const line = screen.split('\n').find((row) => /^\d+\. /.test(row) && label.test(row));
  if (!line) throw new Error(`no choice ${label} on: ${screen}`);
  return line.split('.')[0] ?? '';
}

const typedYesterday = () => {
  const [year, month, day] = new Date(Date.now() - 86_400_000)
    .toISOString()
    .slice(0, 10)
    .split('-');
  return `${day}/${month}/${year}`;
};

// A record's number as printed: capitals, then dashed parts (MTR-2026-000001, GLC-000001,
// KL-DEMO-GRACE…); payment references likewise.
const PRINTED_NUMBER = /\b[A-Z]{2,5}(?:-[A-Z0-9]{2,})+\b/g;

/** The desk topic that finds a printed number, by its kind. */
function topicOf(number: string, payments: ReadonlySet<string>): string {
  if (payments.has(number)) return 'txn';
  if (/^(CLC|GLC)-/.test(number)) return 'claim';
  return 'policy';
}

const payments = new Set<string>();

it('walks a purchase, My cover and a claim as customers, collecting what they are shown', async () => {
  // A new customer buys third-party cover on USSD and pays from their own number.
  const buyer = ussdCaller(() => app.url, 'shown-buy');
  const plate = `BCF ${1000 + Math.floor(Math.random() * 8000)}`;
  shown.push(await toPayScreen(buyer, plate, shown));
  const ended = await send(buyer, '1');
  expect(ended).toMatch(/^END .*PIN/);
  await eventually('the paid SMS', () =>
    sandbox()
      .smsOutbox.list(`+${buyer.msisdn}`)
      .some((sms) => /policy number is MTR-/.test(sms.message)),
  );
  for (const sms of sandbox().smsOutbox.list(`+${buyer.msisdn}`)) {
    shown.push(sms.message);
    // Chat channels name the payment's reference ("Payment … received"); the desk's txn finds it.
    const reference = /Payment (\S+) received/.exec(sms.message)?.[1];
    if (reference) payments.add(reference);
  }

  // The borrower's My cover: their loans by the references they know.
  const borrower = ussdCaller(() => app.url, 'shown-cover', `+${creditLife.borrower.phoneNumber}`);
  let screen = await borrower.dial();
  shown.push(screen);
  screen = await send(borrower, pick(screen, /My cover/));
  expect(screen).toContain(creditLife.inGrace.loan.reference);

  // A group-life member reports a death claim from My cover and is given its number.
  const member = ussdCaller(() => app.url, 'shown-claim', `+${groupLife.member.phoneNumber}`);
  screen = await member.dial();
  shown.push(screen);
  screen = await send(member, pick(screen, /My cover/));
  screen = await send(member, pick(screen, /Group life/));
  screen = await send(member, pick(screen, /Make a claim/));
  screen = await send(member, typedYesterday());
  screen = await send(member, 'Died after an illness');
  screen = await send(member, pick(screen, /Submit/));
  expect(screen).toMatch(/Claim GLC-\d+/);
  await eventually('the claim SMS', () =>
    sandbox()
      .smsOutbox.list(`+${groupLife.member.phoneNumber}`)
      .some((sms) => /GLC-\d+/.test(sms.message)),
  );
  for (const sms of sandbox().smsOutbox.list(`+${groupLife.member.phoneNumber}`)) {
    shown.push(sms.message);
  }
}, 120_000);

it('finds at the staff desk every number a customer was shown', async () => {
  const numbers = [...new Set(shown.flatMap((text) => text.match(PRINTED_NUMBER) ?? []))];
  // The journeys above show a motor policy, loans and a claim at least.
  expect(numbers.some((number) => number.startsWith('MTR-'))).toBe(true);
  expect(numbers).toContain(creditLife.inGrace.loan.reference);
  expect(numbers.some((number) => number.startsWith('GLC-'))).toBe(true);

  const missing: string[] = [];
  for (const number of numbers) {
    const command = `${topicOf(number, payments)} ${number}`;
    const answer = await desk.insure(command);
    if (/Nothing found|No household found/.test(answer.text) || !answer.text.includes(number)) {
      missing.push(command);
    }
    expect(answer.ephemeral).toBe(true);
  }
  expect(missing).toEqual([]);
}, 120_000);
