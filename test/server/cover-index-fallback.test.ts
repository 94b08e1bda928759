import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OperationName } from '../../src/api/index.js';
import { t } from '../../src/conversation/index.js';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { deleteKeys } from '../support/redis-modes.js';
import { sandboxOf, startTestServer, type TestServer } from './test-server.js';
import { throughStillWorking, ussdCaller } from './ussd-caller.js';

/*
 * Issue 36, "Truth under faults": when the holdings index cannot answer (cold, or behind), the
 * insurer is asked directly (the client record and its vehicles' motor policies, each master
 * policy's loan and member search by NRC); what it cannot reach in time is unknown, never "none";
 * a warm index stays the fast path, with no direct-path call. Through the real server (USSD
 * route, engine, Redis on the test's own prefix) with the embedded sandbox as the insurer; every
 * operation it answers is counted through its answerAs tap.
 */

const { creditLife, funeral, motor } = DEMO_BOOK;
const BORROWER = creditLife.borrower;
const ACTIVE = creditLife.payroll.activeLoan.reference;
/** An NRC neither the insurer nor the index has ever held. */
const NOBODY = '918273/64/1';
/**
 * The operations only the direct paths make (the sync reads the lists, but not during a turn).
 * Not `getIndividuals`: every lookup reads who is on record by it (issue 35).
 */
const DIRECT_PATHS: readonly OperationName[] = [
  'getClientVehicles',
  'getMotorPolicyByRegistration',
  'getCreditLifePolicies',
  'getGroupLifePolicies',
  'searchCoveredLoans',
  'searchCoveredMembers',
];

const answered: OperationName[] = [];
let harness: TestServer;

beforeAll(async () => {
  harness = await startTestServer(
    {},
    {
      sandbox: {
        settleDelayMs: 50,
        answerAs: (operation, answer) => {
          answered.push(operation);
          return answer;
        },
      },
    },
  );
}, 60_000);
afterAll(() => harness.close());
beforeEach(() => {
  sandboxOf(harness).setAnswerDelayMs(0);
});

/** Dials from `from` (a random phone when omitted), answers `inputs`; the last screen shown. */
async function journey(from: string | undefined, inputs: readonly string[]): Promise<string> {
  const phone = ussdCaller(() => harness.url, 'index-fallback', from);
  let screen = await phone.dial();
  if (screen.includes(t('ussd.resumeTitle'))) screen = await phone.send('2');
  for (const input of inputs)
    screen = await throughStillWorking(phone, await phone.send(input), []);
  await phone.send('00');
  return screen;
}

const myCover = (phone: string) => journey(`+${phone}`, ['3']);
const byNrc = (nrc: string, from?: string) => journey(from, ['3', '1', nrc]);
/** The operations the insurer answered while `run` ran. */
async function callsDuring(run: () => Promise<unknown>): Promise<OperationName[]> {
  const from = answered.length;
  await run();
  return answered.slice(from);
}
const direct = (calls: OperationName[]) => calls.filter((call) => DIRECT_PATHS.includes(call));
/** The index loses every list (a Redis loss); the sync is not run again during the test. */
const coldIndex = async () => {
  await deleteKeys(harness.redis, harness.prefix);
  expect((await harness.server.holdings.completeness()).complete).toBe(false);
};

describe('a warm index is the fast path', () => {
  it('answers My cover and cover by NRC with no direct-path call', async () => {
    expect((await harness.server.holdings.completeness()).complete).toBe(true);
    let mine = '';
    let stranger = '';
    const calls = await callsDuring(async () => {
      mine = await myCover(BORROWER.phoneNumber);
      stranger = await byNrc(BORROWER.nrcNumber);
    });
    expect(mine).toContain(ACTIVE);
    expect(stranger).toMatch(/This NRC has cover until \d\d\/\d\d\/\d{4}/);
    // The records were confirmed (the index named them) but no list or search was read.
    expect(calls).toContain('getCoveredLoan');
    expect(direct(calls)).toEqual([]);
    // Who is on record, once per lookup: the individuals with the borrower's phone, then with
    // the NRC typed (the stranger's own My cover, tied to nothing in the index, asks nobody).
    expect(calls.filter((call) => call === 'getIndividuals')).toHaveLength(2);
  }, 60_000);
});

describe('a cold index asks the insurer directly', () => {
  it('shows the borrower, the motor holder and the funeral principal their records', async () => {
    await coldIndex();
    let borrower = '';
    const calls = await callsDuring(async () => {
      borrower = await myCover(BORROWER.phoneNumber);
    });
    expect(borrower).toContain(ACTIVE);
    expect(borrower).not.toContain(t('cover.mine.none'));
    expect(calls).toContain('getIndividuals');
    expect(direct(calls)).toEqual(expect.arrayContaining(['searchCoveredLoans']));

    // The claim start lists the loans found, with no "cannot check": the travel cover no direct
    // path reads hides no loan.
    const claims = await journey(`+${BORROWER.phoneNumber}`, ['4', '1']);
    expect(claims).toContain(ACTIVE);
    expect(claims).not.toContain('We cannot check your cover');

    // The holder's own NRC typed: the full list, found the same way.
    expect(await byNrc(BORROWER.nrcNumber, `+${BORROWER.phoneNumber}`)).toContain(ACTIVE);
    // Motor through the client's vehicles and the policy by registration.
    expect(await myCover(motor.holder.phoneNumber)).toContain(motor.insured.policyNumber);
    // The funeral household through the principal's client record (the NRC found by phone).
    expect(await myCover(funeral.principal.phoneNumber)).toContain(funeral.policyNumber);
    expect((await harness.server.holdings.completeness()).complete).toBe(false);
  }, 60_000);

  it('tells a stranger "has cover until" for a holder, and "No cover in force" for an NRC nobody holds', async () => {
    await coldIndex();
    expect(await byNrc(BORROWER.nrcNumber)).toMatch(/This NRC has cover until \d\d\/\d\d\/\d{4}/);
    const nobody = await byNrc(NOBODY);
    expect(nobody).toContain(t('cover.limited.none'));
    expect(nobody).not.toContain(t('cover.limited.unknown'));
  }, 60_000);

  it('with the insurer slower than the budget, says unknown, never "none"', async () => {
    await coldIndex();
    sandboxOf(harness).setAnswerDelayMs(1_600);
    const nobody = await byNrc(NOBODY);
    expect(nobody).toContain(t('cover.limited.unknown'));
    expect(nobody).not.toContain(t('cover.limited.none'));
    const borrower = await myCover(BORROWER.phoneNumber);
    expect(borrower).toContain(t('cover.unknown'));
    expect(borrower).not.toContain(t('cover.mine.none'));
  }, 60_000);
});
