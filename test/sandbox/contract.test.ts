import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contract,
  type JsonOperationName,
  type OperationInput,
  type OperationName,
  type OperationOutput,
  operationNames,
  type StreamOperationName,
} from '../../src/api/index.js';
import { SEED } from '../../src/sandbox/index.js';
import { eventually } from '../support/eventually.js';
import { type Harness, loanRow, memberRow, readAll, startHarness } from './sandbox-harness.js';

/*
 * Every operation of the contract table, called through the real client against the sandbox over
 * HTTP. The client validates each response against the entry's response schema (a wrong shape
 * throws ResponseShapeError); the last test fails if any operation was left unexercised.
 */

let harness: Harness;
const exercised = new Set<OperationName>();

async function call<N extends JsonOperationName>(
  name: N,
  input?: OperationInput<N>,
): Promise<OperationOutput<N>> {
  const result = await (
    harness.client.call as (n: N, i?: OperationInput<N>) => Promise<OperationOutput<N>>
  )(name, input);
  expect(contract[name].response.safeParse(result).success).toBe(true);
  exercised.add(name);
  return result;
}

async function download<N extends StreamOperationName>(
  name: N,
  input: OperationInput<N>,
): Promise<Buffer> {
  const stream = await (
    harness.client.download as (
      n: N,
      i: OperationInput<N>,
    ) => ReturnType<typeof harness.client.download>
  )(name, input);
  exercised.add(name);
  return readAll(stream);
}

async function settled(reference: string, status = 'Success'): Promise<void> {
  await eventually(
    `payment ${reference} is ${status}`,
    async () =>
      (await harness.client.call('getTransactionStatus', { path: { reference } })).status ===
      status,
    5000,
  );
}

const ids: Record<string, string> = {};
const need = (key: string): string => {
  const value = ids[key];
  if (value === undefined) throw new Error(`missing ${key}`);
  return value;
};

beforeAll(async () => {
  harness = await startHarness({ deferredBilling: true });
});

afterAll(async () => {
  await harness.close();
});

describe('sandbox contract: clients and vehicles', () => {
  it('creates, reads, lists and updates individuals', async () => {
    const created = await call('createIndividual', {
      body: {
        firstName: 'Lweendo',
        lastName: 'Hakainde',
        phoneNumber: '260977000111',
        email: 'l.hakainde@example.com',
        idNumber: '222222/22/1',
        idType: 'NRC',
      },
    });
    ids.individual = created.id;
    expect((await call('getIndividual', { path: { id: created.id } })).lastName).toBe('Hakainde');
    const page = await call('getIndividuals', { query: { LastName: 'Hakainde', PageSize: 5 } });
    expect(page.data.map((client) => client.id)).toEqual([created.id]);
    const updated = await call('updateIndividual', {
      path: { id: created.id },
      body: { physicalAddress: 'Roma, Lusaka' },
    });
    expect(updated.physicalAddress).toBe('Roma, Lusaka');
  });

  it('creates, reads, lists and updates corporates', async () => {
    const created = await call('createCorporate', {
      body: {
        name: 'Zed Agro Ltd',
        email: 'ops@zedagro.example.com',
        phoneNumber: '260211555000',
        taxPayerId: '1234567890',
        registrationNumber: 'PACRA-555',
      },
    });
    ids.corporate = created.id;
    expect((await call('getCorporate', { path: { id: created.id } })).name).toBe('Zed Agro Ltd');
    const page = await call('getCorporates', { query: { Query: 'Zed Agro' } });
    expect(page.data).toHaveLength(1);
    const updated = await call('updateCorporate', {
      path: { id: created.id },
      body: { sector: 'Agriculture' },
    });
    expect(updated.sector).toBe('Agriculture');
  });

  it('registers a vehicle and finds it by registration, status and anniversary dates', async () => {
    const vehicle = await call('createVehicle', {
      path: { id: need('individual') },
      body: {
        make: 'Nissan',
        model: 'X-Trail',
        yearOfManufacture: 2020,
        registrationNumber: 'BAF 2024',
        chassisNumber: 'CH-1',
        engineNumber: 'EN-1',
        motorRiskCategoryId: 'mrc_private',
      },
    });
    ids.vehicle = vehicle.id;
    const vehicles = await call('getClientVehicles', {
      path: { id: need('individual') },
      query: { Filter: 'NoPolicy' },
    });
    expect(vehicles.data.map((v) => v.id)).toContain(vehicle.id);
    const found = await call('searchVehicleByRegistration', {
      query: { registrationNumber: 'baf2024' },
    });
    expect(found.map((v) => v.id)).toEqual([vehicle.id]);
    const status = await call('getVehicleInsuranceStatus', { path: { vehicleId: vehicle.id } });
    expect(status.insured).toBe(false);
    const dates = await call('getVehicleAnniversaryDates', { path: { vehicleId: vehicle.id } });
    expect(dates.anniversaryDates).toHaveLength(4);
  });
});

