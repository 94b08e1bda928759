import type { DestinationStream } from 'pino';
import { createLogger, type Logger } from '../log/index.js';
import { loadConfig } from './config.js';
import { createServer, type InsurechatServer, type ServerDeps } from './create-server.js';
import { describeServer } from './describe-server.js';

/** Where `npm start` writes: the banner's stream (standard output), and the log stream. */
export interface RunServerOptions {
  readonly env: NodeJS.ProcessEnv | Record<string, string | undefined>;
  /**
   * Where the banner goes. Generated secrets are shown only when it is a terminal (`isTTY`):
   * anywhere else (a container, a pipe to a log store) standard output is the log stream.
   */
  readonly out: { write(text: string): unknown; readonly isTTY?: boolean };
  /** pino's destination; default standard output. */
  readonly logDestination?: DestinationStream;
  /** Composition overrides (tests). */
  readonly deps?: ServerDeps;
}

/** A server started by {@link runServer}. */
export interface RunningServer {
  readonly server: InsurechatServer;
  readonly url: string;
  readonly logger: Logger;
  /** The secrets made up for this run (never logged; shown on a terminal only). */
  readonly generated: readonly { readonly variable: string; readonly value: string }[];
}

/**
 * Validates the environment, composes and starts the server, and writes the start-up banner.
 * Throws `ConfigError` for a bad environment (the caller prints it and exits).
 */
export async function runServer(options: RunServerOptions): Promise<RunningServer> {
  const { config, generated } = loadConfig(options.env);
  const logger = createLogger({
    level: config.logLevel,
    ...(options.logDestination ? { destination: options.logDestination } : {}),
  });
  const server = await createServer(config, { ...options.deps, logger });
  const { url } = await server.listen();
  // Printed, not logged: the banner is for the person at the terminal, and generated secrets
  // (never in production, where they must be set) are only useful to them.
  const showSecrets = options.out.isTTY === true;
  options.out.write(`${describeServer(server.info, config, url, generated, { showSecrets })}\n`);
  return { server, url, logger, generated };
}
