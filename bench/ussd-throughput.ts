import { Redis } from 'ioredis';
import { commandDelta, commandStats, deletePrefix } from './lib/redis-instance.js';
import type { ServerProcess, ServerSample } from './lib/server-process.js';
import { fmt, fmtRatio, fmtSpread, rotate, type Spread, spread, verdict } from './lib/stats.js';
import { runUssdLoad, type UssdStep } from './lib/ussd-load.js';

/** A server taking part in the USSD comparison, with the journey its phones walk. */
export interface UssdContender {
  readonly name: string;
  readonly server: ServerProcess;
  readonly prefix: string;
  readonly steps: readonly UssdStep[];
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** The upstream's own process, when it runs apart; its CPU is reported separately. */
  readonly upstream?: ServerProcess;
  /** Connection levels this contender runs at (all when absent): a reference row costs less. */
  readonly onlyAt?: readonly number[];
}

/** One measured load run of one contender. */
export interface UssdRun {
  readonly contender: string;
  readonly connections: number;
  readonly turnsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly cpuMicrosPerTurn: number;
  /** CPU the upstream's own process spent per turn, when it runs apart. */
  readonly upstreamCpuMicrosPerTurn: number | undefined;
  readonly redisCommandsPerTurn: number;
  readonly redisRoundTripsPerTurn: number | undefined;
  readonly commandBreakdown: Readonly<Record<string, number>>;
  readonly turns: number;
  readonly journeys: number;
  readonly errors: number;
  readonly wrongScreens: number;
  readonly firstWrongScreen: string | undefined;
}

/** Options of the USSD comparison. */
export interface UssdThroughputOptions {
  readonly redisUrl: string;
  readonly contenders: readonly UssdContender[];
  readonly connectionLevels: readonly number[];
  readonly pairs: number;
  /**
   * Extra alternating pairs at `focus.connections` for the contenders named in `focus.names`
   * only, after the ordinary pairs: the headline ratio gets more pairs without every contender
   * paying for them.
   */
  readonly focus?: {
    readonly connections: number;
    readonly names: readonly string[];
    readonly extraPairs: number;
  };
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly log: (line: string) => void;
}

/** Commands over the turns the server finished; over the counted turns when it counts none. */
function roundTripsPerTurn(
  before: ServerSample,
  settled: ServerSample,
  turns: number,
): number | undefined {
  if (before.commandsSent === undefined || settled.commandsSent === undefined) return undefined;
  const commands = settled.commandsSent - before.commandsSent;
  if (before.requestsTaken === undefined || settled.requestsTaken === undefined) {
    return commands / turns;
  }
  return commands / Math.max(1, settled.requestsTaken - before.requestsTaken);
}

async function measure(
  contender: UssdContender,
  redis: Redis,
  connections: number,
  seconds: number,
): Promise<UssdRun> {
  const before = await contender.server.sample();
  const upstreamBefore = await contender.upstream?.sample();
  const statsBefore = await commandStats(redis);
  const load = await runUssdLoad({
    url: contender.server.url,
    path: contender.path,
    connections,
    durationSeconds: seconds,
    steps: contender.steps,
    ...(contender.headers ? { headers: contender.headers } : {}),
  });
  const after = await contender.server.sample();
  const upstreamAfter = await contender.upstream?.sample();
  const statsAfter = await commandStats(redis);
  // Let the turns still in flight finish, so commands and requests cover the same turns.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const settled = await contender.server.sample();
  const delta = commandDelta(statsBefore, statsAfter);
  const turns = Math.max(1, load.turns);
  const breakdown: Record<string, number> = {};
  let commands = 0;
  for (const [name, count] of delta) {
    breakdown[name] = count / turns;
    commands += count;
  }
  return {
    contender: contender.name,
    connections,
    turnsPerSecond: load.turnsPerSecond,
    p50Ms: load.p50Ms,
    p99Ms: load.p99Ms,
    cpuMicrosPerTurn: (after.cpuMicros - before.cpuMicros) / turns,
    upstreamCpuMicrosPerTurn:
      upstreamBefore && upstreamAfter
        ? (upstreamAfter.cpuMicros - upstreamBefore.cpuMicros) / turns
        : undefined,
    redisCommandsPerTurn: commands / turns,
    redisRoundTripsPerTurn: roundTripsPerTurn(before, settled, turns),
    commandBreakdown: breakdown,
    turns: load.turns,
    journeys: load.journeys,
    errors: load.errors,
    wrongScreens: load.wrongScreens,
    firstWrongScreen: load.firstWrongScreen,
  };
}

