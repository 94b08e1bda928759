import {
  App,
  type Logger as BoltLogger,
  LogLevel,
  type RespondFn,
  type SlashCommand,
  type types,
  type webApi,
} from '@slack/bolt';
import type { FastifyInstance } from 'fastify';
import {
  type Prompt,
  type Reply,
  renderPrompt,
  type TurnEngine,
} from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import type { Notifier } from '../../payments/index.js';
import { MemoryOnceSet, type OnceSet } from '../shared/index.js';
import { FastifySlackReceiver } from './fastify-slack-receiver.js';
import { maskPersonalData } from './mask-personal-data.js';
import {
  CHOICE_ACTION_PREFIX,
  LINK_ACTION_PREFIX,
  type RenderPrompt,
  renderKey,
  type SlackFile,
  toSlackMessage,
} from './render-slack-message.js';

/** Options for {@link createSlackChannel}. */
export interface SlackChannelOptions {
  /** `xoxb-` bot token. Never logged. */
  readonly botToken: string;
  /** Signs every HTTP request from Slack; required unless `appToken` selects Socket Mode. */
  readonly signingSecret?: string | undefined;
  /** `xapp-` app-level token; when set the channel uses Socket Mode and needs no public URL. */
  readonly appToken?: string | undefined;
  /** Slack user ids that may use the desk; everyone else is politely refused. Empty: nobody. */
  readonly allowedUsers: readonly string[];
  /** Workspace (team) ids that may use the desk; omitted: any workspace. */
  readonly allowedTeams?: readonly string[];
  readonly engine: TurnEngine;
  readonly logger: Logger;
  /** Renders Prompts; default the catalogue's `renderPrompt`. */
  readonly render?: RenderPrompt;
  /** Passed to Bolt's WebClient; tests point `slackApiUrl` at a local fake. */
  readonly clientOptions?: webApi.WebClientOptions;
  /** Remembers handled deliveries; default in memory (pass a `RedisOnceSet` when Redis is up). */
  readonly seenRequests?: OnceSet;
  /** Locale for rendering; default `en`. */
  readonly locale?: string;
  /** How long a turn may take before the engine answers "still working"; default 10 000 ms. */
  readonly turnDeadlineMs?: number;
  /** The slash command; default `/insure`. */
  readonly command?: string;
  /** Now in ms for the signature freshness check; tests pin it. */
  readonly now?: () => number;
}

/** A running Slack channel: the Bolt app plus the ways to feed it requests. */
export interface SlackChannel {
  readonly app: App;
  /** Adds `POST path` (default `/slack/events`) for the HTTP receiver; a no-op in Socket Mode. */
  registerRoutes(fastify: FastifyInstance, path?: string): void;
  /** Opens the Socket Mode connection; nothing to do in HTTP mode. */
  start(): Promise<void>;
  /** Pushes messages to a Slack conversation outside a turn. */
  readonly notifier: Notifier;
  /** Closes Socket Mode and waits for requests still being processed. */
  stop(): Promise<void>;
}

/** Why the Slack channel failed outside Slack's own API errors. */
export type SlackChannelErrorCode =
  | 'SLACK_SIGNING_SECRET_MISSING'
  | 'SLACK_FILE_UNAVAILABLE'
  | 'SLACK_ADDRESS_INVALID';

/** Raised when the channel is misconfigured, a file to upload cannot be fetched, or an address is bad. */
export class SlackChannelError extends Error {
  override readonly name = 'SlackChannelError';
  readonly code: SlackChannelErrorCode;

