import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { motorPurchaseInputs } from '../support/motor-purchase-inputs.js';
import { newPhone, startServer, type TestServer, walk } from './harness.js';
import { type RedisProcess, startRedisProcess } from './redis-process.js';

/** Payments the sandbox holds, counted per quotation they pay for. */
function paymentsPerQuote(test: TestServer): Map<string, number> {
  const counts = new Map<string, number>();
  for (const transaction of test.server.sandbox?.payments.all() ?? []) {
    const key = transaction.subjectId ?? transaction.reference;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * Waits (bounded) until the server's readiness check sees Redis again. Clean-up only: a server
 * that never gets ready is still closed (bounded below), so a miss here is not a failure.
 */
async function untilReady(test: TestServer): Promise<void> {
  await eventually(
    "the server's readiness check sees Redis again",
    async () =>
      (await test.server.app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200,
    10_000,
  ).catch(() => undefined);
}

describe('Redis restarted mid-conversation', () => {
  let redis: RedisProcess;
  let test: TestServer;

  beforeEach(async () => {
    redis = await startRedisProcess();
    test = await startServer({ redisUrl: redis.url, logLevel: 'fatal' });
  });

  afterEach(async () => {
    // The server closes its Redis connections cleanly only when Redis is there to answer.
    if (!(await redis.isRunning())) await redis.restart();
    await untilReady(test);
    // Bounded: after a Redis restart with a payment pending, the payment scheduler's close
    // (BullMQ, src/payments) sometimes never resolves — a known shutdown bug reported with this
    // suite. The behaviour under test has been checked by then; the suite must still end.
    // A real timer on purpose: a bound on a hang in real I/O, which simulated time cannot end.
    await Promise.race([test.close(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    await redis.stop();
  }, 30_000);

  it('answers the turn during the outage with a clear message and starts no payment', async () => {
    const phone = newPhone();
    expect(await walk(test, phone, motorPurchaseInputs(phone.msisdn))).toMatch(/^CON .*Pay with/s);

    await redis.kill();
    const duringOutage = await test.ussd(phone, '1');

    expect(duringOutage.body).toMatch(/^END \S/);
    expect(paymentsPerQuote(test).size).toBe(0);
  });

  it('restarts the conversation politely on the next turn once Redis is back', async () => {
    const phone = newPhone();
    await walk(test, phone, motorPurchaseInputs(phone.msisdn));
    await redis.kill();
    await test.ussd(phone, '1');
    await redis.restart();

    const afterRestart = await test.ussd(phone, '1');

    expect(afterRestart.status).toBe(200);
    expect(afterRestart.body).toMatch(/^CON \S/);
    const health = await test.server.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
  });

  it('does not start a payment twice when the paying turn is repeated across a restart', async () => {
    const phone = newPhone();
    await walk(test, phone, motorPurchaseInputs(phone.msisdn));
    const paying = await test.ussd(phone, '1');
    expect(paying.status).toBe(200);
    // The call ends before the PIN prompt (issue 38); the pay request follows it.
    await eventually('the pay request after the call', () => paymentsPerQuote(test).size === 1);

    await redis.kill();
    await redis.restart();
    // The gateway repeats the last request, as it does after a timeout.
    phone.inputs.pop();
    const repeated = await test.ussd(phone, '1');

    expect(repeated.status).toBe(200);
    expect([...paymentsPerQuote(test).values()]).toEqual([1]);
  });
});
