// insurechat's own server for the bench: the real createServer with Redis sessions and the
// embedded sandbox insurer as upstream (or one in another process, BENCH_PARTNER_API_URL),
// logging silenced. It counts the Redis commands its client
// sends (each one a round trip unless pipelined) so the bench can report round trips per turn.
// With REDIS_CLUSTER_NODES it runs on a Redis Cluster instead, through the same factory.
// Its limiter (src/limits) counts every typed look-up and SMS but is raised so far that the
// bench's repeated journeys from few phones are never refused; BENCH_LIMITS=off sets every
// count to 0 ("no limit"), so the limiter takes nothing and calls Redis for nothing: the floor
// of the cost line in bench/RESULTS.md.

import { LimitsEnv } from '../../src/limits/index.js';
import { createLogger } from '../../src/log/index.js';
import { connectRedis } from '../../src/redis/index.js';
import { createServer, loadConfig } from '../../src/server/index.js';
import { countRedisCommands } from '../../test/support/redis-command-count.js';
import { serveForBench } from '../lib/server-process.js';
import { BENCH_GATEWAY_SECRET, BenchServerEnv } from './bench-env.js';

let commandsSent = 0;
const limitsCount = process.env.BENCH_LIMITS === 'off' ? '0' : '1000000';
const limits = Object.fromEntries(Object.keys(LimitsEnv).map((name) => [name, limitsCount]));
let requestsTaken = 0;

await serveForBench(async () => {
  const env = BenchServerEnv.parse(process.env);
  const { config } = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    ...(env.REDIS_CLUSTER_NODES
      ? { REDIS_CLUSTER_NODES: env.REDIS_CLUSTER_NODES }
      : { REDIS_URL: env.REDIS_URL }),
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    USSD_GATEWAY_SECRET: BENCH_GATEWAY_SECRET,
    // The journeys start at the menu, as the other servers' do: no language screen first.
    USSD_ASK_LANGUAGE: 'false',
    ...limits,
    ...(process.env.BENCH_PARTNER_API_CONNECTIONS
      ? { PARTNER_API_CONNECTIONS: process.env.BENCH_PARTNER_API_CONNECTIONS }
      : {}),
    // A sandbox insurer in its own process, so this process's CPU is insurechat's alone.
    ...(process.env.BENCH_PARTNER_API_URL
      ? {
          PARTNER_API_URL: process.env.BENCH_PARTNER_API_URL,
          PARTNER_API_KEY: process.env.BENCH_PARTNER_API_KEY ?? '',
        }
      : {}),
  });
  if (!config.redis) throw new Error('the bench server needs Redis');
  const redis = connectRedis(config.redis);
  // The shared connection and the session store's own batching one (BullMQ's blocking ones
  // only wait for payment jobs, which this journey never makes).
  countRedisCommands(redis, () => {
    commandsSent += 1;
  });
  const server = await createServer(config, {
    redis,
    keyPrefix: env.BENCH_PREFIX,
    logger: createLogger({ level: 'silent' }),
    // Every bench caller is a new phone: the one-time privacy notice would stand before each
    // journey, which the floors do not have. The notice's own cost is one read with the session.
    askConsent: false,
  });
  // Round trips per turn are counted against the requests this server took in (once they have
  // settled), so turns whose client hung up when a load run stopped still count as turns.
  server.app.addHook('onRequest', async () => {
    requestsTaken += 1;
  });
  const { url } = await server.listen();
  return {
    port: Number(new URL(url).port),
    info: { sessions: server.info.sessions, sandbox: server.info.sandboxUrl ?? 'external' },
    commandsSent: () => commandsSent,
    requestsTaken: () => requestsTaken,
    close: async () => {
      if (process.env.BENCH_CPU_PROF_DIR)
        process.stderr.write(
          `bench: insurechat server (pid ${process.pid}) took ${requestsTaken} requests\n`,
        );
      await server.close();
      redis.disconnect();
    },
  };
});
