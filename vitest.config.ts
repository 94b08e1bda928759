import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test files run side by side in at least two forks. vitest's default (one fork fewer than the
 * cores) is a single fork on CI's two cores, where most of a journey file's time is spent
 * waiting (on loopback sockets, Redis, the sandbox's settling, the USSD pay delay) with a core
 * idle. Each test keeps its own Redis key prefix and port, so files never see each other.
 */
const WORKERS = Math.max(2, availableParallelism() - 1);

/**
 * Files that need a module registry of their own: the strict-sandbox file sets the sandbox
 * world's defaults and imports two other test files to run their journeys again under them, which
 * a registry that already holds those files (and would keep the defaults) cannot do.
 */
const ISOLATED = ['test/flows/sandbox-journeys-strict.test.ts'];

export default defineConfig({
  test: {
    // A throwaway redis-server when nothing answers at REDIS_URL; one local Redis Cluster for the
    // run, for the tests parameterised over Redis modes.
    globalSetup: ['test/support/global-redis.ts', 'test/support/global-redis-cluster.ts'],
    // Suites share one Redis server and a 2-core machine; each test uses its own key prefix.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The model walks and random conversations allocate a great many short-lived snapshots: a
    // larger young generation (64 MB semi-spaces, V8's default is 16) lets most of them die
    // without being copied, a fifth less CPU for the walk files (more memory per fork in return).
    execArgv: ['--max-semi-space-size=64'],
    maxWorkers: WORKERS,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ISOLATED],
          // One module registry per fork, not per file: every server test file imports the whole
          // server (Bolt, BullMQ, the S3 client, the flows), and evaluating that afresh for each
          // of 230 files was a third of the suite's time. Files share no module state that
          // matters: no test mocks modules, stubs globals or env, or listens on process; each
          // starts its own server on its own port and Redis prefix, and the few fake-timer tests
          // restore real ones.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});
