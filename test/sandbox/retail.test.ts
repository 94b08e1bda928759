import { afterEach, describe, expect, it } from 'vitest';
import { MOTOR_PRODUCTS, SEED } from '../../src/sandbox/index.js';
import { type Harness, raw, readAll, startHarness } from './sandbox-harness.js';

/* Retail quotations and the product catalogue a sandbox offers. */

let harness: Harness;

afterEach(async () => {
  await harness.close();
});

async function holderAndVehicle(plate: string) {
  const holder = (
    await harness.client.call('getIndividuals', {
      query: { PhoneNumber: SEED.individual.phoneNumber, PageSize: 1 },
    })
  ).data[0];
  const [vehicle] = await harness.client.call('searchVehicleByRegistration', {
    query: { registrationNumber: plate },
  });
  return { clientId: String(holder?.id), vehicleId: String(vehicle?.id) };
}

const thirdParty = { productId: 101, duration: 4, currency: 'ZMW', startDate: '2026-03-02' };

describe('motor quotations', () => {
  it("a quotation is priced by the risk's motorRiskCategoryId when the risk carries one", async () => {
    harness = await startHarness();
    const { clientId, vehicleId } = await holderAndVehicle(SEED.vehicle.registrationNumber);
    const quotation = await harness.client.call('createMotorQuotation', {
      body: { ...thirdParty, clientId, risks: [{ vehicleId, motorRiskCategoryId: 'mrc_psv' }] },
    });
    // 4 quarters × 310 (public service) plus the 5% levy, not the private rate of the vehicle.
    expect(quotation.premium).toBe(1302);
  });

  it("a quotation without a risk category is priced by the vehicle's own", async () => {
    harness = await startHarness();
    const { clientId, vehicleId } = await holderAndVehicle(SEED.vehicle.registrationNumber);
    const quotation = await harness.client.call('createMotorQuotation', {
      body: { ...thirdParty, clientId, risks: [{ vehicleId }] },
    });
    expect(quotation.premium).toBe(693);
  });

  it('a vehicle registered without a category is quoted with the category sent on the risk', async () => {
    harness = await startHarness();
    const { clientId, vehicleId } = await holderAndVehicle(SEED.uncategorisedPlate);
    const quotation = await harness.client.call('createMotorQuotation', {
      body: { ...thirdParty, clientId, risks: [{ vehicleId, motorRiskCategoryId: 'mrc_private' }] },
    });
    expect(quotation.premium).toBe(693);
  });

  it('an unknown risk category on the risk is a validation error (400) naming motorRiskCategoryId', async () => {
    harness = await startHarness();
    const { clientId, vehicleId } = await holderAndVehicle(SEED.vehicle.registrationNumber);
    const response = await raw(harness, 'POST', '/quotations/motor', {
      ...thirdParty,
      clientId,
      risks: [{ vehicleId, motorRiskCategoryId: 'mrc_tractor' }],
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveProperty('motorRiskCategoryId');
  });
});

describe('the catalogue', () => {
  it('a sandbox given more motor products pages them', async () => {
    const more = [1, 2, 3].map((n) => ({ ...MOTOR_PRODUCTS[0], id: 110 + n, name: `Extra ${n}` }));
    harness = await startHarness({
      catalogue: { motor: [...MOTOR_PRODUCTS, ...more] as typeof MOTOR_PRODUCTS },
    });
    const second = await harness.client.call('getMotorProducts', {
      query: { PageNumber: 2, PageSize: 5 },
    });
    expect(second.data.map((p) => p.id)).toEqual([113]);
    expect(second.totalPages).toBe(2);
  });

  it('a sandbox offering no travel packages lists none and quotes none', async () => {
    harness = await startHarness({ catalogue: { travel: [] } });
    const page = await harness.client.call('getTravelProducts', {});
    expect(page.data).toEqual([]);
    const response = await raw(harness, 'GET', '/products/travel/201');
    expect(response.status).toBe(404);
  });
});

/* Issue 12: the spec's retail rules exactly, each through the real client over HTTP. */
describe('retail rules of the spec (issue 12)', () => {
  async function buyMotor(reference: string): Promise<string> {
    const { clientId, vehicleId } = await holderAndVehicle(SEED.vehicle.registrationNumber);
    const quotation = await harness.client.call('createMotorQuotation', {
      body: { ...thirdParty, clientId, risks: [{ vehicleId }] },
    });
    await harness.client.call('payQuotation', {
      path: { quoteId: quotation.id },
      body: { reference, payment: { mobileMoneyAccountNumber: '0977123456' } },
    });
    harness.sandbox.payments.settleNow(reference);
    const details = await harness.client.call('getTransaction', { path: { reference } });
    return String(details.policyId);
  }

  const traveller = { firstName: 'Natasha', lastName: 'Phiri' };
  const trip = { packageId: 202, destination: 'Kenya', startDate: '2026-05-01' };

  it('policy by registration returns the newest active policy of the plate: of two motor policies bought for one plate, the second', async () => {
    harness = await startHarness();
    const first = await buyMotor('plate-first');
    const second = await buyMotor('plate-second');
    expect(second).not.toBe(first);
    const byPlate = await harness.client.call('getMotorPolicyByRegistration', {
      query: { registrationNumber: SEED.vehicle.registrationNumber },
    });
    expect(byPlate.map((policy) => policy.id)).toEqual([second]);
  });

  it('the travel quotation route gives the premium before payment, and the same reference then pays that quotation', async () => {
    harness = await startHarness();
    const quoted = await harness.client.call('instantIssueTravelQuotation', {
      body: { ...trip, beneficiaries: [traveller], reference: 'trip-1' },
    });
    expect(quoted).toMatchObject({ status: 'Quoted', policy: null });
    expect(quoted.grossPremium).toBeGreaterThan(0);
    expect(harness.sandbox.payments.get('trip-1')).toBeUndefined();
    const paid = await harness.client.call('instantIssueTravelQuotation', {
      body: {
        ...trip,
        beneficiaries: [traveller],
        reference: 'trip-1',
        mobileMoneyAccountNumber: '0977123456',
      },
    });
    expect(paid).toMatchObject({ status: 'Pending', quoteId: quoted.quoteId });
    const status = await harness.client.call('getTransactionStatus', {
      path: { reference: 'trip-1' },
    });
    expect(status.amount).toBe(quoted.grossPremium);
  });

  it('the travel certificate speaks of the trip (destination, travellers), not of road use', async () => {
    harness = await startHarness();
    await harness.client.call('instantIssueTravelPolicy', {
      body: {
        ...trip,
        beneficiaries: [traveller],
        reference: 'trip-cert',
        mobileMoneyAccountNumber: '0977123456',
      },
    });
    harness.sandbox.payments.settleNow('trip-cert');
    const { policyId } = await harness.client.call('getTransaction', {
      path: { reference: 'trip-cert' },
    });
    const pdf = await readAll(
      await harness.client.download('getTravelPolicyCertificate', {
        path: { policyId: String(policyId) },
      }),
    );
    const text = pdf.toString('latin1');
    expect(text).toContain('Destination: Kenya');
    expect(text).toContain('Traveller: Natasha Phiri');
    expect(text).not.toMatch(/ROAD USE/i);
  });

  it('issuing from a quotation without payment is PayLater, refused unless the partner is set up for deferred billing', async () => {
    harness = await startHarness();
    const { clientId, vehicleId } = await holderAndVehicle(SEED.vehicle.registrationNumber);
    const quotation = await harness.client.call('createMotorQuotation', {
      body: { ...thirdParty, clientId, risks: [{ vehicleId }] },
    });
    const refused = await raw(harness, 'POST', `/policies/motor/${quotation.id}/issue`, {});
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(/deferred billing/);
  });

  it('issuing from a quotation honours its reference: the same reference returns the same policy, and no other quotation may reuse it', async () => {
    harness = await startHarness({ deferredBilling: true });
    const { clientId, vehicleId } = await holderAndVehicle(SEED.vehicle.registrationNumber);
    const quote = () =>
      harness.client.call('createMotorQuotation', {
        body: { ...thirdParty, clientId, risks: [{ vehicleId }] },
      });
    const first = await quote();
    const issued = await harness.client.call('issueMotorPolicy', {
      path: { quoteId: first.id },
      body: { reference: 'issue-ref-1' },
    });
    expect(issued).toMatchObject({ reference: 'issue-ref-1', premiumStatus: 'Unpaid' });
    const again = await harness.client.call('issueMotorPolicy', {
      path: { quoteId: first.id },
      body: { reference: 'issue-ref-1' },
    });
    expect(again.id).toBe(issued.id);
    const other = await quote();
    const reused = await raw(harness, 'POST', `/policies/motor/${other.id}/issue`, {
      reference: 'issue-ref-1',
    });
    expect(reused.status).toBe(409);
  });

  it('general instant issue refuses a risk without a sum insured instead of assuming one', async () => {
    harness = await startHarness();
    const response = await raw(harness, 'POST', '/policies/instant/issue', {
      productId: 401,
      startDate: '2026-03-02',
      endDate: '2027-03-01',
      policyHolder: { clientType: 'Individual', name: 'Natasha Phiri' },
      risks: [{ description: 'House contents' }],
      reference: 'gen-no-sum',
      payment: { mobileMoneyAccountNumber: '0977123456' },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveProperty(['risks.0.sumInsured']);
    expect(harness.sandbox.payments.get('gen-no-sum')).toBeUndefined();
  });

  it('a farmer premium payment is receipted on the client once collected, and an unknown farm is refused', async () => {
    harness = await startHarness();
    const corporates = await harness.client.call('getCorporates', {});
    const clientId = String(corporates.data[0]?.id);
    await harness.client.call('payFarmerPremium', {
      body: {
        reference: 'farmer-1',
        clientId,
        amount: 250,
        payment: { mobileMoneyAccountNumber: '0977123456' },
      },
    });
    harness.sandbox.payments.settleNow('farmer-1');
    const client = await harness.client.call('getCorporate', { path: { id: clientId } });
    expect(client.premiumReceipts).toEqual([
      expect.objectContaining({ reference: 'farmer-1', amount: 250, currency: 'ZMW' }),
    ]);
    const unknownFarm = await raw(harness, 'POST', '/payments/farmers/pay', {
      reference: 'farmer-2',
      clientId,
      farmId: 'farm-nowhere',
      amount: 250,
      payment: { mobileMoneyAccountNumber: '0977123456' },
    });
    expect(unknownFarm.status).toBe(404);
  });
});

/* Issue 24: rules the sandbox enforced that the spec never states, or refused that it names. */
describe('retail rules in the spec’s own words (issue 24)', () => {
  const motorBody = {
    productId: 101,
    duration: 1,
    currency: 'ZMW',
    startDate: '2026-03-02',
    policyHolder: { type: 'Individual', name: 'Mwila Banda', phone: '260971234567' },
    risks: [{ motorRiskCategoryId: 'mrc_private', registrationNumber: 'EXT 24' }],
  };

  it('"Instant issue motor policy, no payment … for PayLater or external settlement": External issues without deferred billing', async () => {
    harness = await startHarness();
    const external = await raw(harness, 'POST', '/policies/motor/instant/issue', {
      ...motorBody,
      reference: 'external-24',
      payment: { method: 'External' },
    });
    expect(external.status).toBe(200);
    expect((external.body as { policy?: { status?: string } }).policy?.status).toBe('Active');
    // PayLater still needs a partner set up for deferred billing.
    const payLater = await raw(harness, 'POST', '/policies/motor/instant/issue', {
      ...motorBody,
      reference: 'paylater-24',
    });
    expect(payLater.status).toBe(422);
  });

  it('"Extend general policy: body: endDate": extends for a partner without deferred billing', async () => {
    harness = await startHarness();
    const issue = () =>
      harness.client.call('instantIssueGeneralPolicy', {
        body: {
          productId: 401,
          startDate: '2026-03-02',
          endDate: '2027-03-01',
          policyHolder: { clientType: 'Individual', name: 'Natasha Phiri' },
          risks: [{ description: 'House contents', sumInsured: 150_000 }],
          reference: 'general-24',
          // Settled outside the platform: issued at once, no deferred billing involved.
          payment: { method: 'External' },
        },
      });
    await issue();
    // The same reference again answers with the policy it issued.
    const policy = await issue();
    expect(policy.status).toBe('Active');
    const extended = await raw(harness, 'POST', `/policies/${policy.id}/issue`, {
      endDate: '2027-06-30',
    });
    expect(extended.status).toBe(200);
    expect(extended.body.endDate).toBe('2027-06-30');
  });
});
