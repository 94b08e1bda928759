// ussd-menu-builder serving the same screens with a Redis session. A NEW menu per request: the
// README's one shared menu instance keeps per-request state on the instance and mixes up
// concurrent sessions, so a fair production setup cannot share it.
import formbody from '@fastify/formbody';
import fastify from 'fastify';
import { Redis } from 'ioredis';
import UssdMenu from 'ussd-menu-builder';
import { serveForBench } from '../lib/server-process.js';
import { BenchServerEnv, SESSION_TTL_SECONDS, UssdForm } from './bench-env.js';

await serveForBench(async () => {
  const env = BenchServerEnv.parse(process.env);
  const redis = new Redis(env.REDIS_URL);
  const screens = env.BENCH_SCREENS;
  const keyOf = (sessionId: string) => `${env.BENCH_PREFIX}${sessionId}`;

  function buildMenu(): UssdMenu {
    const menu = new UssdMenu();
    // Without a listener an 'error' event would throw; the request then fails with a 500.
    menu.on('error', (error: unknown) => menu.emit('failed', error));
    menu.sessionConfig({
      start: (sessionId: string) => redis.expire(keyOf(sessionId), SESSION_TTL_SECONDS),
      end: (sessionId: string) => redis.del(keyOf(sessionId)),
      get: (sessionId: string, key: string) => redis.hget(keyOf(sessionId), key),
      set: (sessionId: string, key: string, value: unknown) =>
        redis.hset(keyOf(sessionId), key, String(value)),
    });
    screens.forEach((screen, index) => {
      const name = index === 0 ? UssdMenu.START_STATE : `step${index}`;
      const isLast = index === screens.length - 1;
      const options: UssdMenu.UssdStateOptions = {
        run: () => {
          if (index === 0) {
            menu.con(screen);
            return;
          }
          // Store the answer like a real menu does, then show the next screen.
          void menu.session.set(`answer${index}`, menu.val).then(() => menu.con(screen));
        },
      };
      if (!isLast) options.next = { '*.+': `step${index + 1}` };
      if (index === 0) menu.startState(options);
      else menu.state(name, options);
    });
    return menu;
  }

  const app = fastify({ logger: false });
  await app.register(formbody);
  app.post('/ussd/africastalking', async (request, reply) => {
    const form = UssdForm.safeParse(request.body);
    if (!form.success) return reply.code(400).send('bad request');
    const menu = buildMenu();
    const failed = new Promise<never>((_, reject) => menu.once('failed', reject));
    const text = await Promise.race([
      failed,
      menu.run({
        sessionId: form.data.sessionId,
        phoneNumber: form.data.phoneNumber,
        serviceCode: form.data.serviceCode,
        text: form.data.text,
      }),
    ]);
    return reply.type('text/plain').send(text);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: async () => {
      await app.close();
      redis.disconnect();
    },
  };
});
