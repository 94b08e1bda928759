import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { Prompt } from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import {
  createServer,
  type InsurechatServer,
  loadConfig,
  type ServerDeps,
} from '../../src/server/index.js';
import { RedisSessionStore } from '../../src/session/index.js';
import { RAISED_LIMITS } from '../support/raised-limits.js';
import { TEST_REDIS_URL } from '../support/redis.js';
import { TEST_TELEGRAM_THROTTLE } from '../support/telegram-throttle.js';

/** The gateway secret every reliability server expects. */
export const GATEWAY_SECRET = 'reliability-gateway-secret';
/** The payment-callback path secret every reliability server expects. */
export const CALLBACK_SECRET = 'reliability-callback-secret';
/** The Telegram webhook secret token of reliability servers that run Telegram. */
export const TELEGRAM_SECRET = 'reliability-telegram-secret';

/** Every log line a server wrote, as raw text, for personal-data checks. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }

  /** Everything logged so far as one string. */
  text(): string {
    return this.lines.join('\n');
  }
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  readonly redisUrl?: string;
  /** Redis variables instead of REDIS_URL (`REDIS_CLUSTER_NODES` for a Cluster). */
  readonly redisEnv?: Record<string, string>;
  /** Key prefix to share with another instance; default a fresh one. */
  readonly prefix?: string;
  /** Upstream instead of the embedded sandbox. */
  readonly partnerApi?: { readonly url: string; readonly apiKey: string };
  readonly env?: Record<string, string>;
  readonly logLevel?: string;
  /** Options for the embedded sandbox insurer (shorter settle delays). */
  readonly sandbox?: ServerDeps['sandbox'];
  /** Payment status polling delays. */
  readonly paymentBackoffMs?: readonly number[];
  /** Listen on a loopback port (the sandbox's payment callback needs one). */
  readonly listen?: boolean;
  /** Telegram Bot API root (a telegram-test-api emulator). */
  readonly telegramApiRoot?: string;
}

/** A full insurechat server for a reliability test, on its own Redis key prefix. */
export interface TestServer {
  readonly server: InsurechatServer;
  readonly prefix: string;
  readonly logs: LogCapture;
  /** One USSD request through the Africa's Talking route; returns status and body. */
  ussd(phone: UssdPhone, input: string): Promise<{ status: number; body: string }>;
  /** The stored prompt of a session (for driving chat channels by the choices shown). */
  prompt(sessionKey: string): Promise<Prompt | undefined>;
  /** Closes the server and deletes every key under its prefix. */
  close(): Promise<void>;
}

/** A simulated handset: its gateway session and every input it typed so far. */
export interface UssdPhone {
  readonly msisdn: string;
  sessionId: string;
  readonly inputs: string[];
}

let phoneCounter = Math.floor(Math.random() * 100_000);

/** A new phone with a number of its own (last digit 0: a sandbox number whose payments succeed). */
export function newPhone(): UssdPhone {
  phoneCounter += 1;
  const national = `97${String(phoneCounter % 1_000_000).padStart(6, '0')}0`;
  return { msisdn: `+260${national}`, sessionId: `rel-${randomUUID()}`, inputs: [] };
}

/** Starts insurechat with Redis sessions (the test Redis) and captured logs. */
export async function startServer(options: StartServerOptions = {}): Promise<TestServer> {
  const redisUrl = options.redisUrl ?? TEST_REDIS_URL;
  const prefix = options.prefix ?? `test:${randomUUID()}:`;
  const logs = new LogCapture();
  const { config } = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    ...(options.redisEnv ?? { REDIS_URL: redisUrl }),
    LOG_LEVEL: options.logLevel ?? 'info',
    NODE_ENV: 'test',
    USSD_GATEWAY_SECRET: GATEWAY_SECRET,
    // The journeys start at the menu, as the other servers' do: no language screen first.
    USSD_ASK_LANGUAGE: 'false',
    // A mobile-money payment starts this soon after the call ended (issue 38).
    USSD_PAY_DELAY_MS: '50',
    // Fault runs repeat journeys from few phones: the limiter counts, never refuses.
    ...RAISED_LIMITS,
    PAYMENT_CALLBACK_SECRET: CALLBACK_SECRET,
    ...(options.partnerApi
      ? { PARTNER_API_URL: options.partnerApi.url, PARTNER_API_KEY: options.partnerApi.apiKey }
      : {}),
    ...(options.telegramApiRoot ? { TELEGRAM_API_ROOT: options.telegramApiRoot } : {}),
    ...options.env,
  });
  const server = await createServer(config, {
    keyPrefix: prefix,
    // These journeys are about logs, not the privacy notice (test/privacy walks it).
    askConsent: false,
    logger: createLogger({ level: options.logLevel ?? 'info', destination: logs }),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.paymentBackoffMs ? { paymentBackoffMs: options.paymentBackoffMs } : {}),
    telegramThrottle: TEST_TELEGRAM_THROTTLE,
  });
  if (options.listen) await server.listen();
  return {
    server,
    prefix,
    logs,
    async ussd(phone, input) {
      if (input !== '' || phone.inputs.length > 0) phone.inputs.push(input);
      const response = await server.app.inject({
        method: 'POST',
        url: '/ussd/africastalking',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-ussd-secret': GATEWAY_SECRET,
        },
        payload: new URLSearchParams({
          sessionId: phone.sessionId,
          serviceCode: '*384*4628#',
          phoneNumber: phone.msisdn,
          networkCode: '64502',
          text: phone.inputs.join('*'),
        }).toString(),
      });
      return { status: response.statusCode, body: response.body };
    },
    async prompt(sessionKey) {
      const redis = new Redis(redisUrl);
      try {
        const stored = await new RedisSessionStore({ redis, keyPrefix: prefix }).read(sessionKey);
        if (!stored) return undefined;
        const record: unknown = JSON.parse(stored.data);
        const parsed = Prompt.safeParse(
          typeof record === 'object' && record !== null && 'prompt' in record
            ? record.prompt
            : undefined,
        );
        return parsed.success ? parsed.data : undefined;
      } finally {
        redis.disconnect();
      }
    },
    async close() {
      await server.close();
      await deletePrefix(redisUrl, prefix);
    },
  };
}

/** Deletes every key under a prefix with SCAN; tolerates a Redis that is gone. */
export async function deletePrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => {});
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } catch {
    // A Redis that was stopped by the test holds nothing to clean.
  } finally {
    redis.disconnect();
  }
}

/** Dials and types `inputs`; returns the last screen. Throws on any non-200 answer. */
export async function walk(
  test: TestServer,
  phone: UssdPhone,
  inputs: readonly string[],
): Promise<string> {
  let last = await test.ussd(phone, '');
  for (const input of inputs) {
    if (last.status !== 200) break;
    last = await test.ussd(phone, input);
  }
  if (last.status !== 200) throw new Error(`USSD answered ${last.status}: ${last.body}`);
  return last.body;
}
