import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { t } from '../src/conversation/index.js';
import { DEFAULT_PARTNER_API_CONNECTIONS } from '../src/server/config.js';
import { deletePrefix } from './lib/redis-instance.js';
import { startServerProcess } from './lib/server-process.js';
import { fmt } from './lib/stats.js';
import { runUssdLoad } from './lib/ussd-load.js';
import { BENCH_GATEWAY_SECRET } from './servers/bench-env.js';
import { captureScreens, MOTOR_JOURNEY_INPUTS } from './ussd-section.js';

/** Options of the slow-insurer run. */
export interface SlowInsurerOptions {
  readonly redisUrl: string;
  /** Callers driven at once. */
  readonly callers: number;
  /** How much later the insurer answers every call. */
  readonly delayMs: number;
  readonly seconds: number;
  /** Pool sizes to run with; `undefined` is insurechat's default. */
  readonly poolSizes: readonly (number | undefined)[];
  readonly log: (line: string) => void;
}

interface SlowRun {
  readonly pool: string;
  readonly turns: number;
  readonly stillWorking: number;
  readonly wrongScreens: number;
  readonly errors: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** The "still working" screens a USSD caller can get: the engine's and the backstop's. */
const STILL_WORKING = [t('engine.stillWorking'), t('ussd.stillWorking')];

/**
 * A slow insurer: the sandbox answers every call `delayMs` late, and `callers` phones walk the
 * motor journey at once through insurechat's real server, once per pool size. Counts the
 * "still working" screens and the latency of the answers.
 */
export async function runSlowInsurer(options: SlowInsurerOptions): Promise<string> {
  const sandbox = await startServerProcess(
    'slow sandbox',
    new URL('./servers/sandbox-server.ts', import.meta.url),
    { BENCH_UPSTREAM_DELAY_MS: String(options.delayMs) },
  );
  const runs: SlowRun[] = [];
  const redis = new Redis(options.redisUrl);
  try {
    for (const pool of options.poolSizes) {
      const prefix = `bench:${randomUUID()}:slow:`;
      const server = await startServerProcess(
        'insurechat (slow insurer)',
        new URL('./servers/insurechat-server.ts', import.meta.url),
        {
          REDIS_URL: options.redisUrl,
          BENCH_PREFIX: prefix,
          BENCH_SCREENS: '["-"]',
          BENCH_PARTNER_API_URL: String(sandbox.info.baseUrl),
          BENCH_PARTNER_API_KEY: String(sandbox.info.apiKey),
          ...(pool === undefined ? {} : { BENCH_PARTNER_API_CONNECTIONS: String(pool) }),
        },
      );
      try {
        const screens = await captureScreens(server.url);
        const load = (durationSeconds: number) =>
          runUssdLoad({
            url: server.url,
            path: '/ussd/africastalking',
            connections: options.callers,
            durationSeconds,
            headers: { 'x-ussd-secret': BENCH_GATEWAY_SECRET },
            steps: screens.map((screen, index) => ({
              input: () => (index === 0 ? '' : (MOTOR_JOURNEY_INPUTS[index - 1] ?? '1')),
              expect: (body: string) => body === `CON ${screen}`,
            })),
            classify: (body) => STILL_WORKING.some((text) => body.includes(text)),
          });
        // Warm-up (not measured): JIT, and the pool's connections opened as callers need them.
        await load(Math.min(5, options.seconds));
        const measured = await load(options.seconds);
        const run: SlowRun = {
          pool:
            pool === undefined
              ? `${DEFAULT_PARTNER_API_CONNECTIONS} (default)`
              : `${pool} (PARTNER_API_CONNECTIONS=${pool})`,
          turns: measured.turns,
          stillWorking: measured.matched,
          wrongScreens: measured.wrongScreens,
          errors: measured.errors,
          p50Ms: measured.p50Ms,
          p99Ms: measured.p99Ms,
        };
        runs.push(run);
        options.log(
          `  pool ${run.pool}: ${run.turns} turns, ${run.stillWorking} still working, p99 ${fmt(run.p99Ms)} ms, errors ${run.errors}`,
        );
      } finally {
        await server.stop();
        await deletePrefix(redis, prefix);
      }
    }
  } finally {
    await sandbox.stop();
    redis.disconnect();
  }
  const lines = [
    '## 2. Slow insurer',
    '',
    `The sandbox insurer answers every call ${options.delayMs} ms late (in its own process); ${options.callers} callers walk the motor journey at once through insurechat's real server (Redis sessions, 4 s USSD deadline) for ${options.seconds} s after a warm-up, once per pool size. "Still working" counts every engine or USSD-backstop "still working" screen; "journeys broken" counts journeys that got any screen other than the expected one (and stopped counting there); latency is of every answer.`,
    '',
    '| insurer connections | turns answered as expected | "still working" screens | journeys broken | errors | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...runs.map(
      (run) =>
        `| ${run.pool} | ${run.turns} | ${run.stillWorking} | ${run.wrongScreens} | ${run.errors} | ${fmt(run.p50Ms)} | ${fmt(run.p99Ms)} |`,
    ),
    '',
  ];
  const byDefault = runs.find((run) => run.pool.endsWith('(default)'));
  if (byDefault) {
    const met = byDefault.stillWorking === 0 && byDefault.p99Ms <= 2_200;
    lines.push(
      `Target with the default pool: 0 "still working" screens and p99 ≤ 2.2 s: ${byDefault.stillWorking} and ${fmt(byDefault.p99Ms)} ms — ${met ? 'met' : 'NOT met'}`,
      '',
    );
  }
  return lines.join('\n');
}
