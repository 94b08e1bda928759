import type { SandboxContext } from './state.js';

/** Fixed data every sandbox starts with, so demos and tests find the same records. */
export const SEED = {
  individual: {
    firstName: 'Mwila',
    lastName: 'Banda',
    phoneNumber: '260971234567',
    email: 'mwila.banda@example.com',
    idNumber: '479974/11/1',
    idType: 'NRC',
  },
  corporate: {
    name: 'Kafue Lending Ltd',
    email: 'ops@kafue-lending.example.com',
    phoneNumber: '260211000111',
    taxPayerId: '1002003004',
    registrationNumber: 'PACRA-120034',
  },
  employer: {
    name: 'Copperbelt Mills Plc',
    email: 'hr@copperbelt-mills.example.com',
    phoneNumber: '260212000222',
    taxPayerId: '1009008007',
    registrationNumber: 'PACRA-990077',
  },
  vehicle: { registrationNumber: 'AJQ 1909', make: 'Toyota', model: 'Corolla' },
  /** A vehicle registered before risk categories were recorded: quoting it asks for one. */
  uncategorisedPlate: 'ALB 2020',
  funeralPrincipalNrc: '123456/10/1',
} as const;

/** Fills an empty state with the seed records (ids deterministic through the id source). */
export function seedState(ctx: SandboxContext): void {
  const { state, ids } = ctx;
  const stamp = '2025-12-01T08:00:00.000Z';
  const { individualId, corporateId, employerId } = seedClients(ctx, stamp);
  seedQuotations(ctx, stamp, corporateId, employerId);
  seedFuneralHousehold(ctx, stamp);

  // Last, so the ids of every record above stay as they were.
  const oldVehicleId = ids.next('veh');
  state.vehicles.set(oldVehicleId, {
    id: oldVehicleId,
    clientId: individualId,
    registrationNumber: SEED.uncategorisedPlate,
    make: 'Nissan',
    model: 'Hardbody',
    yearOfManufacture: 2009,
    chassisNumber: 'D22HB0009876',
    engineNumber: 'QD32554433',
    // Not recorded: the API shows it as empty.
    motorRiskCategoryId: '',
    color: 'White',
    createdAt: stamp,
    updatedAt: stamp,
  });
}

/** The individual with their vehicle, the lender and the employer; ids in that order. */
function seedClients(
  ctx: SandboxContext,
  stamp: string,
): { individualId: string; corporateId: string; employerId: string } {
  const { state, ids } = ctx;
  const individualId = ids.next('cli');
  state.clients.set(individualId, {
    id: individualId,
    ...SEED.individual,
    physicalAddress: 'Plot 12, Kabulonga, Lusaka',
    gender: 'Female',
    type: 'Individual',
    status: 'Active',
    createdAt: stamp,
    updatedAt: stamp,
  });
  const vehicleId = ids.next('veh');
  state.vehicles.set(vehicleId, {
    id: vehicleId,
    clientId: individualId,
    ...SEED.vehicle,
    yearOfManufacture: 2018,
    chassisNumber: 'NZE1610012345',
    engineNumber: '1NZ9876543',
    motorRiskCategoryId: 'mrc_private',
    color: 'Silver',
    createdAt: stamp,
    updatedAt: stamp,
  });
  const corporateId = ids.next('cli');
  const employerId = ids.next('cli');
  for (const [id, corporate] of [
    [corporateId, SEED.corporate],
    [employerId, SEED.employer],
  ] as const) {
    state.clients.set(id, {
      id,
      ...corporate,
      address: 'Cairo Road, Lusaka',
      physicalAddress: 'Cairo Road, Lusaka',
      postalAddress: 'P.O. Box 30000, Lusaka',
      contactPerson: 'Operations desk',
      contactPersonPhoneNumber: corporate.phoneNumber,
      sector: 'Finance',
      bankDetail: null,
      type: 'Corporate',
      status: 'Active',
      dateOfBirth: null,
      farms: [],
      createdAt: stamp,
      updatedAt: stamp,
    });
  }
  return { individualId, corporateId, employerId };
}

