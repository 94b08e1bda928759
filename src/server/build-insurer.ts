import { createPartnerClient, type PartnerClient } from '../api/index.js';
import { createSandbox, type Sandbox } from '../sandbox/index.js';
import { metrics } from './metrics.js';
import type { ServerContext } from './server-context.js';
import { countUpstreamErrors } from './upstream-error-metrics.js';

/** The insurer this server sells for: a client of the real one, or of the embedded sandbox. */
export interface Insurer {
  readonly client: PartnerClient;
  /** The embedded sandbox insurer, when PARTNER_API_URL is unset. */
  readonly sandbox: Sandbox | undefined;
  /** The insurer's base URL (the sandbox's own when embedded). */
  readonly url: string;
}

/** Starts the embedded sandbox when no insurer is configured, then the partner client. */
export async function buildInsurer(context: ServerContext): Promise<Insurer> {
  const { config, deps, logger, closers, info } = context;
  let sandbox: Sandbox | undefined;
  let url = config.partnerApi.url;
  let apiKey = config.partnerApi.apiKey;
  if (!url) {
    const embedded = createSandbox({
      ...deps.sandbox,
      logger: logger.child({ module: 'sandbox' }),
    });
    const started = await embedded.listen(0);
    url = started.url;
    apiKey = embedded.apiKey;
    info.sandboxUrl = started.url;
    info.sandboxKey = embedded.apiKey;
    closers.push(() => embedded.close());
    sandbox = embedded;
  }
  const client = createPartnerClient({
    baseUrl: url,
    apiKey: apiKey ?? '',
    connections: config.partnerApi.connections,
    catalogueTtlMs: config.partnerApi.catalogueTtlMs,
    // The embedded sandbox serves the contract's own paths; overrides are for a real insurer.
    pathOverrides: sandbox ? {} : config.partnerApi.pathOverrides,
    logger: logger.child({ module: 'api' }),
    onUpstreamError: countUpstreamErrors(metrics),
    ...(deps.partnerCircuitBreaker ? { circuitBreaker: deps.partnerCircuitBreaker } : {}),
    ...(deps.partnerClock ? { now: deps.partnerClock } : {}),
  });
  closers.push(() => client.close());
  return { client, sandbox, url };
}
