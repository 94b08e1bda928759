import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A throwaway redis-server when nothing answers at REDIS_URL; one local Redis Cluster for the
    // run, for the tests parameterised over Redis modes.
    globalSetup: ['test/support/global-redis.ts', 'test/support/global-redis-cluster.ts'],
    // Suites share one Redis server and a 2-core machine; each test uses its own key prefix.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
