// What the USSD callgrind counts share (ussd-motor-instructions.ts, ussd-lookup-instructions.ts):
// a sandbox insurer in a native child process, two bench servers each in a child process under
// callgrind (CALLGRIND_WRAP), a warm-up, a check that both show the same screens, then rounds
// of blocks, the order alternating, collection switched on only around each block. Only the
// servers' own instructions are counted. Both keep their sessions in the local Redis.
//
// The journeys run one after another. A walk may keep one phone (its session record is deleted
// after each journey, by this process, outside the count, so that the next dials afresh as a new
// phone's would, not into "unfinished session") or take a new phone each journey.
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { deletePrefix } from '../lib/redis-instance.js';
import { type ServerProcess, startServerProcess } from '../lib/server-process.js';
import { envNumber } from '../lib/stats.js';
import { captureScreens, type UssdWalk, withoutPlates } from '../ussd-section.js';

/** One measured server: its name in the dumps' labels, its file in bench/servers, its env. */
export interface Contender {
  readonly name: string;
  readonly entry: string;
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Another checkout's root (e.g. a worktree of an earlier commit, with its own node_modules):
   * its own bench/servers/<entry> runs, with its own src. Default: this checkout.
   */
  readonly tree?: string;
}

/** What one count measures: the walk, the two servers, and what the walk must end on. */
export interface UssdCount {
  /** The walk of the next journey: one phone's fixed walk, or a new phone's each time. */
  /** A phone's walk on `contender` (another tree may ask in its own order). */
  readonly walk: (contender: { readonly name: string }) => UssdWalk & { readonly msisdn: string };
  /** The first is the one whose screens the other's are checked against. */
  readonly contenders: readonly [Contender, Contender];
  /** Words the walk's last screen must contain, so that a wrong walk is not counted. */
  readonly endsOn: string;
  /**
   * `own`: each server's journey is checked against its own first walk only (both must end on
   * `endsOn`), for two trees whose journeys may differ in order or length (another commit's
   * insurechat); each block is counted per its own server's turns. Default `same`: the second
   * server must show the first's screens (the floor, the limiter off).
   */
  readonly screens?: 'same' | 'own';
}

interface Measured {
  readonly name: string;
  readonly server: ServerProcess;
  readonly prefix: string;
}

const log = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The node flags of a server counted under callgrind: one thread (Turbofan compiles on it, in the
 * count), `gc()` for the blocks' forced GC, `nodeFlags`, and the toggle preloaded.
 */
export function measuredExecArgv(nodeFlags: readonly string[]): string[] {
  return [
    '--single-threaded',
    '--expose-gc',
    ...nodeFlags,
    '--import',
    new URL('./toggle-on-message.ts', import.meta.url).href,
  ];
}

/**
 * Runs one count (settings from CALLGRIND_* variables, see bench/README.md): each block's dump
 * is labelled `round=<n> server=<name> turns=<turns>` for `callgrind_per_turn`.
 */
