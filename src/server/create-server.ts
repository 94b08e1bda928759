import formbody from '@fastify/formbody';
import { webApi } from '@slack/bolt';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { z } from 'zod';
import { createFlowRegistry, type FlowFileStore } from '../../flows/index.js';
import { createPartnerClient } from '../api/index.js';
import { RedisOnceSet } from '../channels/shared/index.js';
import { createSlackChannel, type SlackChannel } from '../channels/slack/index.js';
import {
  createTelegramChannel,
  type TelegramChannel,
  telegramEngineMiddleware,
} from '../channels/telegram/index.js';
import {
  createSmsNotifier,
  createUssdCore,
  createUssdGuard,
  registerAfricasTalkingRoute,
  registerHubtelRoute,
  type UssdCore,
  ussdMiddleware,
} from '../channels/ussd/index.js';
import { registerSimulatorRoutes, SimulatorSms } from '../channels/web/index.js';
import {
  createUploadLinks,
  partnerClaimDocuments,
  registerClaimDocumentsRoutes,
} from '../claim-documents/index.js';
import {
  type ConversationEngine,
  createTurnEngine,
  DEFAULT_LOCALE,
  type FlowRegistry,
  type Prompt,
  renderPrompt,
  type TurnEngine,
} from '../conversation/index.js';
import { createFileStore, type FileStore, registerFileRoutes } from '../files/index.js';
import {
  createHandoffService,
  handoffMiddleware,
  MemoryHandoffStore,
  RedisHandoffStore,
} from '../handoff/index.js';
import {
  createBullHoldingsScheduler,
  createMemoryHoldingsIndex,
  createMemoryHoldingsScheduler,
  createRedisHoldingsIndex,
  type HoldingsIndex,
  type HoldingsScheduler,
  syncHoldings,
} from '../holdings/index.js';
import { createLogger, type Logger } from '../log/index.js';
import { normaliseCaller } from '../msisdn/index.js';
import {
  type AttemptTracker,
  createPaymentAttempts,
  createPaymentService,
  type Notifier,
  type PaymentService,
  registerPaymentCallback,
} from '../payments/index.js';
import { holdingsIndexStore, type PersonalData } from '../privacy/index.js';
import { connectRedis, duplicateForBatching, type RedisConnection } from '../redis/index.js';
import {
  type CreditLifeReminders,
  createReminderWiring,
  type ReminderService,
  registerInboundSms,
  type StaffDigestPoster,
} from '../reminders/index.js';
import { createSandbox, SANDBOX_TEST_MSISDNS, type Sandbox } from '../sandbox/index.js';
import { MemorySessionStore, RedisSessionStore, type SessionStore } from '../session/index.js';
import type { Config } from './config.js';
import { installErrorBoundary } from './error-boundary.js';
import { instrumentEngine } from './instrument-engine.js';
import { metrics, metricsRegistry } from './metrics.js';
import { createPersonalDataWiring } from './personal-data-wiring.js';
import {
  circuitReadiness,
  type ReadinessCheck,
  redisReadiness,
  runReadiness,
  upstreamReadiness,
} from './readiness.js';
import { countUpstreamErrors } from './upstream-error-metrics.js';

