import { webApi } from '@slack/bolt';
import type { FastifyInstance } from 'fastify';
import { STAFF_TOPICS, staffDeskFlow } from '../../flows/index.js';
import type { Notifier } from '../channels/index.js';
import { StoreOnceSet } from '../channels/shared/index.js';
import { createSlackChannel, type SlackChannel } from '../channels/slack/index.js';
import { createSmsNotifier } from '../channels/sms/index.js';
import { createTelegramChannel, type TelegramChannel } from '../channels/telegram/index.js';
import {
  createUssdCore,
  registerAfricasTalkingRoute,
  registerHubtelRoute,
  type UssdCore,
} from '../channels/ussd/index.js';
import {
  type Handoff,
  type HandoffRequest,
  renderPrompt,
  type TurnEngine,
  type TurnRoute,
} from '../conversation/index.js';
import { MAX_FILE_BYTES } from '../files/index.js';
import {
  createHandoffService,
  type HandoffConsent,
  type HandoffService,
  SLACK_FILE_ORIGIN,
} from '../handoff/index.js';
import type { PersonalData } from '../privacy/index.js';
import { registerInboundSms } from '../reminders/index.js';
import type { Insurer } from './build-insurer.js';
import type { ServerServices } from './build-services.js';
import type { ServerStores } from './build-stores.js';
import { buildWhatsApp, type WiredWhatsApp } from './build-whatsapp.js';
import { createGatewayGuard } from './gateway-guard.js';
import { instrumentEngine } from './instrument-engine.js';
import { metrics } from './metrics.js';
import type { NotifierDirectory } from './notifier-directory.js';
import type { ServerContext } from './server-context.js';
import { HandoffUnreachableError } from './server-errors.js';

/** The channels this server runs: USSD always, Telegram and Slack when configured. */
export interface ServerChannels {
  readonly ussd: UssdCore;
  readonly telegram: TelegramChannel | undefined;
  readonly slack: SlackChannel | undefined;
  readonly whatsapp: WiredWhatsApp | undefined;
}

/** What the channels are built over. */
interface ChannelInputs {
  readonly app: FastifyInstance;
  readonly stores: ServerStores;
  readonly insurer: Insurer;
  readonly services: ServerServices;
  readonly engine: TurnEngine;
  /** Where the engine's handoff policy finds the handoff built here. */
  readonly handoffSeat: { current: Handoff | undefined };
  readonly notifiers: NotifierDirectory;
}

/**
 * Builds human handoff, then each channel over the engine, mounting its routes and adding its
 * notifier to the directory; the caller's extra notifiers go last. A new channel is one more
 * builder here (and its variables in config.ts).
 */
export function buildChannels(context: ServerContext, inputs: ChannelInputs): ServerChannels {
  const handoff = buildHandoff(context, inputs);
  inputs.handoffSeat.current = handoff;
  const ussd = buildUssd(context, inputs, handoff);
  const telegram = context.config.telegram ? buildTelegram(context, inputs) : undefined;
  const slack = context.config.slack ? buildSlack(context, inputs, handoff) : undefined;
  // WhatsApp Cloud API, when its variables are set: webhook, notifier and shutdown in one call.
  const whatsapp = context.config.whatsapp
    ? buildWhatsApp(inputs.app, {
        ...context,
        ...inputs,
        ...inputs.stores,
        config: context.config.whatsapp,
        engine: instrumentEngine(inputs.engine, 'whatsapp', metrics),
        render: renderPrompt,
        channels: context.info.channels,
      })
    : undefined;
  for (const notifier of context.deps.notifiers ?? []) inputs.notifiers.add(notifier);
  return { ussd, telegram, slack, whatsapp };
}

/** The handoff's consent over the personal-data service, per the request's conversation. */
function handoffConsent(personalData: PersonalData): HandoffConsent {
  const routeOf = (request: HandoffRequest): TurnRoute => ({
    sessionKey: request.sessionKey,
    channel: request.address.channel,
    address: request.address.address,
    locale: request.address.locale,
  });
  return {
    consented: (request) => personalData.consented(routeOf(request)),
    agree: (request) => personalData.agree(routeOf(request)),
    refused: (request) => personalData.refused(routeOf(request), 'handoff'),
  };
}