describe('sandbox contract: products and pricing', () => {
  it('lists products of every line', async () => {
    const motor = await call('getMotorProducts', { query: { PageNumber: 1, PageSize: 2 } });
    expect(motor).toMatchObject({ totalItems: 3, pageSize: 2, totalPages: 2 });
    expect((await call('getMotorProduct', { path: { productId: '103' } })).productType).toBe(
      'Comprehensive',
    );
    expect((await call('getProducts', {})).totalItems).toBeGreaterThan(5);
    const travel = await call('getTravelProducts', {});
    ids.travelPackage = String(travel.data[0]?.id);
    expect(
      (await call('getTravelProduct', { path: { productId: need('travelPackage') } })).id,
    ).toBe(201);
    const life = await call('getLifeProducts', {});
    expect(
      (await call('getLifeProduct', { path: { productId: String(life.data[0]?.id) } })).name,
    ).toBe('Term Life');
    const creditLife = await call('getCreditLifeProducts');
    expect(creditLife[0]?.rateBands).toHaveLength(3);
    const categories = await call('getMotorRiskCategories');
    expect(categories.map((c) => c.id)).toContain('mrc_private');
  });

  it('prices motor cover with basic, levy and gross premiums', async () => {
    const pricing = await call('getMotorPricing', {
      body: { productId: 101, riskCategoryId: 'mrc_private', startDate: '2026-03-02' },
    });
    expect(pricing.pricingOptions[0]).toMatchObject({
      duration: 1,
      basicPremium: 165,
      levyPremium: 8.25,
      grossPremium: 173.25,
    });
  });
});

const holder = {
  type: 'Individual',
  name: 'Natasha Phiri',
  phone: '260977000111',
  idType: 'NRC',
  idNumber: '222222/22/1',
};

