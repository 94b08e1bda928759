import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiNotFoundError,
  ApiServerError,
  ApiUnavailableError,
  createPartnerClient,
  type PartnerClient,
  type PartnerClientOptions,
  ValidationError,
} from '../../src/api/index.js';
import { createLogger } from '../../src/log/index.js';
import { drop, type HttpStub, hang, json, startStub } from './http-stub.js';

const OPEN_MS = 30_000;
const down = json(500, { status: 500, message: 'insurer down' });
const missing = json(404, { status: 404, message: 'no such product' });
const products = json(200, []);

let stub: HttpStub;
let client: PartnerClient;
let clock: number;

function clientFor(options: Partial<PartnerClientOptions> = {}): PartnerClient {
  return createPartnerClient({
    baseUrl: stub.baseUrl,
    apiKey: 'test-key',
    // One attempt per call, so each call is exactly one upstream failure.
    maxRetries: 0,
    retryBaseDelayMs: 1,
    now: () => clock,
    circuitBreaker: { failureThreshold: 3, openMs: OPEN_MS },
    // Every call reaches the insurer: a catalogue answer held would not count for the breaker.
    catalogueTtlMs: 0,
    ...options,
  });
}

function listProducts(on: PartnerClient = client): Promise<unknown> {
  return on.call('getCreditLifeProducts').catch((error: unknown) => error);
}

async function failTimes(count: number, on: PartnerClient = client): Promise<void> {
  for (let i = 0; i < count; i++) await listProducts(on);
}

beforeEach(async () => {
  clock = 1_000_000;
  stub = await startStub();
  client = clientFor();
});

afterEach(async () => {
  await client.close();
  await stub.close();
});

