import type { FastifyInstance } from 'fastify';
import type { AddedFlow } from '../../flows/index.js';
import type { Registrations } from '../access/index.js';
import type { CircuitBreakerOptions } from '../api/index.js';
import type { Notifier } from '../channels/index.js';
import type { TelegramChannelOptions } from '../channels/telegram/index.js';
import type { UssdCore } from '../channels/ussd/index.js';
import type { FlowRegistry, TurnEngine } from '../conversation/index.js';
import type { FileStore } from '../files/index.js';
import type { HoldingsIndex, HoldingsScheduler } from '../holdings/index.js';
import { createLogger, type Logger } from '../log/index.js';
import type { LookupBackoff, PaymentService } from '../payments/index.js';
import type { RedisConnection } from '../redis/index.js';
import type {
  CreditLifeReminders,
  ReminderService,
  StaffDigestPoster,
} from '../reminders/index.js';
import type { createSandbox, Sandbox } from '../sandbox/index.js';
import type { SessionStore } from '../session/index.js';
import { buildChannels, type ServerChannels } from './build-channels.js';
import { buildEngine, type ServerEngine } from './build-engine.js';
import { buildHttpApp, type HttpApp } from './build-http.js';
import { buildInsurer } from './build-insurer.js';
import { buildPayments } from './build-payments.js';
import { buildRoutes } from './build-routes.js';
import { buildServices } from './build-services.js';
import { buildStores } from './build-stores.js';
import type { WiredWhatsApp } from './build-whatsapp.js';
import type { Config } from './config.js';
import { createNotifierDirectory } from './notifier-directory.js';
import { createPaymentTracker } from './payment-tracker.js';
import type { ReadinessCheck } from './readiness.js';
import { createClosers, type ServerContext } from './server-context.js';

/** Parts a caller (a test, an embedding process) may supply instead of the defaults. */
export interface ServerDeps {
  readonly logger?: Logger;
  /** Flows to run instead of the production registry (tests of the channel layer). */
  readonly flows?: FlowRegistry;
  /**
   * A USSD caller's mobile-money payment starts in their turn, the call kept open, as before
   * issue 38 (tests of the payment mechanics that read its screens in the call). Default false:
   * the call ends first and the payment starts after it.
   */
  readonly payDuringCall?: boolean;
  /** A ready engine instead of one built from `flows` (tests of a single channel). */
  readonly engine?: TurnEngine;
  /** A Redis connection to share (standalone, Sentinel or Cluster); the caller closes it. */
  readonly redis?: RedisConnection;
  readonly sessions?: SessionStore;
  /**
   * Flows registered beside the production ones (createFlowRegistry's `added`): a fixture flow
   * in a test, listed on the entry menu. Ignored when `flows` or `engine` is given.
   */
  readonly addedFlows?: readonly AddedFlow[];
  /** Options for the embedded sandbox insurer (tests shorten its settle delay). */
  readonly sandbox?: Parameters<typeof createSandbox>[0];
  /** Payment status polling delays (tests shorten them). */
  readonly paymentBackoffMs?: readonly number[];
  /** How a payment whose pay answer was lost is looked up (tests make it instant). */
  readonly paymentLookupBackoff?: LookupBackoff;
  readonly fileStore?: FileStore;
  /** The file store's clock (link expiry, retention) when it builds its own; tests pass one. */
  readonly fileClock?: () => number;
  /** Prefix of every Redis key this server writes (tests use their own). Default `insurechat:`. */
  readonly keyPrefix?: string;
  /** Extra readiness checks. */
  readonly readiness?: readonly ReadinessCheck[];
  /**
   * The Telegram bot's outgoing rate limits; default Telegram's published ones (one message a
   * second per chat). Tests against the Bot API emulator, which has none, shorten them.
   */
  readonly telegramThrottle?: TelegramChannelOptions['throttle'];
  /** When a slow Telegram turn shows "typing"; tests pass timers they fire by hand. */
  readonly telegramTyping?: TelegramChannelOptions['typing'];
  /** The engine's deadline for a USSD turn ("still working" after it). Default 4000 ms. */
  readonly ussdDeadlineMs?: number;
  /** The USSD core's backstop under the gateway's 15 s. Default 10 000 ms. */
  readonly ussdAnswerWithinMs?: number;
  /**
   * Notifiers added after the built-in ones; one for a channel that already has one replaces it
   * (tests record what users are told out of turn).
   */
  readonly notifiers?: readonly Notifier[];
  /** The renewal reminders' clock (epoch ms); tests pass a manual clock. */
  readonly reminderClock?: () => number;
  /** The clock WhatsApp's message ids are remembered by (7 days); tests pass a manual clock. */
  readonly whatsappClock?: () => number;
  /** How the Graph client waits between tries after a rate limit; tests return at once. */
  readonly whatsappSleep?: (ms: number) => Promise<void>;
  /** The WhatsApp inbox's first retry delay of a failed turn (default 1 000 ms); tests shorten it. */
  readonly whatsappTurnBackoffMs?: number;
  /** The staff audit's clock (entry times, the year's retention); tests pass a manual clock. */
  readonly auditClock?: () => number;
  /**
   * The partner client's circuit breaker settings; default 5 failures, open 30 s. Tests of an
   * insurer outage shorten the open period or drive it with {@link ServerDeps.partnerClock}.
   */
  readonly partnerCircuitBreaker?: CircuitBreakerOptions;
  /** The partner client's clock (the breaker's open period, Retry-After); tests pass their own. */
  readonly partnerClock?: () => number;
  /**
   * Whether customers are asked to agree to the privacy notice before a flow collects personal
   * data; default true. Tests of other journeys turn it off so their scripts stay as they were.
   */
  readonly askConsent?: boolean;
  /**
   * The record of individuals insurechat registered (src/access) instead of the one kept in Redis
   * beside the sessions: a test swaps in an older owner rule to show its walk catches the leaks.
   */
  readonly registrations?: Registrations;
}

