import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { createPartnerClient } from '../src/api/index.js';
import { t } from '../src/conversation/index.js';
import {
  createMemoryHoldingsIndex,
  type HoldingsIndex,
  syncHoldings,
} from '../src/holdings/index.js';
import { createLogger } from '../src/log/index.js';
import { connectRedis } from '../src/redis/index.js';
import { createSandbox, largeBookHolder, type Sandbox } from '../src/sandbox/index.js';
import { createServer, loadConfig } from '../src/server/index.js';
import { fmt } from './lib/stats.js';
import { BENCH_GATEWAY_SECRET } from './servers/bench-env.js';

/** Options of the index truth section. */
export interface IndexTruthOptions {
  readonly redisUrl: string;
  /** The Redis database the server of the cold-start and flush runs uses alone (FLUSHDB'd). */
  readonly db: number;
  /** Holders of the book dialling at once during the cold start and after the flush. */
  readonly holders: number;
  /** How late the insurer answers every call during the cold start and after the flush. */
  readonly slowMs: number;
  /** Book sizes whose full sync is counted. */
  readonly syncSizes: readonly number[];
  /** The insurer's page caps (strict sandbox `maxPageSize`) each size is synced under. */
  readonly pageCaps: readonly number[];
  /** Safety limit of each phase, should the index never be complete again. */
  readonly phaseMaxSeconds: number;
  /** No further counted sync starts once this many seconds of counting have passed. */
  readonly syncBudgetSeconds: number;
  readonly log: (line: string) => void;
}

const silent = createLogger({ level: 'silent' });

/** What the server logged that the section reports on, counted as it is written (no output). */
interface ServerLogCounts {
  circuitOpened: number;
  syncFailed: number;
  /** When (performance.now()) the server's minute check last recreated the sync's schedule. */
  scheduleRecreatedAt: number;
}

/**
 * A warn-level logger for the server that writes nothing and counts the circuit breaker opening
 * and sync runs failing: what explains the screens of a phase.
 */
function countingLogger(counts: ServerLogCounts) {
  return createLogger({
    level: 'warn',
    destination: {
      write(line: string) {
        if (line.includes('"partner api circuit opened"')) counts.circuitOpened += 1;
        else if (line.includes('"holdings sync failed"')) counts.syncFailed += 1;
        else if (line.includes('"holdings sync schedule recreated"')) {
          counts.scheduleRecreatedAt = performance.now();
        }
      },
    },
  });
}
const API_KEY = 'bench-truth-key';

/** What the callers were shown during one phase (cold start, or after the flush). */
interface TruthCounts {
  /** "No policies found" / "No cover … found" for a holder of the book: target 0. */
  falseNone: number;
  /** "We cannot check your cover right now" / "could not be confirmed now". */
  unknown: number;
  /** My cover listing every record of the holder (4). */
  listedAll: number;
  /** My cover listing some of the holder's records (the index part-filled). */
  listedSome: number;
  /** Cover by NRC: "This NRC has cover until …". */
  nrcCovered: number;
  /** The menu again instead of the answer: the caller's session was lost (the flush). */
  menuAgain: number;
  /** "The insurer cannot be reached right now": the lookup failed with no answer at all. */
  unreachable: number;
  /** Times the partner client's circuit breaker opened during the phase (from the server's log). */
  circuitOpened: number;
  /** Sync runs that failed during the phase (from the server's log). */
  syncFailed: number;
  /** Seconds from the phase's start until the sync's lost schedule was recreated, if it was. */
  scheduleRecreatedAfterSeconds: number;
  /** Any other screen (an error, a timeout), the first few kept for the report. */
  other: number;
  readonly otherSamples: string[];
  /** Seconds from the phase's start (server start, or the flush) to each false "none". */
  readonly falseNoneAt: number[];
  /** Seconds from the phase's start until the index first said it was complete. */
  saidCompleteAfterSeconds: number;
  /**
   * Seconds from the phase's start until the index was complete and a full pass had finished
   * since the phase began (its cursor's `fullAt`): every holder is in it again.
   */
  completeAfterSeconds: number;
  /** The phase reached its time limit before the index was complete. */
  cutOff: boolean;
  /** Insurer calls during the phase (the sync's and the lookups'). */
  insurerCalls: number;
}

