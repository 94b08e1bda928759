import { ConfigError, type RunningServer, runServer } from './server/index.js';

/**
 * `npm start`: validates the environment, composes the server, prints what runs where, and runs
 * until SIGTERM or SIGINT, when it stops taking requests and lets in-flight turns finish.
 */
async function main(): Promise<void> {
  let running: RunningServer;
  try {
    running = await runServer({ env: process.env, out: process.stdout });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const { server, logger } = running;

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight turns');
    const force = setTimeout(() => {
      logger.error('shutdown took longer than 30 s; exiting');
      process.exit(1);
    }, 30_000);
    force.unref();
    server
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  // A start-up failure (port taken, Redis unreachable) is one clear line, not a stack trace.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`insurechat could not start: ${message}\n`);
  process.exit(1);
});
