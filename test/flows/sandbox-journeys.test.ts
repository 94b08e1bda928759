import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prompt } from '../../src/conversation/prompt.js';
import type { Reply } from '../../src/conversation/reply.js';
import { daysAgo } from './fixtures.js';
import { type SandboxWorld, startSandboxWorld } from './sandbox-world.js';

let world: SandboxWorld;
beforeAll(async () => {
  world = await startSandboxWorld();
});
afterAll(async () => {
  await world.close();
});

const choose = (id: string): Reply => ({ type: 'user.choice', id });
const type = (text: string): Reply => ({ type: 'user.text', text });

async function converse(
  key: string,
  replies: Reply[],
  audience: 'policyholder' | 'staff' = 'policyholder',
) {
  const shown: Prompt[] = [];
  for (const reply of replies) {
    shown.push(await world.engine.handle(key, reply, { audience, deadlineMs: 10_000 }));
  }
  return shown;
}

describe('motor cover against the sandbox insurer', () => {
  it('quotes a registered vehicle for a known policyholder and waits for mobile money', async () => {
    const shown = await converse('test:motor:1', [type('hi'), choose('motor'), choose('new')]);
    const products = shown.at(-1);
    expect(products?.key).toBe('motor.pickProduct');
    const thirdParty = products?.choices?.find((c) => c.label === 'Motor Third Party');
    expect(thirdParty).toBeDefined();
    const rest = await converse('test:motor:1', [
      choose(thirdParty?.id ?? ''),
      type('AJQ 1909'),
      choose('yes'),
    ]);
    const durations = rest.at(-1);
    expect(durations?.key, JSON.stringify(rest)).toBe('motor.pickDuration');
    const holder = await converse('test:motor:1', [
      choose(durations?.choices?.[0]?.id ?? ''),
      type('0971234567'),
    ]);
    expect(holder.at(-1)?.key, JSON.stringify(holder)).toBe('motor.confirmHolder');
    const pay = await converse('test:motor:1', [choose('yes')]);
    expect(pay.at(-1)?.key, JSON.stringify(pay)).toBe('motor.confirmQuote');
    const wait = await converse('test:motor:1', [choose('other'), type('0971234567')]);
    expect(wait.at(-1)?.key, JSON.stringify(wait)).toBe('pay.waitPhone');
  });
});

/** Opens credit-life and group-life cover for the seeded borrower through the API itself. */
async function openCover(nrcNumber: string) {
  const { client } = world;
  const start = '2025-01-01';
  // Recent enough that the loan's cover has not lapsed and a recent loss is in the claim window.
  const creditStart = daysAgo(20).iso;
  const creditQuote = (await client.call('getCreditLifeQuotations')).find(
    (q) => q.status === 'Approved',
  );
  const credit = await client.call('createCreditLifePolicy', {
    body: { quotationId: String(creditQuote?.id ?? ''), startDate: creditStart },
  });
  const creditPolicyId = String(credit.id);
  await client.call('placeSingleLoan', {
    path: { policyId: creditPolicyId },
    body: {
      fullName: 'Mwila Banda',
      nrcNumber,
      dateOfBirth: '1985-04-12',
      amount: 15000,
      startDate: creditStart,
      endDate: '2027-12-31',
      partnerLoanReference: 'KL-JOURNEY-1',
    },
  });
  const lifeQuote = (await client.call('getGroupLifeQuotations')).find(
    (q) => q.status === 'Approved',
  );
  const life = await client.call('createGroupLifePolicy', {
    body: { quotationId: String(lifeQuote?.id ?? ''), startDate: start },
  });
  const lifePolicyId = String(life.id);
  await client.call('enrolGroupLifeBatch', {
    path: { policyId: lifePolicyId },
    body: {
      members: [
        { fullName: 'Mwila Banda', nrcNumber, dateOfBirth: '1985-04-12', annualSalary: 120000 },
      ],
      currency: 'ZMW',
    },
  });
  return { creditPolicyId, lifePolicyId };
}

describe('claims and cover against the sandbox insurer', () => {
  let policies: { creditPolicyId: string; lifePolicyId: string };
  beforeAll(async () => {
    policies = await openCover('479974/11/1');
  });

  it('intimates a credit-life claim by partner reference, shows the payable and documents it', async () => {
    const shown = await converse('test:claim:1', [
      type('hi'),
      choose('claim'),
      choose('credit-life'),
      type(policies.creditPolicyId),
      choose('partnerLoanReference'),
      type('KL-JOURNEY-1'),
      choose('death'),
      type(daysAgo(10).typed),
      type('Road accident'),
      choose('submit'),
    ]);
    const intimated = shown.at(-1);
    expect(intimated?.key, JSON.stringify(intimated)).toBe('claim.intimated.payable');
    expect(intimated?.params?.status).toBe('Intimated');
    const documented = await converse('test:claim:1', [
      choose('attach'),
      { type: 'user.photo', url: 'https://files.test/f/death-certificate.jpg?sig=x' },
    ]);
    expect(documented.at(-1)?.key).toBe('claim.documented');
    expect(documented.at(-1)?.params?.status).toBe('Documented');
  });

  it('intimates a group-life death claim by NRC', async () => {
    const shown = await converse('test:claim:2', [
      type('hi'),
      choose('claim'),
      choose('group-life'),
      type(policies.lifePolicyId),
      choose('nrcNumber'),
      type('479974111'),
      type('10/06/2025'),
      type('Illness'),
      choose('submit'),
    ]);
    expect(shown.at(-1)?.key, JSON.stringify(shown.at(-1))).toMatch(/^claim\.intimated/);
  });

  it('finds the life cover and the loan on cover for the NRC', async () => {
    const shown = await converse('test:cover:1', [
      type('hi'),
      choose('policies'),
      type('479974111'),
    ]);
    const summary = shown.at(-1);
    expect(summary?.key, JSON.stringify(summary)).toBe('cover.summary');
    expect(summary?.params).toMatchObject({ life: 1, loans: 1 });
    const loans = await converse('test:cover:1', [choose('loans')]);
    expect(loans.at(-1)?.notes?.[0]?.params?.reference).toBe('KL-JOURNEY-1');
  });

  it('gives staff the bordereau of a policy as a link', async () => {
    const shown = await converse(
      'test:staff:1',
      [type('hi'), choose('desk'), type(`bordereau ${policies.creditPolicyId}`)],
      'staff',
    );
    const result = shown.at(-1);
    expect(result?.key, JSON.stringify(result)).toBe('staff.bordereau');
    expect(result?.attachments?.[0]?.url).toMatch(/^https:\/\/files\.test\//);
  });
});
