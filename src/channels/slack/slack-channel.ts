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
import { z } from 'zod';
import {
  type ChannelStateHook,
  type Prompt,
  renderPrompt,
  type TurnEngine,
  type TurnOptions,
} from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import type { StaffAuditLog } from '../../privacy/index.js';
import type { Notifier } from '../index.js';
import { MemoryOnceSet, type OnceSet } from '../shared/index.js';
import { FastifySlackReceiver } from './fastify-slack-receiver.js';
import { maskCsv, maskPersonalData } from './mask-personal-data.js';
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
  /**
   * Sees every verified request before the desk does (human handoff threads): returns the work
   * to do once the request is acknowledged when it takes the request, undefined to pass it on.
   * Such requests skip the desk's allow-list: they come from the handoff channel's members.
   */
  readonly intercept?: (body: unknown) => (() => Promise<void>) | undefined;
  /**
   * The audit of staff look-ups: every desk command is appended (who, when, what, NRCs and phones
   * masked) before it runs, and one that cannot be recorded is not run; `/insure audit` shows the
   * latest to `admins` (Slack user ids) only. Without it nothing is recorded.
   */
  readonly audit?: { readonly log: StaffAuditLog; readonly admins: readonly string[] };
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

/** Desk subcommands the staff-desk flow understands (plus `help`); anything else gets the help. */
export const SLACK_SUBCOMMANDS = [
  'policy',
  'claim',
  'claims',
  'txn',
  'household',
  'batch',
  'bordereau',
  'today',
  'help',
] as const;

// Every slash command is a fresh query: whatever screen the session was on is dropped, and the
// desk is entered anew (the engine's `restart` decision, under the session lock).
const RESTART: ChannelStateHook = { decide: () => ({ kind: 'restart', state: () => undefined }) };
// `bordereau <policyId> #channel`: Slack escapes a named channel as `<#C123|name>`.
const CHANNEL_MENTION = /<#([CG][A-Z0-9]+)(?:\|[^>]*)?>/;

const SESSION_PREFIX = 'slack:';
/** The staff desk's "Another lookup" choice: opens the lookup modal instead of a turn. */
const ANOTHER_LOOKUP = 'another';
const LOOKUP_CALLBACK = 'insure_lookup';
const LOOKUP_BLOCK = 'lookup';
const LOOKUP_INPUT = 'command';

const ModalMetadata = z.object({ channelId: z.string().min(1).max(40) });

