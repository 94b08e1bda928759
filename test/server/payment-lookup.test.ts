import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Notifier } from '../../src/channels/index.js';
import type { ChannelAddress, Prompt } from '../../src/conversation/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import {
  type InsurerTap,
  isLookup,
  isPay,
  startInsurerTap,
  type TapRequest,
} from '../reliability/insurer-tap.js';
import { startTestServer, type TestServer } from './test-server.js';
import { answersFor, toPayScreen, type UssdCaller, ussdCaller } from './ussd-caller.js';

/** Stands in for the SMS notifier: records what USSD callers are told out of turn. */
class RecordingSms implements Notifier {
  readonly channel = 'ussd';
  readonly sent: Array<{ address: ChannelAddress; prompt: Prompt }> = [];

  async notify(address: ChannelAddress, prompt: Prompt): Promise<void> {
    // The renewal-reminder notice a new policyholder gets is not a payment message.
    if (prompt.key === 'reminder.smsNotice') return;
    this.sent.push({ address, prompt });
  }
}

const sms = new RecordingSms();
let insurer: Sandbox;
let tap: InsurerTap;
let harness: TestServer;

beforeAll(async () => {
  // The insurer settles a payment when the test says so (settleTaken), never on a wall clock that
  // could beat the screen the test reads first, and calls nobody back: every outcome is found by
  // looking the transaction up.
  insurer = createSandbox({ settleDelayMs: 600_000 });
  const { origin } = await insurer.listen();
  insurer.setPaymentCallbackUrl(null);
  tap = await startInsurerTap(origin);
  harness = await startTestServer(
    { PARTNER_API_URL: `${tap.origin}/api/v1`, PARTNER_API_KEY: insurer.apiKey },
    {
      // The payment mechanics read in the call: the payment starts in the caller's turn (the
      // call kept open, as before issue 38; ussd-pay-after-end.test.ts covers the call ending first).
      payDuringCall: true,
      notifiers: [sms],
      paymentBackoffMs: [50, 100, 200, 400, 800, 1600, 3200],
      // The lookups of a payment whose answer was lost, made instant for the test.
      paymentLookupBackoff: { firstMs: 5, maxMs: 20, forMs: 60_000 },
    },
  );
});

afterEach(() => {
  tap.decide(() => 'pass');
});

afterAll(async () => {
  await harness.close();
  await tap.close();
  await insurer.close();
});

let plates = 1000 + Math.floor(Math.random() * 8000);

/** A caller at the "Pay with" screen of a new car's motor cover; they pay from their own number. */
async function atPayScreen(from?: string): Promise<{ phone: UssdCaller; plate: string }> {
  const phone = ussdCaller(() => harness.url, 'lookup', from);
  plates += 1;
  const plate = `BCL ${plates}`;
  await toPayScreen(phone, plate);
  return { phone, plate };
}

/** The insurer's transactions paid from the caller's number. */
const transactionsOf = (phone: UssdCaller) =>
  insurer.payments
    .all()
    .filter((transaction) => transaction.msisdn?.endsWith(phone.number.slice(-9)));

/** The insurer approves every payment of the caller's it took and still holds pending. */
function settleTaken(phone: UssdCaller): void {
  for (const transaction of transactionsOf(phone))
    insurer.payments.settleNow(transaction.reference);
}

/** What the caller was told by SMS. */
const toldTo = (phone: UssdCaller) =>
  sms.sent.filter((sent) => `+${sent.address.address}` === phone.number).map((sent) => sent.prompt);

/** The tap's requests about one reference: the pays carrying it and the lookups naming it. */
function trafficOf(reference: string): TapRequest[] {
  return tap.requests.filter(
    (request) =>
      (isPay(request) && request.reference === reference) ||
      (isLookup(request) && request.path.includes(`/${reference}/`)),
  );
}

/** True when no pay of `reference` was sent after the first without a lookup in between. */
function lookedUpBeforeEveryRepeat(reference: string): boolean {
  let lookedUp = true;
  let pays = 0;
  for (const request of trafficOf(reference)) {
    if (isLookup(request)) lookedUp = true;
    if (isPay(request)) {
      if (pays > 0 && !lookedUp) return false;
      pays += 1;
      lookedUp = false;
    }
  }
  return true;
}

