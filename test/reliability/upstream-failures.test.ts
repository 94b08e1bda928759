import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { MOTOR_TO_PLATE } from '../support/motor-purchase-inputs.js';
import { type Fault, type FaultProxy, startFaultProxy } from './fault-proxy.js';
import { newPhone, startServer, type TestServer, walk } from './harness.js';

/** Dial → … → the plate question: the next answer (a plate) is looked up upstream. */
const TO_PLATE = MOTOR_TO_PLATE;
const PLATE = 'AJQ 1909';
// The plate looked up for a phone that is not its holder's: kept for the retry, and answered
// without the car's details (issue 23).
const VEHICLE_FOUND = /AJQ 1909 is registered to another holder/;

describe('upstream failures', () => {
  let sandbox: Sandbox;
  let proxy: FaultProxy;
  let test: TestServer;

  beforeAll(async () => {
    sandbox = createSandbox({ logger: createLogger({ level: 'silent' }) });
    const { origin } = await sandbox.listen(0);
    proxy = await startFaultProxy(origin);
    test = await startServer({
      partnerApi: { url: `${proxy.url}/api/v1`, apiKey: sandbox.apiKey },
      logLevel: 'fatal',
    });
    // The holdings index's first sync starts with the server (an insurer of its own is synced on
    // the schedule's first tick) and calls the insurer many times: done before any fault, so the
    // faults hit the plate lookup alone and the sync's failed calls do not open the breaker.
    await test.server.holdingsSync.runNow();
  });

  afterAll(async () => {
    await test.close();
    await proxy.close();
    await sandbox.close();
  });

  const cases: ReadonlyArray<{ fault: Fault; what: string; key: string }> = [
    { fault: 'down', what: 'the insurer drops the connection', key: 'flow.failed.unavailable' },
    { fault: 'status500', what: 'the insurer answers 500', key: 'flow.failed.unavailable' },
    { fault: 'status401', what: 'the insurer answers 401', key: 'flow.failed.denied' },
    {
      fault: 'malformed',
      what: 'the insurer answers malformed JSON',
      key: 'flow.failed.unavailable',
    },
  ];

  it.each(cases)(
    'tells the user $key when $what, and keeps the plate for the retry',
    async ({ fault, key }) => {
      const phone = newPhone();
      await walk(test, phone, TO_PLATE);
      proxy.setFault(fault);

      const failed = await test.ussd(phone, PLATE);
      proxy.setFault('none');

      expect(failed.status).toBe(200);
      expect(failed.body.startsWith('CON ')).toBe(true);
      expect(failed.body).toContain(t(key));
      expect(failed.body).toContain(t('flow.choice.retry'));
      const retried = await test.ussd(phone, '1');
      expect(retried.body).toMatch(VEHICLE_FOUND);
    },
  );

  it('answers "still working" when the insurer is slower than the USSD deadline, and shows the result on the next turn', async () => {
    const phone = newPhone();
    await walk(test, phone, TO_PLATE);
    proxy.setFault('slow');

    const waiting = await test.ussd(phone, PLATE);
    proxy.setFault('none');
    proxy.release();

    expect(waiting.status).toBe(200);
    expect(waiting.body).toContain(t('engine.stillWorking'));
    const next = await test.ussd(phone, '1');
    expect(next.body).toMatch(VEHICLE_FOUND);
  });
});
