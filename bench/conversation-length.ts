import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createTurnEngine } from '../src/conversation/index.js';
import { createLogger } from '../src/log/index.js';
import { MemorySessionStore } from '../src/session/index.js';
import { createGrammyLoop } from './grammy-loop.js';
import { cpuMicros, fmt, fmtRatio, fmtSpread, median, spread, verdict } from './lib/stats.js';
import { loopRegistry } from './loop-flow.js';

/** Turns whose cost the report shows. */
export const MEASURED_TURNS = [1, 5, 20, 50] as const;
const LAST_TURN = 50;

/** One contender's costs in one repetition. */
interface LengthRun {
  readonly contender: string;
  /** Median CPU µs of one turn, by turn number 1..50, over that turn number's blocks. */
  readonly micros: ReadonlyMap<number, number>;
  /** Turn 50 / turn 1 read off a least-squares line through all 50 medians. */
  readonly fitted: number;
  readonly bytesAtTurn1: number;
  readonly bytesAtTurn50: number;
}

/** Something that holds many looping conversations at once. */
interface LoopDriver {
  readonly name: string;
  start(session: number): Promise<void>;
  turn(session: number, text: string): Promise<void>;
  /** Ends a conversation (not measured), so finished ones do not pile up in the heap. */
  end(session: number): Promise<void>;
  stateBytes(session: number): Promise<number>;
  close(): void;
}

function engineDriver(name: string, cache: boolean): LoopDriver {
  const store = new MemorySessionStore();
  const engine = createTurnEngine({
    store,
    flows: loopRegistry,
    logger: createLogger({ level: 'silent' }),
    cache: cache ? { max: 10_000 } : false,
  });
  const key = (session: number) => `bench:${session}`;
  return {
    name,
    start: async (session) => {
      await engine.turn(key(session), { type: 'user.text', text: '' });
    },
    turn: async (session, text) => {
      await engine.turn(key(session), { type: 'user.text', text });
    },
    end: async (session) => {
      await engine.turn(key(session), { type: 'user.cancel' });
    },
    stateBytes: async (session) => Buffer.byteLength((await store.read(key(session)))?.data ?? ''),
    close: () => engine.close(),
  };
}

function grammyDriver(): LoopDriver {
  const loop = createGrammyLoop();
  return {
    name: '@grammyjs/conversations',
    start: (session) => loop.start(session + 1),
    turn: (session, text) => loop.turn(session + 1, text),
    end: async (session) => loop.forget(session + 1),
    stateBytes: async (session) => loop.stateBytes(session + 1),
    close: () => {},
  };
}

/**
 * A young-generation collection, run before every measured block: each block then starts with
 * an empty nursery, so a scavenge of the previous blocks' garbage is not charged to whichever
 * turn number happened to come next. `--expose-gc` set at run time reaches new contexts only.
 */
function youngCollector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options?: { readonly type: 'minor' | 'major' }) => void;
  return () => gc({ type: 'minor' });
}

/** A group of conversations that are always at the same turn number. */
interface Population {
  ids: number[];
  /** Turns done: 0 just started, LAST_TURN finished. */
  done: number;
}

/**
 * One repetition for one contender. 51 populations of `blockSize` conversations are held at
 * staggered lengths, 0 to 50 turns done (getting there warms the JIT up). Every round visits
 * them all, in a shuffled order: the one that has done turn 50 ends its conversations and
 * starts new ones (not measured), every other one runs its next turn as one measured block. So
 * each round measures one block at each turn number 1..50: turn 1 and turn 50 are measured side
 * by side all through the run, on the same heap and the same compiled code. The order is
 * shuffled because in a fixed one the turn-1 block always followed the unmeasured end-and-start
 * work (other code, other objects in the CPU's caches) and read about 10% dearer than the rest.
 * A load spike or a GC pause lands on one block of one turn number, and the median over that
 * turn number's blocks leaves it out.
 */