/** Parts a caller (a test, an embedding process) may supply instead of the defaults. */
export interface ServerDeps {
  readonly logger?: Logger;
  /** Flows to run instead of the production registry (tests of the channel layer). */
  readonly flows?: FlowRegistry;
  /** A ready engine instead of one built from `flows` (tests of a single channel). */
  readonly engine?: TurnEngine;
  /** A Redis connection to share (standalone, Sentinel or Cluster); the caller closes it. */
  readonly redis?: RedisConnection;
  readonly sessions?: SessionStore;
  /** Options for the embedded sandbox insurer (tests shorten its settle delay). */
  readonly sandbox?: Parameters<typeof createSandbox>[0];
  /** Payment status polling delays (tests shorten them). */
  readonly paymentBackoffMs?: readonly number[];
  readonly fileStore?: FileStore;
  /** Prefix of every Redis key this server writes (tests use their own). Default `insurechat:`. */
  readonly keyPrefix?: string;
  /** Extra readiness checks. */
  readonly readiness?: readonly ReadinessCheck[];
  /** The USSD core's backstop under the gateway's 15 s. Default 10 000 ms. */
  readonly ussdAnswerWithinMs?: number;
  /**
   * Notifiers added after the built-in ones; one for a channel that already has one replaces it
   * (tests record what users are told out of turn).
   */
  readonly notifiers?: readonly Notifier[];
  /** The renewal reminders' clock (epoch ms); tests pass a manual clock. */
  readonly reminderClock?: () => number;
  /**
   * Whether customers are asked to agree to the privacy notice before a flow collects personal
   * data; default true. Tests of other journeys turn it off so their scripts stay as they were.
   */
  readonly askConsent?: boolean;
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
  /** The turn engine every channel uses. */
  readonly engine: TurnEngine;
  readonly files: FileStore;
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

/** Body limit for every route: USSD, chat webhooks and callbacks are small. */
const BODY_LIMIT_BYTES = 256 * 1024;
/** The number the simulator starts with: a sandbox number whose payments succeed. */
const SIMULATOR_DEFAULT_NUMBER = '0971234567';
/** How often files past their retention are deleted. */
const FILE_SWEEP_INTERVAL_MS = 3_600_000;

/**
 * Builds the whole insurechat server from its configuration: the upstream (embedded sandbox when
 * no PARTNER_API_URL), sessions (Redis when REDIS_URL, else memory), the engine and its flows, the
 * channels whose variables are set, payments, files, health, readiness and metrics.
 */
export async function createServer(
  config: Config,
  deps: ServerDeps = {},
): Promise<InsurechatServer> {
  const logger = deps.logger ?? createLogger({ level: config.logLevel });
  const keyPrefix = deps.keyPrefix ?? 'insurechat:';
  const closers: Array<() => Promise<void>> = [];
  const info: ServerInfo = {
    url: undefined,
    bound: undefined,
    sandboxUrl: undefined,
    channels: [],
    sessions: config.redis || deps.redis ? 'redis' : 'memory',
  };

  const app = Fastify({
    // pino's Logger is fastify's logger; the cast only widens its generic parameter.
    loggerInstance: logger as FastifyBaseLogger,
    // Request lines would carry URLs with secrets (`?secret=`, `/payments/callback/<secret>`):
    // the onResponse hook below logs the route pattern instead.
    logController: new LogController({ disableRequestLogging: true }),
    // fastify's default gives every request a pino child, and building one runs the redaction
    // over its bindings: a measurable share of a USSD turn. Requests log through the server's
    // logger instead (the onResponse line below names the route; nothing needs the request id).
    childLoggerFactory: (parent) => parent,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    return503OnClosing: true,
  });
  installErrorBoundary(app, logger);
  await app.register(formbody, { bodyLimit: BODY_LIMIT_BYTES });
  // While shutting down, answers close their connection so keep-alive sockets do not hold the
  // server open after the last in-flight turn has answered.
  let shuttingDown = false;
  // Both hooks are plain callbacks, not async functions: they run on every request, and an
  // async hook costs a promise and a tick each time for work that never waits.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (shuttingDown) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    // Skips building the line when it would be dropped (benchmarks and quiet deployments).
    if (logger.isLevelEnabled('info')) {
      logger.info(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'request',
      );
    }
    done();
  });

  let redis = deps.redis;
  if (!redis && config.redis) {
    redis = connectRedis(config.redis);
    const owned = redis;
    closers.push(async () => {
      await owned.quit().catch(() => owned.disconnect());
    });
  }

  const files =
    deps.fileStore ??
    (await createFileStore({
      dir: config.files.dir,
      signingSecret: config.files.signingSecret,
      publicUrl: () => config.publicUrl ?? info.url ?? `http://127.0.0.1:${config.port}`,
    }));
  if (!deps.fileStore) closers.push(() => files.close());
  registerFileRoutes(app, files);

  // Upstream: the insurer, or the embedded sandbox when none is configured.
  let sandbox: Sandbox | undefined;
  let partnerUrl = config.partnerApi.url;
  let partnerKey = config.partnerApi.apiKey;
  if (!partnerUrl) {
    sandbox = createSandbox({ ...deps.sandbox, logger: logger.child({ module: 'sandbox' }) });
    const started = await sandbox.listen(0);
    partnerUrl = started.url;
    partnerKey = sandbox.apiKey;
    info.sandboxUrl = started.url;
    info.sandboxKey = sandbox.apiKey;
    const owned = sandbox;
    closers.push(() => owned.close());
  }
  const client = createPartnerClient({
    baseUrl: partnerUrl,
    apiKey: partnerKey ?? '',
    connections: config.partnerApi.connections,
    // The embedded sandbox serves the contract's own paths; overrides are for a real insurer.
    pathOverrides: sandbox ? {} : config.partnerApi.pathOverrides,
    logger: logger.child({ module: 'api' }),
    onUpstreamError: countUpstreamErrors(metrics),
  });
  closers.push(() => client.close());

  // Claim documents from any phone: the SMS link's page keeps files here and posts their URLs.
  const uploadLinks = createUploadLinks({
    signingSecret: config.files.signingSecret,
    publicUrl: () => config.publicUrl ?? info.url ?? `http://127.0.0.1:${config.port}`,
  });
  registerClaimDocumentsRoutes(app, {
    links: uploadLinks,
    files,
    insurer: partnerClaimDocuments(client),
    logger: logger.child({ module: 'claim-documents' }),
  });

  /** The session store's connection: batched where it can be (see duplicateForBatching). */
  const sessionRedisOf = (shared: RedisConnection): RedisConnection => {
    const batching = duplicateForBatching(shared);
    if (!batching) return shared;
    closers.push(async () => {
      await batching.quit().catch(() => batching.disconnect());
    });
    return batching;
  };
  const sessions =
    deps.sessions ??
    (redis
      ? new RedisSessionStore({ redis: sessionRedisOf(redis), keyPrefix })
      : new MemorySessionStore());

  // Created once the notifiers exist; payment attempts reach it through this late-bound tracker.
  let payments: PaymentService | undefined;
  const paymentTracker: AttemptTracker = {
    async track(reference, route) {
      if (payments) await payments.track(reference, route);
    },
    async untrack(reference) {
      if (payments) await payments.untrack(reference);
    },
    async acknowledge(reference, outcome) {
      const won = payments ? await payments.acknowledge(reference, outcome) : false;
      // Told in the turn instead of pushed: still one outcome told to a user.
      if (won) metrics.payments.inc({ outcome });
      return won;
    },
    async tell(route, prompt) {
      if (payments) await payments.tell(route, prompt);
    },
  };
  // Each attempt starts once across instances; the flows hand over what they pay and where the
  // outcome goes, explicitly (no ambient turn context).
  const attempts = createPaymentAttempts({
    redis,
    prefix: keyPrefix,
    readStatus: (reference) => client.call('getTransactionStatus', { path: { reference } }),
    tracker: paymentTracker,
    logger,
  });
  // Renewal reminders: contacts beside the sessions (Redis, or this process), the scan on a
  // BullMQ job scheduler or a timer. Notifiers are read when a reminder is sent.
  const notifiers: Notifier[] = [];
  const reminderWiring = await createReminderWiring({
    redis,
    prefix: keyPrefix,
    client,
    notifiers,
    logger,
    serviceCode: config.ussd.serviceCode,
    ...(deps.reminderClock ? { now: deps.reminderClock } : {}),
    onSent: (milestone, channel) =>
      metrics.remindersSent.inc({ milestone: String(milestone), channel }),
    onRenewalAfterReminder: (channel) => metrics.renewalsAfterReminder.inc({ channel }),
    onCreditLifeSent: (milestone, channel) =>
      metrics.remindersSent.inc({ milestone: String(milestone), channel }),
    ...(config.slack?.digestChannel
      ? {
          digest: {
            channel: config.slack.digestChannel,
            slack: () => notifiers.findLast((candidate) => candidate.channel === 'slack'),
          },
        }
      : {}),
  });
  const reminders = reminderWiring.service;
  closers.unshift(() => reminderWiring.close());
  // Who holds what: beside the sessions, filled by sales and by a sync of the insurer's lists.
  const holdings = redis ? createRedisHoldingsIndex(redis, keyPrefix) : createMemoryHoldingsIndex();
  const sync = () =>
    syncHoldings({ client, index: holdings, logger: logger.child({ module: 'holdings' }) });
  const holdingsSync = redis
    ? await createBullHoldingsScheduler({ redis, prefix: keyPrefix, sync, logger })
    : createMemoryHoldingsScheduler({ sync, logger });
  closers.unshift(() => holdingsSync.close());
  // The embedded sandbox's book is small and seeded now: indexed before the first caller. A real
  // insurer's first sync runs on the schedule's first tick (BullMQ runs `every` at once).
  // A failed first sync does not stop the server: the schedule tries again.
  if (sandbox && (await holdings.cursor()).fullAt === undefined) {
    await holdingsSync
      .runNow()
      .catch((err: unknown) => logger.error({ err }, 'first holdings sync failed'));
  }
  /** An SMS to `phone` is in the language its owner chose on USSD, else English. */
  const smsLocaleOf = async (phone: string): Promise<string> => {
    const msisdn = normaliseCaller(phone);
    if (!msisdn) return DEFAULT_LOCALE;
    try {
      const chosen = await reminders.languages.chosen({ channel: 'ussd', address: msisdn });
      return chosen ?? DEFAULT_LOCALE;
    } catch {
      return DEFAULT_LOCALE; // the details still go, in English
    }
  };
  // Files past their retention go hourly (and once at start); the timer never holds the process.
  const sweepFiles = () =>
    void files.sweep().catch((err: unknown) => logger.warn({ err }, 'file sweep failed'));
  sweepFiles();
  const fileSweep = setInterval(sweepFiles, FILE_SWEEP_INTERVAL_MS);
  fileSweep.unref();
  closers.push(async () => clearInterval(fileSweep));
  const handoffStore = redis ? new RedisHandoffStore(redis, keyPrefix) : new MemoryHandoffStore();
  /**
   * SMS to a phone through the USSD channel's notifier (cover details, links, receipts), in the
   * language its owner chose.
   */
  const sms = async (phone: string, prompt: Prompt): Promise<void> => {
    const notifier = notifiers.find((candidate) => candidate.channel === 'ussd');
    if (!notifier) throw new SmsUnavailableError();
    await notifier.notify(
      { channel: 'ussd', address: phone, locale: await smsLocaleOf(phone) },
      prompt,
    );
  };
  // Consent, "My data" and the staff audit (Data Protection Act No. 3 of 2021).
  const privacy = createPersonalDataWiring({
    redis,
    prefix: keyPrefix,
    reminders: reminderWiring.service,
    handoffs: handoffStore,
    files,
    payments: () => payments,
    // "My data" erases the phone's holdings index entries too (its `forget(phone)`). No count:
    // the policies it names are the ones the reminders count already, and "We hold" counts once.
    extraStores: [holdingsIndexStore(holdings)],
    sms,
    logger,
  });
  const personalData: PersonalData =
    deps.askConsent === false
      ? { ...privacy.personalData, consented: async () => true }
      : privacy.personalData;
  const flowFiles: FlowFileStore = {
    async save(file) {
      const { id } = await files.put(file.body, {
        contentType: file.contentType,
        fileName: file.fileName,
      });
      return { url: files.signedUrl(id) };
    },
  };
  /**
   * Posts to the staff's Slack channel through the Slack channel's notifier. Never rejects: the
   * claim it tells of exists already, so a failed post is logged rather than failing the caller.
   */
  const staffNotice = (channel: string) => async (prompt: Prompt) => {
    try {
      const slack = notifiers.findLast((candidate) => candidate.channel === 'slack');
      if (!slack) throw new StaffChannelUnavailableError();
      await slack.notify({ channel: 'slack', address: `:${channel}:`, locale: 'en' }, prompt);
    } catch (error) {
      logger.warn(
        { event: 'staff.notice.failed', key: prompt.key, errorName: (error as Error).name },
        'staff notice not posted',
      );
    }
  };
  const flows =
    deps.flows ??
    createFlowRegistry({
      client,
      files: flowFiles,
      // Cover details and certificate links by SMS, through the USSD channel's notifier.
      sms,
      // The SMS's language (smsLocaleOf) read with the caller's next turn, not on its own.
      smsSoon: (from, phone) => {
        const caller = normaliseCaller(from);
        const recipient = normaliseCaller(phone);
        if (!caller || !recipient) return;
        reminders.expectSms(
          { channel: 'ussd', address: caller },
          { channel: 'ussd', address: recipient },
        );
      },
      payments: {
        start: (attempt, pay) => attempts.start(attempt, pay),
        check: (reference, route) => attempts.check(reference, route),
      },
      reminders,
      holdings,
      // A status word outside the spec's is shown as "could not confirm"; the log says which.
      onUnknownStatus: (subject, status) =>
        logger.warn({ subject, status }, 'insurer status not in the spec: shown as unconfirmed'),
      // A claim's confirmation, on the user's own channel (SMS for USSD callers).
      notify: async (route, prompt) => {
        const notifier = notifiers.findLast((candidate) => candidate.channel === route.channel);
        try {
          if (!notifier) throw new NoticeUnreachableError(route.channel);
          await notifier.notify(route, prompt);
        } catch (error) {
          logger.warn({ err: error, channel: route.channel, key: prompt.key }, 'notice not sent');
          throw error;
        }
      },
      claimUploads: {
        link: (claim) => uploadLinks.link({ line: claim.line, claimId: claim.claimId }),
      },
      // Every claim intimated, and those reported from a phone not on record for the member:
      // the staff's channel hears of them.
      ...(config.slack?.digestChannel ? { staff: staffNotice(config.slack.digestChannel) } : {}),
      privacy: personalData,
    });

  let engine: TurnEngine;
  let ownedEngine: ConversationEngine | undefined;
  if (deps.engine) {
    engine = deps.engine;
  } else {
    const prefetch = reminderWiring.service.prefetch;
    ownedEngine = createTurnEngine({
      store: sessions,
      flows,
      logger: logger.child({ module: 'engine' }),
      // The holder's renewal card comes with the session: the entry menu costs no round trip.
      ...(prefetch ? { prefetch } : {}),
    }).use(handoffMiddleware, ussdMiddleware, telegramEngineMiddleware);
    engine = ownedEngine;
  }

  // Human handoff: a Slack thread per customer who asks for a person, found from either side in
  // Redis (memory when embedded); without SLACK_HANDOFF_CHANNEL the menu item says no one is there.
  const handoffChannel = config.slack?.handoffChannel;
  const handoff = createHandoffService({
    store: handoffStore,
    engine,
    sessions,
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
    notify: async (address, prompt) => {
      const notifier = notifiers.find((candidate) => candidate.channel === address.channel);
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

  // USSD: the caller's screen and page live in the engine's session record (no extra Redis).
  const ussd = createUssdCore({
    handoff,
    languages: reminders.languages,
    askLanguage: config.ussd.askLanguage,
    engine: instrumentEngine(engine, 'ussd', metrics),
    render: renderPrompt,
    logger: logger.child({ channel: 'ussd' }),
    ...(deps.ussdAnswerWithinMs === undefined ? {} : { answerWithinMs: deps.ussdAnswerWithinMs }),
  });
  const guard = createUssdGuard({
    secret: config.ussd.gatewaySecret,
    allowedIps: config.ussd.allowedIps,
    logger,
    onReject: (reason) => metrics.rejectedRequests.inc({ channel: 'ussd', reason }),
  });
  registerAfricasTalkingRoute(app, { core: ussd, guard });
  registerHubtelRoute(app, { core: ussd, guard });
  info.channels.push('ussd');
  // The SMS gateway's incoming messages come through the same gateway account as USSD.
  registerInboundSms(app, {
    guard,
    reminders,
    sms: () => notifiers.findLast((candidate) => candidate.channel === 'ussd'),
    logger,
  });
  const smsUrl =
    config.sms.url ?? (sandbox ? `${new URL(partnerUrl).origin}/version1/messaging` : undefined);
  const smsKey = config.sms.apiKey ?? (sandbox ? sandbox.apiKey : undefined);
  if (smsUrl && smsKey) {
    notifiers.push(
      createSmsNotifier({
        serviceCode: config.ussd.serviceCode,
        url: smsUrl,
        apiKey: smsKey,
        username: config.sms.username,
        from: config.sms.from,
        render: renderPrompt,
        // A purchase's reminder notice rides on its outcome SMS: one message, one charge.
        takeNotice: (address, prompt) => reminders.takeNotice(address, prompt),
      }),
    );
  }

  // Telegram: webhook when PUBLIC_URL says where Telegram can reach us, long polling otherwise.
  let telegram: TelegramChannel | undefined;
  if (config.telegram) {
    const telegramApiRoot = config.telegram.apiRoot;
    telegram = createTelegramChannel({
      token: config.telegram.botToken,
      webhookSecret: config.telegram.webhookSecret,
      engine: instrumentEngine(engine, 'telegram', metrics),
      logger: logger.child({ channel: 'telegram' }),
      render: renderPrompt,
      files,
      handoff,
      languages: reminders.languages,
      ...(redis ? { seenUpdates: new RedisOnceSet(redis, `${keyPrefix}telegram-update:`) } : {}),
      ...(telegramApiRoot ? { apiRoot: telegramApiRoot } : {}),
    });
    telegram.registerWebhook(app);
    notifiers.push(telegram.notifier);
    const owned = telegram;
    closers.unshift(() => owned.stop());
    info.channels.push('telegram');
  }

  // Slack: Socket Mode with an app token, otherwise signed HTTP requests at /slack/events.
  let slack: SlackChannel | undefined;
  if (config.slack) {
    slack = createSlackChannel({
      botToken: config.slack.botToken,
      signingSecret: config.slack.signingSecret,
      appToken: config.slack.appToken,
      allowedUsers: config.slack.allowedUsers,
      ...(config.slack.allowedTeams.length > 0 ? { allowedTeams: config.slack.allowedTeams } : {}),
      engine: instrumentEngine(engine, 'slack', metrics),
      logger: logger.child({ channel: 'slack' }),
      render: renderPrompt,
      intercept: (body) => handoff.fromSlack(body),
      audit: { log: privacy.audit, admins: config.slack.auditAdmins },
      ...(redis ? { seenRequests: new RedisOnceSet(redis, `${keyPrefix}slack-request:`) } : {}),
      ...(config.slack.apiUrl ? { clientOptions: { slackApiUrl: config.slack.apiUrl } } : {}),
    });
    slack.registerRoutes(app);
    notifiers.push(slack.notifier);
    const owned = slack;
    closers.unshift(() => owned.stop());
    info.channels.push('slack');
  }

  notifiers.push(...(deps.notifiers ?? []));

  // Without Redis the payment service keeps its routes and timers in this process: the same
  // exactly-once delivery for one instance, lost on restart.
  const paymentService = createPaymentService({
    ...(redis ? { redis } : {}),
    prefix: keyPrefix,
    client,
    engine,
    notifiers,
    logger,
    ...(deps.paymentBackoffMs ? { backoffMs: deps.paymentBackoffMs } : {}),
    onOutcome: (outcome) => metrics.payments.inc({ outcome }),
  });
  payments = paymentService;
  closers.unshift(() => paymentService.close());
  registerPaymentCallback(app, {
    secret: config.payments.callbackSecret,
    ...(config.payments.callbackAllowedIps.length > 0
      ? { allowedIps: config.payments.callbackAllowedIps }
      : {}),
    service: paymentService,
  });

  // Web simulator: local and test use only, since it speaks as any phone number.
  if (config.nodeEnv !== 'production') {
    registerSimulatorRoutes(app, {
      core: ussd,
      serviceCode: config.ussd.serviceCode,
      testNumbers: SANDBOX_TEST_MSISDNS.map((entry) => ({
        number: `0${entry.example.slice(3)}`,
        description: entry.description,
      })),
      defaultNumber: SIMULATOR_DEFAULT_NUMBER,
      smsFor: smsInbox(sandbox, config.sms.url),
    });
    info.channels.push('web');
  } else {
    app.get('/', async () => ({ service: 'insurechat', status: 'running' }));
  }

  // Health, readiness, metrics
  const checks: ReadinessCheck[] = [...(deps.readiness ?? []), circuitReadiness(client)];
  if (redis) checks.push(redisReadiness(redis));
  if (config.partnerApi.url) checks.push(upstreamReadiness(config.partnerApi.url));
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const result = await runReadiness(checks);
    return reply.code(result.ready ? 200 : 503).send({
      status: result.ready ? 'ready' : 'not_ready',
      checks: result.checks,
      upstreamCircuit: client.circuitState(),
    });
  });
  app.get('/metrics', async (_request, reply) =>
    reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics()),
  );

  let closing: Promise<void> | undefined;
  return {
    app,
    info,
    ussd,
    engine,
    files,
    sandbox,
    payments: paymentService,
    reminders,
    staffDigest: reminderWiring.digest,
    creditLifeReminders: reminderWiring.creditLife,
    holdings,
    holdingsSync,
    async listen() {
      const address = await app.listen({ port: config.port, host: config.host });
      const port = new URL(address).port;
      info.bound = { host: config.host, port: Number(port) };
      const local = `http://${['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host}:${port}`;
      const url = config.publicUrl ?? local;
      info.url = url;
      // The embedded insurer calls this server back like the real one would, over the local
      // address: it runs in this process, whatever PUBLIC_URL says.
      sandbox?.setPaymentCallbackUrl(
        `${local}/payments/callback/${config.payments.callbackSecret}`,
      );
      // Channels that reach out to their platform start once the server can take requests.
      if (telegram) {
        if (config.publicUrl) await telegram.setWebhook(`${config.publicUrl}/telegram/webhook`);
        else await telegram.startPolling();
      }
      if (slack) await slack.start();
      return { url };
    },
    close() {
      closing ??= (async () => {
        // fastify stops accepting, answers 503 to newcomers and waits for in-flight requests.
        shuttingDown = true;
        await app.close();
        await ussd.idle();
        await ownedEngine?.idle();
        await paymentService.idle();
        ownedEngine?.close();
        for (const close of closers.reverse()) {
          await close().catch((error: unknown) =>
            logger.warn({ err: error }, 'error while closing'),
          );
        }
      })();
      return closing;
    },
  };
}

