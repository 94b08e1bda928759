import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../src/files/index.js';
import {
  CALLBACK_SECRET,
  GATEWAY_SECRET,
  startServer,
  TELEGRAM_SECRET,
  type TestServer,
} from './harness.js';
import { freePort } from './redis-process.js';

const SLACK_SIGNING_SECRET = 'reliability-slack-signing-secret';

/** Slack's request signature for `body`, so a random body gets past the signature check. */
function slackHeaders(body: string | Buffer): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', SLACK_SIGNING_SECRET)
    .update(`v0:${timestamp}:${body.toString()}`)
    .digest('hex');
  return { 'x-slack-request-timestamp': timestamp, 'x-slack-signature': `v0=${signature}` };
}

interface Route {
  readonly method: string;
  readonly url: string;
}

/** Every route the server mounts, read from fastify's route tree (HEAD left out). */
function routesOf(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:└── |├── )(.+?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path =
      depth === 0
        ? match[2]!
        : `${stack[depth - 1]!.replace(/\/$/, '')}/${match[2]!.replace(/^\//, '')}`;
    stack[depth] = path;
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method && method !== 'HEAD') routes.push({ method, url: path });
    }
  }
  return routes;
}

/** A concrete URL for a route: path parameters filled, the right secret or a wrong one. */
function concrete(url: string, rightSecret: boolean, noise: string): string {
  return url
    .replace(':secret', rightSecret ? CALLBACK_SECRET : encodeURIComponent(noise || 'x'))
    .replace(/:[a-zA-Z]+/g, encodeURIComponent(noise || 'x'));
}

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-16',
  'application/x-www-form-urlencoded',
  'text/plain',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'garbage/\u00ff',
  '',
);

const bodies = fc.oneof(
  fc.string(),
  fc.json(),
  fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)),
  fc
    .dictionary(
      fc.constantFrom(
        'sessionId',
        'phoneNumber',
        'text',
        'serviceCode',
        'networkCode',
        'Type',
        'Mobile',
      ),
      fc.string(),
    )
    .map((fields) => new URLSearchParams(fields).toString()),
  fc.constantFrom('%E0%A4%A', 'text=%', '{"a":', '\u0000\u0001', 'a=1&a=2&a[]=3', '__proto__=x'),
  // Telegram-shaped updates with broken insides.
  fc
    .record(
      {
        update_id: fc.oneof(fc.nat(), fc.integer(), fc.string()),
        message: fc.anything(),
        callback_query: fc.anything(),
      },
      { requiredKeys: ['update_id'] },
    )
    .map((update) => JSON.stringify(update)),
);

const extraHeaders = fc.record(
  {
    'x-ussd-secret': fc.oneof(fc.constant(GATEWAY_SECRET), fc.string()),
    'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'identity'),
    'x-forwarded-for': fc.constantFrom('not-an-ip', '10.0.0.1, 10.0.0.2', '::1'),
    'x-telegram-bot-api-secret-token': fc.oneof(fc.constant(TELEGRAM_SECRET), fc.string()),
    'x-slack-signature': fc.string(),
    'x-slack-request-timestamp': fc.oneof(fc.string(), fc.integer().map(String)),
  },
  { requiredKeys: [] },
);

describe('malformed input to every HTTP endpoint', () => {
  let test: TestServer;
  let routes: Route[];
  let emulator: TelegramServer;

  beforeAll(async () => {
    emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
    await emulator.start();
    test = await startServer({
      logLevel: 'silent',
      telegramApiRoot: emulator.config.apiURL,
      env: {
        TELEGRAM_BOT_TOKEN: '123456:reliability',
        TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
        SLACK_BOT_TOKEN: 'xoxb-reliability',
        SLACK_SIGNING_SECRET: SLACK_SIGNING_SECRET,
      },
    });
    // Routes registered by plugins appear once the app is ready.
    await test.server.app.ready();
    routes = routesOf(test.server.app);
  });

  afterAll(async () => {
    await test.close();
    await emulator.stop();
  });

  it('finds the routes it must attack', () => {
    expect(routes).toContainEqual({ method: 'POST', url: '/ussd/africastalking' });
    expect(routes).toContainEqual({ method: 'POST', url: '/payments/callback/:secret' });
    expect(routes).toContainEqual({ method: 'POST', url: '/telegram/webhook' });
    expect(routes).toContainEqual({ method: 'POST', url: '/slack/events' });
  });

  it('answers random bodies, content types, encodings and headers on every route without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.boolean(),
        fc.string(),
        contentTypes,
        bodies,
        extraHeaders,
        async (routeIndex, rightSecret, noise, contentType, body, headers) => {
          const route = routes[routeIndex % routes.length]!;
          const signed = rightSecret && route.url === '/slack/events' ? slackHeaders(body) : {};
          const response = await test.server.app.inject({
            method: route.method as 'GET' | 'POST',
            url: concrete(route.url, rightSecret, noise),
            headers: {
              ...headers,
              ...signed,
              ...(contentType ? { 'content-type': contentType } : {}),
            },
            ...(route.method === 'GET' ? {} : { payload: body }),
          });
          expect(
            response.statusCode,
            `${route.method} ${route.url}: ${response.body}`,
          ).toBeLessThan(500);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('rejects an oversized body on every POST route with 413', async () => {
    // Claim documents are files: their route takes up to 20 MB, one byte more is refused.
    const UPLOAD_LIMITS: Record<string, number> = { '/d/:token/files': MAX_FILE_BYTES };
    for (const route of routes.filter((r) => r.method === 'POST')) {
      const huge = `text=${'9'.repeat(UPLOAD_LIMITS[route.url] ?? 512 * 1024)}`;
      const response = await test.server.app.inject({
        method: 'POST',
        url: concrete(route.url, true, 'x'),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-ussd-secret': GATEWAY_SECRET,
        },
        payload: huge,
      });
      // The documents route checks its link before reading a byte: this one's is forged.
      const refusedFirst = route.url === '/d/:token/files' ? 403 : 413;
      expect(response.statusCode, `${route.url}`).toBe(refusedFirst);
    }
  });

  it('stays up and healthy after the attack', async () => {
    const health = await test.server.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
  });
});
