import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, raw, startHarness } from './sandbox-harness.js';

/* Auth, the published error body, query coercion and the SMS endpoint. */

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness.close();
});

describe('auth and errors', () => {
  it('a request without the bearer API key gets 401 in the published error body', async () => {
    const missing = await raw(harness, 'GET', '/products/motor', undefined, null);
    expect(missing).toEqual({
      status: 401,
      body: { status: 401, message: 'Missing or invalid API key', errors: {} },
    });
    const wrong = await raw(harness, 'GET', '/products/motor', undefined, 'not-the-key');
    expect(wrong.status).toBe(401);
  });

  it('invalid input gets 400 naming each failing field', async () => {
    const response = await raw(harness, 'POST', '/policyholders/individuals', {
      firstName: 'Ann',
      lastName: 'Zulu',
      phoneNumber: '0977000000',
      email: 'ann@example.com',
    });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.errors ?? {}).sort()).toEqual(['idNumber', 'idType']);
    const query = await raw(harness, 'GET', '/products/motor?PageNumber=first');
    expect(query.status).toBe(400);
    expect(query.body.errors).toHaveProperty(['query.PageNumber']);
  });

  it('an unknown record gets 404 and an unknown route gets 404, both in the error body', async () => {
    const record = await raw(harness, 'GET', '/policyholders/cli_nobody/individuals');
    expect(record.status).toBe(404);
    expect(record.body.message).toMatch(/not found/);
    const route = await raw(harness, 'GET', '/no/such/thing');
    expect(route).toMatchObject({ status: 404, body: { status: 404 } });
  });

  it('a duplicate registration number gets 409', async () => {
    const corporate = {
      name: 'Dup Ltd',
      email: 'dup@example.com',
      phoneNumber: '260211000000',
      taxPayerId: '5555555555',
      registrationNumber: 'PACRA-DUP',
    };
    expect((await raw(harness, 'POST', '/policyholders/corporates', corporate)).status).toBe(200);
    const again = await raw(harness, 'POST', '/policyholders/corporates', corporate);
    expect(again.status).toBe(409);
    expect(again.body.errors).toHaveProperty('registrationNumber');
    const clientId = String((await harness.client.call('getIndividuals', {})).data[0]?.id);
    const vehicle = await raw(harness, 'POST', `/policyholders/${clientId}/vehicles`, {
      make: 'Toyota',
      model: 'Hilux',
      yearOfManufacture: 2015,
      registrationNumber: 'ajq-1909',
      chassisNumber: 'C',
      engineNumber: 'E',
      motorRiskCategoryId: 'mrc_private',
    });
    expect(vehicle.status).toBe(409);
  });

  it('comprehensive cover without a sum insured gets 400 on sumInsured', async () => {
    const response = await raw(harness, 'POST', '/quotations/motor/inquiry', {
      productId: 103,
      duration: 3,
      currency: 'ZMW',
      startDate: '2026-03-02',
      policyHolder: {},
      risks: [{ motorRiskCategoryId: 'mrc_private', registrationNumber: 'BAF 2025' }],
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveProperty('sumInsured');
  });

  it('a broken rule gets 422: no receipt for a policy whose premium was never paid', async () => {
    // Issuing without payment is PayLater, open only to a partner set up for deferred billing.
    const billed = await startHarness({ deferredBilling: true });
    try {
      const issued = await raw(billed, 'POST', '/policies/motor/instant/issue', {
        productId: 101,
        duration: 1,
        currency: 'ZMW',
        startDate: '2026-03-02',
        policyHolder: {},
        risks: [{ motorRiskCategoryId: 'mrc_private', registrationNumber: 'BAF 2026' }],
      });
      const policyId = String((issued.body.policy as { id: string }).id);
      const receipt = await raw(billed, 'GET', `/policies/motor/${policyId}/documents/receipt`);
      expect(receipt.status).toBe(422);
      expect(receipt.body.message).toMatch(/No premium/);
    } finally {
      await billed.close();
    }
  });

  it('levy and premiums follow the configured levy rate', async () => {
    const three = await startHarness({ levyRate: 0.03 });
    const pricing = await three.client.call('getMotorPricing', {
      body: { productId: 101, riskCategoryId: 'mrc_private', startDate: '2026-03-02' },
    });
    expect(pricing.pricingOptions[0]).toMatchObject({
      basicPremium: 165,
      levyPremium: 4.95,
      grossPremium: 169.95,
    });
    await three.close();
  });
});

describe("Africa's Talking-style SMS", () => {
  it('accepts a message and lists it in the outbox under any form of the number', async () => {
    const response = await fetch(`${harness.origin}/version1/messaging`, {
      method: 'POST',
      headers: { apiKey: 'any', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'sandbox', to: '+260977111222', message: 'Paid' }),
    });
    expect(response.status).toBe(201);
    const reply = (await response.json()) as {
      SMSMessageData: { Recipients: { statusCode: number; number: string; status: string }[] };
    };
    expect(reply.SMSMessageData.Recipients).toMatchObject([
      { statusCode: 101, number: '+260977111222', status: 'Success' },
    ]);
    const outbox = (await fetch(`${harness.origin}/sandbox/sms-outbox?to=0977111222`).then((r) =>
      r.json(),
    )) as { messages: { message: string }[] };
    expect(outbox.messages.map((sms) => sms.message)).toEqual(['Paid']);
    expect(harness.sandbox.smsOutbox.list('260977111222')).toHaveLength(1);
  });

  it('refuses a message without the apiKey header', async () => {
    const response = await fetch(`${harness.origin}/version1/messaging`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'sandbox', to: '0977111222', message: 'x' }),
    });
    expect(response.status).toBe(401);
  });
});