describe('sandbox contract: motor', () => {
  it('inquires, compares, quotes and lists motor quotations', async () => {
    const risks = [
      { motorRiskCategoryId: 'mrc_private', registrationNumber: 'BAF 2024', sumInsured: 200_000 },
    ];
    const base = {
      duration: 12,
      currency: 'ZMW',
      startDate: '2026-03-02',
      policyHolder: holder,
      risks,
    };
    const inquiry = await call('motorQuotationInquiry', { body: { ...base, productId: 103 } });
    expect(inquiry.grossPremium).toBe(10_500);
    const comparison = await call('compareMotorQuotations', {
      body: { ...base, productIds: [102, 103] },
    });
    expect(comparison).toHaveLength(2);
    const quotation = await call('createMotorQuotation', {
      body: {
        productId: 101,
        duration: 4,
        currency: 'ZMW',
        startDate: '2026-03-02',
        clientId: need('individual'),
        risks: [{ vehicleId: need('vehicle') }],
      },
    });
    ids.motorQuote = quotation.id;
    expect(quotation.premium).toBe(693);
    const list = await call('getMotorQuotations', {
      query: { FromDate: '2026-01-01T00:00:00Z', ToDate: '2026-12-31T00:00:00Z' },
    });
    expect(list.data.map((q) => q.id)).toContain(quotation.id);
  });

  it('pays a quotation by mobile money, issues the policy and serves its documents', async () => {
    const paid = await call('payQuotation', {
      path: { quoteId: need('motorQuote') },
      body: { reference: 'motor-pay-1', payment: { mobileMoneyAccountNumber: '0977123456' } },
    });
    expect(paid.status).toBe('Pending');
    await settled('motor-pay-1');
    expect(
      (await call('getTransactionStatus', { path: { reference: 'motor-pay-1' } })).amount,
    ).toBe(693);
    const details = await call('getTransaction', { path: { reference: 'motor-pay-1' } });
    ids.motorPolicy = String(details.policyId);
    expect(await call('getCallbackLogs', { path: { reference: 'motor-pay-1' } })).toEqual([]);
    const policy = await call('getMotorPolicy', { path: { policyId: need('motorPolicy') } });
    expect(policy).toMatchObject({ status: 'Active', premiumStatus: 'Paid' });
    const byPlate = await call('getMotorPolicyByRegistration', {
      query: { registrationNumber: 'BAF 2024' },
    });
    expect(byPlate[0]?.id).toBe(need('motorPolicy'));
    const list = await call('getMotorPolicies', {});
    expect(list.data.map((p) => p.id)).toContain(need('motorPolicy'));
    for (const name of [
      'getMotorPolicyCertificate',
      'getMotorPolicySchedule',
      'getMotorPolicyReceipt',
    ] as const) {
      const pdf = await download(name, { path: { policyId: need('motorPolicy') } });
      expect(pdf.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
      expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    }
  });

  it('quotes, renews and extends a motor policy, with and without paying', async () => {
    const policyId = need('motorPolicy');
    const renewal = await call('getMotorRenewalPremiums', { path: { policyId }, query: {} });
    expect(renewal.grossPremium).toBe(693);
    const extension = await call('getMotorExtensionPremiums', {
      path: { policyId },
      query: { endDate: '2027-04-01' },
    });
    expect(extension.grossPremium).toBeGreaterThan(0);
    const extended = await call('extendMotorPolicy', {
      path: { policyId },
      body: { endDate: '2027-03-15' },
    });
    expect(extended.endDate).toBe('2027-03-15');
    const renewed = await call('renewMotorPolicy', { path: { policyId }, body: {} });
    expect(renewed.startDate).toBe('2027-03-16');
    const renewPaid = await call('renewAndPayMotorPolicy', {
      path: { policyId },
      body: { reference: 'motor-renew-1', payment: { mobileMoneyAccountNumber: '0977123456' } },
    });
    expect(renewPaid.status).toBe('Pending');
    await settled('motor-renew-1');
    const extendPaid = await call('extendAndPayMotorPolicy', {
      path: { policyId },
      body: {
        reference: 'motor-extend-1',
        endDate: '2035-06-30',
        payment: { mobileMoneyAccountNumber: '0977123456' },
      },
    });
    expect(extendPaid.status).toBe('Pending');
    await settled('motor-extend-1');
    expect((await call('getMotorPolicy', { path: { policyId } })).endDate).toBe('2035-06-30');
  });

  it('issues motor policies instantly, from a quotation, and with payment', async () => {
    const body = {
      productId: 101,
      duration: 1,
      currency: 'ZMW',
      startDate: '2026-03-02',
      policyHolder: holder,
      risks: [{ motorRiskCategoryId: 'mrc_commercial', registrationNumber: 'ABC 1' }],
    };
    const issued = await call('instantIssueMotorPolicy', { body });
    expect(issued.policy?.status).toBe('Active');
    const paid = await call('instantIssueAndPayMotorPolicy', {
      body: {
        ...body,
        reference: 'motor-instant-1',
        payment: { mobileMoneyAccountNumber: '260966000777' },
      },
    });
    expect(paid.status).toBe('Pending');
    const quotation = await call('createMotorQuotation', {
      body: {
        productId: 101,
        duration: 1,
        currency: 'ZMW',
        startDate: '2026-03-02',
        clientId: need('individual'),
        risks: [{ vehicleId: need('vehicle') }],
      },
    });
    const fromQuote = await call('issueMotorPolicy', { path: { quoteId: quotation.id }, body: {} });
    expect(fromQuote).toMatchObject({ status: 'Active', premiumStatus: 'Unpaid' });
  });
});

describe('sandbox contract: payments', () => {
  it('lists gateways and takes a farmer premium payment', async () => {
    const gateways = await call('getPaymentGateways');
    expect(gateways.map((g) => g.method)).toEqual(['MobileMoney', 'Card']);
    const farmer = await call('payFarmerPremium', {
      body: {
        reference: 'farmer-1',
        clientId: need('corporate'),
        amount: 250,
        payment: { mobileMoneyAccountNumber: '0977123456' },
      },
    });
    expect(farmer.status).toBe('Pending');
    await settled('farmer-1');
  });
});

describe('sandbox contract: travel, life and general', () => {
  it('quotes, issues and renews travel cover', async () => {
    const quotation = await call('createTravelQuotation', {
      body: {
        packageId: 201,
        destination: 'South Africa',
        startDate: '2026-04-01',
        endDate: '2026-04-10',
      },
    });
    expect(quotation.grossPremium).toBe(126);
    expect((await call('getTravelQuotation', { path: { quoteId: quotation.id } })).id).toBe(
      quotation.id,
    );
    expect((await call('getTravelQuotations', {})).totalItems).toBe(1);
    const policy = await call('issueTravelPolicy', { path: { quoteId: quotation.id }, body: {} });
    expect(policy.policyNumber).toMatch(/^TRV-/);
    expect((await call('getTravelPolicy', { path: { policyId: policy.id } })).id).toBe(policy.id);
    expect((await call('getTravelPolicies', {})).data).toHaveLength(1);
    const pdf = await download('getTravelPolicyCertificate', { path: { policyId: policy.id } });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const renewed = await call('renewTravelPolicy', {
      path: { policyId: policy.id },
      body: { reference: 'travel-renew-1', payment: { mobileMoneyAccountNumber: '0977123456' } },
    });
    expect(renewed.status).toBe('Pending');
    const traveller = { firstName: 'Natasha', lastName: 'Phiri' };
    const viaPolicy = await call('instantIssueTravelPolicy', {
      body: {
        packageId: 202,
        destination: 'Kenya',
        startDate: '2026-05-01',
        beneficiaries: [traveller],
        reference: 'travel-instant-1',
        mobileMoneyAccountNumber: '0977123456',
      },
    });
    expect(viaPolicy.status).toBe('Pending');
    const viaQuotation = await call('instantIssueTravelQuotation', {
      body: {
        packageId: 202,
        destination: 'Kenya',
        startDate: '2026-05-01',
        beneficiaries: [traveller],
        reference: 'travel-instant-2',
      },
    });
    expect(viaQuotation).toMatchObject({ status: 'Quoted', policy: null });
    expect(viaQuotation.grossPremium).toBeGreaterThan(0);
    const paidQuotation = await call('instantIssueTravelQuotation', {
      body: {
        packageId: 202,
        destination: 'Kenya',
        startDate: '2026-05-01',
        beneficiaries: [traveller],
        reference: 'travel-instant-2',
        mobileMoneyAccountNumber: '0977123456',
      },
    });
    expect(paidQuotation).toMatchObject({ status: 'Pending', quoteId: viaQuotation.quoteId });
    await settled('travel-instant-2');
  });

  it('quotes, issues and renews life cover', async () => {
    const quotation = await call('createLifeQuotation', {
      body: { productId: 301, sumAssured: 100_000 },
    });
    expect(quotation.grossPremium).toBe(1260);
    expect((await call('getLifeQuotation', { path: { quoteId: quotation.id } })).id).toBe(
      quotation.id,
    );
    expect((await call('getLifeQuotations', {})).totalItems).toBe(1);
    const policy = await call('issueLifePolicy', { path: { quoteId: quotation.id }, body: {} });
    expect((await call('getLifePolicy', { path: { policyId: policy.id } })).id).toBe(policy.id);
    expect((await call('getLifePolicies', {})).data).toHaveLength(1);
    const pdf = await download('getLifePolicyCertificate', { path: { policyId: policy.id } });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const renewed = await call('renewLifePolicy', {
      path: { quoteId: quotation.id },
      body: { reference: 'life-renew-1', payment: { mobileMoneyAccountNumber: '0977123456' } },
    });
    expect(renewed.status).toBe('Pending');
    const instant = await call('instantIssueLifePolicy', {
      body: { productId: 302, reference: 'life-instant-1' },
    });
    expect(instant.status).toBe('Success');
  });

  it('issues, extends, renews and lists general policies', async () => {
    const body = {
      productId: 401,
      startDate: '2026-03-02',
      endDate: '2027-03-01',
      policyHolder: { clientType: 'Individual', name: 'Natasha Phiri' },
      risks: [{ description: 'House contents', sumInsured: 150_000 }],
    };
    const policy = await call('instantIssueGeneralPolicy', { body });
    expect(policy.status).toBe('Active');
    const extended = await call('extendGeneralPolicy', {
      path: { policyId: policy.id },
      body: { endDate: '2027-06-30' },
    });
    expect(extended.endDate).toBe('2027-06-30');
    const renewed = await call('renewGeneralPolicy', {
      path: { policyId: policy.id },
      body: { startDate: '2027-07-01', endDate: '2028-06-30' },
    });
    expect(renewed.startDate).toBe('2027-07-01');
    const pending = await call('instantIssueGeneralPolicy', {
      body: {
        ...body,
        reference: 'general-instant-1',
        payment: { mobileMoneyAccountNumber: '0977123451' },
      },
    });
    // The declined payment must end first: a quotation is never issued around a running payment.
    await settled('general-instant-1', 'Failed');
    const issued = await call('issueGeneralPolicy', { path: { quoteId: pending.id }, body: {} });
    expect(issued.policyNumber).toMatch(/^GEN-/);
    expect((await call('getPolicies', { query: { PageSize: 50 } })).totalItems).toBeGreaterThan(5);
  });
});

describe('sandbox contract: credit life', () => {
  it('opens a policy on a negotiated quotation and places loans', async () => {
    const quotations = await call('getCreditLifeQuotations');
    const approved = quotations.find((q) => q.status === 'Approved');
    ids.clQuotation = String(approved?.id);
    expect(
      (await call('getCreditLifeQuotation', { path: { quotationId: need('clQuotation') } }))
        .rateBands,
    ).toHaveLength(3);
    const policy = await call('createCreditLifePolicy', {
      body: { quotationId: need('clQuotation'), startDate: '2026-03-02' },
    });
    ids.clPolicy = policy.id;
    expect((await call('getCreditLifePolicy', { path: { policyId: policy.id } })).status).toBe(
      'Active',
    );
    expect((await call('getCreditLifePolicies', {})).data.map((p) => p.id)).toContain(policy.id);
    const quote = await call('quoteCreditLifeLoan', {
      path: { policyId: policy.id },
      body: { amount: 10_000, startDate: '2026-03-02', endDate: '2027-03-01' },
    });
    expect(quote.grossPremium).toBe(105);
    const batch = await call('placeLoans', {
      path: { policyId: policy.id },
      body: { loans: [loanRow('L-1'), loanRow('L-2', { nrcNumber: '222222/22/2' })] },
    });
    ids.clBatch = batch.id;
    const single = await call('placeSingleLoan', {
      path: { policyId: policy.id },
      body: loanRow('L-3', { nrcNumber: '333333/33/3' }),
    });
    expect(single.type).toBe('Addition');
    const paid = await call('placeLoansAndPay', {
      path: { policyId: policy.id },
      body: {
        loans: [loanRow('L-4', { nrcNumber: '444444/44/4' })],
        payment: { reference: 'cl-pay-1', mobileMoneyAccountNumber: '0977123456' },
      },
    });
    expect(paid.payment.status).toBe('Pending');
    await settled('cl-pay-1');
  });

  it('reads batches, loans, status and the bordereau', async () => {
    const policyId = need('clPolicy');
    const batch = await call('getCreditLifeBatch', { path: { scheduleId: need('clBatch') } });
    expect(batch.outstandingPremium).toBe(210);
    expect((await call('getCreditLifeBatches', { path: { policyId } })).totalItems).toBe(3);
    const loanId = String(batch.loans?.[0]?.id);
    expect(
      (await call('getCoveredLoan', { path: { policyId, loanId } })).partnerLoanReference,
    ).toBe('L-1');
    const byRef = await call('getCoveredLoanByReference', {
      path: { policyId },
      query: { partnerLoanReference: 'L-2' },
    });
    expect(byRef.nrcNumber).toBe('222222/22/2');
    expect((await call('searchCoveredLoans', { path: { policyId }, query: {} })).totalItems).toBe(
      4,
    );
    expect((await call('getCreditLifePolicyStatus', { path: { policyId } })).status).toBe('Active');
    const csv = (await download('getCreditLifeBordereau', { path: { policyId } })).toString('utf8');
    expect(csv.split('\r\n')[0]).toMatch(/^policyNumber,loanId,partnerLoanReference/);
    expect(csv).toContain('L-4');
  });

  it('pays a schedule, renews and renews with loans', async () => {
    const policyId = need('clPolicy');
    const payment = await call('payCreditLifeSchedule', {
      path: { scheduleId: need('clBatch') },
      body: { reference: 'cl-schedule-1', mobileMoneyAccountNumber: '0977123456' },
    });
    expect(payment.status).toBe('Pending');
    await settled('cl-schedule-1');
    harness.clock.advanceDays(31);
    const premiums = await call('getCreditLifeRenewalPremiums', { path: { policyId } });
    expect(premiums.unpaidPeriods).toEqual([1]);
    const renewed = await call('renewCreditLifePolicy', { path: { policyId } });
    expect(renewed.status).toBe('InGrace');
    const renewPaid = await call('renewAndPayCreditLifePolicy', {
      path: { policyId },
      body: { reference: 'cl-renew-1', mobileMoneyAccountNumber: '0977123456' },
    });
    expect(renewPaid.payment.status).toBe('Pending');
    await settled('cl-renew-1');
    const withLoans = await call('renewCreditLifePolicyWithLoans', {
      path: { policyId },
      body: { loans: [loanRow('L-1'), loanRow('L-5', { nrcNumber: '555555/55/5' })] },
    });
    expect(withLoans.skipped?.map((row) => row.partnerLoanReference)).toEqual(['L-1']);
    const withLoansPaid = await call('renewAndPayCreditLifePolicyWithLoans', {
      path: { policyId },
      body: {
        loans: [loanRow('L-6', { nrcNumber: '666666/66/6' })],
        payment: { reference: 'cl-renew-loans-1', mobileMoneyAccountNumber: '0977123456' },
      },
    });
    expect(withLoansPaid.schedule.totalLoans).toBe(1);
  });

  it('takes loans off cover, intimates and documents a claim', async () => {
    const policyId = need('clPolicy');
    const off = await call('takeLoansOffCover', {
      path: { policyId },
      body: { loans: [{ partnerLoanReference: 'L-2' }] },
    });
    expect(off.removed).toBe(1);
    const claim = await call('intimateCreditLifeClaim', {
      path: { policyId },
      body: {
        partnerLoanReference: 'L-1',
        claimType: 'Death',
        lossDate: harness.clock.now().toISOString(),
      },
    });
    expect(claim.status).toBe('Intimated');
    expect((await call('getCreditLifeClaim', { path: { claimId: claim.id } })).id).toBe(claim.id);
    // The demo book holds one Intimated credit-life claim already.
    expect((await call('getCreditLifeClaims', { query: { Status: 'Intimated' } })).totalItems).toBe(
      2,
    );
    const documented = await call('attachCreditLifeClaimDocuments', {
      path: { claimId: claim.id },
      body: { documents: [{ url: 'https://files.example.com/death-certificate.pdf' }] },
    });
    expect(documented.status).toBe('Documented');
  });

  it('buys cover in one call', async () => {
    const bought = await call('buyCreditLifeCover', {
      body: {
        quotationId: need('clQuotation'),
        client: {
          firstName: 'Mutinta',
          lastName: 'Hamoonga',
          phoneNumber: '260955000333',
          email: 'mh@example.com',
          idNumber: '777777/77/7',
          idType: 'NRC',
        },
        loans: [loanRow('B-1')],
        payment: { reference: 'cl-buy-1', mobileMoneyAccountNumber: '0977123456' },
      },
    });
    expect(bought.policy.status).toBe('Active');
    expect(bought.payment?.status).toBe('Pending');
  });
});

describe('sandbox contract: group life and group funeral', () => {
  it('opens a policy, enrols, quotes a census and reads members', async () => {
    const quotations = await call('getGroupLifeQuotations');
    const approved = quotations.find((q) => q.status === 'Approved');
    const quotationId = String(approved?.id);
    expect((await call('getGroupLifeQuotation', { path: { quotationId } })).id).toBe(quotationId);
    const policy = await call('createGroupLifePolicy', {
      body: { quotationId, startDate: '2026-03-02' },
    });
    ids.glPolicy = policy.id;
    expect((await call('getGroupLifePolicy', { path: { policyId: policy.id } })).status).toBe(
      'Active',
    );
    // One more than the demo book's group-life policy.
    expect((await call('getGroupLifePolicies', {})).totalItems).toBe(2);
    const batch = await call('enrolGroupLifeBatch', {
      path: { policyId: policy.id },
      body: { members: [memberRow('100001/10/1'), memberRow('100002/10/1')] },
    });
    expect(batch.status).toBe('Approved');
    expect((await call('getGroupLifeBatch', { path: { batchId: batch.id } })).id).toBe(batch.id);
    expect((await call('getGroupLifeBatches', { path: { policyId: policy.id } })).totalItems).toBe(
      1,
    );
    const census = await call('quoteGroupLifeCensus', {
      path: { policyId: policy.id },
      body: { members: [memberRow('100003/10/1', 400_000)] },
    });
    expect(census.freeCoverExcess).toBe(700_000);
    const member = await call('getCoveredMemberByNrc', {
      path: { policyId: policy.id },
      query: { nrcNumber: '100001/10/1' },
    });
    ids.glMember = String(member.id);
    expect(
      (
        await call('getCoveredMember', {
          path: { policyId: policy.id, memberId: need('glMember') },
        })
      ).nrcNumber,
    ).toBe('100001/10/1');
    expect(
      (await call('searchCoveredMembers', { path: { policyId: policy.id }, query: {} })).totalItems,
    ).toBe(2);
    const csv = (
      await download('getGroupLifeBordereau', { path: { policyId: policy.id } })
    ).toString();
    expect(csv).toContain('100002/10/1');
  });

  it('takes members off cover and handles a death claim', async () => {
    const policyId = need('glPolicy');
    const off = await call('takeMembersOffCover', {
      path: { policyId },
      body: { nrcNumbers: ['100002/10/1'] },
    });
    expect(off.removed).toBe(1);
    const claim = await call('intimateGroupLifeClaim', {
      path: { policyId },
      body: { memberId: need('glMember'), lossDate: '2026-03-20' },
    });
    expect(claim.payable).toMatchObject({ sumAssured: 180_000 });
    expect((await call('getGroupLifeClaim', { path: { claimId: claim.id } })).status).toBe(
      'Intimated',
    );
    // One more than the demo book's Documented death claim.
    expect((await call('getGroupLifeClaims', {})).totalItems).toBe(2);
    const documented = await call('attachGroupLifeClaimDocuments', {
      path: { claimId: claim.id },
      body: { documents: [{ url: 'https://files.example.com/burial-permit.pdf' }] },
    });
    expect(documented.status).toBe('Documented');
  });

  it('looks up a funeral household by the principal NRC', async () => {
    const household = await call('getGroupFuneralHouseholdByNrc', {
      query: { nrcNumber: SEED.funeralPrincipalNrc },
    });
    expect(household.policy?.policyNumber).toBe('GF-2025-000001');
  });
});

describe('sandbox contract: coverage', () => {
  it('exercised every operation of the contract table', () => {
    const missing = operationNames.filter((name) => !exercised.has(name));
    expect(missing).toEqual([]);
  });
});