/**
 * Runs every contender at every connection level, alternating contenders within each pair (the
 * order rotates between pairs), so that every ratio compares runs made back to back.
 */
export async function runUssdThroughput(options: UssdThroughputOptions): Promise<UssdRun[]> {
  const redis = new Redis(options.redisUrl);
  const runs: UssdRun[] = [];
  try {
    const runPairs = async (
      contenders: readonly UssdContender[],
      connections: number,
      from: number,
      to: number,
    ) => {
      for (let pair = from; pair < to; pair += 1) {
        for (const contender of rotate(contenders, pair)) {
          const run = await measure(contender, redis, connections, options.seconds);
          runs.push(run);
          options.log(
            `  ${contender.name} @${connections}: ${fmt(run.turnsPerSecond)} turns/s, p99 ${fmt(run.p99Ms, 1)} ms, ${fmt(run.cpuMicrosPerTurn)} µs CPU/turn, ${fmt(run.redisCommandsPerTurn, 2)} Redis cmds/turn, errors ${run.errors}, wrong screens ${run.wrongScreens}`,
          );
          if (run.firstWrongScreen) options.log(`    first wrong screen: ${run.firstWrongScreen}`);
        }
      }
    };
    for (const connections of options.connectionLevels) {
      const here = options.contenders.filter(
        (c) => c.onlyAt === undefined || c.onlyAt.includes(connections),
      );
      for (const contender of here) {
        // Warm-up: JIT, connection pools, and the first sessions of each phone; not measured.
        await runUssdLoad({
          url: contender.server.url,
          path: contender.path,
          connections,
          durationSeconds: options.warmupSeconds,
          steps: contender.steps,
          ...(contender.headers ? { headers: contender.headers } : {}),
        });
      }
      await runPairs(here, connections, 0, options.pairs);
      const focus = options.focus;
      if (focus && focus.connections === connections && focus.extraPairs > 0) {
        const focused = here.filter((c) => focus.names.includes(c.name));
        if (focused.length > 1) {
          await runPairs(focused, connections, options.pairs, options.pairs + focus.extraPairs);
        }
      }
    }
  } finally {
    for (const contender of options.contenders) await deletePrefix(redis, contender.prefix);
    redis.disconnect();
  }
  return runs;
}

/** The ratio of `name`'s figure to `baseline`'s, one per pair, in pair order. */
function pairRatioList(
  runs: readonly UssdRun[],
  connections: number,
  name: string,
  baseline: string,
  figure: (run: UssdRun) => number,
): number[] {
  const mine = runs.filter((run) => run.contender === name && run.connections === connections);
  const theirs = runs.filter(
    (run) => run.contender === baseline && run.connections === connections,
  );
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(mine.length, theirs.length); i += 1) {
    ratios.push(figure(mine[i]!) / figure(theirs[i]!));
  }
  return ratios;
}

function pairRatios(
  runs: readonly UssdRun[],
  connections: number,
  name: string,
  baseline: string,
  figure: (run: UssdRun) => number,
): Spread {
  return spread(pairRatioList(runs, connections, name, baseline, figure));
}

