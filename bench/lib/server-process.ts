import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Messages a bench server child sends to the bench. */
const ChildMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), port: z.number(), info: z.record(z.string(), z.unknown()) }),
  z.object({
    type: z.literal('cpu'),
    id: z.number(),
    micros: z.number(),
    commands: z.number().optional(),
    requests: z.number().optional(),
  }),
  z.object({ type: z.literal('failed'), message: z.string() }),
  z.object({ type: z.literal('ack'), id: z.number() }),
]);
type ChildMessage = z.infer<typeof ChildMessage>;

/** Messages the bench sends to a server child. */
const ParentMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('cpu'), id: z.number() }),
  z.object({ type: z.literal('stop') }),
]);

/** Cumulative counters of a server child. */
export interface ServerSample {
  readonly cpuMicros: number;
  /** Redis commands the server's client sent, when the server counts them. */
  readonly commandsSent: number | undefined;
  /** HTTP requests the server took in (its turns), when it counts them. */
  readonly requestsTaken: number | undefined;
}

/** A server under test running in its own process, so its CPU time is its own. */
export interface ServerProcess {
  readonly name: string;
  readonly url: string;
  /** What the child reported when it started (snapshot size, store kind...). */
  readonly info: Readonly<Record<string, unknown>>;
  /** The child's CPU time so far (user + system, µs) and Redis commands sent, when counted. */
  sample(): Promise<ServerSample>;
  /**
   * Sends a message of a preloaded module's own (`--import` in {@link ServerLaunch}) with a fresh
   * `id`, and resolves when the child answers `{ type: 'ack', id }`.
   */
  control(message: { readonly type: string } & Record<string, unknown>): Promise<void>;
  stop(): Promise<void>;
}

/** How a server child is launched, beyond `node --import tsx <entry>`. */
export interface ServerLaunch {
  /** A command the child runs under, e.g. valgrind and its flags; node is its last word. */
  readonly wrap?: readonly string[];
  /** Further node flags (`--expose-gc`, `--import` of a module of the caller's own). */
  readonly execArgv?: readonly string[];
}

/**
 * Forks `entry` (a TypeScript file under bench/servers, run through tsx) and waits until it
 * listens. The child reads its settings from `env`.
 */
export async function startServerProcess(
  name: string,
  entry: URL,
  env: Record<string, string>,
  launch: ServerLaunch = {},
): Promise<ServerProcess> {
  // BENCH_CPU_PROF_DIR: every server child writes a V8 CPU profile there when it exits.
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const nodeArgs = [
    '--import',
    'tsx',
    ...(launch.execArgv ?? []),
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
  ];
  const [wrapper, ...wrapArgs] = launch.wrap ?? [];
  const child: ChildProcess = fork(fileURLToPath(entry), [], {
    ...(wrapper === undefined
      ? { execArgv: nodeArgs }
      : { execPath: wrapper, execArgv: [...wrapArgs, process.execPath, ...nodeArgs] }),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  // The child's stderr is passed through, and its tail kept to explain an early exit.
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-2000);
  });
  let nextId = 0;
  const pending = new Map<number, (sample: ServerSample) => void>();
  const acks = new Map<number, () => void>();
  const ready = new Promise<{ port: number; info: Record<string, unknown> }>((resolve, reject) => {
    child.once('exit', (code) => {
      const why = stderrTail
        .split('\n')
        .find((line) => /Error|error:/.test(line))
        ?.trim();
      reject(new Error(`${name} server exited early (code ${code})${why ? `: ${why}` : ''}`));
    });
    child.on('message', (raw) => {
      const parsed = ChildMessage.safeParse(raw);
      if (!parsed.success) return;
      const message: ChildMessage = parsed.data;
      if (message.type === 'ready') resolve({ port: message.port, info: message.info });
      else if (message.type === 'ack') acks.get(message.id)?.();
      else if (message.type === 'failed') reject(new Error(`${name} server: ${message.message}`));
      else
        pending.get(message.id)?.({
          cpuMicros: message.micros,
          commandsSent: message.commands,
          requestsTaken: message.requests,
        });
    });
  });
  const { port, info } = await ready;
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    info,
    sample: () =>
      new Promise((resolve) => {
        nextId += 1;
        const id = nextId;
        pending.set(id, (sample) => {
          pending.delete(id);
          resolve(sample);
        });
        child.send({ type: 'cpu', id });
      }),
    control: (message) =>
      new Promise((resolve) => {
        nextId += 1;
        const id = nextId;
        acks.set(id, () => {
          acks.delete(id);
          resolve();
        });
        child.send({ ...message, id });
      }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** What a server child must provide: start listening, and close on request. */
export interface BenchServer {
  readonly port: number;
  readonly info?: Record<string, unknown>;
  /** Redis commands sent so far, when the server counts them. */
  readonly commandsSent?: () => number;
  /** HTTP requests taken in so far (turns), when the server counts them. */
  readonly requestsTaken?: () => number;
  close(): Promise<void>;
}

/**
 * Runs inside a server child: starts the server, reports its port, answers CPU readings and
 * stops on request. Start-up failures are reported to the bench, not swallowed.
 */
export async function serveForBench(start: () => Promise<BenchServer>): Promise<void> {
  const send = (message: ChildMessage) => process.send?.(message);
  let server: BenchServer;
  try {
    server = await start();
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
  process.on('message', (raw) => {
    const parsed = ParentMessage.safeParse(raw);
    if (!parsed.success) return;
    if (parsed.data.type === 'cpu') {
      const usage = process.cpuUsage();
      const commands = server.commandsSent?.();
      const requests = server.requestsTaken?.();
      send({
        type: 'cpu',
        id: parsed.data.id,
        micros: usage.user + usage.system,
        ...(commands === undefined ? {} : { commands }),
        ...(requests === undefined ? {} : { requests }),
      });
    } else {
      void server.close().finally(() => process.exit(0));
    }
  });
  send({ type: 'ready', port: server.port, info: server.info ?? {} });
}

/**
 * insurechat's bench server (`servers/insurechat-server.ts`) with its sessions under `prefix` on
 * `redisUrl`, calling the sandbox insurer running as `insurer` (its info holds the URL and key).
 */
export function startInsurechatOn(
  name: string,
  insurer: ServerProcess,
  redisUrl: string,
  prefix: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  return startServerProcess(name, new URL('../servers/insurechat-server.ts', import.meta.url), {
    REDIS_URL: redisUrl,
    BENCH_PREFIX: prefix,
    BENCH_SCREENS: '["-"]',
    BENCH_PARTNER_API_URL: String(insurer.info.baseUrl),
    BENCH_PARTNER_API_KEY: String(insurer.info.apiKey),
    ...env,
  });
}
