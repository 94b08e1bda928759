import formbody from '@fastify/formbody';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Logger } from '../log/index.js';
import type { Config } from './config.js';
import { installErrorBoundary } from './error-boundary.js';

/** Body limit for every route: USSD, chat webhooks and callbacks are small. */
const BODY_LIMIT_BYTES = 256 * 1024;

/** The fastify app and the switch that makes its answers close their connections. */
export interface HttpApp {
  readonly app: FastifyInstance;
  /** From now on every answer closes its connection (called as shutdown starts). */
  readonly shutDown: () => void;
}

/**
 * The HTTP server every route mounts on: its error boundary, form bodies, one log line per
 * request naming the route (never the URL, which may carry a secret).
 */
export async function buildHttpApp(config: Config, logger: Logger): Promise<HttpApp> {
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
  return {
    app,
    shutDown: () => {
      shuttingDown = true;
    },
  };
}
