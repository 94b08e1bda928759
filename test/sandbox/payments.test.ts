import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PaymentWebhook } from '../../src/api/index.js';
import { eventually } from '../support/eventually.js';
import {
  type CallbackListener,
  type Harness,
  raw,
  startCallbackListener,
  startHarness,
} from './sandbox-harness.js';

/* Payments: delayed settlement by test MSISDN, the webhook with retries, 3-D Secure, idempotency. */

let harness: Harness;
let listener: CallbackListener;
/** Motor policies the demo book starts with (one insured car, one near renewal). */
const DEMO_POLICIES = 2;

async function startWith(answers: number[] = [], options = {}): Promise<void> {
  listener = await startCallbackListener(answers);
  harness = await startHarness({ callbackUrl: listener.url, ...options });
}

afterEach(async () => {
  await harness.close();
  await listener.close();
});

async function motorQuote(): Promise<string> {
  const clients = await harness.client.call('getIndividuals', {});
  const clientId = String(clients.data[0]?.id);
  const vehicles = await harness.client.call('getClientVehicles', { path: { id: clientId } });
  const quotation = await harness.client.call('createMotorQuotation', {
    body: {
      productId: 101,
      duration: 1,
      currency: 'ZMW',
      startDate: '2026-03-02',
      clientId,
      risks: [{ vehicleId: String(vehicles.data[0]?.id) }],
    },
  });
  return quotation.id;
}

async function finalStatus(reference: string, expected: string): Promise<void> {
  await eventually(
    `payment ${reference} is ${expected}`,
    async () =>
      (await harness.client.call('getTransactionStatus', { path: { reference } })).status ===
      expected,
    5000,
  );
}

describe('mobile-money payments', () => {
  beforeEach(async () => {
    await startWith();
  });

  it('a mobile-money payment comes back Pending, reaches the callback URL on settlement, and the status endpoint agrees', async () => {
    const quoteId = await motorQuote();
    const paid = await harness.client.call('payQuotation', {
      path: { quoteId },
      body: {
        reference: 'mm-ok',
        payment: { method: 'MobileMoney', mobileMoneyAccountNumber: '0977123456' },
      },
    });
    expect(paid.status).toBe('Pending');
    await eventually('the webhook was called', () => listener.received.length > 0, 5000);
    expect(listener.received).toHaveLength(1);
    const webhook = PaymentWebhook.parse(listener.received[0]);
    expect(webhook).toMatchObject({
      paymentReference: 'mm-ok',
      status: 'Success',
      amount: 173.25,
      currency: 'ZMW',
      policyStatus: 'Active',
    });
    expect(webhook.policyNumber).toMatch(/^MTR-/);
    const status = await harness.client.call('getTransactionStatus', {
      path: { reference: 'mm-ok' },
    });
    expect(status).toEqual({
      reference: 'mm-ok',
      status: 'Success',
      amount: 173.25,
      currency: 'ZMW',
    });
    const policy = await harness.client.call('getMotorPolicy', {
      path: { policyId: String(webhook.policyId) },
    });
    expect(policy.premiumStatus).toBe('Paid');
    const log = await harness.client.call('getCallbackLogs', { path: { reference: 'mm-ok' } });
    expect(log).toMatchObject([{ url: listener.url, statusCode: 200, success: true }]);
  });

  it('a decline test number (ending in 1) ends Failed with no policy issued', async () => {
    const quoteId = await motorQuote();
    await harness.client.call('payQuotation', {
      path: { quoteId },
      body: { reference: 'mm-decline', payment: { mobileMoneyAccountNumber: '0971000001' } },
    });
    await finalStatus('mm-decline', 'Failed');
    const details = await harness.client.call('getTransaction', {
      path: { reference: 'mm-decline' },
    });
    expect(details.policyId ?? null).toBeNull();
    expect(details.message).toMatch(/declined/);
    expect(harness.sandbox.state.quotations.get(quoteId)?.policyId).toBeNull();
    expect(harness.sandbox.state.policies.size).toBe(DEMO_POLICIES);
    await eventually('the webhook was called', () => listener.received.length > 0, 5000);
    expect(listener.received).toHaveLength(1);
    expect(listener.received[0]).toMatchObject({ status: 'Failed', policyId: null });
  });

  it('an insufficient-funds test number (ending in 2) ends Failed', async () => {
    const quoteId = await motorQuote();
    await harness.client.call('payQuotation', {
      path: { quoteId },
      body: { reference: 'mm-funds', payment: { mobileMoneyAccountNumber: '260971000002' } },
    });
    await finalStatus('mm-funds', 'Failed');
    const details = await harness.client.call('getTransaction', {
      path: { reference: 'mm-funds' },
    });
    expect(details.message).toMatch(/Insufficient funds/);
  });

  it('the same payment reference sent twice returns the same transaction and never charges a second time', async () => {
    const quoteId = await motorQuote();
    const body = { reference: 'mm-twice', payment: { mobileMoneyAccountNumber: '0977123456' } };
    const first = await harness.client.call('payQuotation', { path: { quoteId }, body });
    const second = await harness.client.call('payQuotation', { path: { quoteId }, body });
    expect(second.txnId).toBe(first.txnId);
    expect(harness.sandbox.payments.all()).toHaveLength(1);
    await finalStatus('mm-twice', 'Success');
    const third = await harness.client.call('payQuotation', { path: { quoteId }, body });
    expect(third).toMatchObject({ txnId: first.txnId, status: 'Success' });
    expect(harness.sandbox.payments.all()).toHaveLength(1);
  });

  it('a paid quotation is not charged again under a new reference', async () => {
    const quoteId = await motorQuote();
    await harness.client.call('payQuotation', {
      path: { quoteId },
      body: { reference: 'mm-first', payment: { mobileMoneyAccountNumber: '0977123456' } },
    });
    const again = await raw(harness, 'POST', `/payments/${quoteId}/pay`, {
      reference: 'mm-second',
      payment: { mobileMoneyAccountNumber: '0977123456' },
    });
    expect(again.status).toBe(409);
    expect(harness.sandbox.payments.get('mm-second')).toBeUndefined();
  });
});