/**
 * Human handoff: a Slack thread per customer who asks for a person, found from either side in
 * Redis (memory when embedded); without SLACK_HANDOFF_CHANNEL the menu item says no one is there.
 */
function buildHandoff(context: ServerContext, inputs: ChannelInputs): HandoffService {
  const { config, logger } = context;
  const handoffChannel = config.slack?.handoffChannel;
  return createHandoffService({
    store: inputs.stores.handoffs,
    engine: inputs.engine,
    sessions: inputs.stores.sessions,
    slack:
      config.slack && handoffChannel
        ? {
            channel: handoffChannel,
            // A customer is waiting on the first post: two quick retries and a 5 s limit, not
            // the client's default of ten retries over half an hour.
            client: new webApi.WebClient(config.slack.botToken, {
              ...(config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {}),
              retryConfig: { retries: 2, factor: 2, minTimeout: 250, maxTimeout: 1_000 },
              timeout: 5_000,
              rejectRateLimitedCalls: true,
            }),
          }
        : undefined,
    // Staff files reach the customer as documents kept in the file store, fetched from Slack
    // with the bot token, sent only to Slack's file host (or the local Slack of SLACK_API_URL).
    files: config.slack
      ? {
          store: inputs.stores.files,
          botToken: config.slack.botToken,
          origins: [
            SLACK_FILE_ORIGIN,
            ...(config.slack.apiUrl ? [new URL(config.slack.apiUrl).origin] : []),
          ],
          maxBytes: MAX_FILE_BYTES,
        }
      : undefined,
    // Nothing reaches staff before the customer agreed to the notice (which names Slack).
    consent: handoffConsent(inputs.services.personalData),
    notify: async (address, prompt) => {
      const notifier = inputs.notifiers.builtIn(address.channel);
      if (!notifier) throw new HandoffUnreachableError(address.channel);
      await notifier.notify(address, prompt);
    },
    logger,
    metrics: {
      opened: (channel) => metrics.handoffsOpened.inc({ channel }),
      firstReply: (seconds) => metrics.handoffFirstReply.observe(seconds),
      resolved: (by) => metrics.handoffsResolved.inc({ by }),
    },
    serviceCode: config.ussd.serviceCode,
  });
}

/**
 * USSD over the gateway's routes, the gateway's inbound SMS, and the SMS notifier. The caller's
 * screen and page live in the engine's session record; a long screen's pages also in the store,
 * one key per call, so paging through it is one Redis read and write and no engine turn.
 */
function buildUssd(
  context: ServerContext,
  inputs: ChannelInputs,
  handoff: HandoffService,
): UssdCore {
  const { config, deps, logger, info, keyPrefix } = context;
  const reminders = inputs.services.reminders.service;
  const ussd = createUssdCore({
    // A long screen's pages, for `98 More` without an engine turn: shared by every instance.
    pages: { store: inputs.stores.store, keyPrefix },
    handoff,
    engine: instrumentEngine(inputs.engine, 'ussd', metrics),
    render: renderPrompt,
    logger: logger.child({ channel: 'ussd' }),
    ...(deps.ussdDeadlineMs === undefined ? {} : { deadlineMs: deps.ussdDeadlineMs }),
    ...(deps.ussdAnswerWithinMs === undefined ? {} : { answerWithinMs: deps.ussdAnswerWithinMs }),
  });
  const guard = createGatewayGuard({
    secret: config.ussd.gatewaySecret,
    allowedIps: config.ussd.allowedIps,
    logger,
    onReject: (reason) => metrics.rejectedRequests.inc({ channel: 'ussd', reason }),
  });
  registerAfricasTalkingRoute(inputs.app, { core: ussd, guard });
  registerHubtelRoute(inputs.app, { core: ussd, guard });
  info.channels.push('ussd');
  // The SMS gateway's incoming messages come through the same gateway account as USSD.
  registerInboundSms(inputs.app, {
    guard,
    reminders,
    sms: () => inputs.notifiers.find('ussd'),
    logger,
  });
  const { sandbox, url } = inputs.insurer;
  const smsUrl =
    config.sms.url ?? (sandbox ? `${new URL(url).origin}/version1/messaging` : undefined);
  const smsKey = config.sms.apiKey ?? (sandbox ? sandbox.apiKey : undefined);
  if (smsUrl && smsKey) {
    inputs.notifiers.add(
      createSmsNotifier({
        serviceCode: config.ussd.serviceCode,
        url: smsUrl,
        apiKey: smsKey,
        username: config.sms.username,
        from: config.sms.from,
        render: renderPrompt,
        // A purchase's reminder notice rides on its outcome SMS: one message, one charge.
        takeNotice: (address, prompt) => reminders.takeNotice(address, prompt),
        // A stored file's signed link (a certificate's) is ~130 characters: a short one keeps the
        // SMS to one segment. Other links (the upload page, the card page) go as they are.
        shortLink: async (url) =>
          inputs.stores.files.idOf(url) === undefined ? url : inputs.stores.shortLinks.shorten(url),
      }),
    );
  }
  return ussd;
}

