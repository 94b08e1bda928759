import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { circuitReadiness, runReadiness } from '../../src/server/readiness.js';
import { startTestServer, type TestServer } from './test-server.js';

const CALLBACK_SECRET = 'readiness-callback-secret';

describe('circuitReadiness', () => {
  it.each([
    ['closed', 'ok'],
    ['half-open', 'ok'],
    ['open', 'down'],
  ] as const)('reports a %s circuit as %s', async (state, expected) => {
    const result = await runReadiness([circuitReadiness({ circuitState: () => state })]);
    expect(result.checks).toEqual({ upstreamCircuit: expected });
  });
});

describe('an insurer whose API keeps failing while its base URL answers', () => {
  let insurer: FastifyInstance;
  let harness: TestServer;

  beforeAll(async () => {
    // The base URL answers (the network path is up); every operation fails with 503.
    insurer = Fastify();
    insurer.get('/api/v1', async () => ({ service: 'stub insurer' }));
    insurer.setNotFoundHandler(async (_request, reply) =>
      reply.code(503).send({ status: 503, message: 'maintenance' }),
    );
    const origin = await insurer.listen({ port: 0, host: '127.0.0.1' });
    harness = await startTestServer({
      PARTNER_API_URL: `${origin}/api/v1`,
      PARTNER_API_KEY: 'stub-key',
      PAYMENT_CALLBACK_SECRET: CALLBACK_SECRET,
    });
  });
  afterAll(async () => {
    await harness.close();
    await insurer.close();
  });

  /** A callback makes the server read the transaction status from the insurer. */
  async function askStatus(reference: string): Promise<void> {
    const response = await fetch(`${harness.url}/payments/callback/${CALLBACK_SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ partnerReference: reference, status: 'Success' }),
    });
    expect(response.status).toBe(200);
    await harness.server.payments.idle();
  }

  it('is ready with a closed circuit before anything failed', async () => {
    const response = await fetch(`${harness.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ready',
      checks: { upstream: 'ok', upstreamCircuit: 'ok' },
      upstreamCircuit: 'closed',
    });
  });

  it('counts each failed attempt in upstream errors by operation and error code', async () => {
    await askStatus('IC-METRICS-1');
    const text = await (await fetch(`${harness.url}/metrics`)).text();
    expect(text).toMatch(
      /insurechat_upstream_errors_total\{operation="getTransactionStatus",code="API_UNAVAILABLE"\} [1-9]/,
    );
  });

  it('reports not ready, with the open circuit in the body, once the client stops calling', async () => {
    // Five failed attempts open the client's circuit (each status read tries up to three times).
    for (let read = 0; read < 3; read += 1) await askStatus(`IC-OPEN-${read}`);

    const response = await fetch(`${harness.url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      status: 'not_ready',
      checks: { upstream: 'ok', upstreamCircuit: 'down' },
      upstreamCircuit: 'open',
    });
  });
});
