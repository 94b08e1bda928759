import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { t } from '../src/conversation/index.js';
import { DEFAULT_PARTNER_API_CONNECTIONS } from '../src/server/config.js';
import { deletePrefix } from './lib/redis-instance.js';
import { startInsurechatOn, startServerProcess } from './lib/server-process.js';
import { fmt } from './lib/stats.js';
import { runUssdCallers } from './lib/ussd-callers.js';
import { runUssdLoad } from './lib/ussd-load.js';
import { BENCH_GATEWAY_SECRET } from './servers/bench-env.js';
import { captureScreens, journeySteps } from './ussd-section.js';

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
  /** Callers started at random moments (`spread`) or all together, kept in step (`lockstep`). */
  readonly arrival: 'spread' | 'lockstep';
  readonly turns: number;
  readonly stillWorking: number;
  readonly wrongScreens: number;
  readonly errors: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly generatorLagP99Ms: number;
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
      const server = await startInsurechatOn(
        'insurechat (slow insurer)',
        sandbox,
        options.redisUrl,
        prefix,
        pool === undefined ? {} : { BENCH_PARTNER_API_CONNECTIONS: String(pool) },
      );
      try {
        const screens = await captureScreens(server.url);
        const steps = journeySteps(screens);
        const classify = (body: string) => STILL_WORKING.some((text) => body.includes(text));
        const load = (durationSeconds: number) =>
          runUssdCallers({
            url: server.url,
            path: '/ussd/africastalking',
            callers: options.callers,
            durationSeconds,
            startSpreadMs: options.delayMs,
            headers: { 'x-ussd-secret': BENCH_GATEWAY_SECRET },
            steps,
            classify,
          });
        // Warm-up (not measured): JIT, and the pool's connections opened as callers need them.
        await load(Math.min(5, options.seconds));
        const measured = await load(options.seconds);
        const poolName =
          pool === undefined
            ? `${DEFAULT_PARTNER_API_CONNECTIONS} (default)`
            : `${pool} (PARTNER_API_CONNECTIONS=${pool})`;
        const run: SlowRun = {
          pool: poolName,
          arrival: 'spread',
          turns: measured.turns,
          stillWorking: measured.matched,
          wrongScreens: measured.wrongScreens,
          errors: measured.errors,
          p50Ms: measured.p50Ms,
          p99Ms: measured.p99Ms,
          maxMs: measured.maxMs,
          generatorLagP99Ms: measured.generatorLagP99Ms,
        };
        runs.push(run);
        options.log(
          `  pool ${run.pool}: ${run.turns} turns, ${run.stillWorking} still working, p50 ${fmt(run.p50Ms)} ms, p99 ${fmt(run.p99Ms)} ms, max ${fmt(run.maxMs)} ms, generator lag p99 ${fmt(run.generatorLagP99Ms)} ms, errors ${run.errors}`,
        );
        if (pool === undefined) {
          // The worst case beside it: autocannon's connections start together and stay in
          // lockstep, so the insurer answers all callers in the same instant and the server
          // works through that burst one turn after another.
          const herd = await runUssdLoad({
            url: server.url,
            path: '/ussd/africastalking',
            connections: options.callers,
            durationSeconds: options.seconds,
            headers: { 'x-ussd-secret': BENCH_GATEWAY_SECRET },
            steps,
            classify,
          });
          runs.push({
            pool: poolName,
            arrival: 'lockstep',
            turns: herd.turns,
            stillWorking: herd.matched,
            wrongScreens: herd.wrongScreens,
            errors: herd.errors,
            p50Ms: herd.p50Ms,
            p99Ms: herd.p99Ms,
            maxMs: Number.NaN,
            generatorLagP99Ms: Number.NaN,
          });
          options.log(
            `  pool ${poolName}, callers in lockstep: ${herd.turns} turns, ${herd.matched} still working, p99 ${fmt(herd.p99Ms)} ms`,
          );
        }
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
    `The sandbox insurer answers every call ${options.delayMs} ms late (in its own process); ${options.callers} callers walk the motor journey at once through insurechat's real server (Redis sessions, 4 s USSD deadline) for ${options.seconds} s after a warm-up, once per pool size. Each caller answers every screen as soon as it arrives and starts a new phone after the last one; the callers start at random moments over the first ${options.delayMs} ms, as real callers do, and each latency is taken from the start of its own request (the generator's own timer lag is shown, so a starved load generator would show). "Still working" counts every engine or USSD-backstop "still working" screen; "journeys broken" counts journeys that got any screen other than the expected one (and stopped counting there).`,
    '',
    `The lockstep row is the worst case beside it: autocannon's ${options.callers} connections start together and stay in step, so the insurer answers every caller in the same instant and the server works through that burst of turns one after another; its p99 is the delay plus the time to serve the whole burst on a shared machine.`,
    '',
    '| insurer connections | callers | turns answered as expected | "still working" screens | journeys broken | errors | p50 ms | p99 ms | max ms | generator lag p99 ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...runs.map(
      (run) =>
        `| ${run.pool} | ${run.arrival === 'spread' ? 'spread start' : 'lockstep'} | ${run.turns} | ${run.stillWorking} | ${run.wrongScreens} | ${run.errors} | ${fmt(run.p50Ms)} | ${fmt(run.p99Ms)} | ${fmt(run.maxMs)} | ${fmt(run.generatorLagP99Ms)} |`,
    ),
    '',
  ];
  const byDefault = runs.find((run) => run.pool.endsWith('(default)') && run.arrival === 'spread');
  if (byDefault) {
    const met = byDefault.stillWorking === 0 && byDefault.p99Ms <= 2_200;
    const herd = runs.find((run) => run.arrival === 'lockstep');
    lines.push(
      `Target with the default pool: 0 "still working" screens and p99 ≤ 2.2 s: ${byDefault.stillWorking} and ${fmt(byDefault.p99Ms)} ms — ${met ? 'met' : 'NOT met'}${herd ? ` (callers in lockstep: ${herd.stillWorking} and ${fmt(herd.p99Ms)} ms)` : ''}`,
      '',
    );
  }
  return lines.join('\n');
}