async function measureDriver(
  driver: LoopDriver,
  blockSize: number,
  rounds: number,
  collect: () => void,
): Promise<LengthRun> {
  let nextId = 0;
  const fresh = async (): Promise<number[]> => {
    const ids = Array.from({ length: blockSize }, () => nextId++);
    for (const id of ids) await driver.start(id);
    return ids;
  };
  const populations: Population[] = [];
  for (let p = 0; p <= LAST_TURN; p += 1) {
    const ids = await fresh();
    for (let turn = 1; turn <= p; turn += 1) {
      for (const id of ids) await driver.turn(id, String(turn));
    }
    populations.push({ ids, done: p });
  }
  const samples = new Map<number, number[]>();
  for (let turn = 1; turn <= LAST_TURN; turn += 1) samples.set(turn, []);
  let bytesAtTurn1 = 0;
  let bytesAtTurn50 = 0;
  const random = seededRandom(blockSize * 7919 + rounds);
  for (let round = 0; round < rounds; round += 1) {
    for (const population of shuffled(populations, random)) {
      if (population.done === LAST_TURN) {
        for (const id of population.ids) await driver.end(id);
        population.ids = await fresh();
        population.done = 0;
        continue;
      }
      const turn = population.done + 1;
      const text = String(turn);
      collect();
      const since = process.cpuUsage();
      for (const id of population.ids) await driver.turn(id, text);
      samples.get(turn)?.push(cpuMicros(since) / population.ids.length);
      population.done = turn;
      const first = population.ids[0] ?? 0;
      if (turn === 1) bytesAtTurn1 = await driver.stateBytes(first);
      if (turn === LAST_TURN) bytesAtTurn50 = await driver.stateBytes(first);
    }
  }
  driver.close();
  const micros = new Map<number, number>();
  for (const [turn, values] of samples) micros.set(turn, median(values));
  return {
    contender: driver.name,
    micros,
    fitted: fittedGrowth(micros),
    bytesAtTurn1,
    bytesAtTurn50,
  };
}

/** A small deterministic generator (mulberry32), so every run visits blocks in the same order. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A Fisher–Yates shuffled copy. */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * Turn 50 / turn 1 on the least-squares line through every turn's median: 50 points instead
 * of 2, so one noisy turn number moves it little. A cost that grows with length grows the line.
 */
function fittedGrowth(micros: ReadonlyMap<number, number>): number {
  const points = [...micros].filter(([, value]) => Number.isFinite(value));
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - meanX) * (y - meanY);
    sxx += (x - meanX) ** 2;
  }
  const slope = sxy / sxx;
  const at = (x: number) => meanY + slope * (x - meanX);
  return at(LAST_TURN) / at(1);
}

/** Options of the conversation-length comparison. */
export interface LengthOptions {
  readonly pairs: number;
  /** Conversations per block for the engine (a tenth of that, at least 1, for grammY). */
  readonly block: number;
  /** Times every group goes through turns 1..50 in one repetition (grammY: half as many). */
  readonly cycles: number;
  readonly log: (line: string) => void;
}

const CONTENDERS = [
  'insurechat engine (actor cache hit)',
  'insurechat engine (restore every turn)',
  '@grammyjs/conversations',
] as const;

function driverFor(name: (typeof CONTENDERS)[number]): LoopDriver {
  if (name === CONTENDERS[0]) return engineDriver(name, true);
  if (name === CONTENDERS[1]) return engineDriver(name, false);
  return grammyDriver();
}

/**
 * Measures CPU per turn at every turn number 1..50 of a looping conversation, with each
 * contender, the contenders alternating between repetitions; see {@link measureDriver}.
 */