/** The channel a lookup modal was opened from, kept in its private metadata. */
function channelOfModal(metadata: string): string | undefined {
  try {
    const parsed = ModalMetadata.safeParse(JSON.parse(metadata));
    return parsed.success ? parsed.data.channelId : undefined;
  } catch {
    return undefined;
  }
}
/** How many look-ups `/insure audit` shows. */
const AUDIT_SHOWN = 20;
// The App Home's summary runs on its own session, apart from the desk's.
const HOME_PREFIX = 'slack-home:';
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
    /** Where files go: a channel named in the command; by default the requester's DM. */
    readonly fileChannelId?: string;
  }

  /** The channel files go to: the one named, the DM the command came from, or a new DM. */
  async function fileChannelOf(target: Target): Promise<string> {
    if (target.fileChannelId) return target.fileChannelId;
    if (!isShared(target.channelId)) return target.channelId;
    const opened = await target.client.conversations.open({ users: target.userId });
    const id = opened.channel?.id;
    if (!id) throw new SlackChannelError('SLACK_ADDRESS_INVALID', 'Slack opened no DM');
    return id;
  }

  async function uploadFile(
    channelId: string,
    client: webApi.WebClient,
    file: SlackFile,
    mask: boolean,
  ): Promise<void> {
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
    await client.files.uploadV2({
      channel_id: channelId,
      filename: file.fileName,
      title: file.title,
      // A register in a shared channel keeps its shape, not whom it lists.
      content: mask
        ? file.fileName.toLowerCase().endsWith('.csv')
          ? maskCsv(content)
          : maskPersonalData(content)
        : content,
    });
  }

  async function deliver(prompt: Prompt, target: Target): Promise<void> {
    const mask = isShared(target.channelId);
    const message = toSlackMessage(prompt, render, locale, { mask });
    // Files (the bordereau lists borrowers) go privately to the requester unless a channel was
    // named; the answer says where they went.
    const fileChannelId = message.files.length > 0 ? await fileChannelOf(target) : undefined;
    const blocks: typeof message.blocks = [...message.blocks];
    if (fileChannelId && fileChannelId !== target.channelId) {
      const where = target.fileChannelId
        ? render(
            {
              key: 'slack.fileSentTo',
              params: { channel: `<#${fileChannelId}>` },
              input: 'none',
              final: false,
            },
            locale,
          ).text
        : text('slack.fileSentPrivately');
      blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: where }] });
    }
    if (target.respond) {
      await target.respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: message.text,
        blocks,
      });
    } else {
      await target.client.chat.postMessage({
        channel: target.channelId,
        text: message.text,
        blocks,
      });
    }
    if (!fileChannelId) return;
    const fileMask = isShared(fileChannelId);
    for (const file of message.files)
      await uploadFile(fileChannelId, target.client, file, fileMask);
  }

  const turnOptionsOf = (target: Target): TurnOptions => ({
    deadlineMs,
    address: {
      channel: 'slack',
      address: `${target.teamId}:${target.channelId}:${target.userId}`,
      locale,
    },
    audience: 'staff',
  });

  /**
   * Runs one desk command as a fresh query on `sessionKey`: the session restarts on the staff
   * menu, whose only entry is the desk; the desk is entered and the command typed there.
   */
  async function query(sessionKey: string, command: string, options: TurnOptions): Promise<Prompt> {
    const typed = { type: 'user.text', text: command } as const;
    const menu = await engine.handle(sessionKey, typed, { ...options, channelState: RESTART });
    const [only, ...others] = menu.choices ?? [];
    if (menu.key !== STAFF_MENU_KEY || !only || others.length > 0) return menu;
    const entered = await engine.handle(sessionKey, { type: 'user.choice', id: only.id }, options);
    return entered.final ? entered : engine.handle(sessionKey, typed, options);
  }

  const sessionOf = (target: Target) => `${SESSION_PREFIX}${target.teamId}:${target.userId}`;

  if (options.appToken) {
    // Over HTTP the receiver drops retries before Bolt sees them; over Socket Mode Slack still
    // redelivers events it thinks failed, under the same event id.
    app.use(async ({ body, next }) => {
      const eventId = field(body, 'event_id');
      if (eventId !== undefined && !(await seen.claim(`event:${eventId}`))) return;
      await next();
    });
  }

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

  const audit = options.audit;
  const admins = new Set(audit?.admins ?? []);
  /** The latest look-ups for an admin, or the refusal; one ephemeral text either way. */
  async function auditAnswer(userId: string): Promise<string> {
    if (!audit || !admins.has(userId)) {
      log.info({ event: 'audit.refused' }, 'audit asked for by a non-admin');
      return text('slack.audit.refused');
    }
    const entries = await audit.log.latest(AUDIT_SHOWN);
    if (entries.length === 0) return text('slack.audit.empty');
    const lines = entries.map(
      (entry) =>
        render(
          {
            key: 'slack.audit.entry',
            params: {
              at: `${entry.at.slice(0, 16).replace('T', ' ')} UTC`,
              who: `<@${entry.who.split(':').at(-1) ?? entry.who}>`,
              what: entry.what,
            },
            input: 'none',
            final: false,
          },
          locale,
        ).text,
    );
    return [text('slack.audit.header'), ...lines].join('\n');
  }

  app.command(commandName, async ({ command, ack, respond, client }) => {
    const mention = CHANNEL_MENTION.exec(command.text);
    const commandText = command.text.replace(CHANNEL_MENTION, ' ').trim();
    const word = (commandText.split(/\s+/)[0] ?? '').toLowerCase();
    if (word === 'audit') {
      await ack({ response_type: 'ephemeral', text: await auditAnswer(command.user_id) });
      return;
    }
    if (
      word === '' ||
      word === 'help' ||
      !(SLACK_SUBCOMMANDS as readonly string[]).includes(word)
    ) {
      // Help needs no session: the list of commands, after a word on what was not understood.
      const unknown =
        word === '' || word === 'help'
          ? []
          : [
              render(
                {
                  key: 'slack.usage',
                  params: { command: word.slice(0, 30).replace(/[&<>`]/g, '') },
                  input: 'none',
                  final: false,
                },
                locale,
              ).text,
            ];
      const body = [...unknown, text('slack.help')].join('\n\n');
      await ack({
        response_type: 'ephemeral',
        text: body,
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: body } }],
      });
      return;
    }
    // Acknowledge first: Slack shows an error after 3 s, and a turn may call the insurer.
    await ack();
    if (audit) {
      try {
        await audit.log.append({
          who: `${command.team_id}:${command.user_id}`,
          at: new Date((options.now ?? Date.now)()).toISOString(),
          what: maskPersonalData(commandText),
        });
      } catch (err) {
        // An unrecorded look-up of a person is not made (Data Protection Act: accountability).
        log.error({ err }, 'staff look-up not audited; refused');
        await respond({ response_type: 'ephemeral', text: text('slack.audit.unavailable') });
        return;
      }
    }
    const to = target(command, respond, client, mention?.[1]);
    await deliver(await query(sessionOf(to), commandText, turnOptionsOf(to)), to);
  });

  function target(
    command: SlashCommand,
    respond: RespondFn,
    client: webApi.WebClient,
    fileChannelId: string | undefined,
  ): Target {
    return {
      teamId: command.team_id,
      userId: command.user_id,
      channelId: command.channel_id,
      respond,
      client,
      ...(fileChannelId ? { fileChannelId } : {}),
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
      // "Another lookup" asks for a command the staff member types: a modal with a text field.
      if (action.value === ANOTHER_LOOKUP && body.trigger_id) {
        await client.views.open({
          trigger_id: body.trigger_id,
          view: lookupModal(channelId),
        });
        return;
      }
      const to: Target = {
        teamId,
        userId: body.user.id,
        channelId,
        // App Home buttons come without a response_url; their answer goes by chat.postMessage.
        ...(body.response_url ? { respond } : {}),
        client,
      };
      const prompt = await engine.handle(
        sessionOf(to),
        { type: 'user.choice', id: action.value },
        turnOptionsOf(to),
      );
      await deliver(prompt, to);
    },
  );

  // The lookup modal's command, answered as the slash command answers it, in the channel the
  // button was in (masked there when it is shared).
  app.view(LOOKUP_CALLBACK, async ({ ack, body, view, client }) => {
    const typed = view.state.values[LOOKUP_BLOCK]?.[LOOKUP_INPUT]?.value?.trim() ?? '';
    const word = (typed.split(/\s+/)[0] ?? '').toLowerCase();
    if (!(SLACK_SUBCOMMANDS as readonly string[]).includes(word)) {
      await ack({
        response_action: 'errors',
        errors: { [LOOKUP_BLOCK]: text('slack.lookup.unknown') },
      });
      return;
    }
    await ack();
    const teamId = body.team?.id ?? view.team_id;
    const channelId = channelOfModal(view.private_metadata) ?? body.user.id;
    const to: Target = { teamId, userId: body.user.id, channelId, client };
    await deliver(await query(sessionOf(to), typed, turnOptionsOf(to)), to);
  });

  function lookupModal(channelId: string) {
    return {
      type: 'modal' as const,
      callback_id: LOOKUP_CALLBACK,
      private_metadata: JSON.stringify({ channelId }),
      title: { type: 'plain_text' as const, text: text('slack.lookup.title') },
      submit: { type: 'plain_text' as const, text: text('slack.lookup.submit') },
      blocks: [
        {
          type: 'input' as const,
          block_id: LOOKUP_BLOCK,
          label: { type: 'plain_text' as const, text: text('slack.lookup.label') },
          hint: { type: 'plain_text' as const, text: text('slack.lookup.hint') },
          element: { type: 'plain_text_input' as const, action_id: LOOKUP_INPUT },
        },
      ],
    };
  }

  // Slack sends an action for URL buttons too; acknowledging is all there is to do.
  app.action(new RegExp(`^${LINK_ACTION_PREFIX}`), async ({ ack }) => {
    await ack();
  });

  // The App Home summarises today's payments and claims: the desk's `today` query, run on a
  // session of its own so it never disturbs a lookup in progress. The Home is private: no masking.
  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    const teamId = field(body, 'team_id') ?? '';
    const to: Target = { teamId, userId: event.user, channelId: event.channel, client };
    let summary: types.KnownBlock[];
    try {
      const prompt = await query(
        `${HOME_PREFIX}${teamId}:${event.user}`,
        'today',
        turnOptionsOf(to),
      );
      summary = toSlackMessage({ ...prompt, choices: [] }, render, locale, { mask: false }).blocks;
    } catch (error) {
      log.warn(errorFields(error), 'slack home summary failed');
      summary = [
        { type: 'section', text: { type: 'mrkdwn', text: text('slack.home.unavailable') } },
      ];
    }
    await client.views.publish({
      user_id: event.user,
      view: {
        type: 'home',
        blocks: [...homeView(text('slack.home')).blocks, { type: 'divider' }, ...summary],
      },
    });
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