describe('payment expiry', () => {
  beforeEach(async () => {
    await startWith([], { expireAfterMs: 30 });
  });

  it('a never-answering test number (ending in 3) stays Pending and then expires as Failed', async () => {
    const quoteId = await motorQuote();
    const paid = await harness.client.call('payQuotation', {
      path: { quoteId },
      body: { reference: 'mm-silent', payment: { mobileMoneyAccountNumber: '0971000003' } },
    });
    expect(paid.status).toBe('Pending');
    await finalStatus('mm-silent', 'Failed');
    const details = await harness.client.call('getTransaction', {
      path: { reference: 'mm-silent' },
    });
    expect(details.message).toMatch(/expired/);
    expect(harness.sandbox.state.policies.size).toBe(DEMO_POLICIES);
  });
});

describe('callback delivery', () => {
  beforeEach(async () => {
    await startWith([500, 503]);
  });

  it('a failed callback delivery is retried with back-off and every attempt is recorded in the delivery log', async () => {
    const quoteId = await motorQuote();
    await harness.client.call('payQuotation', {
      path: { quoteId },
      body: { reference: 'mm-retry', payment: { mobileMoneyAccountNumber: '0977123456' } },
    });
    await eventually('the webhook was called', () => listener.received.length > 0, 5000);
    expect(listener.received).toHaveLength(1);
    await harness.sandbox.payments.idle();
    const log = await harness.client.call('getCallbackLogs', { path: { reference: 'mm-retry' } });
    expect(log.map((attempt) => [attempt.statusCode, attempt.success])).toEqual([
      [500, false],
      [503, false],
      [200, true],
    ]);
  });
});

describe('card, PayLater and External', () => {
  beforeEach(async () => {
    await startWith([], { deferredBilling: true });
  });

  it('a card payment returns a redirectUrl to a 3-D Secure page that completes the payment when visited', async () => {
    const quoteId = await motorQuote();
    const paid = await harness.client.call('payQuotation', {
      path: { quoteId },
      body: {
        reference: 'card-1',
        payment: {
          cardDetails: { city: 'Lusaka', country: 'ZM', address: 'Cairo Road', zip: 10101 },
        },
      },
    });
    expect(paid.status).toBe('Pending');
    expect(paid.redirectUrl).toBe(`${harness.origin}/sandbox/3ds/${paid.txnId}`);
    const page = await fetch(String(paid.redirectUrl));
    expect(await page.text()).toMatch(/Payment success/);
    await finalStatus('card-1', 'Success');
    expect(harness.sandbox.state.quotations.get(quoteId)?.status).toBe('Issued');
  });

  it('with deferred billing, PayLater (payment omitted) and External issue the policy at once', async () => {
    const later = await harness.client.call('payQuotation', {
      path: { quoteId: await motorQuote() },
      body: { reference: 'later-1' },
    });
    expect(later.status).toBe('Success');
    const external = await harness.client.call('payQuotation', {
      path: { quoteId: await motorQuote() },
      body: { reference: 'external-1', payment: { method: 'External' } },
    });
    expect(external.status).toBe('Success');
    expect(harness.sandbox.state.policies.size).toBe(DEMO_POLICIES + 2);
  });
});

