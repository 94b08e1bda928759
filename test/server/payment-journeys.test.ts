import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notifier } from '../../src/channels/index.js';
import type { ChannelAddress, Prompt } from '../../src/conversation/index.js';
import { renderPrompt } from '../../src/conversation/index.js';
import { eventually } from '../support/eventually.js';
import { sandboxOf, startTestServer, type TestServer } from './test-server.js';
import { amountOn, toPayScreen, ussdCaller } from './ussd-caller.js';

// Journeys a customer takes through the money paths (issue 13), over HTTP, through the engine,
// real Redis and the embedded sandbox insurer, asserting the texts the user sees.

/** Stands in for the SMS notifier: records what USSD users are told out of turn. */
class RecordingSms implements Notifier {
  readonly channel = 'ussd';
  readonly sent: Array<{ address: ChannelAddress; prompt: Prompt; text: string }> = [];

  async notify(address: ChannelAddress, prompt: Prompt): Promise<void> {
    // The renewal-reminder notice a new policyholder gets is not a payment message.
    if (prompt.key === 'reminder.smsNotice') return;
    const links = (prompt.attachments ?? []).map((attachment) => attachment.url);
    const text = [renderPrompt(prompt, address.locale).text, ...links].join('\n');
    this.sent.push({ address, prompt, text });
  }
}

const sms = new RecordingSms();
let harness: TestServer;

beforeAll(async () => {
  harness = await startTestServer(
    {},
    {
      // The payment mechanics read in the call: the payment starts in the caller's turn (the
      // call kept open, as before issue 38; ussd-pay-after-end.test.ts covers the call ending first).
      payDuringCall: true,
      // Payments settle when a test says so (or the card page is opened); polls are far off.
      sandbox: { settleDelayMs: 600_000 },
      paymentBackoffMs: [600_000],
      notifiers: [sms],
    },
  );
});
afterAll(async () => {
  await harness.close();
});

const sandbox = () => sandboxOf(harness);

/** A caller on the Africa's Talking route; its own number ends in 5 (payments succeed). */
const caller = () => ussdCaller(() => harness.url);

/** The sandbox's transactions paying from `msisdn`, or for `quoteId`. */
function transactionsFrom(msisdn: string) {
  return sandbox()
    .payments.all()
    .filter((transaction) => transaction.msisdn?.endsWith(msisdn.slice(-9)));
}

function transactionsFor(quoteId: string) {
  return sandbox()
    .payments.all()
    .filter((transaction) => transaction.subjectId === quoteId);
}

const plate = () => `BCJ ${1000 + Math.floor(Math.random() * 8999)}`;

