import { afterEach, describe, expect, it } from 'vitest';
import { ApiNotFoundError } from '../../src/api/index.js';
import {
  createManualClock,
  DEMO_BOOK,
  type DemoPerson,
  SANDBOX_TEST_MSISDNS,
} from '../../src/sandbox/index.js';
import { type Harness, startHarness } from './sandbox-harness.js';

/* The demo book (issue 11): seeded at every start as DEMO_BOOK describes, read over HTTP. */

let harness: Harness;
let started: Harness[] = [];

async function start(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  harness = await startHarness(options);
  started.push(harness);
  return harness;
}

afterEach(async () => {
  await Promise.all(started.map((one) => one.close()));
  started = [];
});

const DAY_MS = 86_400_000;
const dayOf = (at: Date, plusDays = 0) =>
  new Date(at.getTime() + plusDays * DAY_MS).toISOString().slice(0, 10);

async function phoneOnRecord(who: DemoPerson): Promise<string | null | undefined> {
  const page = await harness.client.call('getIndividuals', {
    query: { IdNumber: who.nrcNumber, PageSize: 5 },
  });
  expect(page.data).toHaveLength(1);
  return page.data[0]?.phoneNumber;
}

describe('the demo book', () => {
  it.each([
    ['the test clock', '2026-03-02T08:00:00.000Z'],
    ['a date years later', '2031-07-19T15:30:00.000Z'],
  ])('is seeded with dates relative to the sandbox clock (%s)', async (_label, at) => {
    const clock = createManualClock(new Date(at));
    await start({ clock });
    const now = clock.now();
    const { motor } = DEMO_BOOK;

    const [insured] = await harness.client.call('getMotorPolicyByRegistration', {
      query: { registrationNumber: motor.insured.registrationNumber },
    });
    expect(insured).toMatchObject({
      id: motor.insured.policyId,
      policyNumber: motor.insured.policyNumber,
      status: 'Active',
      premiumStatus: 'Paid',
      startDate: dayOf(now, -motor.insured.startedDaysAgo),
    });
    const [renewal] = await harness.client.call('getMotorPolicyByRegistration', {
      query: { registrationNumber: motor.renewal.registrationNumber },
    });
    expect(renewal).toMatchObject({
      id: motor.renewal.policyId,
      policyNumber: motor.renewal.policyNumber,
      status: 'Active',
      endDate: dayOf(now, motor.renewal.endsInDays),
    });

    const household = await harness.client.call('getGroupFuneralHouseholdByNrc', {
      query: { nrcNumber: DEMO_BOOK.funeral.principal.nrcNumber },
    });
    expect(household.policy?.startDate).toBe(dayOf(now, -DEMO_BOOK.funeral.startedDaysAgo));
    expect(String(household.policy?.endDate) > dayOf(now)).toBe(true);

    const grace = await harness.client.call('getCreditLifePolicyStatus', {
      path: { policyId: DEMO_BOOK.creditLife.inGrace.policyId },
    });
    expect(grace.status).toBe('InGrace');
  });

  it('offers a plate that was never registered nor insured, for buying cover for a new car', async () => {
    await start();
    const plate = DEMO_BOOK.motor.newPlate;
    const found = await harness.client.call('searchVehicleByRegistration', {
      query: { registrationNumber: plate },
    });
    expect(found).toEqual([]);
    await expect(
      harness.client.call('getMotorPolicyByRegistration', { query: { registrationNumber: plate } }),
    ).rejects.toBeInstanceOf(ApiNotFoundError);
  });

  it('keeps the outcome-by-last-digit test numbers', () => {
    expect(DEMO_BOOK.testNumbers).toBe(SANDBOX_TEST_MSISDNS);
    expect(DEMO_BOOK.testNumbers.map((entry) => entry.outcome)).toEqual([
      'declined',
      'insufficient-funds',
      'expires',
      'success',
    ]);
  });

  it('gives every demo person a phone on record', async () => {
    await start();
    const { motor, groupLife, creditLife, funeral } = DEMO_BOOK;
    for (const who of [motor.holder, groupLife.member, groupLife.deceased, creditLife.borrower]) {
      expect(await phoneOnRecord(who)).toBe(who.phoneNumber);
    }
    const household = await harness.client.call('getGroupFuneralHouseholdByNrc', {
      query: { nrcNumber: funeral.principal.nrcNumber },
    });
    expect(household.client?.phoneNumber).toBe(funeral.principal.phoneNumber);
    expect(household.policy?.policyNumber).toBe(funeral.policyNumber);
  });

  it('holds a group-life member on cover, and a Documented death claim of a colleague', async () => {
    await start();
    const { groupLife, claims } = DEMO_BOOK;
    const policy = await harness.client.call('getGroupLifePolicy', {
      path: { policyId: groupLife.policyId },
    });
    expect(policy.policyNumber).toBe(groupLife.policyNumber);
    const member = await harness.client.call('getCoveredMemberByNrc', {
      path: { policyId: groupLife.policyId },
      query: { nrcNumber: groupLife.member.nrcNumber },
    });
    expect(member).toMatchObject({ status: 'Active', phoneNumber: groupLife.member.phoneNumber });
    const claim = await harness.client.call('getGroupLifeClaim', {
      path: { claimId: claims.documented.id },
    });
    expect(claim).toMatchObject({
      claimNumber: claims.documented.claimNumber,
      status: 'Documented',
      nrcNumber: groupLife.deceased.nrcNumber,
    });
  });

  it('holds a credit-life borrower with loans Active, Closed, Pending and InGrace, and an Intimated claim', async () => {
    await start();
    const { creditLife, claims } = DEMO_BOOK;
    const loansOn = async (policyId: string) =>
      (
        await harness.client.call('searchCoveredLoans', {
          path: { policyId },
          query: { nrcNumber: creditLife.borrower.nrcNumber },
        })
      ).data.map((loan) => [loan.partnerLoanReference, loan.status]);
    expect(await loansOn(creditLife.payroll.policyId)).toEqual([
      [creditLife.payroll.activeLoan.reference, 'Active'],
      [creditLife.payroll.closedLoan.reference, 'Closed'],
    ]);
    expect(await loansOn(creditLife.prepaid.policyId)).toEqual([
      [creditLife.prepaid.pendingLoan.reference, 'Pending'],
    ]);
    expect(await loansOn(creditLife.inGrace.policyId)).toEqual([
      [creditLife.inGrace.loan.reference, 'Active'],
    ]);
    const states = await Promise.all(
      [creditLife.payroll, creditLife.prepaid, creditLife.inGrace].map(async (policy) => [
        (await harness.client.call('getCreditLifePolicy', { path: { policyId: policy.policyId } }))
          .policyNumber,
        (
          await harness.client.call('getCreditLifePolicyStatus', {
            path: { policyId: policy.policyId },
          })
        ).status,
      ]),
    );
    expect(states).toEqual([
      [creditLife.payroll.policyNumber, 'Active'],
      [creditLife.prepaid.policyNumber, 'Active'],
      [creditLife.inGrace.policyNumber, 'InGrace'],
    ]);
    const claim = await harness.client.call('getCreditLifeClaim', {
      path: { claimId: claims.intimated.id },
    });
    expect(claim).toMatchObject({
      claimNumber: claims.intimated.claimNumber,
      status: 'Intimated',
      partnerLoanReference: creditLife.payroll.activeLoan.reference,
    });
  });
});