/* Issue 12: PayLater and one payment per quotation, through the real client over HTTP. */
describe('PayLater only with deferred billing (issue 12)', () => {
  async function motorPolicy(): Promise<string> {
    const quoteId = await motorQuote();
    await harness.client.call('payQuotation', {
      path: { quoteId },
      body: { reference: 'bought', payment: { mobileMoneyAccountNumber: '0977123456' } },
    });
    harness.sandbox.payments.settleNow('bought');
    const { policyId } = await harness.client.call('getTransaction', {
      path: { reference: 'bought' },
    });
    return String(policyId);
  }

  it('by default, omitting payment or sending payment {} on pay, issue-and-pay, renew-and-pay and extend-and-pay gets 422', async () => {
    await startWith();
    const quoteId = await motorQuote();
    const policyId = await motorPolicy();
    const attempts = [
      raw(harness, 'POST', `/payments/${quoteId}/pay`, { reference: 'pl-omitted' }),
      raw(harness, 'POST', `/payments/${quoteId}/pay`, { reference: 'pl-empty', payment: {} }),
      raw(harness, 'POST', '/policies/motor/instant/issue/pay', {
        productId: 101,
        duration: 1,
        currency: 'ZMW',
        startDate: '2026-03-02',
        policyHolder: {},
        risks: [{ motorRiskCategoryId: 'mrc_private', registrationNumber: 'BCE 2210' }],
        reference: 'pl-instant',
        payment: {},
      }),
      raw(harness, 'POST', `/policies/motor/${policyId}/renew/pay`, {
        reference: 'pl-renew',
        payment: {},
      }),
      raw(harness, 'POST', `/policies/motor/${policyId}/extend/pay`, {
        reference: 'pl-extend',
        endDate: '2026-12-31',
        payment: {},
      }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(422);
      expect(response.body.errors?.payment?.[0]).toMatch(/deferred billing/);
    }
    for (const reference of ['pl-omitted', 'pl-empty', 'pl-instant', 'pl-renew', 'pl-extend']) {
      expect(harness.sandbox.payments.get(reference)).toBeUndefined();
    }
    const policy = await harness.client.call('getMotorPolicy', { path: { policyId } });
    expect(policy.endDate).toBe('2026-06-01');
  });

  it('by default, renewing or extending a policy without payment is refused as PayLater (422)', async () => {
    await startWith();
    const policyId = await motorPolicy();
    const renewed = await raw(harness, 'POST', `/policies/motor/${policyId}/renew`, {});
    const extended = await raw(harness, 'POST', `/policies/motor/${policyId}/extend`, {
      endDate: '2026-12-31',
    });
    for (const response of [renewed, extended]) {
      expect(response.status).toBe(422);
      expect(response.body.message).toMatch(/deferred billing/);
    }
    const policy = await harness.client.call('getMotorPolicy', { path: { policyId } });
    expect(policy).toMatchObject({ endDate: '2026-06-01', premiumStatus: 'Paid' });
  });

  it('with the deferred-billing option, PayLater issues the policy unpaid-for at once', async () => {
    await startWith([], { deferredBilling: true });
    const later = await harness.client.call('payQuotation', {
      path: { quoteId: await motorQuote() },
      body: { reference: 'pl-on', payment: {} },
    });
    expect(later.status).toBe('Success');
    expect(later.policy).toMatchObject({ status: 'Active' });
  });
});

describe('one payment per quotation at a time (issue 12)', () => {
  beforeEach(async () => {
    // Payments settle only when the test says so, so "still Pending" is a fact, not a race.
    await startWith([], { settleDelayMs: 600_000 });
  });

  it('a Pending payment refuses another reference (409), the same reference returns the existing transaction, and after a Failed payment a new reference may pay', async () => {
    const quoteId = await motorQuote();
    const pay = (reference: string, msisdn: string) =>
      raw(harness, 'POST', `/payments/${quoteId}/pay`, {
        reference,
        payment: { mobileMoneyAccountNumber: msisdn },
      });
    const declined = await pay('attempt-1', '0971000001');
    expect(declined.status).toBe(200);
    const second = await pay('attempt-2', '0977123456');
    expect(second.status).toBe(409);
    expect(second.body.errors?.reference?.[0]).toMatch(/attempt-1/);
    const repeat = await pay('attempt-1', '0971000001');
    expect(repeat.body.txnId).toBe(declined.body.txnId);
    harness.sandbox.payments.settleNow('attempt-1');
    await finalStatus('attempt-1', 'Failed');
    const retry = await pay('attempt-2', '0977123456');
    expect(retry.status).toBe(200);
    harness.sandbox.payments.settleNow('attempt-2');
    await finalStatus('attempt-2', 'Success');
    const third = await pay('attempt-3', '0977123456');
    expect(third.status).toBe(409);
    expect(third.body.message).toMatch(/already paid/);
  });

  it('a reference already used for another quotation is refused (409) instead of answering with that other payment', async () => {
    const first = await motorQuote();
    const second = await motorQuote();
    const body = { reference: 'shared-ref', payment: { mobileMoneyAccountNumber: '0977123456' } };
    expect((await raw(harness, 'POST', `/payments/${first}/pay`, body)).status).toBe(200);
    const reused = await raw(harness, 'POST', `/payments/${second}/pay`, body);
    expect(reused.status).toBe(409);
  });
});