export async function countUssdInstructions(count: UssdCount): Promise<void> {
  const wrap = (process.env.CALLGRIND_WRAP ?? '').split(/\s+/).filter((word) => word !== '');
  if (wrap.length === 0)
    throw new Error('CALLGRIND_WRAP: the valgrind command the servers run under');
  // CALLGRIND_NODE_FLAGS: further V8 flags for both servers, e.g. `--max-opt=1`: without the
  // optimising compiler, what a block runs no longer depends on what V8 chose to optimise when,
  // so the count reads the work a turn does, block after block alike.
  const nodeFlags = (process.env.CALLGRIND_NODE_FLAGS ?? '')
    .split(/\s+/)
    .filter((flag) => flag !== '');
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const rounds = Math.floor(envNumber('CALLGRIND_ROUNDS', 5));
  const blockJourneys = Math.floor(envNumber('CALLGRIND_BLOCK_JOURNEYS', 20));
  const warmUpJourneys = Math.floor(envNumber('CALLGRIND_WARM_UP_JOURNEYS', 150));
  const { walk } = count;
  const redis = new Redis(redisUrl);

  /**
   * Walks `journeys` whole journeys, one after another; with `expected`, every screen must be
   * the one the first contender showed.
   */
  async function walkJourneys(
    contender: Measured,
    journeys: number,
    expected?: readonly string[],
  ): Promise<string[]> {
    let screens: string[] = [];
    for (let journey = 0; journey < journeys; journey += 1) {
      const phone = walk(contender);
      screens = await captureScreens(contender.server.url, phone).finally(() =>
        // insurechat's record of the phone's session (the floor keys its own by gateway session).
        redis.del(`${contender.prefix}session:{ussd:${phone.msisdn.slice(1)}}`),
      );
      const differs =
        expected === undefined
          ? -1
          : (Array.from(
              { length: Math.max(expected.length, screens.length) },
              (_, index) => index,
            ).find(
              (index) =>
                withoutPlates(screens[index] ?? '') !== withoutPlates(expected[index] ?? ''),
            ) ?? -1);
      if (differs !== -1) {
        throw new Error(
          `${contender.name}: screen ${differs + 1} was ${JSON.stringify(screens[differs])}`,
        );
      }
    }
    return screens;
  }

  const processes: ServerProcess[] = [];
  const measured: Measured[] = [];
  try {
    const sandbox = await startServerProcess(
      'sandbox',
      new URL('../servers/sandbox-server.ts', import.meta.url),
      {},
    );
    processes.push(sandbox);
    const underCallgrind = async ({ name, entry, env, tree }: Contender): Promise<Measured> => {
      const prefix = `bench:${randomUUID()}:callgrind-${name}:`;
      const server = await startServerProcess(
        name,
        tree === undefined
          ? new URL(`../servers/${entry}`, import.meta.url)
          : new URL(`bench/servers/${entry}`, pathToFileURL(`${tree.replace(/\/+$/, '')}/`)),
        {
          REDIS_URL: redisUrl,
          BENCH_PREFIX: prefix,
          BENCH_SCREENS: '["-"]',
          BENCH_PARTNER_API_URL: String(sandbox.info.baseUrl),
          BENCH_PARTNER_API_KEY: String(sandbox.info.apiKey),
          ...env,
        },
        { wrap, execArgv: measuredExecArgv(nodeFlags) },
      );
      processes.push(server);
      return { name, server, prefix };
    };
    log(`starting ${count.contenders.map(({ name }) => name).join(' and ')} under callgrind`);
    measured.push(...(await Promise.all(count.contenders.map(underCallgrind))));
    const [first, second] = measured;
    if (!first || !second) throw new Error('both servers must start');
    // Warm-up (JIT, connection pools, the first sessions; not counted), before the screens are
    // compared: a cold server under callgrind misses insurechat's 4 s turn deadline, which
    // answers another screen. One phone at a time, so that no queue pushes a turn past it.
    for (const contender of measured) {
      let failed = 0;
      for (let journey = 0; journey < warmUpJourneys; journey += 1) {
        await walkJourneys(contender, 1).catch(() => {
          failed += 1;
        });
      }
      log(`${contender.name} warmed up: ${warmUpJourneys} journeys, ${failed} cut short`);
    }
    // Both must show the same screens before their instructions are compared (or, for two
    // trees, each its own journey to the same end).
    const screens = await walkJourneys(first, 1);
    if (!screens.at(-1)?.includes(count.endsOn)) {
      throw new Error(`${first.name}'s journey ends on ${JSON.stringify(screens.at(-1))}`);
    }
    const reference = new Map<Measured, string[]>([[first, screens]]);
    if (count.screens === 'own') {
      const own = await walkJourneys(second, 1);
      if (!own.at(-1)?.includes(count.endsOn)) {
        throw new Error(`${second.name}'s journey ends on ${JSON.stringify(own.at(-1))}`);
      }
      reference.set(second, own);
      const same = own.length === screens.length && own.every((shown, i) => shown === screens[i]);
      log(
        same
          ? `${second.name} shows ${first.name}'s screens`
          : `${second.name}'s journey differs from ${first.name}'s: ${own.length} turns against ${screens.length}`,
      );
    } else {
      reference.set(second, await walkJourneys(second, 1, screens));
    }
    log(`${screens.length} turns per journey`);
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? measured : [...measured].reverse();
      for (const contender of order) {
        await contender.server.control({ type: 'callgrind', action: 'start' });
        const expected = reference.get(contender) ?? screens;
        await walkJourneys(contender, blockJourneys, expected);
        const turns = blockJourneys * expected.length;
        // A turn's last writes may follow its answer: let them land inside the block.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const label = `round=${round} server=${contender.name} turns=${turns}`;
        await contender.server.control({ type: 'callgrind', action: 'stop', label });
        log(label);
      }
    }
  } finally {
    for (const server of processes) await server.stop();
    for (const { prefix } of measured) await deletePrefix(redis, prefix);
    redis.disconnect();
  }
}