describe("the README's demo-data table", () => {
  it('names every plate, person, phone, policy, loan and claim of DEMO_BOOK', async () => {
    const { readFile } = await import('node:fs/promises');
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Demo data'), readme.indexOf('## Layout'));
    expect(readme.indexOf('## Try it in one minute')).toBeLessThan(readme.indexOf('## Demo data'));
    const { motor, funeral, groupLife, creditLife, claims } = DEMO_BOOK;
    const people = [
      motor.holder,
      funeral.principal,
      groupLife.member,
      groupLife.deceased,
      creditLife.borrower,
    ];
    const named = [
      ...DEMO_BOOK.testNumbers.map((entry) => `0${entry.example.slice(3)}`),
      ...people.flatMap((who) => [
        `${who.firstName} ${who.lastName}`,
        who.nrcNumber,
        `0${who.phoneNumber.slice(3)}`,
      ]),
      motor.insured.registrationNumber,
      motor.insured.policyNumber,
      motor.insured.policyId,
      motor.renewal.registrationNumber,
      motor.renewal.policyNumber,
      `ends in ${motor.renewal.endsInDays} days`,
      motor.newPlate,
      funeral.policyNumber,
      groupLife.policyId,
      groupLife.policyNumber,
      ...[creditLife.payroll, creditLife.prepaid, creditLife.inGrace].flatMap((policy) => [
        policy.policyId,
        policy.policyNumber,
      ]),
      creditLife.payroll.activeLoan.reference,
      creditLife.payroll.closedLoan.reference,
      creditLife.prepaid.pendingLoan.reference,
      creditLife.inGrace.loan.reference,
      claims.intimated.id,
      claims.intimated.claimNumber,
      claims.documented.id,
      claims.documented.claimNumber,
    ];
    expect(named.filter((text) => !section.includes(text))).toEqual([]);
  });
});
