import type { App, types } from '@slack/bolt';
import type { Logger } from '../../log/index.js';
import { errorFields } from './bolt-logger.js';
import { type RenderPrompt, toSlackMessage } from './render-slack-message.js';
import type { SlackAudit } from './slack-audit.js';
import type { SlackDesk } from './slack-desk.js';
import { field } from './slack-payload.js';

/** The App Home: a short explanation of the desk commands. */
export function homeView(body: string): types.HomeView {
  return {
    type: 'home',
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: body } }],
  };
}

/** What the App Home needs. */
interface AppHomeOptions {
  readonly desk: SlackDesk;
  /** Records the summary's look-up before it runs; unrecorded, it is not shown. */
  readonly audit: SlackAudit;
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
    const unavailable: types.KnownBlock[] = [
      { type: 'section', text: { type: 'mrkdwn', text: text('slack.home.unavailable') } },
    ];
    // The summary is a look-up: recorded first, and not shown when it cannot be.
    const recorded = await audit.record({
      teamId,
      userId: event.user,
      route: 'home',
      what: 'today',
    });
    let summary = unavailable;
    if (recorded) {
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
      view: {
        type: 'home',
        blocks: [...homeView(text('slack.home')).blocks, { type: 'divider' }, ...summary],
      },
    });
  });
}
