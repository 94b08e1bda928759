import { afterEach, describe, expect, it } from 'vitest';
import { SEED } from '../../src/sandbox/index.js';
import { type Harness, startHarness } from './sandbox-harness.js';

/* Settling payments on demand (settleNow) and at once (settleAtOnce), for tests and demos. */

let harness: Harness;

afterEach(async () => {
  await harness.close();
});

async function motorQuote(): Promise<string> {
  const holder = (
    await harness.client.call('getIndividuals', {
      query: { PhoneNumber: SEED.individual.phoneNumber, PageSize: 1 },
    })
  ).data[0];
  const [vehicle] = await harness.client.call('searchVehicleByRegistration', {
    query: { registrationNumber: SEED.vehicle.registrationNumber },
  });
  const quotation = await harness.client.call('createMotorQuotation', {
    body: {
      productId: 101,
      duration: 1,
      currency: 'ZMW',
      startDate: '2026-03-02',
      clientId: String(holder?.id),
      risks: [{ vehicleId: String(vehicle?.id) }],
    },
  });
  return quotation.id;
}

async function payByPhone(reference: string, msisdn: string) {
  const quoteId = await motorQuote();
  return harness.client.call('payQuotation', {
    path: { quoteId },
    body: { reference, payment: { method: 'MobileMoney', mobileMoneyAccountNumber: msisdn } },
  });
}

// Settlement delays far beyond any test: only settleNow or settleAtOnce can end these payments.
const never = { settleDelayMs: 600_000 };

describe('settling a payment now', () => {
  it('a pending mobile-money payment settled now succeeds and issues its policy', async () => {
    harness = await startHarness(never);
    expect((await payByPhone('now-ok', '0977123456')).status).toBe('Pending');
    expect(harness.sandbox.payments.settleNow('now-ok')?.status).toBe('Success');
    const details = await harness.client.call('getTransaction', { path: { reference: 'now-ok' } });
    expect(details.status).toBe('Success');
    expect(details.policyId).toBeTruthy();
  });

  it("a payment settled now ends as its payer's test number chooses", async () => {
    harness = await startHarness(never);
    await payByPhone('now-declined', '0977000001');
    expect(harness.sandbox.payments.settleNow('now-declined')).toMatchObject({
      status: 'Failed',
      failureReason: 'The customer declined the payment prompt',
    });
  });

  it('a payment settled now as told ignores the number', async () => {
    harness = await startHarness(never);
    await payByPhone('now-failed', '0977123456');
    expect(harness.sandbox.payments.settleNow('now-failed', 'failed')?.status).toBe('Failed');
  });

  it('a payment already settled, or unknown, is left as it is', async () => {
    harness = await startHarness(never);
    await payByPhone('now-twice', '0977123456');
    harness.sandbox.payments.settleNow('now-twice', 'failed');
    expect(harness.sandbox.payments.settleNow('now-twice', 'success')?.status).toBe('Failed');
    expect(harness.sandbox.payments.settleNow('no-such-reference')).toBeUndefined();
  });
});

describe('settling at once', () => {
  it('a sandbox settling at once answers a mobile-money payment Success in the same call', async () => {
    harness = await startHarness({ ...never, settleAtOnce: true });
    expect((await payByPhone('once-ok', '0977123456')).status).toBe('Success');
  });

  it('a sandbox settling at once answers a declining number Failed in the same call', async () => {
    harness = await startHarness({ ...never, settleAtOnce: true });
    expect((await payByPhone('once-declined', '0977000001')).status).toBe('Failed');
  });

  it('a never-answered prompt stays Pending even when settling at once', async () => {
    harness = await startHarness({ ...never, settleAtOnce: true });
    expect((await payByPhone('once-expires', '0977000003')).status).toBe('Pending');
  });
});
