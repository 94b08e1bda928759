import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';

const running: ChildProcess[] = [];

afterEach(() => {
  // npm execs node in its place, so killing npm alone could orphan the server: end the group.
  for (const child of running.splice(0)) {
    if (child.pid === undefined) continue;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** `npm start` as a newcomer runs it: embedded defaults, any free port. */
function npmStart(env: Record<string, string> = {}): ChildProcess {
  const { REDIS_URL: _redis, HOST: _host, ...inherited } = process.env;
  const child = spawn('npm', ['start'], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...inherited, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so cleanup reaches whatever npm started.
    detached: true,
  });
  running.push(child);
  return child;
}

/** Waits for the banner's `listening on: host:port` line. */
async function bound(child: ChildProcess): Promise<{ host: string; port: number }> {
  let output = '';
  return await new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on:\s+(\S+):(\d+)/.exec(output);
      if (match) resolve({ host: match[1]!, port: Number(match[2]) });
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${output}`)));
  });
}

async function accepts(port: number, host = '127.0.0.1'): Promise<boolean> {
  return await new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('npm start', () => {
  it('stops the server and frees its port within 5 s when the npm process gets SIGTERM', async () => {
    const child = npmStart();
    const { port } = await bound(child);
    expect(await accepts(port)).toBe(true);

    child.kill('SIGTERM');
    // Waits on the port itself (another process's): open until that process lets go of it.
    // Fails, naming the port, when it still accepts after 5 s.
    await eventually(`port ${port} no longer accepts`, async () => !(await accepts(port)), 5_000);
    expect(await accepts(port)).toBe(false);
  }, 90_000);

  it('listens on 127.0.0.1 only by default, and on every interface with HOST=0.0.0.0', async () => {
    const local = npmStart();
    const open = npmStart({ HOST: '0.0.0.0' });

    const [localAt, openAt] = await Promise.all([bound(local), bound(open)]);
    expect(localAt.host).toBe('127.0.0.1');
    expect(openAt.host).toBe('0.0.0.0');

    // Seen from this machine's other address, as another machine would reach it.
    const outward = Object.values(networkInterfaces())
      .flat()
      .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
    if (outward) {
      expect(await accepts(localAt.port, outward)).toBe(false);
      expect(await accepts(openAt.port, outward)).toBe(true);
    }
  }, 90_000);
});
