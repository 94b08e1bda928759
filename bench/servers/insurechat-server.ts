// insurechat's own server for the bench: the real createServer with Redis sessions and the
// embedded sandbox insurer as upstream, logging silenced. It counts the Redis commands its client
// sends (each one a round trip unless pipelined) so the bench can report round trips per turn.
import { Redis } from 'ioredis';
import { createLogger } from '../../src/log/index.js';
import { createServer, loadConfig } from '../../src/server/index.js';
import { serveForBench } from '../lib/server-process.js';
import { BENCH_GATEWAY_SECRET, BenchServerEnv } from './bench-env.js';

let commandsSent = 0;

await serveForBench(async () => {
  const env = BenchServerEnv.parse(process.env);
  const { config } = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    REDIS_URL: env.REDIS_URL,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    USSD_GATEWAY_SECRET: BENCH_GATEWAY_SECRET,
  });
  const redis = new Redis(env.REDIS_URL);
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (...args: Parameters<Redis['sendCommand']>) => {
    commandsSent += 1;
    return send(...args);
  };
  const server = await createServer(config, {
    redis,
    keyPrefix: env.BENCH_PREFIX,
    logger: createLogger({ level: 'silent' }),
  });
  const { url } = await server.listen();
  return {
    port: Number(new URL(url).port),
    info: { sessions: server.info.sessions, sandbox: server.info.sandboxUrl ?? 'external' },
    commandsSent: () => commandsSent,
    close: async () => {
      await server.close();
      redis.disconnect();
    },
  };
});
