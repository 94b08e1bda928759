import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USSD_MAX_CHARS } from '../../../src/channels/ussd/index.js';
import { DEMO_BOOK } from '../../../src/sandbox/index.js';
import { startTestServer, type TestServer } from '../../server/test-server.js';
import { ussdCaller } from '../../server/ussd-caller.js';
import { typedDaysAgo } from '../../support/lusaka-days.js';

/*
 * An insurer's refusal on USSD, through the HTTP server, the engine, Redis and the sandbox: the
 * caller on a cheap phone sees the refusal and its ways out on one screen, never behind "98 More".
 */

let harness: TestServer;

beforeAll(async () => {
  harness = await startTestServer();
});
afterAll(async () => {
  await harness.close();
});

const { creditLife } = DEMO_BOOK;

/**
 * Dials from the demo borrower's phone and claims on the loan in grace for a loss 100 days ago
 * (the sandbox allows 90); returns the confirmation and the refusal after it. Hangs up with `00`
 * so the next dial from that phone starts afresh.
 */
async function claimTooLate(): Promise<{ confirm: string; refusal: string; caller: Caller }> {
  const caller = ussdCaller(() => harness.url, 'refusal', `+${creditLife.borrower.phoneNumber}`);
  await caller.dial();
  for (const input of [
    '4',
    '2',
    // The loan in grace: the active loan has the demo book's open claim (issue 23).
    creditLife.inGrace.policyNumber,
    creditLife.inGrace.loan.reference,
    '1',
    typedDaysAgo(100),
  ]) {
    await caller.send(input);
  }
  const confirm = await caller.send('Road accident');
  const refusal = await caller.send('1');
  return { confirm, refusal, caller };
}
type Caller = ReturnType<typeof ussdCaller>;

describe('an insurer refusal on USSD', () => {
  it('shows a claim refused for a 100-day-old loss with its choices on the first screen', async () => {
    const { confirm, refusal, caller } = await claimTooLate();
    await caller.send('00');
    // The confirmation names the loss date as the caller typed it, and warns it is late.
    expect(confirm).toBe(
      `CON Death claim on loan KL-DEMO-GRACE, loss on ${typedDaysAgo(100)}.\nLoss 100 days ago: claims are due within 90 days and may be refused.\n1. Submit claim\n2. Back`,
    );
    expect(refusal).toMatch(/^CON The insurer could not accept these details\.\n/);
    // The insurer's words, shortened on USSD so the ways out stay on this screen.
    expect(refusal).toContain('\nClaims must be intimated within 90 days of the loss');
    expect(refusal).toMatch(
      /\.\.\.\nPlease check the date of the loss\.\n1\. Change my answer\n2\. End$/,
    );
    expect(refusal).not.toContain('98');
    expect(refusal.length - 'CON '.length).toBeLessThanOrEqual(USSD_MAX_CHARS);
    for (const screen of [confirm, refusal]) expect(screen).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('takes the caller from the refusal back to the date of the loss with 1', async () => {
    const { caller } = await claimTooLate();
    expect(await caller.send('1')).toBe('CON Date of the loss (DD/MM/YYYY):');
    await caller.send('00');
  });
});