/** The results section for the USSD comparison, with the targets quoted. */
export function ussdThroughputReport(
  runs: readonly UssdRun[],
  contenders: readonly string[],
  connectionLevels: readonly number[],
): string {
  const lines: string[] = [];
  lines.push('## 1. USSD turns through the real HTTP server');
  lines.push('');
  lines.push(
    'Phones walk the motor-quote journey up to the payment confirmation screen, each with its own',
    'sessionId and MSISDN (autocannon, one phone per connection at a time), after a warm-up run',
    'of each server at each level. Figures are medians (min–max) over the pairs; ratios are taken',
    'pair by pair between runs made back to back.',
    '',
  );
  lines.push(
    '| server | connections | turns/s | p50 ms | p99 ms | server CPU µs/turn | Redis cmds/turn | Redis round trips/turn | errors | wrong screens |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const connections of connectionLevels) {
    for (const name of contenders) {
      const mine = runs.filter((run) => run.contender === name && run.connections === connections);
      if (mine.length === 0) continue;
      const trips = mine.map((run) => run.redisRoundTripsPerTurn).filter((v) => v !== undefined);
      lines.push(
        `| ${name} | ${connections} | ${fmtSpread(spread(mine.map((r) => r.turnsPerSecond)))} | ${fmtSpread(spread(mine.map((r) => r.p50Ms)), 1)} | ${fmtSpread(spread(mine.map((r) => r.p99Ms)), 1)} | ${fmtSpread(spread(mine.map((r) => r.cpuMicrosPerTurn)))} | ${fmtSpread(spread(mine.map((r) => r.redisCommandsPerTurn)), 2)} | ${trips.length ? fmtSpread(spread(trips), 2) : 'n/a'} | ${mine.reduce((a, r) => a + r.errors, 0)} | ${mine.reduce((a, r) => a + r.wrongScreens, 0)} |`,
      );
    }
  }
  const apart = contenders.filter((name) =>
    runs.some((run) => run.contender === name && run.upstreamCpuMicrosPerTurn !== undefined),
  );
  if (apart.length > 0) {
    lines.push('');
    lines.push(
      'CPU of the upstream (the sandbox insurer) in its own process, per turn, next to the server CPU above:',
    );
    lines.push('');
    for (const name of apart) {
      for (const connections of connectionLevels) {
        const mine = runs.filter((r) => r.contender === name && r.connections === connections);
        const upstream = mine
          .map((r) => r.upstreamCpuMicrosPerTurn)
          .filter((v): v is number => v !== undefined);
        if (upstream.length === 0) continue;
        const total = mine.map((r) => r.cpuMicrosPerTurn + (r.upstreamCpuMicrosPerTurn ?? 0));
        lines.push(
          `- ${name} @${connections}: server ${fmtSpread(spread(mine.map((r) => r.cpuMicrosPerTurn)))} µs + upstream ${fmtSpread(spread(upstream))} µs = ${fmtSpread(spread(total))} µs per turn`,
        );
      }
    }
  }
  lines.push('');
  lines.push(
    'Redis commands per turn by command (a run at 100 connections; INFO commandstats counts the',
    'commands a Lua script runs as well as the EVALSHA itself, so round trips are counted',
    "separately, client-side, by wrapping insurechat's ioredis `sendCommand`):",
  );
  lines.push('');
  for (const name of contenders) {
    const at100 = runs.filter((run) => run.contender === name && run.connections === 100);
    const sample = at100[Math.floor(at100.length / 2)];
    if (!sample) continue;
    const parts = Object.entries(sample.commandBreakdown)
      // Below 0.005 per turn is background traffic (another server's idle job workers).
      .filter(([, perTurn]) => perTurn >= 0.005)
      .sort((a, b) => b[1] - a[1])
      .map(([command, perTurn]) => `${command} ${fmt(perTurn, 2)}`);
    lines.push(`- ${name}: ${parts.join(', ') || 'none'}`);
  }
  lines.push('');
  lines.push('Ratios against the baseline (pair by pair):');
  lines.push('');
  lines.push('| server | connections | turns/s ratio | p99 ratio | CPU/turn ratio |');
  lines.push('|---|---:|---:|---:|---:|');
  for (const connections of connectionLevels) {
    for (const name of contenders.filter((n) => n !== 'baseline')) {
      const tps = pairRatios(runs, connections, name, 'baseline', (r) => r.turnsPerSecond);
      if (tps.n === 0) continue;
      const p99 = pairRatios(runs, connections, name, 'baseline', (r) => r.p99Ms);
      const cpu = pairRatios(runs, connections, name, 'baseline', (r) => r.cpuMicrosPerTurn);
      lines.push(
        `| ${name} | ${connections} | ${fmtRatio(tps)} | ${fmtRatio(p99)} | ${fmtRatio(cpu)} |`,
      );
    }
  }
  const floor = 'same-work floor';
  const plainFloor = 'floor on plain Redis (reference)';
  const cpu = (r: UssdRun) => r.cpuMicrosPerTurn;
  // Throughput as a cost: the floor's turns/s over insurechat's, so it reads like the CPU ratio.
  const tpsCost = (mine: UssdRun[], theirs: UssdRun[]) =>
    mine.map((run, i) => (theirs[i]?.turnsPerSecond ?? Number.NaN) / run.turnsPerSecond);
  const byLevel = (name: string, connections: number) =>
    runs.filter((run) => run.contender === name && run.connections === connections);
  const fmtPairs = (ratios: readonly number[]) => ratios.map((r) => `${fmt(r, 2)}×`).join(', ');
  const against = (yardstick: string) => {
    for (const connections of connectionLevels) {
      const ratios = pairRatioList(runs, connections, 'insurechat', yardstick, cpu);
      if (ratios.length === 0) continue;
      const mine = byLevel('insurechat', connections).slice(0, ratios.length);
      const tps = tpsCost(mine, byLevel(yardstick, connections));
      lines.push(
        `| ${yardstick} | ${connections} | ${ratios.length} | ${fmtRatio(spread(ratios))} | ${fmtRatio(spread(tps))} | ${fmtPairs(ratios)} | ${fmtPairs(tps)} |`,
      );
    }
  };
  if (contenders.includes(floor) && contenders.includes('insurechat')) {
    lines.push('');
    lines.push(
      'insurechat ÷ the same-work floor, pair by pair (each pair: the two runs made back to back at',
      "that level; the order rotates between pairs). The CPU ratio is insurechat's server CPU per",
      "turn over the floor's; the throughput ratio is the floor's turns/s over insurechat's (both",
      'servers saturate one core at 100 connections, so it is a second, independent reading of the',
      'same cost). The plain-Redis floor row is for reference only.',
    );
    lines.push('');
    lines.push(
      '| against | connections | pairs | CPU/turn ratio, median (min–max) | throughput ratio, median (min–max) | CPU each pair | throughput each pair |',
    );
    lines.push('|---|---:|---:|---:|---:|---|---|');
    against(floor);
    if (contenders.includes(plainFloor)) against(plainFloor);
  }
  lines.push('');
  const cpu100 = spread(pairRatioList(runs, 100, 'insurechat', floor, cpu));
  const mineAt100 = runs.filter((r) => r.contender === 'insurechat' && r.connections === 100);
  const tps100 = spread(tpsCost(mineAt100.slice(0, cpu100.n), byLevel(floor, 100)));
  const trips = mineAt100
    .map((r) => r.redisRoundTripsPerTurn ?? r.redisCommandsPerTurn)
    .filter((v) => Number.isFinite(v));
  const tripsSpread = spread(trips);
  lines.push('Targets (insurechat at 100 connections):');
  lines.push('');
  lines.push(
    `- server CPU per turn ≤ 1.3× the same-work floor's: ${cpu100.n > 0 ? fmtRatio(cpu100) : 'n/a'} over ${cpu100.n} pairs — ${verdict(cpu100.n > 0 ? cpu100.median <= 1.3 : undefined)} (throughput ratio, floor ÷ insurechat turns/s: ${tps100.n > 0 ? fmtRatio(tps100) : 'n/a'})`,
  );
  lines.push(
    `- ≤ 2 Redis round trips per turn: ${trips.length ? fmtSpread(tripsSpread, 2) : 'n/a'} — ${verdict(trips.length ? tripsSpread.median <= 2 : undefined)}`,
  );
  lines.push('');
  lines.push('');
  return lines.join('\n');
}
