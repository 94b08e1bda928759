import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_BOOK, type Sandbox } from '../../src/sandbox/index.js';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { launchChromium, type TestBrowser } from '../support/chromium.js';
import { eventually } from '../support/eventually.js';
import { startTestServer, type TestServer } from './test-server.js';
import { type UssdCaller, ussdCaller } from './ussd-caller.js';

/*
 * Issue 30, on USSD with the README's demo people only: a claim started from My cover, confirmed
 * by one SMS, documented from that SMS's link in a real browser; the funeral principal's phone
 * sees the household. Each journey ends on the insurer's own record.
 */

const STAFF_CHANNEL = 'C0CLAIMS';
const { creditLife, groupLife, funeral } = DEMO_BOOK;

let app: TestServer;
let slack: FakeSlack;
let browser: BrowserContext;
let chrome: TestBrowser | undefined;

beforeAll(async () => {
  slack = new FakeSlack();
  await slack.start();
  app = await startTestServer({
    SLACK_BOT_TOKEN: 'xoxb-claims-ussd',
    SLACK_SIGNING_SECRET: 'claims-ussd-signing-secret',
    SLACK_API_URL: `${slack.baseUrl}/api/`,
    SLACK_DIGEST_CHANNEL: STAFF_CHANNEL,
  });
  chrome = await launchChromium();
  browser = chrome.context;
}, 60_000);

afterAll(async () => {
  await chrome?.close();
  await app?.close();
  await slack?.stop();
});

function sandbox(): Sandbox {
  const found = app.server.sandbox;
  if (!found) throw new Error('no embedded sandbox');
  return found;
}

/** The SMS the sandbox's provider delivered to a phone, oldest first. */
const smsTo = (phone: string) => sandbox().smsOutbox.list(`+${phone}`);

/** The numbered choice on a USSD screen whose label matches. */
function pick(screen: string, label: RegExp): string {
  const line = screen.split('\n').find((row) => /^\d+\. /.test(row) && label.test(row));
  if (!line) throw new Error(`no choice ${label} on: ${screen}`);
  return line.split('.')[0] ?? '';
}

/** Answers a screen by the choice whose label matches. */
async function choose(caller: UssdCaller, screen: string, label: RegExp): Promise<string> {
  return caller.send(pick(screen, label));
}

const typedDaysAgo = (days: number) => {
  const [year, month, day] = new Date(Date.now() - days * 86_400_000)
    .toISOString()
    .slice(0, 10)
    .split('-');
  return `${day}/${month}/${year}`;
};

/** A JPEG's first bytes and filler: what a phone's camera hands the file input. */
const photo = (name: string) => ({
  name,
  mimeType: 'image/jpeg',
  buffer: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2048, 7)]),
});

