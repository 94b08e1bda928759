import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { untilAccepting } from '../reliability/redis-process.js';

const run = promisify(execFile);

/** One node of a test cluster. */
export interface ClusterNodeAddress {
  readonly host: string;
  readonly port: number;
}

/** A Redis Cluster of local processes this test run started, which it may break and must stop. */
export interface RedisClusterProcess {
  /** Every node, masters first as created. */
  readonly nodes: readonly ClusterNodeAddress[];
  /** The port of the master that serves `key`'s slot now. */
  masterOf(key: string): Promise<number>;
  /** The port of a live replica of the master on `port`, or undefined when it has none. */
  replicaOf(port: number): Promise<number | undefined>;
  /** Kills the node on `port` at once (SIGKILL): nothing is flushed, clients see the socket drop. */
  kill(port: number): Promise<void>;
  /** Resolves once a node other than `port` serves every slot `port` served, and all slots are ok. */
  failedOver(port: number, timeoutMs?: number): Promise<void>;
  /** Stops every node and removes its files. */
  stop(): Promise<void>;
}

/** Options of {@link startRedisCluster}. */
export interface RedisClusterOptions {
  /** Masters; each gets one replica. Default 3 (Redis' minimum). */
  readonly masters?: number;
  /** How long a node may be unreachable before the others mark it failed. Default 1000 ms. */
  readonly nodeTimeoutMs?: number;
}

/** Why a cluster cannot be started here, or undefined when both binaries are on PATH. */
export async function clusterUnavailable(): Promise<string | undefined> {
  for (const binary of ['redis-server', 'redis-cli']) {
    try {
      await run(binary, ['--version']);
    } catch {
      return `${binary} is not on PATH`;
    }
  }
  return undefined;
}

async function portFree(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port whose cluster-bus port (port + 10000) is free too; random in 20000–50000 so parallel
 * test runs on one machine rarely collide, and `taken` keeps one run's nodes apart.
 */
async function freeClusterPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if (taken.has(port) || taken.has(port + 10_000) || taken.has(port - 10_000)) continue;
    if ((await portFree(port)) && (await portFree(port + 10_000))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error('no free port pair for a cluster node');
}

/** One line of CLUSTER NODES: id, port, flags, master id and slot ranges. */
interface NodeLine {
  readonly id: string;
  readonly port: number;
  readonly master: boolean;
  readonly failed: boolean;
  readonly masterId: string;
  readonly slots: readonly string[];
}

function parseNodes(text: string): NodeLine[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id = '', address = '', flags = '', masterId = '', , , , , ...slots] = line.split(' ');
      const port = Number(address.split('@')[0]?.split(':').at(-1));
      const flagSet = flags.split(',');
      return {
        id,
        port,
        master: flagSet.includes('master'),
        failed: flagSet.includes('fail') || flagSet.includes('fail?'),
        masterId,
        slots,
      };
    });
}

async function withNode<T>(port: number, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // Refused connections while a node boots or after it was killed are expected; callers retry.
  redis.on('error', () => {});
  try {
    await redis.connect();
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

// A poll, kept on purpose: the cluster's state (slots served, a replica promoted) is only
// known by asking the nodes, which announce none of it; and this module serves the global
// set-up too, outside any test, where vitest's `vi.waitFor` is not at hand.
async function until(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // A node not answering yet counts as "not yet".
    }
    if (Date.now() > giveUpAt) throw new Error(`Redis Cluster: timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every child this process started, killed if the process exits without stopping them. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * Starts a Redis Cluster on loopback: `masters` masters and one replica each, no persistence,
 * created with `redis-cli --cluster create`, and waits until every slot is served and every
 * replica is in sync. Always `stop()` it, also when a test fails.
 */
export async function startRedisCluster(
  options: RedisClusterOptions = {},
): Promise<RedisClusterProcess> {
  const masters = options.masters ?? 3;
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 1000;
  const dir = await mkdtemp(join(tmpdir(), 'insurechat-cluster-'));
  const taken = new Set<number>();
  const children = new Map<number, ChildProcess>();

  const halt = async (port: number, signal: NodeJS.Signals) => {
    const child = children.get(port);
    children.delete(port);
    if (!child) return;
    live.delete(child);
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  const stop = async () => {
    await Promise.all([...children.keys()].map((port) => halt(port, 'SIGKILL')));
    await rm(dir, { recursive: true, force: true });
  };

  try {
    const ports: number[] = [];
    for (let index = 0; index < masters * 2; index += 1) ports.push(await freeClusterPort(taken));
    for (const port of ports) {
      const child = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--cluster-node-timeout',
          String(nodeTimeoutMs),
          // A replica promotes however long it was cut off: a test cluster has no stale replicas.
          '--cluster-replica-validity-factor',
          '0',
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const spawned = new Promise<void>((resolve, reject) => {
        child.once('spawn', () => resolve());
        child.once('error', reject);
      });
      children.set(port, child);
      live.add(child);
      // Each node's own log line says when it is up, rather than polling it with PING.
      await Promise.all([spawned, untilAccepting(child)]);
    }
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    // Ready means: every node sees all slots served, and every replica has its master's data
    // (a failover test needs a replica that can take over).
    for (const port of ports) {
      await until(
        `node ${port} sees the cluster ok`,
        () =>
          withNode(port, async (r) => {
            const info = await r.cluster('INFO');
            const role = await r.info('replication');
            return (
              info.includes('cluster_state:ok') &&
              info.includes(`cluster_known_nodes:${ports.length}`) &&
              (role.includes('role:master') || role.includes('master_link_status:up'))
            );
          }),
        20_000,
      );
    }

    const nodeLines = async (avoid?: number): Promise<NodeLine[]> => {
      for (const port of children.keys()) {
        if (port === avoid) continue;
        try {
          return parseNodes(
            await withNode(port, async (r) => String(await r.call('CLUSTER', 'NODES'))),
          );
        } catch {
          // Ask the next node.
        }
      }
      throw new Error('no cluster node answers');
    };

    return {
      nodes: ports.map((port) => ({ host: '127.0.0.1', port })),
      async masterOf(key) {
        const [first] = children.keys();
        if (first === undefined) throw new Error('the cluster is stopped');
        const slot = Number(await withNode(first, (r) => r.cluster('KEYSLOT', key)));
        const lines = await nodeLines();
        const owner = lines.find(
          (line) =>
            line.master &&
            !line.failed &&
            line.slots.some((range) => {
              const [from = -1, to = from] = range.split('-').map(Number);
              return slot >= from && slot <= to;
            }),
        );
        if (!owner) throw new Error(`no master serves slot ${slot}`);
        return owner.port;
      },
      async replicaOf(port) {
        const lines = await nodeLines();
        const master = lines.find((line) => line.port === port);
        const replica = lines.find(
          (line) =>
            master && line.masterId === master.id && !line.failed && children.has(line.port),
        );
        return replica?.port;
      },
      kill: (port) => halt(port, 'SIGKILL'),
      async failedOver(port, timeoutMs = 20_000) {
        await until(
          `the replica of ${port} took over`,
          async () => {
            const lines = await nodeLines(port);
            const dead = lines.find((line) => line.port === port);
            const promoted = lines.filter((line) => line.master && !line.failed);
            const info = await withNode(
              promoted.find((line) => line.port !== port)?.port ?? 0,
              (r) => r.cluster('INFO'),
            );
            return (
              dead?.failed === true &&
              promoted.length === masters &&
              info.includes('cluster_state:ok')
            );
          },
          timeoutMs,
        );
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