/**
 * Where the simulator reads SMS from: the embedded sandbox's outbox, or a standalone sandbox's
 * `/sandbox/sms-outbox` next to SMS_API_URL. A real SMS provider has no outbox: the inbox is empty.
 */
function smsInbox(
  sandbox: Sandbox | undefined,
  smsUrl: string | undefined,
): (to: string) => Promise<readonly SimulatorSms[]> {
  if (sandbox && !smsUrl) return async (to) => sandbox.smsOutbox.list(to);
  if (!smsUrl) return async () => [];
  const outbox = new URL('/sandbox/sms-outbox', smsUrl);
  return async (to) => {
    try {
      outbox.searchParams.set('to', to);
      const response = await fetch(outbox, { signal: AbortSignal.timeout(2000) });
      if (!response.ok) return [];
      const body = z.object({ messages: z.array(SimulatorSms) }).safeParse(await response.json());
      return body.success ? body.data.messages : [];
    } catch {
      return [];
    }
  };
}

/** Raised when a staff reply is for a channel this server has no notifier for. */
export class HandoffUnreachableError extends Error {
  override readonly name = 'HandoffUnreachableError';
  readonly code = 'HANDOFF_UNREACHABLE';
  constructor(channel: string) {
    super(`no notifier reaches ${channel} customers`);
  }
}

/** Raised when a notice (a claim's confirmation) is for a channel with no notifier here. */
export class NoticeUnreachableError extends Error {
  override readonly name = 'NoticeUnreachableError';
  readonly code = 'NOTICE_UNREACHABLE';
  constructor(channel: string) {
    super(`no notifier reaches ${channel} users`);
  }
}

/** Raised when a flow asks for an SMS and no SMS provider is configured. */
export class SmsUnavailableError extends Error {
  override readonly name = 'SmsUnavailableError';
  readonly code = 'SMS_UNAVAILABLE';
  // Read by the flows' failure mapping: the service is not available, try later.
  readonly status = 503;
  constructor() {
    super('no SMS provider is configured');
  }
}

/** Raised when a flow tells staff something and Slack is not running (no bot token). */
export class StaffChannelUnavailableError extends Error {
  override readonly name = 'StaffChannelUnavailableError';
  readonly code = 'STAFF_CHANNEL_UNAVAILABLE';
  constructor() {
    super('no Slack notifier reaches the staff channel');
  }
}
