import { runClientOverhead } from './client-overhead.js';
import { runClusterSection } from './cluster-section.js';
import { runConversationLength } from './conversation-length.js';
import { runIndexTruthSection } from './index-truth-section.js';
import { envNumber } from './lib/stats.js';
import { runLogCost } from './log-cost.js';
import { runLookupSection } from './lookup-section.js';
import { runRenderCost } from './render-cost.js';
import { runSlowInsurer } from './slow-insurer.js';
import { runSnapshotSize } from './snapshot-size.js';
import { runUssdSection } from './ussd-section.js';

/** What every benchmark section receives from the runner. */
export interface SectionContext {
  readonly redisUrl: string;
  readonly seconds: number;
  readonly pairs: number;
  readonly connectionLevels: readonly number[];
  readonly log: (line: string) => void;
}

/** One benchmark: an id for BENCH_ONLY, a title, and a run that returns its Markdown section. */
export interface BenchSection {
  readonly id: string;
  /** Its number in RESULTS.md (`## N. Title`), which its run writes and a rerun replaces. */
  readonly number: number;
  readonly title: string;
  run(context: SectionContext): Promise<string>;
}

/** Every benchmark, in the order RESULTS.md shows them. */
export const benchSections: readonly BenchSection[] = [
  {
    id: 'ussd',
    number: 1,
    title: 'USSD turns through the real HTTP server',
    run: (context) => runUssdSection(context),
  },
  {
    id: 'slow',
    number: 2,
    title: 'Slow insurer',
    run: (context) =>
      runSlowInsurer({
        redisUrl: context.redisUrl,
        callers: Math.floor(envNumber('BENCH_SLOW_CALLERS', 200)),
        delayMs: Math.floor(envNumber('BENCH_SLOW_DELAY_MS', 2_000)),
        seconds: Math.floor(envNumber('BENCH_SLOW_SECONDS', Math.max(10, 3 * context.seconds))),
        poolSizes: [undefined, 16],
        log: context.log,
      }),
  },
  {
    id: 'logs',
    number: 3,
    title: 'Log cost per turn',
    run: (context) =>
      runLogCost({
        pairs: context.pairs,
        linesPerRun: Math.floor(envNumber('BENCH_LOG_LINES', 20_000)),
        log: context.log,
      }),
  },
  {
    id: 'length',
    number: 4,
    title: 'Cost against conversation length',
    run: (context) =>
      runConversationLength({
        pairs: context.pairs,
        block: Math.floor(envNumber('BENCH_LENGTH_BLOCK', 2 * Math.min(context.seconds, 5))),
        cycles: Math.floor(envNumber('BENCH_LENGTH_CYCLES', 1)),
        log: context.log,
      }),
  },
  {
    id: 'snapshot',
    number: 5,
    title: 'Snapshot bytes and Redis memory',
    run: (context) =>
      runSnapshotSize({
        redisUrl: context.redisUrl,
        maxTurns: Math.floor(envNumber('BENCH_EXPLORE_TURNS', 3000)),
        sessions: Math.floor(envNumber('BENCH_SESSIONS', 10_000)),
        log: context.log,
      }),
  },
  {
    id: 'client',
    number: 6,
    title: 'Client overhead',
    run: (context) =>
      runClientOverhead({
        pairs: context.pairs,
        callsPerRun: Math.floor(
          envNumber('BENCH_CLIENT_CALLS', 400 * Math.min(context.seconds, 5)),
        ),
        log: context.log,
      }),
  },
  {
    id: 'cluster',
    number: 7,
    title: 'USSD journey on a Redis Cluster',
    run: (context) => runClusterSection(context),
  },
  {
    id: 'lookup',
    number: 8,
    title: 'Cover lookups against the size of the book',
    run: (context) =>
      runLookupSection({
        redisUrl: context.redisUrl,
        sizes: (process.env.BENCH_LOOKUP_SIZES ?? '1000,10000,100000')
          .split(',')
          .map((value) => Number(value.trim()))
          .filter((value) => Number.isInteger(value) && value > 0),
        delayMs: Math.floor(envNumber('BENCH_LOOKUP_DELAY_MS', 50)),
        lookups: Math.floor(envNumber('BENCH_LOOKUPS', 300)),
        callers: Math.floor(envNumber('BENCH_LOOKUP_CALLERS', 500)),
        seconds: Math.max(10, context.seconds),
        log: context.log,
      }),
  },
  {
    id: 'render',
    number: 9,
    title: 'Rendering a turn’s screen',
    run: (context) =>
      runRenderCost({
        pairs: context.pairs,
        journeysPerRun: Math.floor(envNumber('BENCH_RENDER_JOURNEYS', 2_000)),
        log: context.log,
      }),
  },
  {
    id: 'truth',
    number: 11,
    title: 'Index truth',
    run: (context) =>
      runIndexTruthSection({
        redisUrl: context.redisUrl,
        db: Math.floor(envNumber('BENCH_TRUTH_DB', 11)),
        holders: Math.floor(envNumber('BENCH_TRUTH_HOLDERS', 50)),
        slowMs: Math.floor(envNumber('BENCH_TRUTH_SLOW_MS', 1_500)),
        syncSizes: (process.env.BENCH_TRUTH_SIZES ?? '10000,100000')
          .split(',')
          .map((value) => Number(value.trim()))
          .filter((value) => Number.isInteger(value) && value > 0),
        pageCaps: (process.env.BENCH_TRUTH_CAPS ?? '50,500')
          .split(',')
          .map((value) => Number(value.trim()))
          .filter((value) => Number.isInteger(value) && value > 0),
        phaseMaxSeconds: envNumber('BENCH_TRUTH_PHASE_MAX_S', 600),
        syncBudgetSeconds: envNumber('BENCH_TRUTH_SYNC_BUDGET_S', 600),
        log: context.log,
      }),
  },
];
