import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

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

/**
 * Resolves once `redis-server` logs that it accepts connections (its own word that it is up,
 * rather than polling it with PING); rejects when it exits first, with the end of its log.
 */
export function untilAccepting(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      log = (log + chunk.toString('utf8')).slice(-4_000);
      if (!log.includes('Ready to accept connections')) return;
      stopWatching();
      // Later lines are not read: flowing with no listener, they are dropped.
      child.stdout?.resume();
      resolve();
    };
    const onExit = (code: number | null) => {
      stopWatching();
      reject(new Error(`redis-server exited (${code}) before it was ready: ${log.slice(-500)}`));
    };
    const stopWatching = () => {
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
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
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const spawned = new Promise<void>((resolve, reject) => {
      started.once('spawn', () => resolve());
      started.once('error', reject);
    });
    await Promise.all([spawned, untilAccepting(started)]);
    child = started;
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
