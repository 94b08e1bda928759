import { createLogger } from '../../src/log/index.js';
import { connectRedis, type RedisConnection } from '../../src/redis/index.js';
import {
  createServer,
  type InsurechatServer,
  loadConfig,
  type ServerDeps,
} from '../../src/server/index.js';
import { RAISED_LIMITS } from '../support/raised-limits.js';
import { countRedisCommands } from '../support/redis-command-count.js';
import {
  connectMode,
  deleteKeys,
  type RedisMode,
  STANDALONE_URL,
  testPrefix,
} from '../support/redis-modes.js';
import { TEST_TELEGRAM_THROTTLE } from '../support/telegram-throttle.js';

export { DEFAULT_LIMITS_ENV, RAISED_LIMITS } from '../support/raised-limits.js';

/** The gateway secret every test server uses. */
export const GATEWAY_SECRET = 'test-gateway-secret';

/**
 * The payment status polls of a test server: every few milliseconds at first, so an outcome is
 * told within moments of the sandbox settling it (300 ms after the pay), then further apart,
 * giving up ("still pending") about 4.5 s after the pay, as the 300/600/1200/2400 ms back-off
 * these tests used before did. Tests about the back-off itself pass their own.
 */
export const TEST_PAYMENT_BACKOFF_MS: readonly number[] = [
  10, 10, 20, 40, 80, 160, 320, 640, 1280, 2000,
];

/** A whole insurechat server on a free port: embedded sandbox, real Redis under its own prefix. */
export interface TestServer {
  readonly server: InsurechatServer;
  readonly url: string;
  readonly redis: RedisConnection;
  readonly prefix: string;
  /**
   * Commands the server has sent to Redis so far, on the shared connection and on the session
   * store's batching one (each waits for its own reply: one round trip each).
   */
  redisCommands(): number;
  /** Closes the server and deletes every Redis key it wrote. */
  close(): Promise<void>;
}

/**
 * Starts a test server; `env` overrides the environment, `deps` the composition, `mode` picks the
 * Redis (default the standalone server). Limits are raised (see RAISED_LIMITS) unless `env` sets them.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  deps: ServerDeps = {},
  mode?: RedisMode,
): Promise<TestServer> {
  const prefix = testPrefix();
  const redis = mode ? connectMode(mode) : connectRedis({ kind: 'url', url: STANDALONE_URL });
  let commands = 0;
  countRedisCommands(redis, () => {
    commands += 1;
  });
  const { config } = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    USSD_GATEWAY_SECRET: GATEWAY_SECRET,
    // Journeys start at the menu; the language screen's own tests ask for it.
    USSD_ASK_LANGUAGE: 'false',
    // A mobile-money payment chosen on USSD starts this soon after the call ended (issue 38).
    USSD_PAY_DELAY_MS: '50',
    ...RAISED_LIMITS,
    ...env,
  });
  const server = await createServer(config, {
    logger: createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    redis,
    keyPrefix: prefix,
    sandbox: { settleDelayMs: 300 },
    paymentBackoffMs: TEST_PAYMENT_BACKOFF_MS,
    telegramThrottle: TEST_TELEGRAM_THROTTLE,
    // Journeys about other things skip the privacy notice; test/privacy walks it (askConsent).
    askConsent: false,
    ...deps,
  });
  const { url } = await server.listen();
  return {
    server,
    url,
    redis,
    prefix,
    redisCommands: () => commands,
    async close() {
      await server.close();
      await deleteKeys(redis, prefix);
      await redis.quit();
    },
  };
}

/**
 * Two instances of one deployment: the first runs the embedded sandbox, the second calls it as
 * its insurer and shares the first's Redis keys; `deps` (a reminder clock, say) go to both.
 */
export async function startTwinServers(
  env: Record<string, string>,
  deps: ServerDeps = {},
): Promise<[TestServer, TestServer]> {
  const first = await startTestServer(env, deps);
  const sandbox = first.server.sandbox;
  if (!sandbox || !first.server.info.sandboxUrl) throw new Error('no embedded sandbox');
  const second = await startTestServer(
    { ...env, PARTNER_API_URL: first.server.info.sandboxUrl, PARTNER_API_KEY: sandbox.apiKey },
    { ...deps, keyPrefix: first.prefix },
  );
  return [first, second];
}

/** The embedded sandbox insurer of a test server (every test server runs one). */
export function sandboxOf(harness: TestServer) {
  const found = harness.server.sandbox;
  if (!found) throw new Error('the test server runs the embedded sandbox');
  return found;
}