/** What is running, for the start-up banner and tests. */
export interface ServerInfo {
  /** Where the server listens, once it does. */
  url: string | undefined;
  /** The interface and port actually bound, once listening (`0.0.0.0` = every interface). */
  bound: { readonly host: string; readonly port: number } | undefined;
  /** The embedded sandbox insurer's URL, when it runs. */
  sandboxUrl: string | undefined;
  /** The embedded sandbox's API key, for a user to read what the insurer recorded. */
  sandboxKey?: string;
  /** Channels with routes mounted: always `ussd` and `web` (outside production), plus the rest. */
  readonly channels: string[];
  /** `redis` or `memory`. */
  readonly sessions: 'redis' | 'memory';
}

/** The composed application: fastify plus what must be started and stopped with it. */
export interface InsurechatServer {
  readonly app: FastifyInstance;
  readonly info: ServerInfo;
  readonly ussd: UssdCore;
  /** The WhatsApp channel, when its variables are set (tests wait on its inbox). */
  readonly whatsapp: WiredWhatsApp | undefined;
  /** The turn engine every channel uses. */
  readonly engine: TurnEngine;
  readonly files: FileStore;
  /** Runs one file sweep, asking the insurer about claims' files (the hourly timer's run). */
  sweepFiles(): Promise<number>;
  /** The embedded sandbox insurer, when PARTNER_API_URL is unset. */
  readonly sandbox: Sandbox | undefined;
  /** The payment service (Redis-backed when REDIS_URL is set, in-process otherwise). */
  readonly payments: PaymentService;
  /** Renewal reminders: its `scan` is what the schedule runs. */
  readonly reminders: ReminderService;
  /** The staff's morning digest, when SLACK_DIGEST_CHANNEL is set. */
  readonly staffDigest: StaffDigestPoster | undefined;
  /** Credit-life premium reminders to SLACK_DIGEST_CHANNEL, when it is set. */
  readonly creditLifeReminders: CreditLifeReminders | undefined;
  /** Who holds what (Redis beside the sessions, or this process): cover lookups read it. */
  readonly holdings: HoldingsIndex;
  /** The sync filling the index from the insurer's lists; `runNow` runs one (tests). */
  readonly holdingsSync: HoldingsScheduler;
  /** Listens on `config.port` (0 picks a free port) and returns the base URL. */
  listen(): Promise<{ url: string }>;
  /** Stops taking requests, lets in-flight turns finish, then closes every connection. */
  close(): Promise<void>;
}

/**
 * Builds the whole insurechat server from its configuration, in dependency order: the HTTP app,
 * the stores (Redis when REDIS_URL, else this process), the insurer (the embedded sandbox when no
 * PARTNER_API_URL), the services (payment attempts, reminders, holdings, personal data), the
 * engine and its flows, the channels whose variables are set, the payment service, then the
 * remaining routes (files, claim documents, simulator, health, readiness, metrics).
 */
