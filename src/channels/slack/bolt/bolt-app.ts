import { App, type webApi } from '@slack/bolt';
import type { FastifyInstance } from 'fastify';
import type { Logger } from '../../../log/index.js';
import type { OnceSet } from '../../shared/index.js';
import { boltLogger } from './bolt-logger.js';
import { FastifySlackReceiver } from './fastify-slack-receiver.js';
import { SlackChannelError } from './slack-channel-error.js';
import { field } from './slack-payload.js';

/** What {@link createBoltApp} needs: the tokens, and what the HTTP receiver checks with. */
export interface BoltAppOptions {
  /** `xoxb-` bot token. Never logged. */
  readonly botToken: string;
  /** Signs every HTTP request from Slack; required unless `appToken` selects Socket Mode. */
  readonly signingSecret?: string | undefined;
  /** `xapp-` app-level token; when set the channel uses Socket Mode and needs no public URL. */
  readonly appToken?: string | undefined;
  /** Passed to Bolt's WebClient; tests point `slackApiUrl` at a local fake. */
  readonly clientOptions?: webApi.WebClientOptions | undefined;
  /** Remembers the deliveries handled, so Slack's retries and redeliveries are dropped. */
  readonly seen: OnceSet;
  /** Now in ms for the signature freshness check; tests pin it. */
  readonly now?: (() => number) | undefined;
  readonly log: Logger;
}

/** A Bolt app over its transport: Socket Mode, or {@link FastifySlackReceiver} over HTTP. */
export interface BoltApp {
  readonly app: App;
  /** Adds `POST path` (default `/slack/events`) for the HTTP receiver; a no-op in Socket Mode. */
  registerRoutes(fastify: FastifyInstance, path?: string): void;
  /** Opens the Socket Mode connection; nothing to do in HTTP mode. */
  start(): Promise<void>;
  /** Closes Socket Mode and waits for requests still being processed. */
  stop(): Promise<void>;
}

/** Creates the {@link BoltApp}: Socket Mode when `appToken` is set, signed HTTP otherwise. */
export function createBoltApp(options: BoltAppOptions): BoltApp {
  const { botToken, appToken, log } = options;
  if (!appToken && !options.signingSecret) {
    throw new SlackChannelError(
      'SLACK_SIGNING_SECRET_MISSING',
      'Slack over HTTP needs SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN)',
    );
  }
  const receiver = appToken
    ? undefined
    : new FastifySlackReceiver({
        signingSecret: options.signingSecret ?? '',
        logger: log,
        seen: options.seen,
        ...(options.now ? { now: options.now } : {}),
      });
  const common = {
    // A fixed token: no OAuth installs, and no auth.test call at start-up.
    authorize: async () => ({ botToken }),
    logger: boltLogger(log),
    extendedErrorHandler: true,
    ...(options.clientOptions ? { clientOptions: options.clientOptions } : {}),
  } as const;
  const app = appToken
    ? new App({ ...common, socketMode: true, appToken })
    : new App({ ...common, ...(receiver ? { receiver } : {}) });
  if (appToken) {
    // Over HTTP the receiver drops retries before Bolt sees them; over Socket Mode Slack still
    // redelivers events it thinks failed, under the same event id: handled once here, first.
    app.use(async ({ body, next }) => {
      const eventId = field(body, 'event_id');
      if (eventId !== undefined && !(await options.seen.claim(`event:${eventId}`))) return;
      await next();
    });
  }
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
      if (appToken) await app.start();
    },
    async stop() {
      if (appToken) await app.stop();
      await receiver?.stop();
    },
  };
}
