import { FakeSlack } from '../channels/slack/fake-slack.js';
import type { ManualClock } from '../support/manual-clock.js';
import { startTwinServers, type TestServer } from './test-server.js';

/** Two servers sharing Redis and one sandbox, posting to a staff channel on a local Slack. */
export interface StaffChannelTwins {
  readonly slack: FakeSlack;
  readonly first: TestServer;
  readonly second: TestServer;
  close(): Promise<void>;
}

/**
 * Starts {@link StaffChannelTwins} whose reminder clock is `clock` and whose digest and reminder
 * channel is `channel`: the set-up of every test of what the scheduled jobs post to staff.
 */
export async function startStaffChannelTwins(
  channel: string,
  clock: ManualClock,
): Promise<StaffChannelTwins> {
  const slack = new FakeSlack();
  await slack.start();
  const env = {
    SLACK_BOT_TOKEN: `xoxb-${channel.toLowerCase()}`,
    SLACK_SIGNING_SECRET: `${channel.toLowerCase()}-signing-secret`,
    SLACK_API_URL: `${slack.baseUrl}/api`,
    SLACK_DIGEST_CHANNEL: channel,
  };
  const [first, second] = await startTwinServers(env, { reminderClock: clock.now });
  return {
    slack,
    first,
    second,
    async close() {
      await second.close();
      await first.close();
      await slack.stop();
    },
  };
}