/** The lender's credit-life quotations and the employer's group-life ones. */
function seedQuotations(
  ctx: SandboxContext,
  stamp: string,
  corporateId: string,
  employerId: string,
): void {
  const { state, ids } = ctx;
  const bands = [
    { fromMonths: 1, toMonths: 12, rate: 0.01 },
    { fromMonths: 13, toMonths: 36, rate: 0.025 },
    { fromMonths: 37, toMonths: 60, rate: 0.04 },
  ];
  const creditLife = [
    { name: 'Kafue Lending payroll loans', status: 'Approved', requiresPrepayment: false },
    { name: 'Kafue Lending prepaid micro-loans', status: 'Approved', requiresPrepayment: true },
    {
      name: 'Kafue Lending SME loans (in negotiation)',
      status: 'Pending',
      requiresPrepayment: false,
    },
  ] as const;
  for (const quotation of creditLife) {
    const id = ids.next('clq');
    state.creditLifeQuotations.set(id, {
      id,
      name: quotation.name,
      productId: 501,
      clientId: corporateId,
      status: quotation.status,
      requiresPrepayment: quotation.requiresPrepayment,
      rateBands: bands.map((band) => ({ ...band })),
      periodRate: 0.001,
      coverPeriodMonths: 1,
      premiumGraceDays: 30,
      freeCoverLimit: 250_000,
      aggregateClaimLimit: 5_000_000,
      currency: 'ZMW',
      createdAt: stamp,
    });
  }

  const ageRates = [
    { fromAge: 18, toAge: 35, ratePerMille: 1.5 },
    { fromAge: 36, toAge: 50, ratePerMille: 3 },
    { fromAge: 51, toAge: 65, ratePerMille: 6 },
  ];
  for (const status of ['Approved', 'Pending'] as const) {
    const id = ids.next('glq');
    state.groupLifeQuotations.set(id, {
      id,
      name: `Copperbelt Mills group life (${status.toLowerCase()})`,
      status,
      clientId: employerId,
      salaryMultiple: 3,
      freeCoverLimit: 500_000,
      ageRates: ageRates.map((rate) => ({ ...rate })),
      currency: 'ZMW',
      createdAt: stamp,
    });
  }
}

/** A funeral household with its principal, policy and members, found by the principal's NRC. */
function seedFuneralHousehold(ctx: SandboxContext, stamp: string): void {
  const { state, ids } = ctx;
  const householdId = ids.next('hh');
  const funeralClientId = ids.next('cli');
  const funeralPolicyId = ids.next('gfp');
  state.households.set(SEED.funeralPrincipalNrc, {
    id: householdId,
    createdAt: stamp,
    updatedAt: stamp,
    clientId: funeralClientId,
    client: {
      id: funeralClientId,
      createdAt: stamp,
      updatedAt: stamp,
      email: 'chanda.mulenga@example.com',
      phoneNumber: '260966000444',
      physicalAddress: 'Chelstone, Lusaka',
      type: 'Individual',
      status: 'Active',
      firstName: 'Chanda',
      middleName: null,
      lastName: 'Mulenga',
      fullName: 'Chanda Mulenga',
      idNumber: SEED.funeralPrincipalNrc,
      idType: 'NRC',
      gender: 'Male',
      maritalStatus: 'Married',
      dateOfBirth: '1980-04-02',
      farms: [],
    },
    policyId: funeralPolicyId,
    policy: {
      id: funeralPolicyId,
      createdAt: stamp,
      updatedAt: stamp,
      clientId: funeralClientId,
      policyNumber: 'GF-2025-000001',
      status: 'Active',
      approvedDate: stamp,
      startDate: '2025-12-01',
      endDate: '2026-11-30',
      currency: 'ZMW',
      exchangeRate: 1,
      premiumLevy: 3,
      basicPremium: 60,
      grossPremium: 63,
      extensionsPremium: 0,
      discountsPremium: 0,
    },
    members: [
      { fullName: 'Chanda Mulenga', relationship: 'Principal', sumAssured: 15_000 },
      { fullName: 'Bwalya Mulenga', relationship: 'Spouse', sumAssured: 15_000 },
      { fullName: 'Mutale Mulenga', relationship: 'Child', sumAssured: 7_500 },
    ],
  });
}
