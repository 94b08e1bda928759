// The physical baseline: the same fastify stack answering one fixed screen after exactly one
// Redis GET and one SET of a snapshot the size of insurechat's. Nothing can do a turn with less.
import formbody from '@fastify/formbody';
import fastify from 'fastify';
import { Redis } from 'ioredis';
import { serveForBench } from '../lib/server-process.js';
import { BenchServerEnv, SESSION_TTL_SECONDS, UssdForm } from './bench-env.js';

await serveForBench(async () => {
  const env = BenchServerEnv.parse(process.env);
  const redis = new Redis(env.REDIS_URL);
  const screen = env.BENCH_SCREENS.reduce((a, b) => (b.length > a.length ? b : a));
  const snapshot = JSON.stringify({
    v: 1,
    state: 'x'.repeat(Math.max(0, env.BENCH_SNAPSHOT_BYTES - 22)),
  });
  const app = fastify({ logger: false });
  await app.register(formbody);
  app.post('/ussd/africastalking', async (request, reply) => {
    const form = UssdForm.safeParse(request.body);
    if (!form.success) return reply.code(400).send('bad request');
    const key = `${env.BENCH_PREFIX}${form.data.sessionId}`;
    await redis.get(key);
    await redis.set(key, snapshot, 'EX', SESSION_TTL_SECONDS);
    return reply.type('text/plain').send(`CON ${screen}`);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    info: { snapshotBytes: Buffer.byteLength(snapshot) },
    close: async () => {
      await app.close();
      redis.disconnect();
    },
  };
});