/** The reference of the caller's first pay request, as the tap saw it. */
function firstPayReference(): string {
  const pays = tap.requests.filter(isPay);
  const reference = pays.at(-1)?.reference;
  if (!reference) throw new Error('no pay request reached the tap');
  return reference;
}

/** Expects the caller told, by SMS, that the cover is paid, with its policy number. */
function expectPaidBySms(phone: UssdCaller, plate: string): void {
  const told = toldTo(phone);
  const done = told.find((prompt) => prompt.key === 'motor.done');
  expect(told.map((prompt) => prompt.key)).toContain('motor.done');
  expect(String(done?.params?.policyNumber)).toMatch(/^MTR-/);
  expect(JSON.stringify(done?.params)).toContain(plate);
  // Never told the insurer could not be reached about a payment it took.
  expect(told.map((prompt) => prompt.key)).not.toContain('flow.failed.unavailable');
}

describe('a payment is never re-sent blind', () => {
  it('a pay answered 503 after the insurer took it: one transaction, the outcome and policy number by SMS, never sent again', async () => {
    const { phone, plate } = await atPayScreen();
    let answered = false;
    tap.decide((request) => {
      if (!isPay(request) || answered) return 'pass';
      answered = true;
      return 'pass503';
    });
    const screen = await phone.send('1');
    expect(screen).not.toMatch(/cannot be reached/);
    expect(screen).toMatch(/^CON (Approve .* on your phone|.*being confirmed)/);
    settleTaken(phone);
    await harness.server.payments.settled();

    const reference = firstPayReference();
    expect(transactionsOf(phone).map((transaction) => transaction.reference)).toEqual([reference]);
    expect(trafficOf(reference).filter(isPay)).toHaveLength(1);
    // Looked up after the 503 (as before sending it): never sent again.
    const traffic = trafficOf(reference);
    expect(traffic.slice(traffic.findIndex(isPay) + 1).some(isLookup)).toBe(true);
    expect(lookedUpBeforeEveryRepeat(reference)).toBe(true);
    expectPaidBySms(phone, plate);
  });

  it('a pay whose answer is lost (the connection cut after the insurer took it): one transaction, the outcome and policy number by SMS', async () => {
    const { phone, plate } = await atPayScreen();
    let cut = false;
    tap.decide((request) => {
      if (!isPay(request) || cut) return 'pass';
      cut = true;
      return 'cut';
    });
    const screen = await phone.send('1');
    expect(screen).not.toMatch(/cannot be reached/);
    settleTaken(phone);
    await harness.server.payments.settled();

    const reference = firstPayReference();
    expect(transactionsOf(phone)).toHaveLength(1);
    expect(trafficOf(reference).filter(isPay)).toHaveLength(1);
    expect(lookedUpBeforeEveryRepeat(reference)).toBe(true);
    expectPaidBySms(phone, plate);
  });

  it('a lost answer whose lookup lags (404 three times, then found): "being confirmed", then the outcome and policy number by SMS', async () => {
    const { phone, plate } = await atPayScreen();
    let paid = false;
    let lagging = 3;
    tap.decide((request) => {
      if (isPay(request) && !paid) {
        paid = true;
        return 'cut';
      }
      if (paid && isLookup(request) && lagging > 0) {
        lagging -= 1;
        return 'notFound';
      }
      return 'pass';
    });
    const screen = await phone.send('1');
    expect(screen).toMatch(/^CON Your payment of ZMW [\d,.]+ is being confirmed/);
    settleTaken(phone);
    await harness.server.payments.settled();

    const reference = firstPayReference();
    expect(lagging).toBe(0);
    const lookups = trafficOf(reference).filter(isLookup);
    expect(lookups.filter((request) => request.action === 'notFound')).toHaveLength(3);
    expect(lookups.at(-1)?.action).toBe('pass');
    expect(transactionsOf(phone)).toHaveLength(1);
    expect(trafficOf(reference).filter(isPay)).toHaveLength(1);
    expectPaidBySms(phone, plate);
  });

  it('a pay the insurer never took: "being confirmed", a check finds nothing, and Pay again sends the same reference once: one charge', async () => {
    const { phone, plate } = await atPayScreen();
    let refused = false;
    tap.decide((request) => {
      if (!isPay(request) || refused) return 'pass';
      refused = true;
      return 'refuse503';
    });
    expect(await phone.send('1')).toMatch(/being confirmed[\s\S]*1\. Check status/);
    const reference = firstPayReference();
    expect(transactionsOf(phone)).toEqual([]);

    // The insurer answers the check and holds nothing under the reference: never taken.
    expect(await phone.send('1')).toMatch(/did not go through[\s\S]*1\. Pay again/);
    expect(await phone.send('1')).toMatch(/Pay with:/);
    expect(await phone.send('1')).toMatch(/Approve .* on your phone/);
    settleTaken(phone);
    await harness.server.payments.settled();

    const pays = tap.requests.filter(
      (request) => isPay(request) && request.reference === reference,
    );
    expect(pays.map((request) => request.action)).toEqual(['refuse503', 'pass']);
    expect(lookedUpBeforeEveryRepeat(reference)).toBe(true);
    expect(transactionsOf(phone).map((transaction) => transaction.reference)).toEqual([reference]);
    expectPaidBySms(phone, plate);
  });

  it('buying again for the same car while the first payment is unsettled: told so, no second pay call', async () => {
    // A number whose payments the sandbox leaves pending (it ends in 3): never approved.
    const from = `+26097${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}3`;
    const { phone, plate } = await atPayScreen(from);
    expect(await phone.send('1')).toMatch(/Approve .* on your phone/);
    expect(transactionsOf(phone)).toHaveLength(1);
    const paysBefore = tap.requests.filter(isPay).length;

    // The same caller dials again, starts over and buys the same car again: told at the plate,
    // before anything is written (issue 36).
    const answers = [[/unfinished session/, () => '2'] as const, ...answersFor(plate)];
    let again = await phone.dial();
    for (let step = 0; step < 30 && !/still being confirmed|Pay with:/.test(again); step += 1) {
      const first = again.replace(/^(CON|END) /, '').split('\n')[0] ?? '';
      const answer = answers.find(([pattern]) => pattern.test(first))?.[1];
      if (!answer) throw new Error(`no answer for screen:\n${again}`);
      again = await phone.send(answer());
    }
    expect(again).toMatch(
      new RegExp(`A payment of yours for ${plate} is still being confirmed\\. We will tell you`),
    );
    expect(tap.requests.filter(isPay)).toHaveLength(paysBefore);
    expect(transactionsOf(phone)).toHaveLength(1);
  });

  it('buying another product for the same car while the first payment is unsettled: told so, no second pay call', async () => {
    const from = `+26097${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}3`;
    const { phone, plate } = await atPayScreen(from);
    expect(await phone.send('1')).toMatch(/Approve .* on your phone/);
    const paysBefore = tap.requests.filter(isPay).length;

    // The second cover on the list, and the plate typed as the insurer compares it: the same car
    // whatever the product (issue 36).
    const typed = plate.replace(/\s+/g, '').toLowerCase();
    const answers = [
      [/unfinished session/, () => '2'] as const,
      [/^Choose cover/, () => '2'] as const,
      [/number plate/i, () => typed] as const,
      ...answersFor(plate),
    ];
    const seen: string[] = [];
    let again = await phone.dial();
    for (let step = 0; step < 30 && !/still being confirmed|Pay with:/.test(again); step += 1) {
      seen.push(again);
      const first = again.replace(/^(CON|END) /, '').split('\n')[0] ?? '';
      const answer = answers.find(([pattern]) => pattern.test(first))?.[1];
      if (!answer) throw new Error(`no answer for screen:\n${again}`);
      again = await phone.send(answer());
    }
    expect(seen.join('\n')).toMatch(/Choose cover[\s\S]*2\. /);
    expect(again).toMatch(/A payment of yours for .* is still being confirmed\. We will tell you/);
    expect(tap.requests.filter(isPay)).toHaveLength(paysBefore);
    expect(transactionsOf(phone)).toHaveLength(1);
  });
});
