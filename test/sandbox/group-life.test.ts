import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEED } from '../../src/sandbox/index.js';
import { type Harness, memberRow, raw, startHarness } from './sandbox-harness.js';

/* Group-life and group-funeral rules of the spec's "States and transitions" and "Errors". */

let harness: Harness;
let approvedQuotation: string;
let policyId: string;

beforeEach(async () => {
  harness = await startHarness();
  const quotations = await harness.client.call('getGroupLifeQuotations');
  approvedQuotation = String(quotations.find((q) => q.status === 'Approved')?.id);
  const policy = await harness.client.call('createGroupLifePolicy', {
    body: { quotationId: approvedQuotation, startDate: '2026-03-02' },
  });
  policyId = policy.id;
});

afterEach(async () => {
  await harness.close();
});

describe('group-life policies', () => {
  it('a policy opened on an approved quotation keeps the age-rate table frozen at creation', async () => {
    const before = await harness.client.call('quoteGroupLifeCensus', {
      path: { policyId },
      body: { members: [memberRow('200001/10/1')] },
    });
    const quotation = harness.sandbox.state.groupLifeQuotations.get(approvedQuotation);
    for (const rate of quotation?.ageRates ?? []) rate.ratePerMille *= 2;
    const after = await harness.client.call('quoteGroupLifeCensus', {
      path: { policyId },
      body: { members: [memberRow('200001/10/1')] },
    });
    expect(after.grossPremium).toBe(before.grossPremium);
  });

  it("the policyholder is the quotation's corporate client and cannot be changed", async () => {
    const policy = await harness.client.call('getGroupLifePolicy', { path: { policyId } });
    const quotation = await harness.client.call('getGroupLifeQuotation', {
      path: { quotationId: approvedQuotation },
    });
    expect(policy.clientId).toBe(quotation.clientId);
    const other = await raw(harness, 'POST', '/group-life/policies', {
      quotationId: approvedQuotation,
      clientId: 'cli_somebody_else',
    });
    expect(other.status).toBe(422);
    expect(other.body.errors).toHaveProperty('clientId');
  });

  it('a policy cannot be opened on a quotation that is not approved', async () => {
    const quotations = await harness.client.call('getGroupLifeQuotations');
    const pending = quotations.find((q) => q.status === 'Pending');
    const response = await raw(harness, 'POST', '/group-life/policies', {
      quotationId: pending?.id,
    });
    expect(response.status).toBe(422);
  });
});

describe('group-life enrolment', () => {
  it('an approved (straight-through) batch puts members on risk and leaves the premium owed as outstandingPremium, collecting no money', async () => {
    const batch = await harness.client.call('enrolGroupLifeBatch', {
      path: { policyId },
      body: { members: [memberRow('300001/10/1'), memberRow('300002/10/1')] },
    });
    // 2 × (60 000 × 3 × 1.5‰) = 540, plus the 5% levy.
    expect(batch).toMatchObject({
      status: 'Approved',
      netPremium: 540,
      levy: 27,
      grossPremium: 567,
    });
    expect(batch.outstandingPremium).toBe(567);
    expect(batch.amountReceipted).toBe(0);
    const member = await harness.client.call('getCoveredMemberByNrc', {
      path: { policyId },
      query: { nrcNumber: '300001/10/1' },
    });
    expect(member.status).toBe('Active');
    expect(harness.sandbox.payments.all()).toHaveLength(0);
  });

  it('a group-life batch returned Pending is not approved, and its members are not covered', async () => {
    // A member outside the policy's age table (76 on the enrolment date) holds the batch back.
    const batch = await harness.client.call('enrolGroupLifeBatch', {
      path: { policyId },
      body: {
        members: [
          memberRow('400001/10/1'),
          { ...memberRow('400002/10/1'), dateOfBirth: '1950-01-01' },
        ],
      },
    });
    expect(batch.status).toBe('Pending');
    const member = await harness.client.call('getCoveredMemberByNrc', {
      path: { policyId },
      query: { nrcNumber: '400001/10/1' },
    });
    expect(member.status).toBe('Pending');
    const claim = await raw(harness, 'POST', `/group-life/policies/${policyId}/claims`, {
      nrcNumber: '400001/10/1',
      lossDate: '2026-03-10',
    });
    expect(claim.status).toBe(422);
  });

  it('mid-term additions are pro-rated to the remaining period', async () => {
    const full = await harness.client.call('enrolGroupLifeBatch', {
      path: { policyId },
      body: { members: [{ ...memberRow('500001/10/1'), dateOfBirth: '1995-01-01' }] },
    });
    harness.clock.set(new Date('2026-09-01T08:00:00.000Z'));
    const midTerm = await harness.client.call('enrolGroupLifeBatch', {
      path: { policyId },
      body: {
        members: [{ ...memberRow('500002/10/1'), dateOfBirth: '1995-01-01' }],
        midTermAddition: true,
      },
    });
    expect(midTerm.type).toBe('MidTermAddition');
    const ratio = Number(midTerm.netPremium) / Number(full.netPremium);
    expect(ratio).toBeCloseTo(182 / 365, 2);
  });

  it('a census quote with non-zero freeCoverExcess needs underwriting, and persists nothing', async () => {
    const members = harness.sandbox.state.members.size;
    const batches = harness.sandbox.state.groupLifeBatches.size;
    const quote = await harness.client.call('quoteGroupLifeCensus', {
      path: { policyId },
      body: { members: [memberRow('600001/10/1'), memberRow('600002/10/1', 200_000)] },
    });
    // 200 000 × 3 = 600 000 against a free cover limit of 500 000.
    expect(quote.freeCoverExcess).toBe(100_000);
    expect(quote.totalMembers).toBe(2);
    expect(harness.sandbox.state.members.size).toBe(members);
    expect(harness.sandbox.state.groupLifeBatches.size).toBe(batches);
  });
});

