import {
  type Prompt,
  type RenderPrompt,
  renderKey,
  renderPrompt,
  staffDeskPolicy,
  type TurnEngine,
} from '../../conversation/index.js';
import { errorFields, type Logger } from '../../log/index.js';
import { createStaffLookups, type StaffAuditLog } from '../../privacy/index.js';
import type { Notifier } from '../index.js';
import { MemoryOnceSet, type OnceSet } from '../shared/index.js';
import {
  type BoltApp,
  type BoltAppOptions,
  createBoltApp,
  field,
  isShared,
  respondEphemeral,
  SlackChannelError,
} from './bolt/index.js';
import { auditShown, toSlackMessage } from './render-slack-message.js';
import { registerSlackDesk } from './slack-desk.js';
import { useSlackMiddleware } from './slack-middleware.js';

/** Options for {@link createSlackChannel}: the transport's (tokens, client, clock), its own. */
interface SlackChannelOptions extends Omit<BoltAppOptions, 'seen' | 'log'> {
  /** Slack user ids that may use the desk; everyone else is politely refused. Empty: nobody. */
  readonly allowedUsers: readonly string[];
  /** Workspace (team) ids that may use the desk; omitted: any workspace. */
  readonly allowedTeams?: readonly string[];
  readonly engine: TurnEngine;
  /** The staff desk's flow id (src/server names it from flows/), for the staff-desk policy. */
  readonly deskFlow: string;
  /** The desk flow's topics (each `/insure` command's first word): the channel names no product. */
  readonly deskTopics: readonly string[];
  readonly logger: Logger;
  /** Renders Prompts; default the catalogue's `renderPrompt`. */
  readonly render?: RenderPrompt;
  /** Remembers handled deliveries; default in memory (pass a `RedisOnceSet` when Redis is up). */
  readonly seenRequests?: OnceSet;
  /** Locale for rendering; default `en`. */
  readonly locale?: string;
  /** How long a turn may take before the engine answers "still working"; default 10 000 ms. */
  readonly turnDeadlineMs?: number;
  /** The slash command; default `/insure`. */
  readonly command?: string;
  /**
   * Sees every verified request before the desk does (human handoff threads): returns the work
   * to do once the request is acknowledged when it takes the request, undefined to pass it on.
   * Such requests skip the desk's allow-list: they come from the handoff channel's members.
   */
  readonly intercept?: (body: unknown) => (() => Promise<void>) | undefined;
  /**
   * The staff audit: the staff-desk policy records each look-up in it before it runs; refused
   * attempts (outside the allow-list, a non-admin asking for the audit) go in too. `/insure
   * audit` is for `admins` (Slack user ids) only. Without it nothing is recorded.
   */
  readonly audit?: { readonly log: StaffAuditLog; readonly admins: readonly string[] };
}

/** A running Slack channel: its transport's route and lifecycle, and its notifier. */
export interface SlackChannel extends Pick<BoltApp, 'registerRoutes' | 'start' | 'stop'> {
  /** Pushes messages to a Slack conversation outside a turn. */
  readonly notifier: Notifier;
}

/**
 * Creates the Slack staff desk (Bolt): `/insure <subcommand>` on session `slack:<team>:<user>`
 * with audience staff, Block Kit answers, choice buttons, an App Home, the bordereau as a file.
 * Socket Mode when `appToken` is set, otherwise signed HTTP requests on the shared server.
 * The listeners only translate: a request becomes one call of the staff-desk policy (what a
 * command means, audited first, in src/conversation/policy), its Prompt Block Kit.
 */
export function createSlackChannel(options: SlackChannelOptions): SlackChannel {
  const { engine, botToken } = options;
  const render = options.render ?? renderPrompt;
  const locale = options.locale ?? 'en';
  const log = options.logger.child({ channel: 'slack' });
  const text = (key: string, params?: Prompt['params']) => renderKey(render, key, locale, params);
  const seen = options.seenRequests ?? new MemoryOnceSet();
  const { app, ...transport } = createBoltApp({ ...options, seen, log });

  const audit = createStaffLookups({
    audit: options.audit,
    text,
    shown: auditShown,
    log,
  });
  useSlackMiddleware(app, {
    intercept: options.intercept,
    allowedUsers: options.allowedUsers,
    allowedTeams: options.allowedTeams,
    refusal: () => text('slack.refused'),
    audit,
    log,
  });
  const desk = staffDeskPolicy({
    engine,
    flowId: options.deskFlow,
    topics: options.deskTopics,
    deadlineMs: options.turnDeadlineMs ?? 10_000,
    record: (attempt) => audit.record(attempt),
  });
  registerSlackDesk(app, {
    command: options.command ?? '/insure',
    desk,
    audit,
    render,
    locale,
    text,
    log,
  });

  // The one error boundary: with extendedErrorHandler Bolt passes the request body along.
  app.error(async ({ error, body }: { error: Error; body: unknown }): Promise<void> => {
    log.error(errorFields(error), 'slack request failed');
    const responseUrl = field(body, 'response_url');
    if (!responseUrl) return;
    try {
      await respondEphemeral(responseUrl, text('engine.error'));
    } catch (apologyError) {
      log.error(errorFields(apologyError), 'slack apology failed');
    }
  });

  return {
    ...transport,
    notifier: {
      channel: 'slack',
      async notify(address, prompt) {
        const [teamId = '', channelId = '', userId = ''] = address.address.split(':');
        if (!channelId) {
          throw new SlackChannelError('SLACK_ADDRESS_INVALID', 'Slack address has no channel');
        }
        const message = toSlackMessage(prompt, render, locale, { mask: isShared(channelId) });
        await app.client.chat.postMessage({
          token: botToken,
          channel: channelId,
          text: message.text,
          blocks: message.blocks,
        });
        log.debug({ teamId, hasUser: userId !== '' }, 'slack notification sent');
      },
    },
  };
}
