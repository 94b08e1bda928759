// Instructions of each turn of the USSD motor purchase, turn by turn, for insurechat's bench
// server of this tree and of another checkout (CALLGRIND_MOTOR_AGAINST, a worktree of an earlier
// commit with its own node_modules), counted by callgrind: where a per-turn difference between two
// trees comes from, screen by screen (a purchase reordered between them shows its screens in its
// own order). Each turn is counted on its own (collection on from the request to 200 ms after its
// answer, no GC forced), and each server's turns are read as the median and the minimum over the
// journeys: the minimum is the turn's own work with no scavenge or background task in it. Run
// through `bench/callgrind/ussd-step-instructions.sh`; not part of `npm run bench`.
import { randomInt, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { motorPurchaseInputs } from '../../test/support/motor-purchase-inputs.js';
import { startServerProcess } from '../lib/server-process.js';
import { envNumber } from '../lib/stats.js';
import { postUssd } from '../ussd-section.js';
import { measuredExecArgv } from './ussd-instructions.js';

const against = process.env.CALLGRIND_MOTOR_AGAINST;
if (!against) throw new Error('CALLGRIND_MOTOR_AGAINST: the other checkout to count against');
const wrap = (process.env.CALLGRIND_WRAP ?? '').split(/\s+/).filter((word) => word !== '');
const nodeFlags = (process.env.CALLGRIND_NODE_FLAGS ?? '').split(/\s+/).filter((f) => f !== '');
const journeys = Math.floor(envNumber('CALLGRIND_STEP_JOURNEYS', 10));
const warmUp = Math.floor(envNumber('CALLGRIND_WARM_UP_JOURNEYS', 20));
const trees = [
  { name: 'insurechat', root: undefined, inputs: motorPurchaseInputs },
  {
    name: 'base',
    root: against,
    inputs: (
      (await import(
        pathToFileURL(join(against, 'test/support/motor-purchase-inputs.ts')).href
      )) as {
        motorPurchaseInputs: (msisdn: string) => string[];
      }
    ).motorPurchaseInputs,
  },
];
const log = (line: string) => process.stdout.write(`${line}\n`);
// `+26097SSSSSS0`: the inputs take the six digits S, so they differ for every phone.
let serial = randomInt(100_000, 500_000);

const sandbox = await startServerProcess(
  'sandbox',
  new URL('../servers/sandbox-server.ts', import.meta.url),
  {},
);
const servers = await Promise.all(
  trees.map(({ name, root }) =>
    startServerProcess(
      name,
      root === undefined
        ? new URL('../servers/insurechat-server.ts', import.meta.url)
        : pathToFileURL(join(root, 'bench/servers/insurechat-server.ts')),
      {
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        BENCH_PREFIX: `bench:${randomUUID()}:callgrind-${name}:`,
        BENCH_SCREENS: '["-"]',
        BENCH_PARTNER_API_URL: String(sandbox.info.baseUrl),
        BENCH_PARTNER_API_KEY: String(sandbox.info.apiKey),
      },
      { wrap, execArgv: measuredExecArgv(nodeFlags) },
    ),
  ),
);

/** One journey to "Pay with:", each turn counted on its own when `count` names the server. */
async function journey(index: number, count: boolean): Promise<string[]> {
  const tree = trees[index] as (typeof trees)[number];
  const server = servers[index] as (typeof servers)[number];
  serial += 1;
  const msisdn = `+26097${serial}0`;
  const sessionId = `steps-${randomUUID()}`;
  const typed: string[] = [];
  const screens: string[] = [];
  for (const input of ['', ...tree.inputs(msisdn)]) {
    if (screens.length > 0) typed.push(input);
    if (count) await server.control({ type: 'callgrind', action: 'step' });
    const response = await postUssd(server.url, { sessionId, msisdn, text: typed.join('*') });
    const screen = await response.text();
    // A turn's last writes may follow its answer: let them land inside its count.
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (count) {
      const label = `step=${screens.length} server=${tree.name} turns=1`;
      await server.control({ type: 'callgrind', action: 'stop', label });
    }
    if (!screen.startsWith('CON ')) throw new Error(`${tree.name}: ${screen}`);
    screens.push(screen.slice(4).split('\n')[0] ?? '');
    if (screen.includes('Pay with:')) return screens;
  }
  throw new Error(`${tree.name}: the inputs ran out before "Pay with:"`);
}

try {
  for (const index of trees.keys()) {
    for (let j = 0; j < warmUp; j += 1) await journey(index, false).catch(() => undefined);
  }
  for (let j = 0; j < journeys; j += 1) {
    for (const index of trees.keys()) {
      const screens = await journey(index, true);
      if (j === 0) {
        log(`${trees[index]?.name}: ${screens.length} turns`);
        for (const [step, screen] of screens.entries()) log(`  step ${step}: ${screen}`);
      }
    }
  }
} finally {
  for (const server of servers) await server.stop();
  await sandbox.stop();
}
