import type { TestProject } from 'vitest/node';
import {
  type ClusterNodeAddress,
  clusterUnavailable,
  startRedisCluster,
} from './redis-cluster-process.js';

/** What the test run's shared Redis Cluster is: its nodes, or why there is none. */
export type SharedCluster =
  | { readonly nodes: readonly ClusterNodeAddress[] }
  | { readonly unavailable: string };

declare module 'vitest' {
  export interface ProvidedContext {
    redisCluster: SharedCluster;
  }
}

/**
 * Starts one Redis Cluster (three masters, three replicas) for the whole run, shared by every
 * test parameterised over Redis modes (each test on its own key prefix), and stops it at the end.
 * Without the binaries it is skipped with a reason, except on CI, where that is a failure.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const missing = await clusterUnavailable();
  if (missing !== undefined) {
    if (process.env.CI === 'true') {
      throw new Error(`Redis Cluster tests cannot run on CI: ${missing}`);
    }
    const unavailable = `Redis Cluster tests skipped: ${missing} (install redis-server and redis-cli)`;
    console.warn(unavailable);
    project.provide('redisCluster', { unavailable });
    return async () => {};
  }
  const cluster = await startRedisCluster();
  project.provide('redisCluster', { nodes: cluster.nodes });
  return () => cluster.stop();
}
