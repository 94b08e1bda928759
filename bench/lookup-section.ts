import { randomInt, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { findCover } from '../flows/cover-status-actors.js';
import type { FlowDeps } from '../flows/index.js';
import { createPartnerClient } from '../src/api/index.js';
import { createRedisHoldingsIndex, syncHoldings } from '../src/holdings/index.js';
import { createLogger } from '../src/log/index.js';
import { connectRedis } from '../src/redis/index.js';
import { largeBookHolder } from '../src/sandbox/index.js';
import { deletePrefix } from './lib/redis-instance.js';
import { startInsurechatOn, startServerProcess } from './lib/server-process.js';
import { fmt } from './lib/stats.js';
import { runUssdCallers } from './lib/ussd-callers.js';
import { percentile } from './lib/ussd-load.js';
import { BENCH_GATEWAY_SECRET } from './servers/bench-env.js';

/** Options of the cover lookup section. */
export interface LookupSectionOptions {
  readonly redisUrl: string;
  /** Book sizes measured side by side. */
  readonly sizes: readonly number[];
  /** How much later the sandbox answers every call. */
  readonly delayMs: number;
  /** Lookups measured per kind and size (after a warm-up of a tenth as many). */
  readonly lookups: number;
  /** Callers opening My cover at once through the real server, on the largest book. */
  readonly callers: number;
  readonly seconds: number;
  readonly log: (line: string) => void;
}

interface LookupRow {
  readonly size: number;
  readonly kind: 'My cover' | 'Cover by NRC';
  readonly callsMin: number;
  readonly callsMax: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Lookups that did not list the holder's four records, each confirmed. */
  readonly incomplete: number;
}

const silent = createLogger({ level: 'silent' });
const NO_PAYMENTS: FlowDeps['payments'] = {
  start: () => Promise.reject(new Error('no payments in the lookup bench')),
  check: () => Promise.reject(new Error('no payments in the lookup bench')),
};

/** A sandbox with a large book in its own process, answering every call `delayMs` late. */
function startBookSandbox(size: number, delayMs: number) {
  return startServerProcess(
    `sandbox (${size} book)`,
    new URL('./servers/sandbox-server.ts', import.meta.url),
    {
      BENCH_BOOK_SIZE: String(size),
      BENCH_UPSTREAM_DELAY_MS: String(delayMs),
    },
  );
}

/**
 * Cover lookups against the size of the insurer's book (issue 25): for each size, a sandbox with
 * that large book answering every call late, the holdings index filled by one sync, then My cover
 * and cover by NRC for random holders of the book, one at a time: insurer calls per lookup and
 * p50/p99. Then `callers` phones of the largest book open My cover at once through insurechat's
 * real server.
 */
export async function runLookupSection(options: LookupSectionOptions): Promise<string> {
  const rows: LookupRow[] = [];
  const syncs: string[] = [];
  const admin = new Redis(options.redisUrl);
  try {
    for (const size of options.sizes) {
      const sandbox = await startBookSandbox(size, options.delayMs);
      const client = createPartnerClient({
        baseUrl: String(sandbox.info.baseUrl),
        apiKey: String(sandbox.info.apiKey),
      });
      const redis = connectRedis({ kind: 'url', url: options.redisUrl });
      const prefix = `bench:${randomUUID()}:lookup:`;
      try {
        const holdings = createRedisHoldingsIndex(redis, prefix);
        const syncStarted = performance.now();
        const summary = await syncHoldings({
          client,
          index: holdings,
          logger: silent,
          pageSize: 2_000,
        });
        const syncMs = performance.now() - syncStarted;
        syncs.push(
          `${size.toLocaleString('en')}: ${fmt(syncMs / 1000, 1)} s, ${summary.pages} pages, ${summary.facts.toLocaleString('en')} facts`,
        );
        options.log(
          `  ${size} book: index filled in ${fmt(syncMs / 1000, 1)} s (${summary.pages} pages)`,
        );
        const deps: FlowDeps = { client, payments: NO_PAYMENTS, holdings };
        for (const kind of ['My cover', 'Cover by NRC'] as const) {
          const lookup = () => {
            const holder = largeBookHolder(randomInt(0, size));
            return findCover(
              deps,
              kind === 'My cover' ? { phone: holder.phoneNumber } : { nrc: holder.nrcNumber },
            );
          };
          for (let i = 0; i < Math.ceil(options.lookups / 10); i += 1) await lookup();
          const latencies: number[] = [];
          const calls: number[] = [];
          let incomplete = 0;
          for (let i = 0; i < options.lookups; i += 1) {
            const started = performance.now();
            const found = await lookup();
            latencies.push(performance.now() - started);
            calls.push(found.calls);
            const confirmed = found.holdings.filter((holding) => !holding.unknown);
            if (confirmed.length !== 4) incomplete += 1;
          }
          latencies.sort((a, b) => a - b);
          const row: LookupRow = {
            size,
            kind,
            callsMin: Math.min(...calls),
            callsMax: Math.max(...calls),
            p50Ms: percentile(latencies, 50),
            p99Ms: percentile(latencies, 99),
            incomplete,
          };
          rows.push(row);
          options.log(
            `  ${size} ${kind}: ${row.callsMin}-${row.callsMax} calls, p50 ${fmt(row.p50Ms, 1)} ms, p99 ${fmt(row.p99Ms, 1)} ms, incomplete ${incomplete}`,
          );
        }
      } finally {
        await deletePrefix(admin, prefix);
        redis.disconnect();
        await client.close();
        await sandbox.stop();
      }
    }
    const load = await concurrentMyCover(options, admin);
    return report(options, rows, syncs, load);
  } finally {
    admin.disconnect();
  }
}

interface LoadFigures {
  readonly size: number;
  readonly turns: number;
  readonly journeys: number;
  readonly errors: number;
  readonly wrongScreens: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly generatorLagP99Ms: number;
}

/** `callers` phones of the largest book dial and open My cover at once, through the real server. */
async function concurrentMyCover(
  options: LookupSectionOptions,
  admin: Redis,
): Promise<LoadFigures> {
  const size = Math.max(...options.sizes);
  const sandbox = await startBookSandbox(size, options.delayMs);
  const prefix = `bench:${randomUUID()}:lookup-load:`;
  const client = createPartnerClient({
    baseUrl: String(sandbox.info.baseUrl),
    apiKey: String(sandbox.info.apiKey),
  });
  const redis = connectRedis({ kind: 'url', url: options.redisUrl });
  try {
    // The index as the server's own sync leaves it (its schedule then finds nothing new).
    await syncHoldings({
      client,
      index: createRedisHoldingsIndex(redis, prefix),
      logger: silent,
      pageSize: 2_000,
    });
    const server = await startInsurechatOn(
      'insurechat (large book)',
      sandbox,
      options.redisUrl,
      prefix,
    );
    try {
      let serial = 0;
      const load = (durationSeconds: number) =>
        runUssdCallers({
          url: server.url,
          path: '/ussd/africastalking',
          callers: options.callers,
          durationSeconds,
          startSpreadMs: 1_000,
          headers: { 'x-ussd-secret': BENCH_GATEWAY_SECRET },
          phone: () => {
            serial += 1;
            const holder = largeBookHolder(randomInt(0, size));
            return {
              sessionId: `lookup-${process.pid}-${serial}`,
              msisdn: `+${holder.phoneNumber}`,
              serial,
            };
          },
          steps: [
            { input: () => '', expect: (body) => body.startsWith('CON Welcome') },
            { input: () => '3', expect: (body) => body.startsWith('CON Your cover (4)') },
            // Hung up properly, so the holder's next call (drawn again) starts afresh.
            { input: () => '00', expect: (body) => body.startsWith('END') },
          ],
        });
      await load(Math.min(5, options.seconds));
      const measured = await load(options.seconds);
      options.log(
        `  ${options.callers} callers, ${size} book: ${measured.journeys} My cover, p50 ${fmt(measured.p50Ms)} ms, p99 ${fmt(measured.p99Ms)} ms, errors ${measured.errors}, wrong screens ${measured.wrongScreens}`,
      );
      return { size, ...measured };
    } finally {
      await server.stop();
    }
  } finally {
    await deletePrefix(admin, prefix);
    redis.disconnect();
    await client.close();
    await sandbox.stop();
  }
}

function report(
  options: LookupSectionOptions,
  rows: readonly LookupRow[],
  syncs: readonly string[],
  load: LoadFigures,
): string {
  const smallest = Math.min(...options.sizes);
  const largest = Math.max(...options.sizes);
  const ratio = (kind: LookupRow['kind']) => {
    const small = rows.find((row) => row.kind === kind && row.size === smallest);
    const large = rows.find((row) => row.kind === kind && row.size === largest);
    return small && large ? large.p99Ms / small.p99Ms : Number.NaN;
  };
  const callsAlike = (kind: LookupRow['kind']) => {
    const counts = rows.filter((row) => row.kind === kind);
    return counts.every(
      (row) => row.callsMin === counts[0]?.callsMin && row.callsMax === counts[0]?.callsMax,
    );
  };
  const lines = [
    '## 8. Cover lookups against the size of the book',
    '',
    `Issue 25. The sandbox holds a large book besides the demo book (\`bookSize\`: N travel and N motor policies, 50 master policies with N members and N loans; each holder has one of each) and answers every call ${options.delayMs} ms late. For each size the holdings index is filled by one sync, then ${options.lookups} lookups of random holders, one at a time, through \`findCover\` (what My cover and cover by NRC run). A lookup is complete when it lists the holder's four records, each confirmed by the insurer. Targets: insurer calls per lookup the same at every size; p99 at ${largest.toLocaleString('en')} within 1.2× p99 at ${smallest.toLocaleString('en')}.`,
    '',
    '| book | lookup | insurer calls per lookup | p50 ms | p99 ms | incomplete |',
    '|---:|---|---:|---:|---:|---:|',
    ...rows.map(
      (row) =>
        `| ${row.size.toLocaleString('en')} | ${row.kind} | ${row.callsMin === row.callsMax ? row.callsMin : `${row.callsMin}–${row.callsMax}`} | ${fmt(row.p50Ms, 1)} | ${fmt(row.p99Ms, 1)} | ${row.incomplete} |`,
    ),
    '',
    `p99 at ${largest.toLocaleString('en')} ÷ p99 at ${smallest.toLocaleString('en')}: My cover ${fmt(ratio('My cover'), 2)}×, cover by NRC ${fmt(ratio('Cover by NRC'), 2)}× (target ≤ 1.2×). Calls per lookup the same at every size: My cover ${callsAlike('My cover') ? 'yes' : 'no'}, cover by NRC ${callsAlike('Cover by NRC') ? 'yes' : 'no'}.`,
    '',
    `Filling the index (one full sync, 2,000 a page, ${options.delayMs} ms late): ${syncs.join('; ')}.`,
    '',
    `### ${options.callers} callers opening My cover at once, ${load.size.toLocaleString('en')} book, through the real server`,
    '',
    `insurechat's server (Redis sessions, the index filled) and the large-book sandbox (${options.delayMs} ms late) each in its own process; ${options.callers} callers start spread over 1 s, each dials, opens My cover and hangs up (three answers), then starts again as another holder, for ${options.seconds} s after a warm-up. Latency is per answer (the dial's, My cover's and the hang-up's). Target: 0 errors, p99 under 2 s.`,
    '',
    '| My cover journeys | answers | errors | wrong screens | p50 ms | p99 ms | max ms | generator lag p99 ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${load.journeys} | ${load.turns} | ${load.errors} | ${load.wrongScreens} | ${fmt(load.p50Ms)} | ${fmt(load.p99Ms)} | ${fmt(load.maxMs)} | ${fmt(load.generatorLagP99Ms)} |`,
    '',
  ];
  return lines.join('\n');
}
