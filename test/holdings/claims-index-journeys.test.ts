import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CLAIM_READS } from '../../flows/claim-lookups.js';
import { createPartnerClient, type PartnerClient } from '../../src/api/index.js';
import { t } from '../../src/conversation/index.js';
import { normaliseCaller } from '../../src/msisdn/index.js';
import { createSandbox, DEMO_BOOK, type Sandbox } from '../../src/sandbox/index.js';
import { type InsurerTap, startInsurerTap, type TapRequest } from '../reliability/insurer-tap.js';
import { startTestServer, type TestServer } from '../server/test-server.js';
import { throughStillWorking, type UssdCaller, ussdCaller } from '../server/ussd-caller.js';
import { deleteKeys } from '../support/redis-modes.js';

// Issue 36: claims are found through the holdings index, each read fresh by its id; no turn reads
// a claim book to its end. Through the HTTP server, real Redis on the test's own prefix, and a
// sandbox insurer behind a tap that counts (and can refuse) every call.

let insurer: Sandbox;
let direct: PartnerClient;
let tap: InsurerTap;
let harness: TestServer;

beforeAll(async () => {
  insurer = createSandbox({ settleDelayMs: 300 });
  const { origin } = await insurer.listen();
  direct = createPartnerClient({ baseUrl: `${origin}/api/v1`, apiKey: insurer.apiKey });
  tap = await startInsurerTap(origin);
  harness = await startTestServer({
    PARTNER_API_URL: `${tap.origin}/api/v1`,
    PARTNER_API_KEY: insurer.apiKey,
  });
  // An insurer of its own is synced in the background at start: this waits for a run.
  await harness.server.holdingsSync.runNow();
}, 60_000);

afterEach(() => {
  tap.decide(() => 'pass');
});

afterAll(async () => {
  await harness?.close();
  await tap?.close();
  await direct?.close();
  await insurer?.close();
});

const { creditLife, groupLife, claims } = DEMO_BOOK;
const caller = (phone: string, label: string) =>
  ussdCaller(() => harness.url, label, `+${normaliseCaller(phone)}`);
const borrower = () => caller(creditLife.borrower.phoneNumber, 'borrower');
const member = () => caller(groupLife.member.phoneNumber, 'member');

/** Dials and sends `inputs`; the last screen, and every insurer call made meanwhile. */
async function screenAfter(
  phone: UssdCaller,
  inputs: readonly string[],
): Promise<{ screen: string; calls: TapRequest[] }> {
  const from = tap.requests.length;
  let screen = await throughStillWorking(phone, await phone.dial());
  for (const input of inputs) screen = await throughStillWorking(phone, await phone.send(input));
  const calls = tap.requests.slice(from);
  await phone.send('00');
  return { screen, calls };
}

/** Claims (4) → Track my claims (4): the caller's own claims, of every line. */
const track = (phone: UssdCaller) => screenAfter(phone, ['4', '4']);
/** Claims → Track my claims → Another claim number, then the number. */
async function byNumber(phone: UssdCaller, number: string) {
  const list = (await track(phone)).screen;
  const another = /(\d)\. Another claim number/.exec(list)?.[1] ?? '';
  return screenAfter(phone, ['4', '4', another, number]);
}

/** A claim book read: `GET …/credit-life/claims` or `…/group-life/claims`, any page. */
const isBookRead = (call: TapRequest) =>
  call.method === 'GET' && /\/(credit|group)-life\/claims$/.test(call.path);
/** One claim read by its id. */
const isClaimRead = (call: TapRequest) =>
  call.method === 'GET' && /\/(credit|group)-life\/claims\/[^/]+$/.test(call.path);

/**
 * A death claim on the borrower's in-grace loan, made from their phone through the bot; with
 * `named` only, the screen once the loan is picked.
 */
async function intimateOnBot(named = false): Promise<{ screen: string; calls: TapRequest[] }> {
  const lossDate = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const [year, month, day] = lossDate.split('-');
  const phone = borrower();
  const list = (await screenAfter(phone, ['4', '1'])).screen;
  const pick = list
    .split('\n')
    .find((line) => line.includes(creditLife.inGrace.loan.reference))
    ?.split('.')[0];
  expect(pick, list).toMatch(/^\d$/);
  if (named) return screenAfter(phone, ['4', '1', pick ?? '']);
  return screenAfter(phone, ['4', '1', pick ?? '', '1', `${day}/${month}/${year}`, 'Road', '1']);
}

