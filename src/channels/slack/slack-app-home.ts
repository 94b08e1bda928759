import type { App, types } from '@slack/bolt';
import type { RenderPrompt } from '../../conversation/index.js';
import { errorFields, type Logger } from '../../log/index.js';
import type { StaffLookups } from '../../privacy/index.js';
import { field, homeView } from './bolt/index.js';
import { toSlackMessage } from './render-slack-message.js';
import { type SlackDesk, staffWho } from './slack-desk.js';

/** What the App Home needs. */
interface AppHomeOptions {
  readonly desk: SlackDesk;
  /** Records the summary's look-up before it runs; unrecorded, it is not shown. */
  readonly audit: StaffLookups;
  readonly render: RenderPrompt;
  readonly locale: string;
  readonly text: (key: string) => string;
  readonly log: Logger;
}

/**
 * Adds the App Home: it summarises today's payments and claims, the desk's `today` query, run on
 * a session of its own so it never disturbs a lookup in progress. The Home is private: no
 * masking.
 */
export function registerAppHome(app: App, options: AppHomeOptions): void {
  const { desk, audit, render, locale, text, log } = options;
  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    const teamId = field(body, 'team_id') ?? '';
    const to = { teamId, userId: event.user, channelId: event.channel, client };
    let summary: types.KnownBlock[] = [
      { type: 'section', text: { type: 'mrkdwn', text: text('slack.home.unavailable') } },
    ];
    // The summary is a look-up: recorded first, and not shown when it cannot be.
    if (await audit.record({ who: staffWho(teamId, event.user), route: 'home', what: 'today' })) {
      try {
        const prompt = await desk.queryHome(to, 'today');
        summary = toSlackMessage({ ...prompt, choices: [] }, render, locale, {
          mask: false,
        }).blocks;
      } catch (error) {
        log.warn(errorFields(error), 'slack home summary failed');
      }
    }
    await client.views.publish({
      user_id: event.user,
      view: homeView(text('slack.home'), summary),
    });
  });
}
