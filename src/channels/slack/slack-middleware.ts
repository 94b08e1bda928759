import type { App } from '@slack/bolt';
import { DESK_WORDS } from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import type { LookupAttempt, StaffLookups } from '../../privacy/index.js';
import { field, homeView, identity, LOOKUP_BLOCK, LOOKUP_INPUT } from './bolt/index.js';
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
 * What a request from outside the allow-list tried to look up, for the audit: a command, a
 * button, the lookup modal or the App Home; undefined for anything else (events in channels the
 * bot sits in are not look-ups).
 */
function attemptOf(body: unknown, who: string): LookupAttempt | undefined {
  const type = field(body, 'type');
  if (field(body, 'command') !== undefined) {
    return { who, route: 'command', what: field(body, 'text') ?? '' };
  }
  if (type === 'block_actions') {
    const actions = (body as { actions?: unknown }).actions;
    const first: unknown = Array.isArray(actions) ? actions[0] : undefined;
    return { who, route: 'button', what: field(first, 'value') ?? field(first, 'action_id') ?? '' };
  }
  if (type === 'view_submission') {
    const typed = field(body, 'view', 'state', 'values', LOOKUP_BLOCK, LOOKUP_INPUT, 'value');
    return { who, route: 'modal', what: typed ?? '' };
  }
  const home = field(body, 'event', 'type') === 'app_home_opened';
  return home ? { who, route: 'home', what: DESK_WORDS.today } : undefined;
}

/**
 * Adds what runs before every listener, after the transport's own (bolt/): the handoff threads'
 * intercept, then the allow-list.
 */
export function useSlackMiddleware(app: App, options: SlackMiddlewareOptions): void {
  const { log } = options;
  const allowedUsers = new Set(options.allowedUsers);
  const allowedTeams = options.allowedTeams ? new Set(options.allowedTeams) : undefined;
  const isAllowed = (teamId: string | undefined, userId: string | undefined) =>
    userId !== undefined &&
    allowedUsers.has(userId) &&
    (allowedTeams === undefined || (teamId !== undefined && allowedTeams.has(teamId)));

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
    const attempt = userId ? attemptOf(args.body, staffWho(teamId ?? '', userId)) : undefined;
    if (attempt) await options.audit.refused(attempt);
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
