import { readFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { Redis } from 'ioredis';

const PACKAGES = [
  'xstate',
  'fastify',
  'ioredis',
  'undici',
  'zod',
  'autocannon',
  'ussd-menu-builder',
  'grammy',
  '@grammyjs/conversations',
];

async function packageVersion(name: string): Promise<string> {
  try {
    const url = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
    const parsed: unknown = JSON.parse(await readFile(url, 'utf8'));
    if (parsed && typeof parsed === 'object' && 'version' in parsed) return String(parsed.version);
  } catch {
    // A package that is not installed is reported as such, not fatal.
  }
  return 'not installed';
}

/** The machine and software a bench ran on, as a Markdown section. */
export async function describeMachine(redisUrl: string, redisKind: string): Promise<string> {
  const cores = cpus();
  const redis = new Redis(redisUrl);
  let redisVersion = 'unknown';
  try {
    const info = await redis.info('server');
    redisVersion = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  } finally {
    redis.disconnect();
  }
  const versions = await Promise.all(
    PACKAGES.map(async (name) => `${name} ${await packageVersion(name)}`),
  );
  return [
    '## Machine',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- CPU: ${cores.length} × ${cores[0]?.model ?? 'unknown'}`,
    `- Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- Load average at start (1/5/15 min): ${loadavg()
      .map((v) => v.toFixed(2))
      .join(' / ')}`,
    `- Node ${process.version}, ${process.platform}/${process.arch}`,
    `- Redis ${redisVersion} (${redisKind === 'private' ? 'a private redis-server started by the bench' : 'the server at REDIS_URL, shared'})`,
    `- Packages: ${versions.join(', ')}`,
    '',
  ].join('\n');
}
