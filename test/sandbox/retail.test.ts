import { afterEach, describe, expect, it } from 'vitest';
import { MOTOR_PRODUCTS, SEED } from '../../src/sandbox/index.js';
import { type Harness, raw, startHarness } from './sandbox-harness.js';

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