it('makes a credit-life retrenchment claim from My cover, confirms it by one SMS, and two photos sent from its link in a browser move it to Documented', async () => {
  const borrower = ussdCaller(() => app.url, 'claim-cl', `+${creditLife.borrower.phoneNumber}`);
  let screen = await borrower.dial();
  screen = await choose(borrower, screen, /My cover/);
  screen = await choose(borrower, screen, new RegExp(creditLife.inGrace.loan.reference));
  expect(screen).toContain(`Loan ${creditLife.inGrace.loan.reference}`);
  screen = await choose(borrower, screen, /Make a claim/);
  // The product's scopes of cover, as the insurer lists them.
  expect(screen).toMatch(/Death[\s\S]*Permanent disability[\s\S]*Retrenchment/);
  screen = await choose(borrower, screen, /Retrenchment/);
  screen = await borrower.send(typedDaysAgo(2));
  screen = await borrower.send('Retrenched when the branch closed');
  // The loan by the reference the borrower knows, never an internal id.
  expect(screen).toContain(`Retrenchment claim on loan ${creditLife.inGrace.loan.reference}`);
  expect(screen).not.toMatch(/loan_|clm_|ln_/);
  screen = await choose(borrower, screen, /Submit/);
  expect(screen).toMatch(
    /^CON Claim CLC-\d+: claim received\..*Documents needed: Termination letter\./s,
  );
  const number = /CLC-\d+/.exec(screen)?.[0] ?? '';

  // One confirmation SMS: number, what happens next, and the documents link.
  await eventually('the confirmation SMS arrived', () =>
    smsTo(creditLife.borrower.phoneNumber).some((sms) => sms.message.includes(number)),
  );
  const confirmations = smsTo(creditLife.borrower.phoneNumber).filter((sms) =>
    sms.message.includes(number),
  );
  expect(confirmations).toHaveLength(1);
  const confirmation = confirmations[0]?.message ?? '';
  expect(confirmation).toContain('The insurer checks it and contacts you');
  expect(confirmation).toContain('Documents needed: Termination letter');
  const link = /https?:\/\/\S+\/d\/\S+/.exec(confirmation)?.[0] ?? '';
  expect(link.length).toBeLessThan(100);
  // Staff hear of it in their channel, without personal data.
  await eventually('staff were told', () =>
    slack
      .callsTo('/api/chat.postMessage')
      .some((call) => JSON.stringify(call.body).includes(number)),
  );

  // The borrower opens the link on their phone and picks two photos with the file input.
  const page = await browser.newPage();
  try {
    await page.goto(link);
    expect(await page.textContent('body')).toContain(number);
    // The page names the status in words and what the claim's scope asks for (issue 38).
    expect(await page.textContent('#status')).toBe('claim received');
    expect(await page.textContent('body')).toContain(
      'Documents the insurer asks for: Termination letter.',
    );
    await page.setInputFiles('input[type=file]', [photo('letter-1.jpg'), photo('letter-2.jpg')]);
    await page.locator('li.sent').nth(1).waitFor();
    expect(await page.textContent('#sent')).toMatch(
      /letter-1\.jpg: sent[\s\S]*letter-2\.jpg: sent/,
    );
    expect(await page.textContent('#status')).toBe('documents received');
  } finally {
    await page.close();
  }

  // The insurer's record: Documented, with two documents whose URLs serve the photos.
  const record = [...sandbox().state.claims.values()].find((c) => c.claimNumber === number);
  expect(record).toMatchObject({ status: 'Documented', claimType: 'Retrenchment' });
  expect(record?.partnerLoanReference).toBe(creditLife.inGrace.loan.reference);
  expect(record?.documents).toHaveLength(2);
  const served = await fetch(record?.documents[0]?.url ?? '');
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe('image/jpeg');
}, 90_000);

it('refuses a file of the wrong type or too large on the documents page with a clear message, and a forged link', async () => {
  const claim = [...sandbox().state.claims.values()].find((c) => c.line === 'credit-life');
  const confirmation = smsTo(creditLife.borrower.phoneNumber).find((sms) =>
    /\/d\//.test(sms.message),
  );
  const link = /https?:\/\/\S+\/d\/\S+/.exec(confirmation?.message ?? '')?.[0] ?? '';
  expect(claim).toBeDefined();
  const text = await fetch(`${link}/files`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: 'not a photo',
  });
  expect(text.status).toBe(415);
  expect(((await text.json()) as { message: string }).message).toMatch(/Only photos .* and PDF/);
  const huge = await fetch(`${link}/files`, {
    method: 'POST',
    headers: { 'content-type': 'image/jpeg' },
    body: Buffer.alloc(20 * 1024 * 1024 + 1),
  });
  expect(huge.status).toBe(413);
  expect(((await huge.json()) as { message: string }).message).toMatch(/at most 20 MB/);
  const forged = await fetch(link.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
  expect(forged.status).toBe(403);
  expect(await forged.text()).toContain('This link is not valid.');
});

it('makes a group-life death claim from My cover that names the member, never an id, and confirms it by SMS', async () => {
  const member = ussdCaller(() => app.url, 'claim-gl', `+${groupLife.member.phoneNumber}`);
  let screen = await member.dial();
  screen = await choose(member, screen, /My cover/);
  screen = await choose(member, screen, new RegExp(groupLife.policyNumber));
  screen = await choose(member, screen, /Make a claim/);
  expect(screen).toMatch(/Date of death/);
  screen = await member.send(typedDaysAgo(1));
  screen = await member.send('Died after an illness');
  const name = `${groupLife.member.firstName} ${groupLife.member.lastName}`;
  expect(screen).toContain(`Death claim for ${name}`);
  expect(screen).not.toMatch(/mem_/);
  screen = await choose(member, screen, /Submit/);
  expect(screen).toMatch(/Documents needed: Death certificate\./);
  const number = /GLC-\d+/.exec(screen)?.[0] ?? '';
  expect(number).not.toBe('');
  await eventually('the confirmation SMS arrived', () =>
    smsTo(groupLife.member.phoneNumber).some((sms) => sms.message.includes(number)),
  );

  const record = [...sandbox().state.claims.values()].find((c) => c.claimNumber === number);
  expect(record).toMatchObject({ status: 'Intimated', claimType: 'Death' });
  expect(record?.policyId).toBe(groupLife.policyId);
  expect(record?.nrcNumber).toBe(groupLife.member.nrcNumber);
}, 60_000);

