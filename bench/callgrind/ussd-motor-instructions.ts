// Instructions per turn of the USSD motor journey (dial → motor quote → plate → … → the payment
// confirmation screen, as the USSD throughput section walks it) for insurechat's bench server
// and for the same-work floor, counted by callgrind, which the machine's load does not move.
// Run through `bench/callgrind/ussd-motor-instructions.sh`; not part of `npm run bench`.
//
// This process runs natively and drives the load; each server runs in a child process of its
// own under callgrind (CALLGRIND_WRAP), the sandbox insurer in another, native, so only the
// server's own instructions are counted, as the throughput section counts only its CPU. Both
// servers keep their sessions in the local Redis, as in the throughput section.
//
// The journey is the seeded policyholder's, from her own phone: Motor → New cover → Third Party
// → plate AJQ 1909 → "Is AJQ 1909 your Toyota Corolla?" Yes → first period → My number →
// "Policyholder: Mwila Banda. Correct?" Yes → "… Pay with:". Since issue 25 only the phone on
// record may insure a registered vehicle, so the throughput section's walk (a new phone each
// journey, the holder found by NRC) stops at the plate. One phone walks the journeys one after
// another; its session record is deleted between them (by this process, outside the count), so
// that every journey dials afresh as a new phone's would, not into "unfinished session".
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { deletePrefix } from '../lib/redis-instance.js';
import { type ServerProcess, startServerProcess } from '../lib/server-process.js';
import { envNumber } from '../lib/stats.js';
import { captureScreens, type UssdWalk } from '../ussd-section.js';

const wrap = (process.env.CALLGRIND_WRAP ?? '').split(/\s+/).filter((word) => word !== '');
if (wrap.length === 0)
  throw new Error('CALLGRIND_WRAP: the valgrind command the servers run under');
// CALLGRIND_NODE_FLAGS: further V8 flags for both servers, e.g. `--no-opt`: without the
// optimising compiler, what a block runs no longer depends on what V8 chose to optimise when,
// so the count reads the work a turn does, block after block alike.
const nodeFlags = (process.env.CALLGRIND_NODE_FLAGS ?? '')
  .split(/\s+/)
  .filter((flag) => flag !== '');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const rounds = Math.floor(envNumber('CALLGRIND_ROUNDS', 5));
const blockJourneys = Math.floor(envNumber('CALLGRIND_BLOCK_JOURNEYS', 20));
const warmUpJourneys = Math.floor(envNumber('CALLGRIND_WARM_UP_JOURNEYS', 150));
const log = (line: string) => process.stdout.write(`${line}\n`);
const holderWalk: UssdWalk = {
  msisdn: '+260971234567',
  inputs: ['1', '1', '1', 'AJQ 1909', '1', '1', '1', '1'],
};
const redis = new Redis(redisUrl);

/**
 * Walks `journeys` whole journeys, one phone after another, each through every screen up to the
 * payment confirmation; with `expected`, every screen must be the one insurechat showed.
 */
async function walkJourneys(
  contender: Measured,
  journeys: number,
  expected?: readonly string[],
): Promise<string[]> {
  let screens: string[] = [];
  for (let journey = 0; journey < journeys; journey += 1) {
    // insurechat's record of the phone's session (the floor keys its own by gateway session).
    await redis.del(`${contender.prefix}session:{ussd:${holderWalk.msisdn?.slice(1)}}`);
    screens = await captureScreens(contender.server.url, holderWalk);
    const differs = expected?.findIndex((screen, index) => screens[index] !== screen) ?? -1;
    if (differs !== -1) {
      throw new Error(
        `${contender.name}: screen ${differs + 1} was ${JSON.stringify(screens[differs])}`,
      );
    }
  }
  return screens;
}

interface Measured {
  readonly name: string;
  readonly server: ServerProcess;
  readonly prefix: string;
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
  const underCallgrind = async (name: string, entry: string) => {
    const prefix = `bench:${randomUUID()}:callgrind-${name}:`;
    const server = await startServerProcess(
      name,
      new URL(`../servers/${entry}`, import.meta.url),
      {
        REDIS_URL: redisUrl,
        BENCH_PREFIX: prefix,
        BENCH_SCREENS: '["-"]',
        BENCH_PARTNER_API_URL: String(sandbox.info.baseUrl),
        BENCH_PARTNER_API_KEY: String(sandbox.info.apiKey),
      },
      {
        wrap,
        execArgv: [
          '--single-threaded',
          '--expose-gc',
          ...nodeFlags,
          '--import',
          new URL('./toggle-on-message.ts', import.meta.url).href,
        ],
      },
    );
    processes.push(server);
    return { name, server, prefix };
  };
  log('starting insurechat and the floor under callgrind (minutes)');
  measured.push(
    ...(await Promise.all([
      underCallgrind('insurechat', 'insurechat-server.ts'),
      underCallgrind('floor', 'floor-server.ts'),
    ])),
  );
  const [insurechat, floor] = measured;
  if (!insurechat || !floor) throw new Error('both servers must start');
  log(`insurechat sessions: ${String(insurechat.server.info.sessions)}`);
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
  // Both must show the same screens before their instructions are compared.
  const screens = await walkJourneys(insurechat, 1);
  if (!screens.at(-1)?.includes('Pay with:')) {
    throw new Error(`insurechat's journey ends on ${JSON.stringify(screens.at(-1))}`);
  }
  await walkJourneys(floor, 1, screens);
  log(`${screens.length} turns per journey`);
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? measured : [...measured].reverse();
    for (const contender of order) {
      await contender.server.control({ type: 'callgrind', action: 'start' });
      await walkJourneys(contender, blockJourneys, screens);
      const turns = blockJourneys * screens.length;
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