describe('a death reported by a relative', () => {
  it('is listed at once in the relative’s Track my claims, found by the phone that reported it', async () => {
    const relative = ussdCaller(() => harness.url, 'relative');
    const lossDate = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const [year, month, day] = lossDate.split('-');
    // Claims → Death of a member (group life): the policy, the member's NRC, the date, the cause.
    const steps = ['4', '3', groupLife.policyNumber, groupLife.member.nrcNumber];
    const made = await screenAfter(relative, [...steps, `${day}/${month}/${year}`, 'Illness', '1']);
    expect(made.screen).toMatch(/Claim GLC-\d+: claim received/);
    const number = /GLC-\d+/.exec(made.screen)?.[0] ?? 'no number';
    const listed = await track(relative);
    expect(listed.screen).toContain(number);
    expect(listed.calls.filter(isBookRead)).toEqual([]);
  }, 60_000);
});

describe('claims from a warm index', () => {
  it('lists the borrower’s claims with single-claim reads only, never a claim book', async () => {
    const { screen, calls } = await track(borrower());
    expect(screen).toContain(claims.intimated.claimNumber);
    expect(calls.filter(isBookRead)).toEqual([]);
    const reads = calls.filter(isClaimRead);
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.length).toBeLessThanOrEqual(MAX_CLAIM_READS);
  });

  it('finds a claim the bot intimated at once, in the list and by its number, before any sync', async () => {
    const made = await intimateOnBot();
    const number = /CLC-\d+/.exec(made.screen)?.[0] ?? '';
    expect(made.screen, made.screen).toMatch(/Claim CLC-\d+: claim received/);
    // The check for a claim already open read the index and single claims, not the book.
    expect(made.calls.filter(isBookRead)).toEqual([]);

    const listed = await track(borrower());
    expect(listed.screen).toContain(number);
    expect(listed.calls.filter(isBookRead)).toEqual([]);
    const found = await byNumber(borrower(), number);
    expect(found.screen).toContain(`Claim ${number}: claim received`);
    expect(found.calls.filter(isBookRead)).toEqual([]);

    // A second claim on the same loan is told of the first one's number once the loan is picked.
    const again = await intimateOnBot(true);
    expect(again.screen).toContain(number);
    expect(again.screen).not.toMatch(/claim received/);
  }, 60_000);

  it('shows a claim made at the insurer directly after one sync run', async () => {
    const lossDate = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const made = await direct.call('intimateGroupLifeClaim', {
      path: { policyId: groupLife.policyId },
      body: { nrcNumber: groupLife.member.nrcNumber, lossDate, causeOfDeath: 'Illness' },
    });
    expect((await track(member())).screen).not.toContain(made.claimNumber);

    await harness.server.holdingsSync.runNow();
    const { screen, calls } = await track(member());
    expect(screen).toContain(made.claimNumber);
    expect(calls.filter(isBookRead)).toEqual([]);
  });
});

describe('claims after the index is lost', () => {
  it('says it cannot check the claims, never "no claims", while the insurer fails', async () => {
    await deleteKeys(harness.redis, harness.prefix);
    tap.decide(() => 'refuse503');
    const { screen, calls } = await track(borrower());
    // Its own words, not "the insurer cannot be reached", with Try again.
    expect(screen).toMatch(new RegExp(`^CON ${t('claim.note.unknown')}\n1. Try again`));
    expect(screen).not.toContain(t('claim.list.empty'));
    expect(calls.filter(isBookRead)).toEqual([]);
    // A claim typed by number is not said to be missing either.
    const typed = await byNumber(borrower(), claims.intimated.claimNumber);
    expect(typed.screen).toContain(t('claim.note.unknown'));
    expect(typed.screen).not.toContain('was found');
  });

  it('refuses to start a claim it cannot check for a duplicate of, with a clear unknown screen', async () => {
    await deleteKeys(harness.redis, harness.prefix);
    const { screen, calls } = await intimateOnBot();
    expect(screen).toContain(t('claim.note.openUnknown'));
    expect(calls.filter((call) => call.method === 'POST' && /\/claims$/.test(call.path))).toEqual(
      [],
    );
    expect(calls.filter(isBookRead)).toEqual([]);
  }, 60_000);

  it('finds every claim again within one sync run after the flush (Try again)', async () => {
    await deleteKeys(harness.redis, harness.prefix);
    const phone = borrower();
    let screen = await throughStillWorking(phone, await phone.dial());
    for (const input of ['4', '4']) {
      screen = await throughStillWorking(phone, await phone.send(input));
    }
    expect(screen).toContain(t('claim.note.unknown'));
    await harness.server.holdingsSync.runNow();
    screen = await throughStillWorking(phone, await phone.send('1'));
    expect(screen).toContain(claims.intimated.claimNumber);
    expect(screen).toMatch(/CLC-\d{6}/);
    expect(screen).not.toContain(t('claim.note.unknown'));
  });
});
