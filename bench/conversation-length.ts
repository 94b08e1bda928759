import { createTurnEngine } from '../src/conversation/index.js';
import { createLogger } from '../src/log/index.js';
import { MemorySessionStore } from '../src/session/index.js';
import { createGrammyLoop } from './grammy-loop.js';
import { cpuMicros, fmt, fmtRatio, fmtSpread, spread, verdict } from './lib/stats.js';
import { loopRegistry } from './loop-flow.js';

/** Turns whose cost the report shows. */
export const MEASURED_TURNS = [1, 5, 20, 50] as const;
const LAST_TURN = 50;

/** One contender's costs in one repetition: µs per turn by turn number, state bytes. */
interface LengthRun {
  readonly contender: string;
  readonly micros: ReadonlyMap<number, number>;
  readonly bytesAtTurn1: number;
  readonly bytesAtTurn50: number;
}

/** Something that can hold many looping conversations in lockstep. */
interface LoopDriver {
  readonly name: string;
  start(session: number): Promise<void>;
  turn(session: number, text: string): Promise<void>;
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
      await engine.handle(key(session), { type: 'user.text', text: '' });
    },
    turn: async (session, text) => {
      await engine.handle(key(session), { type: 'user.text', text });
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
    stateBytes: async (session) => loop.stateBytes(session + 1),
    close: () => {},
  };
}

async function measureDriver(driver: LoopDriver, sessions: number): Promise<LengthRun> {
  const micros = new Map<number, number>();
  let bytesAtTurn1 = 0;
  for (let session = 0; session < sessions; session += 1) await driver.start(session);
  for (let turn = 1; turn <= LAST_TURN; turn += 1) {
    const since = process.cpuUsage();
    for (let session = 0; session < sessions; session += 1) {
      await driver.turn(session, String(turn));
    }
    micros.set(turn, cpuMicros(since) / sessions);
    if (turn === 1) bytesAtTurn1 = await driver.stateBytes(0);
  }
  const bytesAtTurn50 = await driver.stateBytes(0);
  driver.close();
  return { contender: driver.name, micros, bytesAtTurn1, bytesAtTurn50 };
}

/** Options of the conversation-length comparison. */
export interface LengthOptions {
  readonly pairs: number;
  readonly sessions: number;
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
 * Drives `sessions` looping conversations in lockstep for 50 turns with each contender, the
 * contenders alternating within every repetition, and reports CPU per turn at turns 1, 5, 20, 50.
 */
export async function runConversationLength(options: LengthOptions): Promise<string> {
  const runs: LengthRun[] = [];
  // Warm-up so the first measured repetition does not pay for JIT compilation.
  for (const name of CONTENDERS)
    await measureDriver(driverFor(name), Math.min(10, options.sessions));
  for (let pair = 0; pair < options.pairs; pair += 1) {
    const order = pair % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
    for (const name of order) {
      // grammY's turns cost tens of times more; fewer conversations keep its run short, and the
      // figure is per turn either way.
      const sessions =
        name === CONTENDERS[2] ? Math.max(10, Math.floor(options.sessions / 5)) : options.sessions;
      const run = await measureDriver(driverFor(name), sessions);
      runs.push(run);
      options.log(
        `  ${name}: ${MEASURED_TURNS.map((t) => `turn ${t} ${fmt(run.micros.get(t) ?? Number.NaN)} µs`).join(', ')}; state ${run.bytesAtTurn1} → ${run.bytesAtTurn50} B`,
      );
    }
  }
  const lines: string[] = [
    '## 4. Cost against conversation length',
    '',
    `${options.sessions} conversations (a fifth of that for grammY) of a looping flow driven in lockstep in-process; CPU µs per`,
    'turn (process.cpuUsage over all conversations at that turn). The engine runs on the memory',
    'session store; @grammyjs/conversations runs with a JSON-serialising storage and a fake Bot API',
    'transport (its `client.fetch`), so neither touches the network. Medians (min–max) over',
    `${options.pairs} repetitions, contenders alternating.`,
    '',
    `| contender | ${MEASURED_TURNS.map((t) => `turn ${t} µs`).join(' | ')} | turn 50 / turn 1 | state bytes turn 1 → 50 |`,
    `|---|${MEASURED_TURNS.map(() => '---:').join('|')}|---:|---:|`,
  ];
  for (const name of CONTENDERS) {
    const mine = runs.filter((run) => run.contender === name);
    const cells = MEASURED_TURNS.map((t) =>
      fmtSpread(spread(mine.map((run) => run.micros.get(t) ?? Number.NaN))),
    );
    const growth = spread(mine.map((run) => (run.micros.get(50) ?? 0) / (run.micros.get(1) ?? 1)));
    const bytes1 = spread(mine.map((r) => r.bytesAtTurn1));
    const bytes50 = spread(mine.map((r) => r.bytesAtTurn50));
    lines.push(
      `| ${name} | ${cells.join(' | ')} | ${fmtRatio(growth)} | ${fmt(bytes1.median)} → ${fmt(bytes50.median)} |`,
    );
  }
  lines.push('');
  const engineRuns = runs.filter((run) => run.contender === CONTENDERS[0]);
  const restoreRuns = runs.filter((run) => run.contender === CONTENDERS[1]);
  const grammyRuns = runs.filter((run) => run.contender === CONTENDERS[2]);
  const growthOf = (list: LengthRun[]) =>
    spread(list.map((run) => (run.micros.get(50) ?? 0) / (run.micros.get(1) ?? 1)));
  const engineGrowth = growthOf(engineRuns);
  const restoreGrowth = growthOf(restoreRuns);
  const versus = spread(
    engineRuns.map(
      (run, i) =>
        (grammyRuns[i]?.micros.get(50) ?? Number.NaN) / (run.micros.get(50) ?? Number.NaN),
    ),
  );
  lines.push('Target: turn 50 within 10% of turn 1 (ratio ≤ 1.10).');
  lines.push('');
  lines.push(
    `- engine, actor cache hit: ${fmtRatio(engineGrowth)} — ${verdict(engineGrowth.median <= 1.1)}`,
  );
  lines.push(
    `- engine, restore every turn (the turn landed on another instance): ${fmtRatio(restoreGrowth)} — ${verdict(restoreGrowth.median <= 1.1)}`,
  );
  lines.push(
    `- @grammyjs/conversations costs ${fmtRatio(versus)} the engine's (cache hit) CPU at turn 50.`,
  );
  lines.push('');
  return lines.join('\n');
}