/** Telegram: webhook when PUBLIC_URL says where Telegram can reach us, long polling otherwise. */
function buildTelegram(context: ServerContext, inputs: ChannelInputs): TelegramChannel | undefined {
  const { config, deps, logger, keyPrefix } = context;
  if (!config.telegram) return undefined;
  const { redis, store } = inputs.stores;
  const apiRoot = config.telegram.apiRoot;
  const telegram = createTelegramChannel({
    token: config.telegram.botToken,
    webhookSecret: config.telegram.webhookSecret,
    engine: instrumentEngine(inputs.engine, 'telegram', metrics),
    logger: logger.child({ channel: 'telegram' }),
    render: renderPrompt,
    ...(redis ? { seenUpdates: new StoreOnceSet(store, `${keyPrefix}telegram-update:`) } : {}),
    ...(apiRoot ? { apiRoot } : {}),
    ...(deps.telegramThrottle === undefined ? {} : { throttle: deps.telegramThrottle }),
    ...(deps.telegramTyping === undefined ? {} : { typing: deps.telegramTyping }),
  });
  telegram.registerWebhook(inputs.app);
  return started(context, inputs, telegram);
}

/** Slack: Socket Mode with an app token, otherwise signed HTTP requests at /slack/events. */
function buildSlack(
  context: ServerContext,
  inputs: ChannelInputs,
  handoff: HandoffService,
): SlackChannel | undefined {
  const { config, logger, keyPrefix } = context;
  if (!config.slack) return undefined;
  const { redis, store } = inputs.stores;
  const slack = createSlackChannel({
    botToken: config.slack.botToken,
    signingSecret: config.slack.signingSecret,
    appToken: config.slack.appToken,
    allowedUsers: config.slack.allowedUsers,
    ...(config.slack.allowedTeams.length > 0 ? { allowedTeams: config.slack.allowedTeams } : {}),
    engine: instrumentEngine(inputs.engine, 'slack', metrics),
    deskFlow: staffDeskFlow.id,
    deskTopics: STAFF_TOPICS,
    logger: logger.child({ channel: 'slack' }),
    render: renderPrompt,
    intercept: (body) => handoff.fromSlack(body),
    audit: { log: inputs.services.audit, admins: config.slack.auditAdmins },
    ...(redis ? { seenRequests: new StoreOnceSet(store, `${keyPrefix}slack-request:`) } : {}),
    ...(config.slack.apiUrl ? { clientOptions: { slackApiUrl: config.slack.apiUrl } } : {}),
  });
  slack.registerRoutes(inputs.app);
  return started(context, inputs, slack);
}

/** A chat channel's common wiring: its notifier added, stopped at close, named in the info. */
function started<T extends { readonly notifier: Notifier; stop(): Promise<void> }>(
  context: ServerContext,
  inputs: ChannelInputs,
  channel: T,
): T {
  inputs.notifiers.add(channel.notifier);
  context.closers.last(() => channel.stop());
  context.info.channels.push(channel.notifier.channel);
  return channel;
}
