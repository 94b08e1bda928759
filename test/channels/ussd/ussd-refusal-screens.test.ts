import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USSD_MAX_CHARS } from '../../../src/channels/ussd/index.js';
import { DEMO_BOOK } from '../../../src/sandbox/index.js';
import { GATEWAY_SECRET, startTestServer, type TestServer } from '../../server/test-server.js';

/*
 * An insurer's refusal on USSD, through the HTTP server, the engine, Redis and the sandbox: the
 * caller on a cheap phone sees the refusal and its ways out on one screen, never behind "98 More".
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
 * Dials from `msisdn` (the API's `260…` form), types `inputs`; returns every screen. Hangs up
 * with `00` (cancel) so the next dial from the phone starts afresh, not with "Continue?".
 */
async function dial(msisdn: string, inputs: readonly string[]): Promise<string[]> {
  sessions += 1;
  const sessionId = `refusal-${sessions}-${Date.now()}`;
  const screens: string[] = [];
  const typed: string[] = [];
  for (const input of [null, ...inputs, '00']) {
    if (input !== null) typed.push(input);
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
    screens.push(await response.text());
  }
  return screens.slice(0, -1);
}

/** `days` before today as the caller types it, DD/MM/YYYY. */
function typedDaysAgo(days: number): string {
  const [year, month, day] = new Date(Date.now() - days * 86_400_000)
    .toISOString()
    .slice(0, 10)
    .split('-');
  return `${day}/${month}/${year}`;
}

const { creditLife } = DEMO_BOOK;

describe('an insurer refusal on USSD', () => {
  it('shows a claim refused for a 100-day-old loss with its choices on the first screen', async () => {
    const screens = await dial(creditLife.borrower.phoneNumber, [
      '4',
      '2',
      creditLife.payroll.policyNumber,
      creditLife.payroll.activeLoan.reference,
      '1',
      typedDaysAgo(100),
      'Road accident',
      '1',
    ]);
    const refusal = screens.at(-1) ?? '';
    expect(refusal).toMatch(/^CON The insurer could not accept these details\.\n/);
    expect(refusal).toContain('Claims must be intimated within 90 days');
    expect(refusal).toMatch(/\n1\. Change my answer\n2\. End$/);
    expect(refusal).not.toContain('98');
    expect(refusal.length - 'CON '.length).toBeLessThanOrEqual(USSD_MAX_CHARS);
    // The confirmation before it names the loss date as the caller typed it.
    expect(screens.at(-2)).toContain(`loss on ${typedDaysAgo(100)}.`);
    for (const screen of screens) expect(screen).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('takes the caller from the refusal back to the date of the loss with 1', async () => {
    const screens = await dial(creditLife.borrower.phoneNumber, [
      '4',
      '2',
      creditLife.payroll.policyNumber,
      creditLife.payroll.activeLoan.reference,
      '1',
      typedDaysAgo(100),
      'Road accident',
      '1',
      '1',
    ]);
    expect(screens.at(-1)).toBe('CON Date of the loss (DD/MM/YYYY):');
  });
});
