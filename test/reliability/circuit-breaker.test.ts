import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiUnavailableError, createPartnerClient } from '../../src/api/index.js';
import { t } from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { MOTOR_TO_PLATE } from '../support/motor-purchase-inputs.js';
import { type FaultProxy, startFaultProxy } from './fault-proxy.js';
import { newPhone, startServer, type TestServer, walk } from './harness.js';

/** Dial → … → the plate question: the next answer (a plate) is looked up upstream. */
const TO_PLATE = MOTOR_TO_PLATE;
const PLATE = 'AJQ 1909';

describe('circuit breaker on the Partner API client', () => {
  let sandbox: Sandbox;
  let proxy: FaultProxy;

  beforeAll(async () => {
    sandbox = createSandbox({ logger: createLogger({ level: 'silent' }) });
    const { origin } = await sandbox.listen(0);
    proxy = await startFaultProxy(origin);
  });

  beforeEach(() => {
    proxy.setFault('none');
  });

  afterAll(async () => {
    await proxy.close();
    await sandbox.close();
  });

  it('opens after repeated failures, stops calling the insurer, and closes once it recovers', async () => {
    let now = 1_000_000;
    const client = createPartnerClient({
      baseUrl: `${proxy.url}/api/v1`,
      apiKey: sandbox.apiKey,
      maxRetries: 0,
      circuitBreaker: { failureThreshold: 3, openMs: 10_000 },
      now: () => now,
    });
    const list = () => client.call('getMotorProducts', { query: { PageNumber: 1, PageSize: 5 } });
    try {
      proxy.setFault('down');
      for (let attempt = 0; attempt < 3; attempt += 1) await expect(list()).rejects.toThrow();
      expect(client.circuitState()).toBe('open');
      const hitsWhenOpened = proxy.hits.down;

      await expect(list()).rejects.toBeInstanceOf(ApiUnavailableError);
      expect(proxy.hits.down).toBe(hitsWhenOpened);

      proxy.setFault('none');
      now += 10_000;
      const recovered = await list();
      expect(recovered.data.length).toBeGreaterThan(0);
      expect(client.circuitState()).toBe('closed');
    } finally {
      await client.close();
    }
  });

  describe('through the server', () => {
    let test: TestServer;

    // A server per test: the breaker lives in the server's client and stays open for 30 s.
    beforeEach(async () => {
      test = await startServer({
        partnerApi: { url: `${proxy.url}/api/v1`, apiKey: sandbox.apiKey },
        logLevel: 'silent',
      });
    });

    afterEach(async () => {
      await test.close();
    });

    /** Sends retries until one no longer reaches the insurer (the circuit is open). */
    async function openTheCircuit(): Promise<{ body: string; status: number; hits: number }> {
      const phone = newPhone();
      expect(await walk(test, phone, TO_PLATE)).toContain('plate');
      proxy.setFault('down');
      let answer = await test.ussd(phone, PLATE);
      let hitsBefore = -1;
      for (let tries = 0; tries < 10 && proxy.hits.down !== hitsBefore; tries += 1) {
        hitsBefore = proxy.hits.down;
        answer = await test.ussd(phone, '1');
      }
      return { ...answer, hits: hitsBefore };
    }

    it('once the insurer kept failing, answers at once without calling it and offers a retry', async () => {
      const open = await openTheCircuit();

      expect(proxy.hits.down).toBe(open.hits);
      expect(open.status).toBe(200);
      expect(open.body).toContain(t('flow.choice.retry'));
      expect(open.body).not.toContain(t('engine.error'));
    });

    it('while the circuit is open, tells the user the insurer cannot be reached', async () => {
      const open = await openTheCircuit();

      expect(open.body).toContain(t('flow.failed.unavailable'));
    });
  });
});
