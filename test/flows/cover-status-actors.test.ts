import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coverByNrc } from '../../flows/cover-status-actors.js';
import { type SandboxWorld, startSandboxWorld } from './sandbox-world.js';

let world: SandboxWorld;
beforeAll(async () => {
  world = await startSandboxWorld();
});
afterAll(async () => {
  await world.close();
});

const START = '2026-01-01';

async function groupLifePolicies(count: number): Promise<string[]> {
  const quote = (await world.client.call('getGroupLifeQuotations')).find(
    (q) => q.status === 'Approved',
  );
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const policy = await world.client.call('createGroupLifePolicy', {
      body: { quotationId: String(quote?.id ?? ''), startDate: START },
    });
    ids.push(String(policy.id));
  }
  return ids;
}

describe('cover by NRC against the sandbox insurer', () => {
  it('finds a member enrolled on the 12th of 12 group-life policies (every page is read)', async () => {
    const nrc = '612612/12/1';
    const policies = await groupLifePolicies(12);
    const twelfth = policies.at(-1) ?? '';
    await world.client.call('enrolGroupLifeBatch', {
      path: { policyId: twelfth },
      body: {
        members: [
          {
            fullName: 'Twelfth Member',
            nrcNumber: nrc,
            dateOfBirth: '1985-01-01',
            annualSalary: 60000,
          },
        ],
        currency: 'ZMW',
      },
    });
    const { holdings } = await coverByNrc(world.client, nrc);
    const member = holdings.filter((h) => h.line === 'group-life');
    expect(member).toHaveLength(1);
    expect(member[0]).toMatchObject({
      policyId: twelfth,
      status: 'Active',
      covers: 'Twelfth Member',
    });
  });

  it('shows a loan repaid early as Closed and the loan still on risk with its own status', async () => {
    const nrc = '734734/10/1';
    const quote = (await world.client.call('getCreditLifeQuotations')).find(
      (q) => q.status === 'Approved' && !q.requiresPrepayment,
    );
    const policy = await world.client.call('createCreditLifePolicy', {
      body: {
        quotationId: String(quote?.id ?? ''),
        startDate: new Date().toISOString().slice(0, 10),
      },
    });
    const policyId = String(policy.id);
    const loan = (reference: string) => ({
      fullName: 'Two Loans',
      nrcNumber: nrc,
      dateOfBirth: '1990-01-01',
      amount: 10000,
      startDate: new Date().toISOString().slice(0, 10),
      endDate: '2029-12-31',
      partnerLoanReference: reference,
    });
    await world.client.call('placeSingleLoan', { path: { policyId }, body: loan('KL-OPEN') });
    await world.client.call('placeSingleLoan', { path: { policyId }, body: loan('KL-REPAID') });
    await world.client.call('takeLoansOffCover', {
      path: { policyId },
      body: { loans: [{ partnerLoanReference: 'KL-REPAID' }] },
    });
    const { holdings } = await coverByNrc(world.client, nrc);
    const loans = Object.fromEntries(
      holdings.filter((h) => h.line === 'credit-life').map((h) => [h.number, h.status]),
    );
    expect(loans['KL-REPAID']).toBe('Closed');
    // The policy's first period is unpaid but within grace: the open loan is on risk, in grace.
    expect(loans['KL-OPEN']).toMatch(/^(Active|InGrace)$/);
  });

  it('counts the policyholder registry and the funeral household as the phones on record', async () => {
    const { phones, holdings } = await coverByNrc(world.client, '123456/10/1');
    expect(phones).toContain('260966000444');
    expect(holdings.some((h) => h.line === 'funeral')).toBe(true);
  });
});
