import { HoldingsSyncFailedError, requestHoldingsSync } from '../holdings/index.js';
import { connectRedis } from '../redis/index.js';
import { ConfigError, loadConfig } from './config.js';

// `npm run sync-now`: asks the running servers (over Redis, with the same environment) for a
// full pass of the holdings sync now, and waits until one of them has run it. Without Redis the
// sync lives inside the one server process: staff use `/insure sync` there.
const KEY_PREFIX = 'insurechat:';

async function syncNow(): Promise<number> {
  let config: ReturnType<typeof loadConfig>['config'];
  try {
    ({ config } = loadConfig(process.env));
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 78; // EX_CONFIG
    }
    throw error;
  }
  if (!config.redis) {
    process.stderr.write(
      'sync-now needs the servers’ Redis (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES); without it use /insure sync\n',
    );
    return 78;
  }
  const redis = connectRedis(config.redis);
  try {
    await requestHoldingsSync({ redis, prefix: KEY_PREFIX, full: true });
    process.stdout.write('holdings sync done\n');
    return 0;
  } catch (error) {
    if (!(error instanceof HoldingsSyncFailedError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  } finally {
    redis.disconnect();
  }
}

process.exit(
  await syncNow().catch((error: unknown) => {
    process.stderr.write(
      `sync-now failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }),
);
