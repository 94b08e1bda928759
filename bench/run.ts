// `npm run bench`: runs every benchmark and writes bench/RESULTS.md. Benchmarks report figures;
// they never pass or fail. Durations: BENCH_SECONDS (per measured run, default 5), BENCH_PAIRS
// (default 3, at least 3), BENCH_CONNECTIONS (default 10,100,500), BENCH_ONLY (comma list of
// section ids, see sections.ts; the sections it skips keep their figures in RESULTS.md).
import { readFile, writeFile } from 'node:fs/promises';
import { describeMachine } from './lib/machine.js';
import { openBenchRedis } from './lib/redis-instance.js';
import { mergeSections } from './lib/results-file.js';
import { envNumber } from './lib/stats.js';
import { benchSections } from './sections.js';

const settings = {
  seconds: envNumber('BENCH_SECONDS', 5),
  pairs: Math.max(3, Math.floor(envNumber('BENCH_PAIRS', 3))),
  connectionLevels: (process.env.BENCH_CONNECTIONS ?? '10,100,500')
    .split(',')
    .map((value) => Number(value.trim()))
    .filter((value) => Number.isInteger(value) && value > 0),
  only: (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value.length > 0),
};

const log = (line: string) => process.stdout.write(`${line}\n`);
const started = Date.now();
const redis = await openBenchRedis();
log(
  `bench: Redis ${redis.url} (${redis.kind}); ${settings.seconds} s per run, ${settings.pairs} pairs`,
);
const head: string[] = [
  '# insurechat benchmarks',
  '',
  'Written by `npm run bench`. Benchmarks report figures; they do not pass or fail. Every',
  'comparison is a ratio of runs made alternately in the same run, reported as median and range',
  `(min–max) over ${settings.pairs} pairs. Settings: BENCH_SECONDS=${settings.seconds}, BENCH_PAIRS=${settings.pairs}, connections ${settings.connectionLevels.join('/')}.`,
  '',
];
const sections: string[] = [];
try {
  head.push(await describeMachine(redis.url, redis.kind));
  for (const section of benchSections) {
    if (settings.only.length > 0 && !settings.only.includes(section.id)) continue;
    log(`bench: ${section.title}`);
    try {
      sections.push(await section.run({ redisUrl: redis.url, ...settings, log }));
    } catch (error) {
      const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`bench: ${section.title} failed: ${reason}`);
      sections.push(
        `## ${section.number}. ${section.title}\n\nNot measured: the benchmark failed.\n\n\`\`\`\n${reason}\n\`\`\`\n`,
      );
    }
  }
} finally {
  await redis.stop();
}
const target = new URL('./RESULTS.md', import.meta.url);
// A partial run (BENCH_ONLY) and the sections measured outside this run are kept from the file.
const previous = await readFile(target, 'utf8').catch(() => '');
const parts = [
  ...head,
  ...mergeSections(sections, previous),
  `Total bench time of this run: ${((Date.now() - started) / 1000).toFixed(0)} s.`,
  '',
];
await writeFile(target, parts.join('\n'));
log(`bench: wrote ${target.pathname}`);
