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
  // Dates read as the caller types them (18/11/2026), never in the insurer's ISO form.
  for (const screen of screens) expect(screen).not.toMatch(/\d{4}-\d{2}-\d{2}/);
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
    // New cover → Third Party → private use → first period, then the plate.
    const screens = await walk(holderPhone, [MENU.motor, '1', '1', '1', '1', motor.newPlate]);
    expect(screens.at(-1)).toMatch(/^CON Make, model and year/);
  });

  it('shows the funeral household by NRC to its phone on record, and the member’s and the borrower’s own cover from their phones', async () => {
    // The principal's own phone is on record: My cover lists the household (issue 30).
    const household = await walk(funeral.principal.phoneNumber, [MENU.cover]);
    expect(household.at(-1)).toContain(`Funeral ${funeral.policyNumber} in force`);
    const member = await walk(groupLife.member.phoneNumber, [MENU.cover]);
    expect(member.at(-1)).toContain(`Group life ${groupLife.policyNumber} in force`);
    const borrower = await walk(creditLife.borrower.phoneNumber, [MENU.cover, '98']);
    const both = borrower.slice(-2).join('\n');
    expect(both).toContain(`Loan ${creditLife.payroll.activeLoan.reference} in force`);
    expect(both).toContain(`Loan ${creditLife.payroll.closedLoan.reference} off cover`);
    expect(both).toContain(
      `Loan ${creditLife.prepaid.pendingLoan.reference} waiting for the premium`,
    );
    expect(both).toContain(`Loan ${creditLife.inGrace.loan.reference} in grace until`);
  });

  it('tells a phone not on record only that the NRC has cover, and until when', async () => {
    const screens = await walk(groupLife.member.phoneNumber, [
      MENU.cover,
      '2',
      keyed(creditLife.borrower.nrcNumber),
    ]);
    expect(screens.at(-1)).toMatch(/^CON This NRC has cover until \d{2}\/\d{2}\/\d{4}\./);
    for (const secret of [creditLife.borrower.lastName, 'KL-DEMO', 'CL-DEMO', '25000']) {
      expect(screens.at(-1)).not.toContain(secret);
    }
  });

  it('lists the caller’s own claims first on Track my claims, of every line, with another claim by number', async () => {
    // Claims: 1 on my cover, 2 credit life, 3 group life, 4 track: the caller's own claims.
    const credit = await walk(creditLife.borrower.phoneNumber, [MENU.claims, '4']);
    expect(credit.at(-1)).toMatch(/^CON Your claims \(\d\):\n/);
    expect(credit.at(-1)).toContain(`${claims.intimated.claimNumber} claim received`);
    expect(credit.at(-1)).toMatch(/\d\. Another claim number\n\d\. Back$/);
    const life = await walk(groupLife.deceased.phoneNumber, [MENU.claims, '4']);
    expect(life.at(-1)).toContain(`${claims.documented.claimNumber} documents received`);
    const another = /(\d)\. Another claim number/.exec(credit.at(-1) ?? '')?.[1] ?? '';
    const byNumber = await walk(creditLife.borrower.phoneNumber, [
      MENU.claims,
      '4',
      another,
      claims.intimated.claimNumber,
    ]);
    expect(byNumber.at(-1)).toContain(`Claim ${claims.intimated.claimNumber}: claim received`);
  });

  it('asks for a group-life claim by the scheme’s policy number, with a scheme number as the example', async () => {
    const credit = await walk(creditLife.borrower.phoneNumber, [MENU.claims, '2']);
    expect(credit.at(-1)).toBe('CON Policy number (e.g. CL-DEMO-000001):');
    const life = await walk(groupLife.member.phoneNumber, [MENU.claims, '3']);
    expect(life.at(-1)).toBe('CON Scheme policy number (e.g. GL-DEMO-000001):');
  });

  // The Active loan has the demo book's open claim, so a new one goes on the loan in grace.
  it('lets the borrower claim on the loan the README names for the claim demo, with no claim open on it (before the walk below claims on it)', async () => {
    const list = await walk(creditLife.borrower.phoneNumber, [MENU.claims, '1']);
    const line = list
      .at(-1)
      ?.split('\n')
      .find((l) => l.includes(creditLife.inGrace.loan.reference));
    const pick = line?.split('.')[0] ?? '';
    expect(pick).toMatch(/^\d$/);
    const screens = await walk(creditLife.borrower.phoneNumber, [MENU.claims, '1', pick]);
    expect(screens.at(-1)).toMatch(/^CON .*\n\d\. Retrenchment/s);
  });

  it('intimates a claim on the loan in grace by its printed policy number and partner reference', async () => {
    const lossDate = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const [year, month, day] = lossDate.split('-');
    const screens = await walk(creditLife.borrower.phoneNumber, [
      MENU.claims,
      '2',
      creditLife.inGrace.policyNumber,
      creditLife.inGrace.loan.reference,
      '1',
      `${day}/${month}/${year}`,
      'Road accident',
      '1',
    ]);
    expect(screens.at(-1)).toMatch(
      /^CON Claim CLC-\d+: claim received\. If the claim is accepted, the cover pays ZMW 12,000\.00\./,
    );
  });

  it('tells the borrower at once that a claim is open on their Active loan, picked from their list, and tracks that one', async () => {
    const list = await walk(creditLife.borrower.phoneNumber, [MENU.claims, '1']);
    const line = list
      .at(-1)
      ?.split('\n')
      .find((l) => l.includes(creditLife.payroll.activeLoan.reference));
    const pick = line?.split('.')[0] ?? '';
    expect(pick).toMatch(/^\d$/);
    // The next screen, before any claim type, date or story is asked.
    const screens = await walk(creditLife.borrower.phoneNumber, [MENU.claims, '1', pick, '1']);
    const open = DEMO_BOOK.claims.intimated.claimNumber;
    expect(screens.at(-2)).toBe(
      `CON A claim for this is already open: ${open}.\n1. Track that claim\n2. Another loan or member\n3. End`,
    );
    expect(screens.at(-1)).toMatch(new RegExp(`^CON Claim ${open}: claim received`));
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
    // The call ends before the network's PIN prompt (issue 38); the payment starts after it.
    expect(screens.at(-1)).toMatch(
      new RegExp(
        `^END Approve ZMW [\\d.]+ for renewal of ${motor.renewal.policyNumber} .*when your phone asks for your PIN\\.`,
      ),
    );
  });
});
