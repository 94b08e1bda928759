import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { claimDocumentsNeeded, statusWord } from '../../flows/index.js';
import type { UssdCore } from '../channels/ussd/index.js';
import { registerSimulatorRoutes, SimulatorSms } from '../channels/web/index.js';
import { partnerClaimDocuments, registerClaimDocumentsRoutes } from '../claim-documents/index.js';
import { registerFileRoutes, registerShortLinkRoutes } from '../files/index.js';
import { SANDBOX_TEST_MSISDNS, type Sandbox } from '../sandbox/index.js';
import type { Insurer } from './build-insurer.js';
import type { ServerServices } from './build-services.js';
import type { ServerStores } from './build-stores.js';
import { metricsRegistry } from './metrics.js';
import {
  circuitReadiness,
  type ReadinessCheck,
  redisReadiness,
  runReadiness,
  upstreamReadiness,
} from './readiness.js';
import type { ServerContext } from './server-context.js';

/** The number the simulator starts with: a sandbox number whose payments succeed. */
const SIMULATOR_DEFAULT_NUMBER = '0971234567';

/** What the remaining routes serve. */
interface RouteInputs {
  readonly app: FastifyInstance;
  readonly stores: ServerStores;
  readonly insurer: Insurer;
  readonly services: ServerServices;
  readonly ussd: UssdCore;
}

/**
 * The routes that are no channel's: signed files, the claim-documents upload page, the web
 * simulator (outside production), health, readiness and metrics.
 */
export function buildRoutes(context: ServerContext, inputs: RouteInputs): void {
  const { config, logger } = context;
  const { app, stores, insurer } = inputs;
  registerFileRoutes(app, stores.files);
  registerShortLinkRoutes(app, stores.shortLinks);
  registerClaimDocumentsRoutes(app, {
    links: inputs.services.uploadLinks,
    claimFiles: stores.claimFiles,
    // The page lists what the claim's scope requires and names its status in the caller's words,
    // through the flows' own claim terms and status words.
    insurer: partnerClaimDocuments(insurer.client, inputs.services.claimEvidence, (line, claim) =>
      claimDocumentsNeeded(insurer.client, line, claim),
    ),
    statusWords: (status) => statusWord('claim', status).key,
    logger: logger.child({ module: 'claim-documents' }),
  });
  // Web simulator: local and test use only, since it speaks as any phone number.
  if (config.nodeEnv !== 'production') {
    registerSimulatorRoutes(app, {
      core: inputs.ussd,
      serviceCode: config.ussd.serviceCode,
      testNumbers: SANDBOX_TEST_MSISDNS.map((entry) => ({
        number: `0${entry.example.slice(3)}`,
        description: entry.description,
      })),
      defaultNumber: SIMULATOR_DEFAULT_NUMBER,
      smsFor: smsInbox(insurer.sandbox, config.sms.url),
    });
    context.info.channels.push('web');
  } else {
    app.get('/', async () => ({ service: 'insurechat', status: 'running' }));
  }
  buildHealthRoutes(context, inputs);
}

/** Health, readiness (the upstream circuit, Redis, the insurer) and Prometheus metrics. */
function buildHealthRoutes(context: ServerContext, inputs: RouteInputs): void {
  const { app, stores, insurer } = inputs;
  const checks: ReadinessCheck[] = [
    ...(context.deps.readiness ?? []),
    circuitReadiness(insurer.client),
  ];
  if (stores.redis) checks.push(redisReadiness(stores.redis));
  if (context.config.partnerApi.url) checks.push(upstreamReadiness(context.config.partnerApi.url));
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const result = await runReadiness(checks);
    return reply.code(result.ready ? 200 : 503).send({
      status: result.ready ? 'ready' : 'not_ready',
      checks: result.checks,
      upstreamCircuit: insurer.client.circuitState(),
    });
  });
  app.get('/metrics', async (_request, reply) =>
    reply.type(metricsRegistry.contentType).send(await metricsRegistry.metrics()),
  );
}

/**
 * Where the simulator reads SMS from: the embedded sandbox's outbox, or a standalone sandbox's
 * `/sandbox/sms-outbox` next to SMS_API_URL. A real SMS provider has no outbox: the inbox is empty.
 */
function smsInbox(
  sandbox: Sandbox | undefined,
  smsUrl: string | undefined,
): (to: string) => Promise<readonly SimulatorSms[]> {
  if (sandbox && !smsUrl) return async (to) => sandbox.smsOutbox.list(to);
  if (!smsUrl) return async () => [];
  const outbox = new URL('/sandbox/sms-outbox', smsUrl);
  return async (to) => {
    try {
      outbox.searchParams.set('to', to);
      const response = await fetch(outbox, { signal: AbortSignal.timeout(2000) });
      if (!response.ok) return [];
      const body = z.object({ messages: z.array(SimulatorSms) }).safeParse(await response.json());
      return body.success ? body.data.messages : [];
    } catch {
      return [];
    }
  };
}