function emptyCounts(): TruthCounts {
  return {
    falseNone: 0,
    unknown: 0,
    listedAll: 0,
    listedSome: 0,
    nrcCovered: 0,
    menuAgain: 0,
    unreachable: 0,
    circuitOpened: 0,
    syncFailed: 0,
    scheduleRecreatedAfterSeconds: Number.NaN,
    other: 0,
    otherSamples: [],
    falseNoneAt: [],
    saidCompleteAfterSeconds: Number.NaN,
    completeAfterSeconds: Number.NaN,
    cutOff: false,
    insurerCalls: 0,
  };
}

/** Calls the sandbox took in, by route, counted at its HTTP layer (an onRequest hook). */
function countCalls(sandbox: Sandbox) {
  const byRoute = new Map<string, number>();
  let total = 0;
  sandbox.app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    total += 1;
    const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
    byRoute.set(route, (byRoute.get(route) ?? 0) + 1);
  });
  return { total: () => total, byRoute };
}

/**
 * Index truth (issue 36): false "none" answers while the holdings index is cold (a first start
 * with the insurer slow, and after a FLUSHDB of the server's own Redis database) and the time
 * until it is complete again; then the insurer calls of one full sync with pages capped at each
 * of `pageCaps`, for each book size.
 */
export async function runIndexTruthSection(options: IndexTruthOptions): Promise<string> {
  const loadAtStart = loadavg()[0] ?? Number.NaN;
  const started = performance.now();
  const truth = await coldAndFlush(options);
  const syncs = await countSyncCalls(options);
  const minutes = (performance.now() - started) / 60_000;
  return report(options, truth, syncs, { loadAtStart, minutes });
}

/** One USSD caller on the server's Africa's Talking route: each dial a new gateway session. */
function ussdPhone(baseUrl: string, msisdn: string, label: string) {
  let session = 0;
  let history: string[] = [];
  const post = async (text: string): Promise<string> => {
    const response = await fetch(`${baseUrl}/ussd/africastalking`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-ussd-secret': BENCH_GATEWAY_SECRET,
      },
      body: new URLSearchParams({
        sessionId: `${label}-${session}`,
        serviceCode: '*384#',
        phoneNumber: `+${msisdn}`,
        text,
      }),
    });
    return response.text();
  };
  const stillWorking = (screen: string) => {
    const text = screen.replace(/^(CON|END) /, '');
    return text.startsWith(t('engine.stillWorking')) || text.startsWith(t('engine.busy'));
  };
  /** `input`'s answer, through "Check again" while the answer says it is still working. */
  const send = async (input: string | undefined): Promise<string> => {
    if (input === undefined) {
      session += 1;
      history = [];
    } else history.push(input);
    let screen = await post(history.join('*'));
    for (let checks = 0; checks < 20 && stillWorking(screen); checks += 1) {
      history.push('1');
      screen = await post(history.join('*'));
    }
    return screen;
  };
  return { send };
}

/** Sorts one lookup's answer into the counts (every caller's holder has 4 records). */
function classify(counts: TruthCounts, screen: string, kind: 'mine' | 'nrc', at: number): void {
  if (screen.includes(t('cover.mine.none')) || screen.includes(t('cover.limited.none'))) {
    counts.falseNone += 1;
    counts.falseNoneAt.push(at);
  } else if (screen.includes(t('cover.unknown')) || screen.includes(t('cover.limited.unknown'))) {
    counts.unknown += 1;
  } else if (kind === 'mine' && screen.includes(t('cover.list', { count: 4 }))) {
    counts.listedAll += 1;
  } else if (kind === 'mine' && /Your cover \(\d+\)/.test(screen)) {
    counts.listedSome += 1;
  } else if (kind === 'nrc' && screen.includes('This NRC has cover until')) {
    counts.nrcCovered += 1;
  } else if (screen.includes(t('menu.policyholder'))) {
    counts.menuAgain += 1;
  } else if (screen.includes(t('flow.failed.unavailable'))) {
    counts.unreachable += 1;
  } else {
    counts.other += 1;
    if (counts.otherSamples.length < 3) counts.otherSamples.push(screen.slice(0, 120));
  }
}

interface TruthRun {
  readonly book: number;
  readonly cold: TruthCounts;
  readonly flushed: TruthCounts;
  readonly flushedKeys: number;
}

/**
 * The real server (its own Redis database, the insurer a sandbox on its own port answering
 * `slowMs` late, so the first sync runs in the background as with a real insurer) started on an
 * empty index; holders dial My cover and cover by NRC until the index says it is complete. Then
 * FLUSHDB of that database, and the same until it is complete again (a full pass done).
 */
