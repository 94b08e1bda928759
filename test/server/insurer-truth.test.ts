import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartnerClient, type PartnerClient } from '../../src/api/index.js';
import { createLogger } from '../../src/log/index.js';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { eventually } from '../support/eventually.js';
import { startTestServer, type TestServer } from './test-server.js';
import { ussdCaller } from './ussd-caller.js';

/*
 * Issue 24: the chat tells what the insurer says, through the real server (USSD gateway route,
 * engine, Redis) and the embedded sandbox. Cover states in the customer's words, never an
 * invented "Active"; the spec's credit-life claim rules.
 */

const DAY_MS = 86_400_000;
const { creditLife } = DEMO_BOOK;
const MENU = { cover: '3', claims: '4' } as const;

/** While set, every credit-life cover state the sandbox answers says this word instead. */
let coverStateWord: string | undefined;
const logLines: string[] = [];
let harness: TestServer;
let client: PartnerClient;

beforeAll(async () => {
  harness = await startTestServer(
    {},
    {
      logger: createLogger({
        level: 'warn',
        destination: { write: (line: string) => logLines.push(line) },
      }),
      sandbox: {
        settleDelayMs: 50,
        answerAs: (operation, answer) =>
          coverStateWord !== undefined && operation === 'getCreditLifePolicyStatus'
            ? { ...(answer as object), status: coverStateWord }
            : answer,
      },
    },
  );
  const sandbox = harness.server.sandbox;
  if (!sandbox || !harness.server.info.sandboxUrl) throw new Error('no embedded sandbox');
  client = createPartnerClient({ baseUrl: harness.server.info.sandboxUrl, apiKey: sandbox.apiKey });
});
afterAll(async () => {
  await client.close();
  await harness.close();
});

/** A date as the caller types it, `days` before today. */
function typedDaysAgo(days: number): string {
  const [year, month, day] = new Date(Date.now() - days * DAY_MS)
    .toISOString()
    .slice(0, 10)
    .split('-');
  return `${day}/${month}/${year}`;
}

/** The borrower's "My cover" list, both USSD pages. */
async function borrowersCover(): Promise<string> {
  const phone = ussdCaller(() => harness.url, 'truth', `+${creditLife.borrower.phoneNumber}`);
  await phone.dial();
  const first = await phone.send(MENU.cover);
  const second = await phone.send('98');
  await phone.send('00');
  return `${first}\n${second}`;
}

/** Claims on `reference` of `policyNumber` for a loss on `lossDate` (typed); the last screen. */
async function claimOn(policyNumber: string, reference: string, lossDate: string) {
  const phone = ussdCaller(() => harness.url, 'truth-claim');
  await phone.dial();
  for (const answer of [MENU.claims, '2', policyNumber, reference, '1', lossDate]) {
    await phone.send(answer);
  }
  const screen = await phone.send('Road accident');
  // A claim is submitted from its confirmation screen; a refusal comes before or after it.
  return /Submit claim/.test(screen) ? phone.send('1') : screen;
}

describe('cover states in the customer’s words, through the real server', () => {
  it('reads an Active loan whose prepaid cover state is Pending as waiting for the premium, not Active', async () => {
    // What the insurer says of a prepaid policy with an unpaid period (issue 24): Pending.
    coverStateWord = 'Pending';
    try {
      const cover = await borrowersCover();
      expect(cover).toContain(
        `Loan ${creditLife.payroll.activeLoan.reference} waiting for the premium`,
      );
      expect(cover).not.toMatch(/Active|in force/);
    } finally {
      coverStateWord = undefined;
    }
  });

  it('reads a cover state the spec never names as unconfirmed, and logs the word', async () => {
    coverStateWord = 'UnderReview';
    try {
      const cover = await borrowersCover();
      expect(cover).toContain(
        `Loan ${creditLife.payroll.activeLoan.reference} we could not confirm this cover - call the insurer`,
      );
      expect(cover).not.toContain(`Loan ${creditLife.payroll.activeLoan.reference} in force`);
    } finally {
      coverStateWord = undefined;
    }
    const logged = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({ subject: 'loan', status: 'UnderReview' }),
    );
  });
});

describe('credit-life claim rules as the spec states them, through the real server', () => {
  it('refuses a loss dated before the loan and its policy went on cover', async () => {
    // The in-grace policy started 35 days ago; a loss 55 days ago is inside the 90 notification
    // days, so only the start of cover refuses it.
    const screen = await claimOn(
      creditLife.inGrace.policyNumber,
      creditLife.inGrace.loan.reference,
      typedDaysAgo(creditLife.inGrace.startedDaysAgo + 20),
    );
    expect(screen).toContain('The loss date is before the loan and its policy went on cover');
    expect(screen).not.toMatch(/claim received/);
  });

  it('"cover reinstated from the date of payment onward": accepts a loss dated on the day the arrears were paid', async () => {
    // An ordinary policy 70 days old whose second monthly period was never paid: lapsed since
    // its grace (30 days) ended about ten days ago.
    const quotation = (await client.call('getCreditLifeQuotations')).find(
      (q) => q.status === 'Approved' && !q.requiresPrepayment,
    );
    const policy = await client.call('createCreditLifePolicy', {
      body: {
        quotationId: String(quotation?.id),
        startDate: new Date(Date.now() - 70 * DAY_MS).toISOString().slice(0, 10),
      },
    });
    const reference = `KL-LAPSE-${Date.now()}`;
    const placed = await client.call('placeLoans', {
      path: { policyId: String(policy.id) },
      body: {
        loans: [
          {
            fullName: 'Lapse Borrower',
            nrcNumber: '888123/10/1',
            dateOfBirth: '1988-08-08',
            amount: 10_000,
            startDate: new Date(Date.now() - 70 * DAY_MS).toISOString().slice(0, 10),
            endDate: new Date(Date.now() + 300 * DAY_MS).toISOString().slice(0, 10),
            partnerLoanReference: reference,
            interestRate: 0.25,
          },
        ],
      },
    });
    expect(
      (await client.call('getCreditLifePolicyStatus', { path: { policyId: String(policy.id) } }))
        .status,
    ).toBe('Lapsed');
    // Clearing the arrears: every owed period paid through the schedule pay operation, today.
    await client.call('renewCreditLifePolicy', { path: { policyId: String(policy.id) } });
    const schedules = await client.call('getCreditLifeBatches', {
      path: { policyId: String(policy.id) },
      query: {},
    });
    for (const schedule of schedules.data.filter((s) => Number(s.outstandingPremium) > 0)) {
      await client.call('payCreditLifeSchedule', {
        path: { scheduleId: String(schedule.id) },
        body: { reference: `PAY-${schedule.id}`, mobileMoneyAccountNumber: '0971234567' },
      });
    }
    const cleared = async () =>
      (await client.call('getCreditLifePolicyStatus', { path: { policyId: String(policy.id) } }))
        .status;
    await eventually(
      'the policy is Active again',
      async () => (await cleared()) === 'Active',
      10_000,
    );
    expect(await cleared()).toBe('Active');
    expect(placed.loans?.[0]?.partnerLoanReference).toBe(reference);

    const inLapse = await claimOn(String(policy.policyNumber), reference, typedDaysAgo(1));
    expect(inLapse).toContain('lapsed period');
    const onPaymentDay = await claimOn(String(policy.policyNumber), reference, typedDaysAgo(0));
    // A phone not on record for the loan: the claim is taken, its payout not shown (issue 23).
    expect(onPaymentDay).toMatch(/^CON Claim CLC-\d+: claim received\./);
  });
});