  constructor(code: SlackChannelErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Desk subcommands the staff-desk flow understands; anything else gets the usage text. */
export const SLACK_SUBCOMMANDS = [
  'policy',
  'claim',
  'txn',
  'household',
  'batch',
  'bordereau',
  'help',
] as const;

const SESSION_PREFIX = 'slack:';
// The staff entry menu's message key (flows/main-menu.ts: `menu.<audience>`).
const STAFF_MENU_KEY = 'menu.staff';
const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** Reads a string field of an untyped payload object. */
function field(value: unknown, ...path: string[]): string | undefined {
  let current: unknown = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'string' ? current : undefined;
}

/** Who sent a command, an action or an event, from the shapes Slack uses for each. */
function identity(body: unknown): { teamId?: string; userId?: string } {
  const teamId =
    field(body, 'team_id') ?? field(body, 'team', 'id') ?? field(body, 'user', 'team_id');
  const userId =
    field(body, 'user_id') ?? field(body, 'user', 'id') ?? field(body, 'event', 'user');
  return {
    ...(teamId === undefined ? {} : { teamId }),
    ...(userId === undefined ? {} : { userId }),
  };
}

/** Direct-message conversation ids start with D; anything else may be read by others. */
function isShared(channelId: string): boolean {
  return !channelId.startsWith('D');
}

function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { errorName: typeof error };
  const code = (error as Error & { code?: unknown }).code;
  return { errorName: error.name, ...(typeof code === 'string' ? { errorCode: code } : {}) };
}

/** Bolt's logger interface over pino; only strings pass through, never payload objects. */
function boltLogger(log: Logger): BoltLogger {
  let level = LogLevel.INFO;
  const line = (parts: unknown[]) =>
    parts
      .map((part) =>
        typeof part === 'string' ? part : part instanceof Error ? part.name : '[data]',
      )
      .join(' ')
      .slice(0, 300);
  return {
    debug: (...parts: unknown[]) => log.debug(line(parts)),
    info: (...parts: unknown[]) => log.info(line(parts)),
    warn: (...parts: unknown[]) => log.warn(line(parts)),
    error: (...parts: unknown[]) => log.error(line(parts)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/**
 * Creates the Slack staff desk (Bolt): `/insure <subcommand>` on session `slack:<team>:<user>`
 * with audience staff, Block Kit answers, choice buttons, an App Home, the bordereau as a file.
 * Socket Mode when `appToken` is set, otherwise {@link FastifySlackReceiver} on the shared server.
 */
export function createSlackChannel(options: SlackChannelOptions): SlackChannel {
  const { engine, botToken } = options;
  const render = options.render ?? renderPrompt;
  const locale = options.locale ?? 'en';
  const deadlineMs = options.turnDeadlineMs ?? 10_000;
  const commandName = options.command ?? '/insure';
  const log = options.logger.child({ channel: 'slack' });
  const allowedUsers = new Set(options.allowedUsers);
  const allowedTeams = options.allowedTeams ? new Set(options.allowedTeams) : undefined;
  const seen = options.seenRequests ?? new MemoryOnceSet();
  const text = (key: string) => renderKey(render, key, locale);

  if (!options.appToken && !options.signingSecret) {
    throw new SlackChannelError(
      'SLACK_SIGNING_SECRET_MISSING',
      'Slack over HTTP needs SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN)',
    );
  }
  const receiver = options.appToken
    ? undefined
    : new FastifySlackReceiver({
        signingSecret: options.signingSecret ?? '',
        logger: log,
        seen,
        ...(options.now ? { now: options.now } : {}),
      });
  const common = {
    // A fixed token: no OAuth installs, and no auth.test call at start-up.
    authorize: async () => ({ botToken }),
    logger: boltLogger(log),
    extendedErrorHandler: true,
    ...(options.clientOptions ? { clientOptions: options.clientOptions } : {}),
  } as const;
  const app = options.appToken
    ? new App({ ...common, socketMode: true, appToken: options.appToken })
    : new App({ ...common, ...(receiver ? { receiver } : {}) });

  const isAllowed = (teamId: string | undefined, userId: string | undefined) =>
    userId !== undefined &&
    allowedUsers.has(userId) &&
    (allowedTeams === undefined || (teamId !== undefined && allowedTeams.has(teamId)));

  interface Target {
    readonly teamId: string;
    readonly userId: string;
    readonly channelId: string;
    readonly respond?: RespondFn;
    readonly client: webApi.WebClient;
  }

  async function uploadFile(target: Target, file: SlackFile, mask: boolean): Promise<void> {
    const response = await fetch(file.url);
    if (!response.ok) {
      throw new SlackChannelError(
        'SLACK_FILE_UNAVAILABLE',
        `file fetch answered ${response.status}`,
      );
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MAX_FILE_BYTES) {
      throw new SlackChannelError('SLACK_FILE_UNAVAILABLE', 'file too large to upload');
    }
    const content = await response.text();
    await target.client.files.uploadV2({
      channel_id: target.channelId,
      filename: file.fileName,
      title: file.title,
      content: mask ? maskPersonalData(content) : content,
    });
  }

  async function deliver(prompt: Prompt, target: Target): Promise<void> {
    const mask = isShared(target.channelId);
    const message = toSlackMessage(prompt, render, locale, { mask });
    if (target.respond) {
      await target.respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: message.text,
        blocks: message.blocks,
      });
    } else {
      await target.client.chat.postMessage({
        channel: target.channelId,
        text: message.text,
        blocks: message.blocks,
      });
    }
    for (const file of message.files) await uploadFile(target, file, mask);
  }

  async function turn(reply: Reply, target: Target): Promise<void> {
    const sessionKey = `${SESSION_PREFIX}${target.teamId}:${target.userId}`;
    const turnOptions = {
      deadlineMs,
      address: {
        channel: 'slack',
        address: `${target.teamId}:${target.channelId}:${target.userId}`,
        locale,
      },
      audience: 'staff',
    } as const;
    let prompt = await engine.handle(sessionKey, reply, turnOptions);
    // A fresh session opens on the staff menu, whose only entry is the desk: a command typed
    // before it was entered is not lost, the desk is entered and the command replayed once.
    const [only, ...others] = prompt.choices ?? [];
    if (
      reply.type === 'user.text' &&
      prompt.key === STAFF_MENU_KEY &&
      only &&
      others.length === 0
    ) {
      const entered = await engine.handle(
        sessionKey,
        { type: 'user.choice', id: only.id },
        turnOptions,
      );
      prompt = entered.final ? entered : await engine.handle(sessionKey, reply, turnOptions);
    }
    await deliver(prompt, target);
  }

  if (options.appToken) {
    // Over HTTP the receiver drops retries before Bolt sees them; over Socket Mode Slack still
    // redelivers events it thinks failed, under the same event id.
    app.use(async ({ body, next }) => {
      const eventId = field(body, 'event_id');
      if (eventId !== undefined && !(await seen.claim(`event:${eventId}`))) return;
      await next();
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
    const refusal = text('slack.refused');
    if ('command' in args) {
      await args.ack({ response_type: 'ephemeral', text: refusal });
    } else if ('action' in args) {
      await args.ack();
      if (args.respond) await args.respond({ response_type: 'ephemeral', text: refusal });
    } else if ('event' in args && args.event.type === 'app_home_opened' && userId) {
      await args.client.views.publish({ user_id: userId, view: homeView(refusal) });
    }
  });

  app.command(commandName, async ({ command, ack, respond, client }) => {
    const commandText = command.text.trim();
    const word = (commandText.split(/\s+/)[0] ?? '').toLowerCase();
    if (commandText !== '' && !(SLACK_SUBCOMMANDS as readonly string[]).includes(word)) {
      await ack({ response_type: 'ephemeral', text: text('slack.usage') });
      return;
    }
    // Acknowledge first: Slack shows an error after 3 s, and a turn may call the insurer.
    await ack();
    await turn(
      { type: 'user.text', text: commandText === '' ? 'help' : commandText },
      target(command, respond, client),
    );
  });

  function target(command: SlashCommand, respond: RespondFn, client: webApi.WebClient): Target {
    return {
      teamId: command.team_id,
      userId: command.user_id,
      channelId: command.channel_id,
      respond,
      client,
    };
  }

  app.action(
    new RegExp(`^${CHOICE_ACTION_PREFIX}`),
    async ({ ack, body, action, respond, client }) => {
      await ack();
      if (body.type !== 'block_actions' || action.type !== 'button' || !action.value) return;
      const teamId = body.team?.id ?? body.user.team_id;
      const channelId = body.channel?.id ?? body.user.id;
      if (!teamId) return;
      await turn(
        { type: 'user.choice', id: action.value },
        {
          teamId,
          userId: body.user.id,
          channelId,
          // App Home buttons come without a response_url; their answer goes by chat.postMessage.
          ...(body.response_url ? { respond } : {}),
          client,
        },
      );
    },
  );

  // Slack sends an action for URL buttons too; acknowledging is all there is to do.
  app.action(new RegExp(`^${LINK_ACTION_PREFIX}`), async ({ ack }) => {
    await ack();
  });

  app.event('app_home_opened', async ({ event, client }) => {
    if (event.tab !== 'home') return;
    await client.views.publish({ user_id: event.user, view: homeView(text('slack.home')) });
  });

  const onError = async ({ error, body }: { error: Error; body: unknown }): Promise<void> => {
    log.error(errorFields(error), 'slack request failed');
    const responseUrl = field(body, 'response_url');
    if (!responseUrl) return;
    try {
      await fetch(responseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ response_type: 'ephemeral', text: text('engine.error') }),
      });
    } catch (apologyError) {
      log.error(errorFields(apologyError), 'slack apology failed');
    }
  };
  // The one error boundary: with extendedErrorHandler Bolt passes the request body along.
  app.error(onError);

  return {
    app,
    registerRoutes(fastify, path = '/slack/events') {
      if (!receiver) {
        log.info('slack runs in Socket Mode; no HTTP route registered');
        return;
      }
      receiver.register(fastify, path);
    },
    async start() {
      if (options.appToken) await app.start();
    },
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
    async stop() {
      if (options.appToken) await app.stop();
      await receiver?.stop();
    },
  };
}

/** The App Home: a short explanation of the desk commands. */
function homeView(body: string): types.HomeView {
  return {
    type: 'home',
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: body } }],
  };
}
