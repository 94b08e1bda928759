import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { slackDeskClient } from '../channels/slack/slack-desk-client.js';
import { sandboxOf, startTestServer, type TestServer } from './test-server.js';

/*
 * Issue 40: every number README's "Demo data" table prints is found from Slack. The table is read
 * as written: each backticked token goes to the `/insure` topic it belongs to, through signed
 * requests to the real server, and the answer names the record's printed number. What the table
 * says is not on record (the new car, the payment test numbers) gets a not-found answer that
 * offers what staff can do, never a customer's "Change my answer".
 */

const SECRET = 'demo-table-signing-secret';
const STAFF = 'U0DEMOTABLE';
const TEAM = 'T0DEMOTABLE';
const DM = 'D0DEMOTABLE';

/** One row of README's demo table: its label and the backticked tokens of its details. */
interface DemoRow {
  readonly label: string;
  /** The row's details and use, as written. */
  readonly text: string;
  readonly tokens: readonly string[];
}

/** README's "## Demo data" table, row by row (tokens from the details and use-it-to columns). */
function demoTable(): DemoRow[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.split(/^## Demo data$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1)
    .map((line) => {
      const [, label = '', ...cells] = line.split('|').map((cell) => cell.trim());
      const text = cells.join(' ');
      const tokens = [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
      return { label, text, tokens };
    });
}

const ROWS = demoTable();
const NRC = /^\d{6}\/\d{2}\/\d$/;
const PHONE = /^0\d{9}$/;
const CLAIM_NUMBER = /^(CLC|GLC)-/;
const POLICY_NUMBER = /^(MTR|GF|GL|CL)-/;

/**
 * The numbers README says are on no record: what is "never registered" (the new car), and the
 * payment test numbers that are nobody's phone (one also in another row, the motor holder's
 * phone, is on record).
 */
const NOT_ON_RECORD = ROWS.flatMap((row) => {
  if (/never registered/.test(row.text)) return row.tokens;
  if (row.label !== 'test numbers') return [];
  return row.tokens.filter((token) =>
    ROWS.every((other) => other === row || !other.tokens.includes(token)),
  );
});

// Rows that print a person but no number of theirs: the record their NRC or phone must find.
const PERSON_RECORD: Record<string, string> = {
  'motor policyholder': DEMO_BOOK.motor.insured.policyNumber,
  'credit-life borrower': DEMO_BOOK.creditLife.payroll.policyNumber,
  'group-life claim, Documented': DEMO_BOOK.groupLife.policyNumber,
};

/** A token as staff would look it up: the command, and the numbers its answer must show. */
function lookupOf(token: string, row: DemoRow): { command: string; expected: string[] } {
  if (token.startsWith('/insure ')) {
    // A command README prints: run as printed; its answer names what its argument finds.
    const command = token.slice('/insure '.length);
    const [topic = '', ...rest] = command.split(' ');
    const found = lookupOf(rest.join(' '), row);
    const householdOf = row.tokens.find((t) => POLICY_NUMBER.test(t));
    return {
      command,
      expected: topic === 'household' && householdOf ? [householdOf] : found.expected,
    };
  }
  const claimNumber = row.tokens.find((t) => CLAIM_NUMBER.test(t));
  if (CLAIM_NUMBER.test(token) || (token.startsWith('clm_') && claimNumber)) {
    return { command: `claim ${token}`, expected: [claimNumber ?? token] };
  }
  if (token.startsWith('KL-')) {
    const onPolicy = row.tokens.find((t) => POLICY_NUMBER.test(t) && t.startsWith('CL-'));
    return { command: `policy ${token}`, expected: [token, ...(onPolicy ? [onPolicy] : [])] };
  }
  if (POLICY_NUMBER.test(token)) return { command: `policy ${token}`, expected: [token] };
  const policyNumber =
    NRC.test(token) || PHONE.test(token)
      ? (PERSON_RECORD[row.label] ?? row.tokens.find((t) => POLICY_NUMBER.test(t)))
      : row.tokens.find((t) => POLICY_NUMBER.test(t));
  return { command: `policy ${token}`, expected: policyNumber ? [policyNumber] : [] };
}

const FOUND = ROWS.flatMap((row) =>
  row.tokens
    .filter((token) => !NOT_ON_RECORD.includes(token))
    .map((token) => ({ token, ...lookupOf(token, row) })),
);

// NRCs as staff also type them: without slashes.
const UNSLASHED = ROWS.flatMap((row) =>
  row.tokens
    .filter((token) => NRC.test(token))
    .map((token) => ({ token, ...lookupOf(token, row) }))
    .map((found) => ({ ...found, command: found.command.replaceAll('/', '') })),
);

let app: TestServer;
let slack: FakeSlack;

beforeAll(async () => {
  slack = new FakeSlack();
  await slack.start();
  app = await startTestServer({
    SLACK_BOT_TOKEN: 'xoxb-demo-table',
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_ALLOWED_USERS: STAFF,
    SLACK_API_URL: `${slack.baseUrl}/api/`,
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await slack?.stop();
});

/** `/insure <text>` from the staff member (in their DM unless `channel`), signed as Slack signs it. */
function insure(text: string, channel = DM) {
  return slackDeskClient({
    serverUrl: () => app.url,
    slack,
    signingSecret: SECRET,
    user: STAFF,
    team: TEAM,
    channel,
  }).insure(text);
}

const NOTHING = /Nothing found|No household found/;

it('reads every row of README’s demo table, with the numbers it prints', () => {
  expect(ROWS.map((row) => row.label)).toContain('loan InGrace');
  expect(FOUND.length).toBeGreaterThan(30);
  expect(NOT_ON_RECORD).toEqual(
    expect.arrayContaining([DEMO_BOOK.motor.newPlate, '0971000001', '0971000002', '0971000003']),
  );
  expect(NOT_ON_RECORD).not.toContain('0971234567');
});

it.each(FOUND)('finds README’s `$token` with `/insure $command`', async ({ command, expected }) => {
  const answer = await insure(command);
  expect(answer.text).not.toMatch(NOTHING);
  for (const number of expected) expect(answer.text).toContain(number);
  expect(answer.ephemeral).toBe(true);
});

it.each(UNSLASHED)(
  'finds README’s `$token` typed without slashes',
  async ({ command, expected }) => {
    const answer = await insure(command);
    expect(answer.text).not.toMatch(NOTHING);
    for (const number of expected) expect(answer.text).toContain(number);
  },
);

it('lists every loan of a borrower found by phone, each with its policy', async () => {
  const { borrower, payroll, prepaid, inGrace } = DEMO_BOOK.creditLife;
  const answer = await insure(`policy 0${borrower.phoneNumber.slice(3)}`);
  for (const number of [
    borrower.nrcNumber,
    `${borrower.firstName} ${borrower.lastName}`,
    payroll.activeLoan.reference,
    payroll.closedLoan.reference,
    prepaid.pendingLoan.reference,
    inGrace.loan.reference,
    payroll.policyNumber,
    prepaid.policyNumber,
    inGrace.policyNumber,
  ]) {
    expect(answer.text).toContain(number);
  }
});

it('shows a loan found by its reference with its status and policy', async () => {
  const { prepaid } = DEMO_BOOK.creditLife;
  const answer = await insure(`policy ${prepaid.pendingLoan.reference}`);
  expect(answer.text).toContain(`Loan ${prepaid.pendingLoan.reference}`);
  expect(answer.text).toContain('Pending');
  expect(answer.text).toContain(prepaid.policyNumber);
});

it('shows a borrower and their NRC masked when looked up in a shared channel', async () => {
  const { borrower, payroll } = DEMO_BOOK.creditLife;
  for (const command of [
    `policy ${payroll.activeLoan.reference}`,
    `policy ${borrower.nrcNumber}`,
  ]) {
    const answer = await insure(command, 'C0SHARED');
    expect(answer.text).toContain(payroll.policyNumber);
    expect(answer.text).not.toContain(borrower.firstName);
    expect(answer.text).not.toContain(borrower.nrcNumber);
    expect(answer.text).toContain('N. P.');
  }
});

it('finds a household by its principal’s NRC typed without slashes', async () => {
  const answer = await insure(
    `household ${DEMO_BOOK.funeral.principal.nrcNumber.replaceAll('/', '')}`,
  );
  expect(answer.text).toContain(DEMO_BOOK.funeral.policyNumber);
});

it('finds every batch of the demo book by its policy’s and its own printed numbers', async () => {
  const state = sandboxOf(app).state;
  const credit = [...state.creditLifeBatches.values()].find(
    (batch) => batch.policyId === DEMO_BOOK.creditLife.payroll.policyId,
  );
  const group = [...state.groupLifeBatches.values()].find(
    (batch) => batch.policyId === DEMO_BOOK.groupLife.policyId,
  );
  expect(credit?.number).toMatch(/^SCH-/);
  expect(group?.number).toMatch(/^GLB-/);
  for (const [policyNumber, batchNumber] of [
    [DEMO_BOOK.creditLife.payroll.policyNumber, credit?.number ?? ''],
    [DEMO_BOOK.groupLife.policyNumber, group?.number ?? ''],
  ] as const) {
    const answer = await insure(`batch ${policyNumber} ${batchNumber}`);
    expect(answer.text).toContain(batchNumber);
    expect(answer.text).not.toMatch(NOTHING);
  }
});

it.each(NOT_ON_RECORD)(
  'answers README’s `%s`, on no record, with what staff can do next',
  async (token) => {
    const answer = await insure(`policy ${token}`);
    expect(answer.text).toMatch(NOTHING);
    expect(answer.text).toContain('Another lookup');
    expect(answer.text).toContain('Commands');
    expect(answer.text).not.toContain('Change my answer');
  },
);

it('answers a batch on no record with what staff can do next, not a failure', async () => {
  const answer = await insure(`batch ${DEMO_BOOK.creditLife.payroll.policyNumber} SCH-999999`);
  expect(answer.text).toMatch(NOTHING);
  expect(answer.text).toContain('Commands');
  expect(answer.text).not.toContain('Change my answer');
});
