import { randomUUID } from 'node:crypto';
import { clusterUnavailable, startRedisCluster } from '../test/support/redis-cluster-process.js';
import { type ServerProcess, startServerProcess } from './lib/server-process.js';
import { fmtSpread, spread, verdict } from './lib/stats.js';
import { BENCH_GATEWAY_SECRET } from './servers/bench-env.js';
import { captureScreens, journeySteps } from './ussd-section.js';
import { runUssdThroughput, type UssdContender, type UssdRun } from './ussd-throughput.js';

const TITLE = '## 7. USSD journey on a Redis Cluster';
const USSD_PATH = '/ussd/africastalking';
const STANDALONE = 'insurechat (standalone Redis)';
const CLUSTER = 'insurechat (Redis Cluster)';

/** Options of the cluster section. */
export interface ClusterSectionOptions {
  readonly redisUrl: string;
  readonly seconds: number;
  readonly pairs: number;
  /** Load levels; the section runs the first only (the full sweep is section 1's). */
  readonly connectionLevels: readonly number[];
  readonly log: (line: string) => void;
}

function row(name: string, runs: readonly UssdRun[]): string {
  const mine = runs.filter((run) => run.contender === name);
  const trips = mine.map((run) => run.redisRoundTripsPerTurn ?? run.redisCommandsPerTurn);
  return `| ${name} | ${mine[0]?.connections ?? 'n/a'} | ${fmtSpread(spread(mine.map((r) => r.turnsPerSecond)))} | ${fmtSpread(spread(mine.map((r) => r.p50Ms)), 1)} | ${fmtSpread(spread(mine.map((r) => r.p99Ms)), 1)} | ${fmtSpread(spread(mine.map((r) => r.cpuMicrosPerTurn)))} | ${fmtSpread(spread(trips), 2)} | ${mine.reduce((a, r) => a + r.errors, 0)} | ${mine.reduce((a, r) => a + r.wrongScreens, 0)} |`;
}

/**
 * The USSD motor journey through the real server on a local Redis Cluster (three masters, three
 * replicas, started and stopped here), next to the same server on the standalone Redis.
 */
export async function runClusterSection(options: ClusterSectionOptions): Promise<string> {
  const missing = await clusterUnavailable();
  if (missing !== undefined) return `${TITLE}\n\nNot measured: ${missing}.\n`;
  const connections = options.connectionLevels[0] ?? 10;
  const cluster = await startRedisCluster();
  const servers: ServerProcess[] = [];
  try {
    const nodes = cluster.nodes.map((node) => `${node.host}:${node.port}`).join(',');
    const contenders: UssdContender[] = [];
    let screens: readonly string[] = [];
    for (const [name, redisEnv] of [
      [STANDALONE, { REDIS_URL: options.redisUrl }],
      [CLUSTER, { REDIS_CLUSTER_NODES: nodes }],
    ] as const) {
      const prefix = `bench:${randomUUID()}:cluster-section:`;
      const server = await startServerProcess(
        name,
        new URL('./servers/insurechat-server.ts', import.meta.url),
        { ...redisEnv, BENCH_PREFIX: prefix, BENCH_SCREENS: '["-"]' },
      );
      servers.push(server);
      screens = await captureScreens(server.url);
      contenders.push({
        name,
        server,
        prefix,
        path: USSD_PATH,
        headers: { 'x-ussd-secret': BENCH_GATEWAY_SECRET },
        steps: journeySteps(screens),
      });
    }
    const runs = await runUssdThroughput({
      redisUrl: options.redisUrl,
      contenders,
      connectionLevels: [connections],
      pairs: options.pairs,
      seconds: options.seconds,
      warmupSeconds: Math.min(2, options.seconds),
      log: options.log,
    });
    const clusterTrips = spread(
      runs
        .filter((run) => run.contender === CLUSTER)
        .map((run) => run.redisRoundTripsPerTurn ?? run.redisCommandsPerTurn),
    );
    return [
      TITLE,
      '',
      `The same motor-quote journey (${screens.length} turns) through the real server, once on the`,
      'standalone Redis and once on a Redis Cluster of three masters and three replicas on loopback',
      '(`REDIS_CLUSTER_NODES`, ioredis `Cluster`), alternately, medians (min–max) over the pairs.',
      'Round trips are counted client-side by wrapping the connection’s `sendCommand`; every session',
      'script keeps its keys in one hash slot, so a turn stays one script per step on one shard.',
      '',
      '| server | connections | turns/s | p50 ms | p99 ms | server CPU µs/turn | Redis round trips/turn | errors | wrong screens |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      row(STANDALONE, runs),
      row(CLUSTER, runs),
      '',
      `Target: ≤ 2 Redis round trips per turn on the cluster: ${clusterTrips.n > 0 ? fmtSpread(clusterTrips, 2) : 'n/a'} — ${verdict(clusterTrips.n > 0 ? clusterTrips.median <= 2 : undefined)}`,
      '',
    ].join('\n');
  } finally {
    for (const server of servers) await server.stop();
    await cluster.stop();
  }
}