describe('a declined payment paid again', () => {
  it('takes a good number after a decline and charges the quoted amount once', async () => {
    const phone = caller();
    const pay = await toPayScreen(phone, plate());
    const quoted = amountOn(pay);

    expect(await phone.send('2')).toMatch(`Mobile money number to pay ZMW ${quoted} from:`);
    const waiting = await phone.send('0971000001');
    expect(waiting).toMatch(`CON Approve ZMW ${quoted} on your phone`);
    const declined = transactionsFrom('0971000001').at(-1);
    if (!declined) throw new Error('no payment from the declining number');
    sandbox().payments.settleNow(declined.reference);

    const failed = await phone.send('1');
    expect(failed).toMatch(`Payment of ZMW ${quoted} for Motor Third Party for`);
    expect(failed).toMatch(/did not go through\. Nothing was charged\./);
    expect(failed).toMatch(/Reason: The customer declined the payment prompt\./);
    expect(failed).toMatch(/1\. Pay again/);

    const again = await phone.send('1');
    expect(amountOn(again)).toBe(quoted);
    expect(await phone.send('2')).toMatch(`Mobile money number to pay ZMW ${quoted} from:`);
    expect(await phone.send('0977123456')).toMatch(`CON Approve ZMW ${quoted} on your phone`);
    const good = transactionsFrom('0977123456').find((t) => t.subjectId === declined.subjectId);
    if (!good) throw new Error('no second attempt for the same quotation');
    expect(good.reference).not.toBe(declined.reference);
    sandbox().payments.settleNow(good.reference);

    const done = await phone.send('1');
    expect(done).toMatch(`END Paid ZMW ${quoted}.`);
    expect(done).toMatch(/Your policy number is MTR-/);
    const paid = transactionsFor(declined.subjectId ?? '').filter((t) => t.status === 'Success');
    expect(paid).toHaveLength(1);
    expect(paid[0]?.amount.toFixed(2)).toBe(quoted.replace(/,/g, ''));
  });

  it('pays by card after a decline: the link comes by SMS and the 3-D Secure page settles it', async () => {
    const phone = caller();
    const quoted = amountOn(await toPayScreen(phone, plate()));
    await phone.send('2');
    await phone.send('0971000001');
    const declined = transactionsFrom('0971000001').at(-1);
    if (!declined) throw new Error('no payment from the declining number');
    sandbox().payments.settleNow(declined.reference);
    expect(await phone.send('1')).toMatch(/did not go through/);
    await phone.send('1');

    const card = await phone.send('3');
    expect(card).toMatch(`CON Pay ZMW ${quoted} by card with the link we sent.`);
    await eventually(
      'the card link SMS',
      () => sms.sent.some((s) => s.address.address === phone.msisdn && /by card:/.test(s.text)),
      20_000,
    );
    const linkSms = sms.sent.find(
      (s) => s.address.address === phone.msisdn && /by card:/.test(s.text),
    );
    expect(linkSms?.text).toMatch(
      new RegExp(`^Pay ZMW ${quoted} by card: http://\\S+/sandbox/3ds/\\S+$`),
    );
    const link = /by card: (\S+)/.exec(linkSms?.text ?? '')?.[1] ?? '';

    // The payer completes the insurer's 3-D Secure page; its callback settles the payment.
    expect((await fetch(link)).status).toBe(200);
    // Found by what it says: a reminder notice may reach the phone around it.
    const outcome = await eventually(
      'the outcome SMS',
      () => sms.sent.find((s) => s.address.address === phone.msisdn && /^Paid /.test(s.text)),
      20_000,
    );
    expect(outcome?.text).toMatch(`Paid ZMW ${quoted}.`);
    expect(outcome?.text).toMatch(/Your policy number is MTR-/);
    const paid = transactionsFor(declined.subjectId ?? '').filter((t) => t.status === 'Success');
    expect(paid).toHaveLength(1);

    // The gateway repeating the request the caller is still on gets the identical screen, and
    // changes nothing: no new attempt, no second charge, no second message.
    for (let i = 0; i < 50; i += 1) expect(await phone.repeat()).toBe(card);
    expect(transactionsFor(declined.subjectId ?? '')).toHaveLength(2);
    expect(sms.sent.filter((s) => s.address.address === phone.msisdn)).toHaveLength(2);

    // Check status on the screen the caller still has shows the outcome, not the main menu.
    expect(await phone.send('1')).toMatch(`END Paid ZMW ${quoted}.`);
  });
});

describe('the policy a customer paid for', () => {
  it('tells the holder a plate they insured is already insured, instead of selling it a second policy', async () => {
    const vehicle = plate();
    const phone = caller();
    await toPayScreen(phone, vehicle);
    await phone.send('1');
    const first = transactionsFrom(phone.msisdn).at(-1);
    if (!first) throw new Error('no first payment');
    sandbox().payments.settleNow(first.reference, 'success');
    const firstDone = await phone.send('1');
    expect(/policy number is (\S+)\./.exec(firstDone)?.[1]).toMatch(/^MTR-/);

    // Issue 36: the same holder buying again for the car is told until when it is insured.
    await expect(toPayScreen(phone, vehicle)).rejects.toThrow(
      new RegExp(`${vehicle} is already insured until \\d{2}/\\d{2}/\\d{4}`),
    );
    expect(transactionsFrom(phone.msisdn)).toHaveLength(1);
  });
});