export async function createServer(
  config: Config,
  deps: ServerDeps = {},
): Promise<InsurechatServer> {
  const logger = deps.logger ?? createLogger({ level: config.logLevel });
  const info: ServerInfo = {
    url: undefined,
    bound: undefined,
    sandboxUrl: undefined,
    channels: [],
    sessions: config.redis || deps.redis ? 'redis' : 'memory',
  };
  const context: ServerContext = {
    config,
    deps,
    logger,
    keyPrefix: deps.keyPrefix ?? 'insurechat:',
    info,
    closers: createClosers(),
    publicUrl: () => config.publicUrl ?? info.url ?? `http://127.0.0.1:${config.port}`,
  };
  const http = await buildHttpApp(config, logger);
  const { app } = http;
  const stores = await buildStores(context);
  const insurer = await buildInsurer(context);
  const notifiers = createNotifierDirectory();
  const tracker = createPaymentTracker();
  const services = await buildServices(context, { stores, insurer, notifiers, payments: tracker });
  const engine = buildEngine(context, {
    stores,
    insurer,
    services,
    notifiers,
    payments: tracker,
  });
  const channels = buildChannels(context, {
    app,
    stores,
    insurer,
    services,
    engine: engine.engine,
    handoffSeat: engine.handoffSeat,
    notifiers,
  });
  const payments = buildPayments(context, {
    app,
    stores,
    insurer,
    engine: engine.engine,
    notifiers,
    tracker,
  });
  buildRoutes(context, { app, stores, insurer, services, ussd: channels.ussd });
  return {
    app,
    info,
    ussd: channels.ussd,
    whatsapp: channels.whatsapp,
    engine: engine.engine,
    files: stores.files,
    sweepFiles: services.sweepFiles,
    sandbox: insurer.sandbox,
    payments,
    reminders: services.reminders.service,
    staffDigest: services.reminders.digest,
    creditLifeReminders: services.reminders.creditLife,
    holdings: services.holdings,
    holdingsSync: services.holdingsSync,
    listen: () => listen(context, insurer.sandbox, app, channels),
    close: closeOnce(context, http, { engine, channels, payments }),
  };
}

/** Listens, points the embedded insurer's callbacks here, then starts the outgoing channels. */
async function listen(
  context: ServerContext,
  sandbox: Sandbox | undefined,
  app: FastifyInstance,
  channels: ServerChannels,
): Promise<{ url: string }> {
  const { config, info } = context;
  const address = await app.listen({ port: config.port, host: config.host });
  const port = new URL(address).port;
  info.bound = { host: config.host, port: Number(port) };
  const local = `http://${['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host}:${port}`;
  const url = config.publicUrl ?? local;
  info.url = url;
  // The embedded insurer calls this server back like the real one would, over the local
  // address: it runs in this process, whatever PUBLIC_URL says.
  sandbox?.setPaymentCallbackUrl(`${local}/payments/callback/${config.payments.callbackSecret}`);
  // Channels that reach out to their platform start once the server can take requests.
  const { telegram, slack } = channels;
  if (telegram) {
    if (config.publicUrl) await telegram.setWebhook(`${config.publicUrl}/telegram/webhook`);
    else await telegram.startPolling();
  }
  if (slack) await slack.start();
  return { url };
}

/** The server's close: once, however often called. */
function closeOnce(
  context: ServerContext,
  http: HttpApp,
  parts: {
    readonly engine: ServerEngine;
    readonly channels: ServerChannels;
    readonly payments: PaymentService;
  },
): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      // fastify stops accepting, answers 503 to newcomers and waits for in-flight requests.
      http.shutDown();
      // A keep-alive socket busy when the close began goes idle a moment later, and Node's
      // close closes only the sockets idle at its start: without this sweep such a socket holds
      // the server open for fastify's keep-alive timeout (72 s). In-flight requests still finish.
      const sweep = setInterval(() => http.app.server.closeIdleConnections(), 250);
      try {
        await http.app.close();
      } finally {
        clearInterval(sweep);
      }
      await parts.channels.ussd.idle();
      await parts.engine.owned?.idle();
      await parts.payments.idle();
      parts.engine.owned?.close();
      for (const close of context.closers.inOrder()) {
        await close().catch((error: unknown) =>
          context.logger.warn({ err: error }, 'error while closing'),
        );
      }
    })();
    return closing;
  };
}
