import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FakeSlack } from '../channels/slack/fake-slack.js';
import { type ManualClock, manualClock } from '../support/manual-clock.js';
import { type StaffChannelTwins, startStaffChannelTwins } from './staff-channel-twins.js';
import type { TestServer } from './test-server.js';

/*
 * The staff's morning digest through the whole server: read from the embedded sandbox insurer
 * through the partner client, posted once a day to SLACK_DIGEST_CHANNEL on a local Slack Web API.
 */

let twins: StaffChannelTwins;
let slack: FakeSlack;
let first: TestServer;
let second: TestServer;
let clock: ManualClock;

beforeAll(async () => {
  clock = manualClock();
  twins = await startStaffChannelTwins('C0DIGEST', clock);
  ({ slack, first, second } = twins);
}, 60_000);

afterAll(() => twins?.close());

it('posts one morning digest a day to the configured channel, however many instances run it: policies ending this week, in grace, batches owing premium, claims waiting for documents', async () => {
  // Four days on, the demo book's car that ends in 10 days ends within the week.
  clock.advance(4 * 86_400_000);
  const posted = await Promise.all([
    first.server.staffDigest?.post(),
    second.server.staffDigest?.post(),
    first.server.staffDigest?.post(),
  ]);
  expect(posted.filter(Boolean)).toHaveLength(1);
  const messages = slack.callsTo('/api/chat.postMessage');
  expect(messages).toHaveLength(1);
  const body = messages[0]?.body as { channel: string; text: string };
  expect(body.channel).toBe('C0DIGEST');
  if (process.env.PRINT_DIGEST) console.log(body.text);
  expect(body.text).toMatch(/^\*Morning digest, \d\d\/\d\d\/\d{4}\*/);
  expect(body.text).toMatch(/\*Policies ending this week \(\d+\)\*\n {2}• MTR-DEMO-000002 ends /);
  expect(body.text).toMatch(
    /\*Policies in grace \(\d+\)\*\n(.*\n)*? {2}• CL-DEMO-000003 \(credit-life\)/,
  );
  expect(body.text).toMatch(/\*Credit-life batches with premium outstanding \([1-9]\d*\)\*/);
  expect(body.text).toMatch(/\*Claims waiting for documents \(\d+\)\*/);
  expect(body.text).not.toMatch(/Could not be read/);

  // The next day brings the next digest.
  clock.advance(86_400_000);
  expect(await second.server.staffDigest?.post()).toBe(true);
  expect(await first.server.staffDigest?.post()).toBe(false);
  expect(slack.callsTo('/api/chat.postMessage')).toHaveLength(2);
}, 60_000);
