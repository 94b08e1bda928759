import { afterAll, beforeAll, expect, it } from 'vitest';
import { lusakaNow } from '../../src/clock/index.js';
import { formatDate } from '../../src/conversation/index.js';
import { formatMoney } from '../../src/money/index.js';
import type { FakeSlack } from '../channels/slack/fake-slack.js';
import { type ManualClock, manualClock } from '../support/manual-clock.js';
import { type StaffChannelTwins, startStaffChannelTwins } from './staff-channel-twins.js';
import { startTestServer, type TestServer } from './test-server.js';

/*
 * Credit-life premium reminders through the whole server: the demo book's credit-life policies
 * read from the embedded sandbox insurer through the partner client, reminders posted to
 * SLACK_DIGEST_CHANNEL on a local Slack Web API, two instances sharing Redis scanning at once.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PAYROLL = { id: 'clp_1f4b8d2e6a93', number: 'CL-DEMO-000001' };
const IN_GRACE = { id: 'clp_9d7c3b1a5e08', number: 'CL-DEMO-000003' };

let twins: StaffChannelTwins;
let slack: FakeSlack;
let first: TestServer;
let second: TestServer;
// Starts two months back: the reminder clock can then be moved forward to 14 days before a
// period the sandbox (on real time) is in now.
let clock: ManualClock;

interface Cover {
  status: string;
  currentPeriodEnd: string;
  graceEndsAt: string | null;
  unpaidPeriods: number[];
  premiumPerPeriod: number;
}

async function coverOf(policyId: string): Promise<Cover> {
  const sandbox = first.server.sandbox;
  const url = first.server.info.sandboxUrl;
  if (!sandbox || !url) throw new Error('no embedded sandbox');
  const response = await fetch(`${url}/credit-life/policies/${policyId}/status`, {
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Cover;
}

/** The day after the current period's last day (Lusaka's calendar), `YYYY-MM-DD`. */
function dueDateOf(cover: Cover): string {
  const end = lusakaNow(Date.parse(cover.currentPeriodEnd)).date;
  return new Date(Date.parse(`${end}T00:00:00Z`) + DAY).toISOString().slice(0, 10);
}

/** Sets the reminder clock to `hour` o'clock in Lusaka (UTC+2), `daysBefore` days before `date`. */
function setLusakaTime(date: string, daysBefore: number, hour: number): void {
  const target = Date.parse(`${date}T00:00:00Z`) - daysBefore * DAY + (hour - 2) * HOUR;
  clock.advance(target - clock.now());
}

async function scanOnBoth() {
  const scanners = [first.server.creditLifeReminders, second.server.creditLifeReminders];
  const [a, b] = await Promise.all(scanners.map((scanner) => scanner?.scan()));
  if (!a || !b) throw new Error('credit-life reminders are not wired');
  return { sent: a.sent + b.sent, quiet: a.quiet && b.quiet };
}

/** Slack messages posted so far that name `policyNumber`. */
function messagesAbout(policyNumber: string): { channel: string; text: string }[] {
  return slack
    .callsTo('/api/chat.postMessage')
    .map((call) => call.body as { channel: string; text: string })
    .filter((body) => body.text.includes(policyNumber));
}

beforeAll(async () => {
  clock = manualClock(Date.now() - 60 * DAY);
  twins = await startStaffChannelTwins('C0LENDERS', clock);
  ({ slack, first, second } = twins);
}, 60_000);

afterAll(() => twins?.close());

it('reminds the lender in the staff channel once at 14 and once at 3 days before a credit-life period is due, however many instances scan, and never in quiet hours', async () => {
  const cover = await coverOf(PAYROLL.id);
  expect(cover.unpaidPeriods).toEqual([]);
  const due = dueDateOf(cover);

  // 06:00 in Lusaka, 14 days before: quiet hours, nothing goes out.
  setLusakaTime(due, 14, 6);
  expect(await scanOnBoth()).toEqual({ sent: 0, quiet: true });
  expect(slack.callsTo('/api/chat.postMessage')).toHaveLength(0);

  // 10:00 the same day: one message, whichever instance claims it.
  setLusakaTime(due, 14, 10);
  await scanOnBoth();
  const fourteen = messagesAbout(PAYROLL.number);
  expect(fourteen).toHaveLength(1);
  expect(fourteen[0]?.channel).toBe('C0LENDERS');
  expect(fourteen[0]?.text).toContain(`due on ${formatDate(due)}`);
  expect(formatDate(due)).toMatch(/^\d\d\/\d\d\/\d{4}$/);
  expect(fourteen[0]?.text).toContain(`ZMW ${formatMoney(cover.premiumPerPeriod)}`);
  expect(fourteen[0]?.text).toContain(`/insure policy ${PAYROLL.number}`);

  // The next hour's scan finds it sent.
  setLusakaTime(due, 14, 11);
  await scanOnBoth();
  expect(messagesAbout(PAYROLL.number)).toHaveLength(1);

  // Three days before: one more, then none on a rescan.
  setLusakaTime(due, 3, 9);
  await scanOnBoth();
  await scanOnBoth();
  const all = messagesAbout(PAYROLL.number);
  expect(all).toHaveLength(2);
  expect(all[1]?.text).toContain(`due on ${formatDate(due)}`);

  const metrics = await (
    await fetch(`http://127.0.0.1:${first.server.info.bound?.port}/metrics`)
  ).text();
  expect(metrics).toMatch(/insurechat_renewal_reminders_sent_total\{[^}]*milestone="14"[^}]*\}/);
  expect(metrics).toMatch(/milestone="14",channel="slack"|channel="slack",milestone="14"/);
}, 60_000);

it('tells the staff channel once that the InGrace policy owes its unpaid periods now, naming the amount and when grace ends', async () => {
  const cover = await coverOf(IN_GRACE.id);
  expect(cover.status).toBe('InGrace');
  expect(cover.unpaidPeriods.length).toBeGreaterThan(0);
  await scanOnBoth();
  await scanOnBoth();
  const owed = messagesAbout(IN_GRACE.number);
  expect(owed).toHaveLength(1);
  expect(owed[0]?.text).toContain('owed now');
  // Staff read the product's name and a count in words, not an id or "period(s)".
  expect(owed[0]?.text).toContain('(Credit Life Cover)');
  const periods = cover.unpaidPeriods.length;
  expect(owed[0]?.text).toContain(`${periods} ${periods === 1 ? 'period' : 'periods'} unpaid`);
  const amount = cover.premiumPerPeriod * cover.unpaidPeriods.length;
  expect(owed[0]?.text).toContain(`ZMW ${formatMoney(amount)}`);
  expect(amount).toBeGreaterThan(0);
  if (!cover.graceEndsAt) throw new Error('an InGrace cover has a grace end');
  expect(owed[0]?.text).toContain(formatDate(lusakaNow(Date.parse(cover.graceEndsAt)).date));
}, 60_000);

it('sends no credit-life reminders when no staff channel is configured', async () => {
  const bare = await startTestServer(
    {
      SLACK_BOT_TOKEN: 'xoxb-bare',
      SLACK_SIGNING_SECRET: 'bare-signing-secret',
      SLACK_API_URL: `${slack.baseUrl}/api`,
    },
    { reminderClock: clock.now },
  );
  try {
    expect(bare.server.creditLifeReminders).toBeUndefined();
  } finally {
    await bare.close();
  }
}, 60_000);