it('shows the funeral principal’s own phone the household in My cover', async () => {
  const principal = ussdCaller(() => app.url, 'funeral', `+${funeral.principal.phoneNumber}`);
  let screen = await principal.dial();
  screen = await choose(principal, screen, /My cover/);
  expect(screen).toContain(`Funeral ${funeral.policyNumber} in force`);
  screen = await choose(principal, screen, new RegExp(funeral.policyNumber));
  expect(screen).toContain(
    'Household of Chanda Mulenga, Bwalya Mulenga (Spouse), Mutale Mulenga (Child)',
  );
  // The insurer's record of that household is the one shown.
  const household = sandbox().state.households.get(funeral.principal.nrcNumber) as
    | { policy?: { policyNumber?: string } }
    | undefined;
  expect(household?.policy?.policyNumber).toBe(funeral.policyNumber);
});

it('sends a paid USSD purchase its outcome in one SMS segment, the reminder notice in another (issue 38)', async () => {
  const holder = ussdCaller(() => app.url, 'one-sms', '+260971234567');
  const answers: ReadonlyArray<readonly [RegExp, string]> = [
    [/^Welcome/, '1'],
    [/^Motor insurance:/, '1'],
    [/^Choose cover/, '1'],
    [/number plate/i, DEMO_BOOK.motor.newPlate],
    [/make, model and year/i, 'Toyota Vitz 2016'],
    [/Vehicle use/i, '1'],
    [/Chassis/i, 'CHBCD432101'],
    [/Engine number/i, 'ENBCD432101'],
    [/Choose a period/i, '1'],
    [/mobile number/i, '1'],
    [/NRC/, '479974111'],
    [/full name/i, 'Mwila Banda'],
    [/e-?mail/i, 'mwila@example.com'],
    [/Correct\?/, '1'],
    [/^Is .* your /, '1'],
    [/Pay with:/, '1'],
  ];
  const before = smsTo('260971234567').length;
  let screen = await holder.dial();
  for (let step = 0; step < 40 && !/Approve/.test(screen); step += 1) {
    const text = screen.replace(/^(CON|END) /, '');
    const answer = answers.find(([question]) => question.test(text));
    if (!answer) throw new Error(`unexpected screen: ${screen}`);
    screen = await holder.send(answer[1]);
  }
  expect(screen).toMatch(/Approve/);
  // The caller approves on their phone and waits: the outcome comes to them by SMS.
  await eventually('the outcome SMS and the notice arrived', () =>
    smsTo('260971234567')
      .slice(before)
      .some((sms) => /We will remind you by SMS/.test(sms.message)),
  );
  const sent = smsTo('260971234567').slice(before);
  // Together they would take three segments: each goes on its own, one segment each.
  expect(sent).toHaveLength(2);
  for (const sms of sent) expect(sms.message.length).toBeLessThanOrEqual(160);
  // Each found by what it says: the two go out apart, in no promised order.
  const outcome = sent.find((sms) => /policy number is MTR-/.test(sms.message));
  const notice = sent.find((sms) => /^We will remind you by SMS/.test(sms.message));
  const policyNumber = /policy number is (MTR-\S+?)\./.exec(outcome?.message ?? '')?.[1];
  expect(outcome?.message).toMatch(/\/c\/[A-Za-z0-9_-]{12}$/);
  expect(notice?.message).toBe(
    `We will remind you by SMS before ${policyNumber} ends, so you can renew in time. Reply STOP to opt out.`,
  );
  // The notice was taken by that SMS: none is left to go alone.
  expect(app.server.reminders.takeNotice('260971234567')).toBeUndefined();
  // The insurer's record: the policy issued and paid.
  const policy = [...sandbox().state.policies.values()].find(
    (p) => p.policyNumber === policyNumber,
  );
  expect(policy?.status).toBe('Active');
}, 90_000);
