import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A redis-server this test started on its own port, which it may kill and start again. */
export interface RedisProcess {
  readonly port: number;
  readonly url: string;
  /** Kills the server at once (SIGKILL): nothing is flushed, clients see the socket drop. */
  kill(): Promise<void>;
  /** Starts a new, empty server on the same port and waits until it answers PING. */
  restart(): Promise<void>;
  /** Stops the server for good. */
  stop(): Promise<void>;
  /** Whether the server process is up. */
  isRunning(): Promise<boolean>;
}

/** Asks the OS for a TCP port nobody listens on. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPing(url: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const client = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    // Refused connections while the server boots are expected; connect() reports them.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return;
    } catch {
      client.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`redis-server at ${url} did not start`);
}

/** Starts `redis-server` (from PATH) on a free port with no persistence. */
export async function startRedisProcess(): Promise<RedisProcess> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const launch = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await new Promise<void>((resolve, reject) => {
      started.once('spawn', () => resolve());
      started.once('error', reject);
    });
    child = started;
    await waitForPing(url);
  };
  const halt = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };

  await launch();
  return {
    port,
    url,
    kill: () => halt('SIGKILL'),
    restart: launch,
    stop: () => halt('SIGTERM'),
    isRunning: async () => child !== undefined && child.exitCode === null,
  };
}