describe('the price first, and the same price charged', () => {
  it('shows each travel package priced for the trip and party, and charges the price shown', async () => {
    const phone = caller();
    expect(await phone.dial()).toMatch(/^CON Welcome/);
    expect(await phone.send('2')).toMatch(/Destination country/);
    await phone.send('Zambia');
    expect(await phone.send('15/01/2099')).toMatch(/How many days is the trip\?/);
    await phone.send('10');
    await phone.send('Mwila Banda');
    await phone.send('479974111');
    const packages = await phone.send('2');
    expect(packages).toMatch(/^CON Cover for 1 traveller\. Choose:/);
    expect(packages).toMatch(/1\. .*: ZMW [\d,]+\.\d\d/);
    const listed = /1\. .*: ZMW ([\d,]+\.\d\d)/.exec(packages)?.[1];

    const confirm = await phone.send('1');
    expect(confirm).toMatch('15/01/2099 to 24/01/2099, 1 traveller:');
    expect(amountOn(confirm)).toBe(listed);
    expect(await phone.send('1')).toMatch(`CON Approve ZMW ${listed} on your phone`);
    const payment = transactionsFrom(phone.msisdn).at(-1);
    expect(payment?.amount.toFixed(2)).toBe(listed?.replace(/,/g, ''));
    sandbox().payments.settleNow(payment?.reference ?? '', 'success');
    const done = await phone.send('1');
    expect(done).toMatch(`END Paid ZMW ${listed}.`);
    expect(done).toMatch(/15\/01\/2099 to 24\/01\/2099\. Policy TRV-/);
  });

  it('prices a party of two as two travellers: the holder and the companion, twice the price of one', async () => {
    /** The trip quoted on USSD for the holder and these companions: the packages screen. */
    const packagesFor = async (companions: readonly string[]) => {
      const phone = caller();
      await phone.dial();
      await phone.send('2');
      await phone.send('Zambia');
      await phone.send('15/01/2099');
      await phone.send('10');
      await phone.send('Mwila Banda');
      let screen = await phone.send('479974111');
      for (const companion of companions) {
        await phone.send('1');
        await phone.send(companion);
        screen = await phone.send('1');
      }
      expect(screen).toMatch(`Travellers so far: ${companions.length + 1}.`);
      return phone.send('2');
    };
    const alone = await packagesFor([]);
    const two = await packagesFor(['Chanda Banda']);
    expect(alone).toMatch(/^CON Cover for 1 traveller\. Choose:/);
    expect(two).toMatch(/^CON Cover for 2 travellers\. Choose:/);
    const price = (screen: string) =>
      Number((/1\. .*: ZMW ([\d,]+\.\d\d)/.exec(screen)?.[1] ?? '').replace(/,/g, ''));
    expect(price(alone)).toBeGreaterThan(0);
    // Levy rounding may move the total by a cent.
    expect(Math.abs(price(two) - 2 * price(alone))).toBeLessThanOrEqual(0.01);
  });

  it('charges a renewal the amount its confirm screen shows', async () => {
    const vehicle = plate();
    const phone = caller();
    await toPayScreen(phone, vehicle);
    await phone.send('1');
    const bought = transactionsFrom(phone.msisdn).at(-1);
    sandbox().payments.settleNow(bought?.reference ?? '', 'success');
    expect(await phone.send('1')).toMatch(/^END Paid/);

    await phone.dial();
    await phone.send('1');
    expect(await phone.send('2')).toMatch(/plate/i);
    const confirm = await phone.send(vehicle);
    expect(confirm).toMatch(/Pay with:/);
    const shown = amountOn(confirm);
    expect(await phone.send('1')).toMatch(`CON Approve ZMW ${shown} on your phone`);
    const renewal = transactionsFrom(phone.msisdn).at(-1);
    expect(renewal?.reference).not.toBe(bought?.reference);
    expect(renewal?.amount.toFixed(2)).toBe(shown.replace(/,/g, ''));
    sandbox().payments.settleNow(renewal?.reference ?? '', 'success');
    expect(await phone.send('1')).toMatch(
      new RegExp(`^END Paid ZMW ${shown}\\. Policy MTR-\\S+ is renewed`),
    );
  });
});