async function coldAndFlush(options: IndexTruthOptions): Promise<TruthRun> {
  const url = new URL(options.redisUrl);
  url.pathname = `/${options.db}`;
  const admin = new Redis(url.toString());
  // Another's data is never flushed: the database must be empty before the run.
  const before = await admin.dbsize();
  if (before !== 0) {
    admin.disconnect();
    throw new Error(
      `Redis database ${options.db} holds ${before} keys: not flushing another's data`,
    );
  }
  // The book: a holder per index below `book`, each with a motor, a travel, a group-life and a
  // credit-life record (the sandbox's large book).
  const book = Math.max(options.holders, 200);
  const sandbox = createSandbox({ apiKey: API_KEY, bookSize: book, answerDelayMs: options.slowMs });
  const calls = countCalls(sandbox);
  const { url: insurerUrl } = await sandbox.listen(0);
  const prefix = `bench:${randomUUID()}:truth:`;
  const { config } = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    USSD_GATEWAY_SECRET: BENCH_GATEWAY_SECRET,
    USSD_ASK_LANGUAGE: 'false',
    REDIS_URL: url.toString(),
    PARTNER_API_URL: insurerUrl,
    PARTNER_API_KEY: API_KEY,
  });
  if (!config.redis) throw new Error('the index truth bench needs Redis');
  const redis = connectRedis(config.redis);
  const logged: ServerLogCounts = {
    circuitOpened: 0,
    syncFailed: 0,
    scheduleRecreatedAt: Number.NaN,
  };
  try {
    const started = performance.now();
    const server = await createServer(config, {
      redis,
      keyPrefix: prefix,
      logger: countingLogger(logged),
      askConsent: false,
    });
    try {
      const { url: serverUrl } = await server.listen();
      options.log(
        `  cold start: ${options.holders} holders dialling, insurer ${options.slowMs} ms late`,
      );
      const cold = await dialUntil(
        options,
        serverUrl,
        book,
        server.holdings,
        started,
        calls.total,
        logged,
      );
      options.log(
        `  cold start: complete after ${fmt(cold.completeAfterSeconds, 1)} s; false none ${cold.falseNone}, unknown ${cold.unknown}`,
      );
      const flushedKeys = await admin.dbsize();
      const flushedAt = performance.now();
      await admin.flushdb();
      const flushed = await dialUntil(
        options,
        serverUrl,
        book,
        server.holdings,
        flushedAt,
        calls.total,
        logged,
      );
      options.log(
        `  after FLUSHDB (${flushedKeys} keys): complete after ${fmt(flushed.completeAfterSeconds, 1)} s; false none ${flushed.falseNone}, unknown ${flushed.unknown}`,
      );
      return { book, cold, flushed, flushedKeys };
    } finally {
      await server.close();
    }
  } finally {
    await admin.flushdb();
    admin.disconnect();
    redis.disconnect();
    await sandbox.close();
  }
}

/**
 * Holders dial one after another (each caller its own holders, My cover from the holder's phone
 * and cover by NRC from a stranger's phone in turn) until the index is complete and a full pass
 * has finished since `fromEpoch` (or `maxSeconds` passed); counts what they were shown.
 */
