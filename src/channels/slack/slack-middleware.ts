import type { App } from '@slack/bolt';
import { staffAllowed } from '../../access/index.js';
import { DESK_WORDS } from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import type { StaffLookups } from '../../privacy/index.js';
import { askOf, homeView, identity } from './bolt/index.js';
import { staffWho } from './slack-desk.js';

/** What the request middleware needs. */
interface SlackMiddlewareOptions {
  /** See `SlackChannelOptions.intercept`. */
  readonly intercept?: ((body: unknown) => (() => Promise<void>) | undefined) | undefined;
  readonly allowedUsers: readonly string[];
  readonly allowedTeams?: readonly string[] | undefined;
  /** The polite line a refused person gets. */
  readonly refusal: () => string;
  /** Where a refused look-up attempt is recorded. */
  readonly audit: StaffLookups;
  readonly log: Logger;
}

/**
 * Adds what runs before every listener, after the transport's own (bolt/): the handoff threads'
 * intercept, then the allow-list.
 */
export function useSlackMiddleware(app: App, options: SlackMiddlewareOptions): void {
  const { log } = options;
  const isAllowed = staffAllowed({ users: options.allowedUsers, teams: options.allowedTeams });

  const intercept = options.intercept;
  if (intercept) {
    app.use(async (args) => {
      const work = intercept(args.body);
      if (!work) {
        await args.next();
        return;
      }
      // Bolt acknowledged events already; a button click is acknowledged here, before the work.
      if ('ack' in args && typeof args.ack === 'function')
        await (args.ack as () => Promise<void>)();
      await work();
    });
  }

  // Allow-list before any listener: refused people get one polite line and no engine call.
  app.use(async (args) => {
    const { teamId, userId } = identity(args.body);
    if (isAllowed(teamId, userId)) {
      await args.next();
      return;
    }
    log.info({ kind: args.body.type ?? 'command' }, 'slack request from outside the allow-list');
    const ask = askOf(args.body);
    if (ask && userId) {
      const what = ask.route === 'home' ? DESK_WORDS.today : ask.what;
      await options.audit.refused({ who: staffWho(teamId ?? '', userId), route: ask.route, what });
    }
    const refusal = options.refusal();
    if ('command' in args) {
      await args.ack({ response_type: 'ephemeral', text: refusal });
    } else if ('action' in args) {
      await args.ack();
      if (args.respond) await args.respond({ response_type: 'ephemeral', text: refusal });
    } else if ('event' in args && args.event.type === 'app_home_opened' && userId) {
      await args.client.views.publish({ user_id: userId, view: homeView(refusal) });
    }
  });
}