describe('opening', () => {
  it('stays closed below the threshold and lets every call reach the insurer', async () => {
    stub.respond(down);
    await failTimes(2);
    expect(client.circuitState()).toBe('closed');
    expect(await listProducts()).toBeInstanceOf(ApiServerError);
    expect(stub.requests).toHaveLength(3);
  });

  it('opens after N consecutive 5xx and then fails fast without a request reaching the insurer', async () => {
    stub.respond(down);
    await failTimes(3);
    expect(client.circuitState()).toBe('open');
    clock += 10_000;
    const error = await listProducts();
    expect(error).toBeInstanceOf(ApiUnavailableError);
    expect(error).toMatchObject({
      name: 'ApiUnavailableError',
      code: 'API_UPSTREAM_UNAVAILABLE',
      operation: 'getCreditLifeProducts',
      retryAfterMs: OPEN_MS - 10_000,
    });
    expect((error as ApiUnavailableError).cause).toBeInstanceOf(ApiServerError);
    expect(stub.requests).toHaveLength(3);
  });

  it('counts dropped connections and timeouts at the client’s own time limit as upstream failures', async () => {
    await client.close();
    client = clientFor({ timeoutMs: 300 });
    stub.respond(drop, drop, hang);
    await failTimes(2);
    const timedOut = listProducts();
    // Wait for the request to arrive, so the count below cannot race the time limit.
    await expect.poll(() => stub.requests.length).toBe(3);
    expect(await timedOut).toMatchObject({ name: 'ApiTimeoutError' });
    expect(client.circuitState()).toBe('open');
    expect(await listProducts()).toBeInstanceOf(ApiUnavailableError);
    expect(stub.requests).toHaveLength(3);
  });

  it('does not count a call that ran out of a shorter time limit it asked for (a turn’s budget), which says nothing about the insurer', async () => {
    stub.respond(hang);
    for (let i = 0; i < 4; i++) {
      const error = await client
        .call('getCreditLifeProducts', undefined, { timeoutMs: 50 })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ApiTimeoutError' });
    }
    expect(client.circuitState()).toBe('closed');
    expect(stub.requests).toHaveLength(4);
  });

  it('does not count 4xx answers, which are the caller’s fault', async () => {
    stub.respond(missing);
    for (let i = 0; i < 6; i++) {
      expect(
        await client.call('getMotorProduct', { path: { productId: '9' } }).catch((e) => e),
      ).toBeInstanceOf(ApiNotFoundError);
    }
    expect(client.circuitState()).toBe('closed');
    expect(stub.requests).toHaveLength(6);
  });

  it('counts only consecutive failures: an answer in between starts the count again', async () => {
    stub.respond(down, down, missing, down, down, products);
    await failTimes(5);
    expect(client.circuitState()).toBe('closed');
  });

  it('stops retrying a call once the circuit opens mid-way', async () => {
    await client.close();
    client = clientFor({ maxRetries: 5, circuitBreaker: { failureThreshold: 2 } });
    stub.respond(down);
    const error = await listProducts();
    expect(error).toBeInstanceOf(ApiUnavailableError);
    expect(stub.requests).toHaveLength(2);
  });

  it('still rejects bad input with ValidationError while open', async () => {
    stub.respond(down);
    await failTimes(3);
    // @ts-expect-error productId is required: the runtime check must also catch it
    const error = await client.call('getMotorProduct', { path: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
  });
});

describe('recovery', () => {
  it('turns half-open once openMs has passed', async () => {
    stub.respond(down);
    await failTimes(3);
    clock += OPEN_MS - 1;
    expect(client.circuitState()).toBe('open');
    clock += 1;
    expect(client.circuitState()).toBe('half-open');
  });

  it('closes when the half-open trial call succeeds', async () => {
    stub.respond(down, down, down, products);
    await failTimes(3);
    clock += OPEN_MS;
    expect(await listProducts()).toEqual([]);
    expect(client.circuitState()).toBe('closed');
    expect(await listProducts()).toEqual([]);
    expect(stub.requests).toHaveLength(5);
  });

  it('re-opens for another openMs when the trial call fails', async () => {
    stub.respond(down);
    await failTimes(3);
    clock += OPEN_MS;
    expect(await listProducts()).toBeInstanceOf(ApiServerError);
    expect(client.circuitState()).toBe('open');
    expect(await listProducts()).toMatchObject({
      name: 'ApiUnavailableError',
      retryAfterMs: OPEN_MS,
    });
    expect(stub.requests).toHaveLength(4);
  });

  it('closes after a trial that gets a 4xx, since the insurer is answering again', async () => {
    stub.respond(down, down, down, missing);
    await failTimes(3);
    clock += OPEN_MS;
    await client.call('getMotorProduct', { path: { productId: '9' } }).catch(() => {});
    expect(client.circuitState()).toBe('closed');
  });

  it('lets only one trial call through while half-open and fails the others at once', async () => {
    const held: ServerResponse[] = [];
    stub.respond(down, down, down, (_request, response) => held.push(response));
    await failTimes(3);
    clock += OPEN_MS;
    const trial = listProducts();
    await expect.poll(() => held.length).toBe(1);
    expect(await listProducts()).toMatchObject({ name: 'ApiUnavailableError', retryAfterMs: 0 });
    held[0]?.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    expect(await trial).toEqual([]);
    expect(client.circuitState()).toBe('closed');
    expect(stub.requests).toHaveLength(4);
  });

  it('ignores a slow failure from a call made before the circuit opened', async () => {
    const held: ServerResponse[] = [];
    stub.respond((_request, response) => held.push(response), down);
    const slow = listProducts();
    await expect.poll(() => held.length).toBe(1);
    await failTimes(3);
    clock += OPEN_MS;
    expect(client.circuitState()).toBe('half-open');
    held[0]?.writeHead(500, { 'content-type': 'application/json' }).end('{}');
    expect(await slow).toBeInstanceOf(ApiServerError);
    expect(client.circuitState()).toBe('half-open');
  });

  it('frees the trial slot when the caller aborts the trial', async () => {
    stub.respond(down, down, down, hang, products);
    await failTimes(3);
    clock += OPEN_MS;
    const controller = new AbortController();
    const trial = client
      .call('getCreditLifeProducts', undefined, { signal: controller.signal })
      .catch((e: unknown) => e);
    await expect.poll(() => stub.requests.length).toBe(4);
    controller.abort();
    expect(await trial).toMatchObject({ name: 'ApiAbortedError' });
    expect(client.circuitState()).toBe('half-open');
    expect(await listProducts()).toEqual([]);
    expect(client.circuitState()).toBe('closed');
  });
});

describe('configuration', () => {
  it('never opens with circuitBreaker: false', async () => {
    await client.close();
    client = clientFor({ circuitBreaker: false });
    stub.respond(down);
    await failTimes(10);
    expect(client.circuitState()).toBe('closed');
    expect(stub.requests).toHaveLength(10);
  });

  it('is on by default, opening after 5 consecutive failures', async () => {
    await client.close();
    client = createPartnerClient({ baseUrl: stub.baseUrl, apiKey: 'test-key', maxRetries: 0 });
    stub.respond(down);
    await failTimes(4);
    expect(client.circuitState()).toBe('closed');
    await failTimes(1);
    expect(client.circuitState()).toBe('open');
  });

  it('rejects a nonsensical setting with a ValidationError naming it', () => {
    expect(() => clientFor({ circuitBreaker: { failureThreshold: 0 } })).toThrow(
      expect.objectContaining({
        name: 'ValidationError',
        field: 'circuitBreaker.failureThreshold',
      }),
    );
  });
});

describe('observability', () => {
  it('logs each change of state with structured fields and no personal data', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    await client.close();
    client = clientFor({ logger: createLogger({ destination, level: 'info' }) });
    stub.respond(down, down, down, products);
    const body = {
      firstName: 'Mwila',
      lastName: 'Banda',
      phoneNumber: '260971234567',
      email: 'mwila@example.com',
      idNumber: '479974/11/1',
      idType: 'NRC' as const,
    };
    for (let i = 0; i < 3; i++) {
      await client.call('createIndividual', { body }).catch(() => {});
    }
    clock += OPEN_MS;
    await listProducts();
    const changes = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.circuit === 'partner-api');
    expect(changes.map((line) => [line.from, line.to])).toEqual([
      ['closed', 'open'],
      ['open', 'half-open'],
      ['half-open', 'closed'],
    ]);
    expect(changes[0]).toMatchObject({
      msg: 'partner api circuit opened',
      consecutiveFailures: 3,
      reason: 'API_SERVER_ERROR',
      openMs: OPEN_MS,
    });
    const written = lines.join('');
    expect(written).not.toContain(body.phoneNumber);
    expect(written).not.toContain(body.idNumber);
    expect(written).not.toContain('Mwila');
  });

  it('reports each upstream error to onUpstreamError, but not the fail-fast rejections', async () => {
    const seen: Array<[string, string]> = [];
    await client.close();
    client = clientFor({
      onUpstreamError: (operation, error) => {
        seen.push([operation, (error as { code?: string }).code ?? '']);
      },
    });
    stub.respond(missing, down);
    await client.call('getMotorProduct', { path: { productId: '9' } }).catch(() => {});
    await failTimes(4);
    expect(seen).toEqual([
      ['getMotorProduct', 'API_NOT_FOUND'],
      ['getCreditLifeProducts', 'API_SERVER_ERROR'],
      ['getCreditLifeProducts', 'API_SERVER_ERROR'],
      ['getCreditLifeProducts', 'API_SERVER_ERROR'],
    ]);
  });

  it('keeps the real error when the onUpstreamError hook throws', async () => {
    await client.close();
    client = clientFor({
      onUpstreamError: () => {
        throw new Error('metrics broke');
      },
    });
    stub.respond(down);
    expect(await listProducts()).toBeInstanceOf(ApiServerError);
  });
});
