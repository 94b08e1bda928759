import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOOK } from '../../../src/sandbox/index.js';
import { GATEWAY_SECRET, startTestServer, type TestServer } from '../../server/test-server.js';

/*
 * The README's demo data, used as a newcomer would: USSD conversations through the HTTP server,
 * the engine, Redis and the embedded sandbox, with nothing but the values of DEMO_BOOK.
 */

let harness: TestServer;
let sessions = 0;

beforeAll(async () => {
  harness = await startTestServer();
});
afterAll(async () => {
  await harness.close();
});

/**
 * Dials from `msisdn` (the API's `260…` form) and types `inputs`; returns every screen. Ends
 * with `00` (cancel), as a person hanging up properly, so the next dial starts afresh.
 */
async function walk(msisdn: string, inputs: readonly string[]): Promise<string[]> {
  sessions += 1;
  const sessionId = `demo-${sessions}-${Date.now()}`;
  const screens: string[] = [];
  const typed: string[] = [];
  const steps: (string | null)[] = [null, ...inputs, '00'];
  for (let index = 0; index < steps.length; index += 1) {
    const input = steps[index];
    if (input !== undefined && input !== null) typed.push(input);
    const response = await fetch(`${harness.url}/ussd/africastalking`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-ussd-secret': GATEWAY_SECRET,
      },
      body: new URLSearchParams({
        sessionId,
        serviceCode: '*384*4628#',
        phoneNumber: `+${msisdn}`,
        networkCode: '64501',
        text: typed.join('*'),
      }),
    });
    const screen = await response.text();
    // A payment still awaited from an earlier walk keeps that session: start again.
    if (index === 0 && /unfinished session/.test(screen)) {
      steps.splice(1, 0, '2');
      continue;
    }
    screens.push(screen);
  }
  expect(screens.at(-1)).toMatch(/^END /);
  return screens.slice(0, -1);
}

/** An NRC as a keypad types it: nine digits. */
const keyed = (nrc: string) => nrc.replaceAll('/', '');

const MENU = { motor: '1', cover: '3', claims: '4' } as const;
const { motor, funeral, groupLife, creditLife, claims } = DEMO_BOOK;
const holderPhone = motor.holder.phoneNumber;
const successNumber = DEMO_BOOK.testNumbers.find((entry) => entry.outcome === 'success');

describe('the demo book through USSD', () => {
  it('finds the insured car’s active policy by its plate', async () => {
    const screens = await walk(holderPhone, [MENU.motor, '2', motor.insured.registrationNumber]);
    expect(screens.at(-1)).toMatch(new RegExp(`^CON Renew ${motor.insured.policyNumber} `));
  });

  it('buys cover for the new car: its plate is unknown, so the vehicle is registered on the way', async () => {
    const screens = await walk(holderPhone, [MENU.motor, '1', '1', motor.newPlate]);
    expect(screens.at(-1)).toMatch(/^CON Vehicle make/);
  });

  it('shows the funeral household, the group-life member and the borrower’s loans by NRC', async () => {
    const household = await walk(funeral.principal.phoneNumber, [
      MENU.cover,
      keyed(funeral.principal.nrcNumber),
    ]);
    expect(household.at(-1)).toMatch(/household 1, life 0, loans 0/);
    const member = await walk(groupLife.member.phoneNumber, [
      MENU.cover,
      keyed(groupLife.member.nrcNumber),
    ]);
    expect(member.at(-1)).toMatch(/household 0, life 1, loans 0/);
    const borrower = await walk(creditLife.borrower.phoneNumber, [
      MENU.cover,
      keyed(creditLife.borrower.nrcNumber),
      '1',
    ]);
    for (const loan of [
      creditLife.payroll.activeLoan,
      creditLife.payroll.closedLoan,
      creditLife.prepaid.pendingLoan,
    ]) {
      expect(borrower.at(-1)).toContain(`Loan ${loan.reference}`);
    }
  });

  it('tracks the Intimated credit-life claim and the Documented group-life claim', async () => {
    const credit = await walk(creditLife.borrower.phoneNumber, [MENU.claims, '3', '1']);
    expect(credit.at(-1)).toContain(`${claims.intimated.claimNumber} Intimated`);
    const life = await walk(groupLife.deceased.phoneNumber, [MENU.claims, '3', '2']);
    expect(life.at(-1)).toContain(`${claims.documented.claimNumber} Documented`);
  });

  it('intimates a claim on the Active loan by its partner reference', async () => {
    const lossDate = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const [year, month, day] = lossDate.split('-');
    const screens = await walk(creditLife.borrower.phoneNumber, [
      MENU.claims,
      '1',
      creditLife.payroll.policyId,
      '2',
      creditLife.payroll.activeLoan.reference,
      '1',
      `${day}/${month}/${year}`,
      'Road accident',
      '1',
    ]);
    expect(screens.at(-1)).toMatch(/^CON Claim CLC-\d+ is Intimated\. Payable: ZMW 25,000\.00\./);
  });
  // Last: it leaves a payment awaited on the policyholder's phone.
  it('renews the car due for renewal from the policyholder’s phone, paying from the success test number', async () => {
    expect(successNumber?.example).toBe(holderPhone);
    const screens = await walk(holderPhone, [
      MENU.motor,
      '2',
      motor.renewal.registrationNumber,
      '1',
    ]);
    expect(screens.at(-2)).toMatch(new RegExp(`^CON Renew ${motor.renewal.policyNumber} `));
    expect(screens.at(-1)).toMatch(/^CON Approve ZMW [\d.]+ on your phone/);
  });
});
