// The one HTTP server: configuration, composition of every part, health, readiness and metrics.
export {
  type Config,
  ConfigError,
  type ConfigIssue,
  type Env,
  EnvSchema,
  type LoadedConfig,
  loadConfig,
} from './config.js';
export {
  createServer,
  type InsurechatServer,
  type ServerDeps,
  type ServerInfo,
} from './create-server.js';
export { type DescribeOptions, describeServer } from './describe-server.js';
export { type Metrics, metrics, metricsRegistry } from './metrics.js';
export {
  type ReadinessCheck,
  redisReadiness,
  runReadiness,
  upstreamReadiness,
} from './readiness.js';
export { type RunningServer, type RunServerOptions, runServer } from './run-server.js';