export async function runConversationLength(options: LengthOptions): Promise<string> {
  const collect = youngCollector();
  // grammY's turns cost some forty times more and grow; smaller blocks and half the rounds keep
  // its run short, and the figure is per turn either way.
  const grammyBlock = Math.max(1, Math.floor(options.block / 10));
  const rounds = (LAST_TURN + 1) * options.cycles;
  const grammyRounds = Math.ceil(rounds / 2);
  const runs: LengthRun[] = [];
  for (let pair = 0; pair < options.pairs; pair += 1) {
    const order = pair % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
    for (const name of order) {
      const grammy = name === CONTENDERS[2];
      const began = performance.now();
      const run = await measureDriver(
        driverFor(name),
        grammy ? grammyBlock : options.block,
        grammy ? grammyRounds : rounds,
        collect,
      );
      runs.push(run);
      const turn50 = run.micros.get(LAST_TURN) ?? Number.NaN;
      const turn1 = run.micros.get(1) ?? Number.NaN;
      options.log(
        `  ${name}: ${MEASURED_TURNS.map((t) => `turn ${t} ${fmt(run.micros.get(t) ?? Number.NaN, 1)} µs`).join(', ')}; 50/1 ${fmt(turn50 / turn1, 2)}, fitted ${fmt(run.fitted, 3)}; state ${run.bytesAtTurn1} → ${run.bytesAtTurn50} B; ${fmt((performance.now() - began) / 1000, 1)} s`,
      );
    }
  }
  const growthOf = (list: readonly LengthRun[]) =>
    spread(list.map((run) => (run.micros.get(LAST_TURN) ?? 0) / (run.micros.get(1) ?? 1)));
  const fittedOf = (list: readonly LengthRun[]) => spread(list.map((run) => run.fitted));
  const lines: string[] = [
    '## 4. Cost against conversation length',
    '',
    'A looping flow (one question, asked again after every answer) driven in-process. 51 groups',
    `of conversations (${options.block} per group for the engine, ${grammyBlock} for grammY) are held at staggered`,
    'lengths, 0 to 50 turns done; every round each group, in a shuffled order, runs its next turn',
    'as one block (the group that has done turn 50 starts new conversations instead, not',
    'measured), so turn 1 and turn 50 are measured side by side all through the run. CPU µs per',
    'turn: process.cpuUsage over a block divided by its turns, then the',
    `median over the ${rounds} blocks (${grammyRounds} for grammY) at that turn number, so a GC pause or a load spike charged to`,
    'one block does not move it; a young-generation GC runs before every block (not measured).',
    '"Fitted" is turn 50 / turn 1 on the least-squares line through all 50 turn numbers\' medians,',
    'which averages out the few percent of noise that each single turn number carries. The engine',
    'runs on the memory session store; @grammyjs/conversations with a JSON-serialising storage and',
    'a fake Bot API transport (its `client.fetch`), so neither touches the network. Medians',
    `(min–max) over ${options.pairs} repetitions, contenders alternating.`,
    '',
    `| contender | ${MEASURED_TURNS.map((t) => `turn ${t} µs`).join(' | ')} | turn 50 / turn 1 | fitted 50 / 1 | state bytes turn 1 → 50 |`,
    `|---|${MEASURED_TURNS.map(() => '---:').join('|')}|---:|---:|---:|`,
  ];
  for (const name of CONTENDERS) {
    const mine = runs.filter((run) => run.contender === name);
    const cells = MEASURED_TURNS.map((t) =>
      fmtSpread(spread(mine.map((run) => run.micros.get(t) ?? Number.NaN)), 1),
    );
    const bytes1 = spread(mine.map((r) => r.bytesAtTurn1));
    const bytes50 = spread(mine.map((r) => r.bytesAtTurn50));
    lines.push(
      `| ${name} | ${cells.join(' | ')} | ${fmtRatio(growthOf(mine))} | ${fmtRatio(fittedOf(mine))} | ${fmt(bytes1.median)} → ${fmt(bytes50.median)} |`,
    );
  }
  lines.push('');
  const engineRuns = runs.filter((run) => run.contender === CONTENDERS[0]);
  const restoreRuns = runs.filter((run) => run.contender === CONTENDERS[1]);
  const grammyRuns = runs.filter((run) => run.contender === CONTENDERS[2]);
  const versus = spread(
    engineRuns.map(
      (run, i) =>
        (grammyRuns[i]?.micros.get(LAST_TURN) ?? Number.NaN) /
        (run.micros.get(LAST_TURN) ?? Number.NaN),
    ),
  );
  // The verdict reads the fitted ratio: the two single turn numbers each carry a few percent of
  // noise, which the line through all fifty averages out.
  const reading = (label: string, list: readonly LengthRun[]) => {
    const fitted = fittedOf(list);
    return `- ${label}: fitted ${fmtRatio(fitted)} (turn 50 / turn 1 as measured ${fmtRatio(growthOf(list))}) — ${verdict(fitted.median <= 1.1)}`;
  };
  lines.push(
    'Target: turn 50 within 10% of turn 1 (ratio ≤ 1.10), read off the fitted line (the median',
    'over repetitions; the range says whether that reading is decisive).',
  );
  lines.push('');
  lines.push(reading('engine, actor cache hit', engineRuns));
  lines.push(
    reading('engine, restore every turn (the turn landed on another instance)', restoreRuns),
  );
  lines.push(
    `- @grammyjs/conversations: fitted ${fmtRatio(fittedOf(grammyRuns))} (as measured ${fmtRatio(growthOf(grammyRuns))}); it costs ${fmtRatio(versus)} the engine's (cache hit) CPU at turn 50.`,
  );
  lines.push('');
  return lines.join('\n');
}