describe('group-life members and claims', () => {
  beforeEach(async () => {
    await harness.client.call('enrolGroupLifeBatch', {
      path: { policyId },
      body: { members: [memberRow('700001/10/1'), memberRow('700002/10/1', 80_000)] },
    });
  });

  it('members taken off cover raise a deletion endorsement with no pro-rata refund', async () => {
    const off = await harness.client.call('takeMembersOffCover', {
      path: { policyId },
      body: { nrcNumbers: ['700001/10/1'] },
    });
    expect(off).toMatchObject({ removed: 1, endorsementType: 'Deletion', refundAmount: 0 });
    const member = await harness.client.call('getCoveredMemberByNrc', {
      path: { policyId },
      query: { nrcNumber: '700001/10/1' },
    });
    expect(member.status).toBe('Removed');
  });

  it("a death claim is created Intimated and pays the member's sum assured", async () => {
    const claim = await harness.client.call('intimateGroupLifeClaim', {
      path: { policyId },
      body: { nrcNumber: '700002/10/1', lossDate: '2026-03-15', causeOfDeath: 'Illness' },
    });
    expect(claim.status).toBe('Intimated');
    expect(claim.payable).toMatchObject({ sumAssured: 240_000, totalPayable: 240_000 });
    const documented = await harness.client.call('attachGroupLifeClaimDocuments', {
      path: { claimId: claim.id },
      body: {
        documents: [{ url: 'https://files.example.com/death.pdf', name: 'Death certificate' }],
      },
    });
    expect(documented.status).toBe('Documented');
  });

  it('members identified by both memberId and nrcNumber, or memberIds and nrcNumbers, are invalid', async () => {
    const member = await harness.client.call('getCoveredMemberByNrc', {
      path: { policyId },
      query: { nrcNumber: '700001/10/1' },
    });
    const claim = await raw(harness, 'POST', `/group-life/policies/${policyId}/claims`, {
      memberId: member.id,
      nrcNumber: '700001/10/1',
      lossDate: '2026-03-15',
    });
    expect(claim.status).toBe(400);
    expect(claim.body.errors).toHaveProperty('nrcNumber');
    const off = await raw(harness, 'POST', `/group-life/policies/${policyId}/members/off-cover`, {
      memberIds: [member.id],
      nrcNumbers: ['700001/10/1'],
    });
    expect(off.status).toBe(400);
    expect(off.body.errors).toHaveProperty('nrcNumbers');
  });

  it('the member register (bordereau) downloads as CSV', async () => {
    const csv = (
      await fetch(`${harness.url}/group-life/policies/${policyId}/bordereau`, {
        headers: { authorization: 'Bearer test-key' },
      }).then((response) => response.text())
    ).trimEnd();
    const [header, ...rows] = csv.split('\r\n');
    expect(header).toBe(
      'policyNumber,memberId,fullName,nrcNumber,annualSalary,sumAssured,premium,status,batchId',
    );
    expect(rows).toHaveLength(2);
  });
});

describe('group funeral', () => {
  it("a covered household is looked up by the principal's NRC", async () => {
    const household = await harness.client.call('getGroupFuneralHouseholdByNrc', {
      query: { nrcNumber: SEED.funeralPrincipalNrc },
    });
    expect(household.client?.idNumber).toBe(SEED.funeralPrincipalNrc);
    expect(household.policy?.status).toBe('Active');
  });

  it('an NRC with no household is not found', async () => {
    const response = await raw(
      harness,
      'GET',
      '/group-funeral/members/by-nrc?nrcNumber=999999%2F99%2F9',
    );
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ status: 404, errors: {} });
  });
});

/* Issue 12: errors rule 7 exactly, through the real client over HTTP. */
describe('group-life free cover limit (issue 12)', () => {
  it('only the cover above the free-cover limit awaits underwriting: the member over the limit is on risk up to the limit, members under it are covered at once', async () => {
    const batch = await harness.client.call('enrolGroupLifeBatch', {
      path: { policyId },
      // Sums assured: 3 × 60 000 = 180 000 (under the 500 000 limit) and 3 × 400 000 = 1 200 000.
      body: { members: [memberRow('510001/10/1'), memberRow('510002/10/1', 400_000)] },
    });
    expect(batch.status).toBe('Approved');
    // Premium on the cover on risk: (180 000 + 500 000) × 1.5‰ = 1 020, plus the 5% levy.
    expect(batch).toMatchObject({ netPremium: 1020, grossPremium: 1071 });
    const under = await harness.client.call('getCoveredMemberByNrc', {
      path: { policyId },
      query: { nrcNumber: '510001/10/1' },
    });
    expect(under).toMatchObject({
      status: 'Active',
      coveredAmount: 180_000,
      freeCoverExcess: 0,
      underwriting: 'NotRequired',
    });
    const over = await harness.client.call('getCoveredMemberByNrc', {
      path: { policyId },
      query: { nrcNumber: '510002/10/1' },
    });
    expect(over).toMatchObject({
      status: 'Active',
      sumAssured: 1_200_000,
      coveredAmount: 500_000,
      freeCoverExcess: 700_000,
      underwriting: 'Pending',
    });
    const claim = await harness.client.call('intimateGroupLifeClaim', {
      path: { policyId },
      body: { nrcNumber: '510002/10/1', lossDate: '2026-03-02' },
    });
    expect(claim.payable).toMatchObject({ totalPayable: 500_000, awaitingUnderwriting: 700_000 });
  });
});