async function dialUntil(
  options: IndexTruthOptions,
  serverUrl: string,
  book: number,
  index: Pick<HoldingsIndex, 'completeness' | 'cursor'>,
  from: number,
  insurerCalls: () => number,
  logged: ServerLogCounts,
): Promise<TruthCounts> {
  const counts = emptyCounts();
  const callsBefore = insurerCalls();
  const loggedBefore = { ...logged };
  const fromEpoch = Date.now();
  const since = () => (performance.now() - from) / 1000;
  let done = false;
  const watcher = (async () => {
    // Polled: the phase lasts until the index is complete again (or the safety limit).
    for (;;) {
      const complete = (await index.completeness()).complete;
      if (complete && Number.isNaN(counts.saidCompleteAfterSeconds)) {
        counts.saidCompleteAfterSeconds = since();
      }
      if (complete && Number((await index.cursor()).fullAt ?? 0) >= fromEpoch) {
        counts.completeAfterSeconds = since();
        break;
      }
      if (since() > options.phaseMaxSeconds) {
        counts.cutOff = true;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    done = true;
  })();
  const caller = async (n: number) => {
    for (let round = 0; !done; round += 1) {
      // Callers never share a holder's phone (two sessions of one phone would resume each other).
      const holder = largeBookHolder((n + options.holders * Math.floor(round / 2)) % book);
      const mine = round % 2 === 0;
      const phone = ussdPhone(
        serverUrl,
        mine ? holder.phoneNumber : `26096${String(n).padStart(7, '0')}`,
        `truth-${process.pid}-${fromEpoch}-${n}-${round}`,
      );
      let screen = await phone.send(undefined);
      if (screen.includes(t('ussd.resumeTitle'))) await phone.send('2');
      screen = await phone.send('3');
      if (!mine) {
        await phone.send('1');
        screen = await phone.send(holder.nrcNumber);
      }
      await phone.send('00');
      classify(counts, screen, mine ? 'mine' : 'nrc', since());
    }
  };
  await Promise.all([
    watcher,
    ...Array.from({ length: options.holders }, (_, n) =>
      caller(n).catch((error: unknown) => {
        counts.other += 1;
        if (counts.otherSamples.length < 3) counts.otherSamples.push(String(error).slice(0, 120));
      }),
    ),
  ]);
  counts.insurerCalls = insurerCalls() - callsBefore;
  counts.circuitOpened = logged.circuitOpened - loggedBefore.circuitOpened;
  counts.syncFailed = logged.syncFailed - loggedBefore.syncFailed;
  if (logged.scheduleRecreatedAt > from) {
    counts.scheduleRecreatedAfterSeconds = (logged.scheduleRecreatedAt - from) / 1000;
  }
  return counts;
}

interface SyncCount {
  readonly size: number;
  readonly cap: number;
  readonly calls: number;
  readonly pages: number;
  readonly facts: number;
  readonly byRoute: ReadonlyMap<string, number>;
  readonly seconds: number;
  readonly seedSeconds: number;
}

interface SyncCounts {
  readonly counted: readonly SyncCount[];
  /** Size and cap pairs not started within the budget. */
  readonly skipped: readonly { size: number; cap: number }[];
}

/**
 * One full sync (the server's own settings: pages of 500 asked for) against a strict sandbox
 * capping pages at each cap, answering at once; insurer calls counted at its HTTP layer.
 */
async function countSyncCalls(options: IndexTruthOptions): Promise<SyncCounts> {
  const counted: SyncCount[] = [];
  const skipped: { size: number; cap: number }[] = [];
  const budgetStart = performance.now();
  for (const size of [...options.syncSizes].sort((a, b) => a - b)) {
    for (const cap of options.pageCaps) {
      if ((performance.now() - budgetStart) / 1000 > options.syncBudgetSeconds) {
        skipped.push({ size, cap });
        options.log(`  ${size} book, pages of ${cap}: not started (budget spent)`);
        continue;
      }
      const seedStarted = performance.now();
      const sandbox = createSandbox({
        apiKey: API_KEY,
        bookSize: size,
        strict: { lateMs: 0, maxPageSize: cap },
      });
      const calls = countCalls(sandbox);
      const { url } = await sandbox.listen(0);
      const seedSeconds = (performance.now() - seedStarted) / 1000;
      const client = createPartnerClient({ baseUrl: url, apiKey: API_KEY });
      try {
        const started = performance.now();
        // The index in this process: what is counted is the insurer's side.
        const summary = await syncHoldings({
          client,
          index: createMemoryHoldingsIndex(),
          logger: silent,
        });
        const row: SyncCount = {
          size,
          cap,
          calls: calls.total(),
          pages: summary.pages,
          facts: summary.facts,
          byRoute: new Map(calls.byRoute),
          seconds: (performance.now() - started) / 1000,
          seedSeconds,
        };
        counted.push(row);
        options.log(
          `  ${size} book, pages of ${cap}: ${row.calls} insurer calls, ${fmt(row.seconds, 1)} s`,
        );
      } finally {
        await client.close();
        await sandbox.close();
      }
    }
  }
  return { counted, skipped };
}

function countsRow(phase: string, c: TruthCounts): string {
  const when =
    c.falseNoneAt.length === 0
      ? '–'
      : `${fmt(Math.min(...c.falseNoneAt), 1)}–${fmt(Math.max(...c.falseNoneAt), 1)}`;
  const complete = c.cutOff ? 'not within the limit' : fmt(c.completeAfterSeconds, 1);
  return `| ${phase} | ${c.falseNone} | ${when} | ${c.unknown} | ${c.listedAll} | ${c.listedSome} | ${c.nrcCovered} | ${c.menuAgain} | ${c.unreachable} | ${c.other} | ${fmt(c.scheduleRecreatedAfterSeconds, 1)} | ${fmt(c.saidCompleteAfterSeconds, 1)} | ${complete} | ${c.insurerCalls} | ${c.circuitOpened} | ${c.syncFailed} |`;
}

function report(
  options: IndexTruthOptions,
  truth: TruthRun,
  syncs: SyncCounts,
  run: { readonly loadAtStart: number; readonly minutes: number },
): string {
  const others = [...truth.cold.otherSamples, ...truth.flushed.otherSamples];
  const routeLine = (row: SyncCount) =>
    [...row.byRoute.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([route, count]) => `${route} ${count.toLocaleString('en')}`)
      .join('; ');
  const lines = [
    '## 11. Index truth',
    '',
    `The section took ${fmt(run.minutes, 1)} min; the 1-minute load average when it started: ${fmt(run.loadAtStart, 2)} (${cpus().length} cores; the server, its callers, the sandbox and the counted syncs share the bench's process).`,
    '',
    `Issue 36. insurechat's real server (\`createServer\`, Redis database ${options.db} of the bench's Redis used by it alone, logging at warn into a counter that writes nothing: it counts the partner client's circuit breaker opening and sync runs failing) with a sandbox insurer on its own port as upstream, answering every call ${options.slowMs} ms late (the embedded sandbox would be synced before the server listens: no cold start to see). Its book: ${truth.book} holders, each with a motor, a travel, a group-life and a credit-life record. From the moment the server starts on an empty index (its first sync running in the background), ${options.holders} callers dial one journey after another through the USSD route, in turn My cover from a holder's own phone and cover by NRC of a holder from a phone on record nowhere, until the index is complete: \`completeness()\` says so and a full pass has finished since the phase began (the sync cursor's \`fullAt\`), both polled every 200 ms; when the index first *said* it was complete is shown apart (limit per phase: ${options.phaseMaxSeconds} s). Then \`FLUSHDB\` of that database (${truth.flushedKeys} keys: the index, the sync's schedule and cursor, the sessions) while the server runs, and the same (the schedule is recreated by the server's minute check, \`SCHEDULE_CHECK_MS\`, and runs at once). Every caller holds cover: a "none" answer is false. Target: 0 false "none". "Insurer cannot be reached" is the flow's failure screen: the lookup got no answer at all (the circuit breaker open, or every call failed). The machine is shared (2 cores, other work running): the counts and the order of events are the figures to compare between runs, the seconds only roughly.`,
    '',
    '| phase | false "none" | false "none" at s | "cannot check" (unknown) | My cover, all 4 listed | My cover, fewer listed | by NRC: has cover | menu again (session lost) | "insurer cannot be reached" | other | sync schedule recreated at s | index said complete at s | complete, full pass done, at s | insurer calls | circuit opened | sync runs failed |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    countsRow('cold start', truth.cold),
    countsRow('after FLUSHDB', truth.flushed),
    '',
    others.length > 0
      ? `Other screens (first few): ${others.map((s) => `\`${s}\``).join('; ')}.`
      : 'No other screens.',
    '',
    '### Insurer calls of one full sync against the insurer’s page size',
    '',
    "One full sync as the server runs it (`syncHoldings`, pages of 500 asked for) against the strict sandbox (`strict: { maxPageSize, lateMs: 0 }`) capping every page at 50 or at 500, its large book seeded in the same process; the index in memory (the insurer's side is what is counted). Calls are counted at the sandbox's HTTP layer (a fastify `onRequest` hook), per route. A book of N holds N motor and N travel policies, and N members and N loans on 50 master policies.",
    '',
    '| book | page cap | insurer calls | pages written | facts | sync s | seeding s |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...syncs.counted.map(
      (row) =>
        `| ${row.size.toLocaleString('en')} | ${row.cap} | ${row.calls.toLocaleString('en')} | ${row.pages.toLocaleString('en')} | ${row.facts.toLocaleString('en')} | ${fmt(row.seconds, 1)} | ${fmt(row.seedSeconds, 1)} |`,
    ),
    ...syncs.skipped.map(
      (row) => `| ${row.size.toLocaleString('en')} | ${row.cap} | not measured | | | | |`,
    ),
    '',
    ...syncs.counted.map(
      (row) => `- ${row.size.toLocaleString('en')}, pages of ${row.cap}: ${routeLine(row)}.`,
    ),
    '',
  ];
  if (syncs.skipped.length > 0) {
    lines.push(
      `Not measured: ${syncs.skipped.map((row) => `${row.size.toLocaleString('en')} at ${row.cap}`).join(', ')} — not started within the section's budget of ${options.syncBudgetSeconds} s of counting (\`BENCH_TRUTH_SYNC_BUDGET_S\`).`,
      '',
    );
  }
  return lines.join('\n');
}
