// Instructions per turn at turns 1, 5, 20 and 50 of the looping flow, counted by callgrind,
// which the machine's load does not move. Run through `bench/callgrind/length-instructions.sh`;
// not part of `npm run bench` (valgrind makes it take minutes).
import { createTurnEngine } from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import { MemorySessionStore } from '../../src/session/index.js';
import { MEASURED_TURNS } from '../conversation-length.js';
import { envNumber } from '../lib/stats.js';
import { loopRegistry } from '../loop-flow.js';
import { exposedGc, loadCallgrindAddon } from './callgrind-addon.js';

const callgrind = loadCallgrindAddon();
const gc = exposedGc();
const block = Math.floor(envNumber('CALLGRIND_BLOCK', 20));
const rounds = Math.floor(envNumber('CALLGRIND_ROUNDS', 5));
const warmUp = Math.floor(envNumber('CALLGRIND_WARM_UP', 200));

const engine = createTurnEngine({
  store: new MemorySessionStore(),
  flows: loopRegistry,
  logger: createLogger({ level: 'silent' }),
  cache: process.env.CALLGRIND_CACHE === '1' ? { max: 100_000 } : false,
});
const start = (key: string) => engine.turn(key, { type: 'user.text', text: '' });
const turn = (key: string, n: number) => engine.turn(key, { type: 'user.text', text: String(n) });

for (let session = 0; session < warmUp; session += 1) {
  await start(`warm:${session}`);
  for (let n = 1; n <= 50; n += 1) await turn(`warm:${session}`, n);
}
// For each measured turn number, conversations already that far in, all prepared before any
// block runs, so every block meets the same heap and the same compiled code.
const ready = new Map<number, string[]>();
for (const at of MEASURED_TURNS) {
  const keys: string[] = [];
  for (let i = 0; i < block * rounds; i += 1) {
    const key = `at${at}:${i}`;
    await start(key);
    for (let n = 1; n < at; n += 1) await turn(key, n);
    keys.push(key);
  }
  ready.set(at, keys);
}
for (let round = 0; round < rounds; round += 1) {
  const order = round % 2 === 0 ? [...MEASURED_TURNS] : [...MEASURED_TURNS].reverse();
  for (const at of order) {
    const keys = ready.get(at)?.slice(round * block, (round + 1) * block) ?? [];
    gc();
    callgrind.toggle();
    for (const key of keys) await turn(key, at);
    callgrind.toggle();
    callgrind.dump(`turn=${at} round=${round} turns=${keys.length}`);
  }
}
engine.close();
