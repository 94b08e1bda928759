import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notifier } from '../../src/channels/index.js';
import type { ChannelAddress, Prompt } from '../../src/conversation/index.js';
import { metrics } from '../../src/server/index.js';
import { runnableModes } from '../support/redis-modes.js';
import { startTestServer, type TestServer } from './test-server.js';
import { answersFor, ussdCaller } from './ussd-caller.js';

const CALLBACK_SECRET = 'payment-once-callback-secret';

/** Stands in for the SMS notifier: records what USSD users are told out of turn. */
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
let harness: TestServer;
/** While set, the insurer carries out the next pay request and its answer is lost. */
let loseNextPay = false;

/** Answers to each screen of a motor purchase for a new car, by the screen's first line. */
const answers = (): ReadonlyArray<readonly [RegExp, () => string]> => [
  ...answersFor(`BCA ${1000 + Math.floor(Math.random() * 8999)}`),
  [/Pay with/i, () => '1'],
  [/Confirm|Pay ZMW/i, () => '1'],
];

/** Buys a motor policy up to "approve on your phone"; returns the caller and its payment reference. */
async function payPending() {
  // Its own number pays (it ends in 5: success).
  const phone = ussdCaller(() => harness.url, 'once');
  const ANSWERS = answers();
  let screen = await phone.dial();
  const seen: string[] = [];
  for (let step = 0; step < 30 && !/Approve .* on your phone/.test(screen); step += 1) {
    seen.push(screen);
    const text = screen.replace(/^(CON|END) /, '');
    const answer = ANSWERS.find(([pattern]) => pattern.test(text.split('\n')[0] ?? ''))?.[1];
    if (!answer)
      throw new Error(`no answer for screen:\n${screen}\nafter:\n${seen.join('\n---\n')}`);
    screen = await phone.send(answer());
  }
  expect(screen).toMatch(/^CON Approve .* on your phone/);
  const sandbox = harness.server.sandbox;
  if (!sandbox) throw new Error('the test server runs the embedded sandbox');
  const payment = sandbox.payments
    .all()
    .find((transaction) => transaction.msisdn?.endsWith(phone.number.slice(-9)));
  if (!payment) throw new Error('the sandbox holds no payment from the caller');
  return { phone, reference: payment.reference, sandbox };
}

async function postCallback(reference: string): Promise<void> {
  const response = await fetch(`${harness.url}/payments/callback/${CALLBACK_SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ partnerReference: reference, status: 'Success' }),
  });
  expect(response.status).toBe(200);
  await harness.server.payments.settled({ includeDelayed: false });
}

async function paidOutcomesCounted(): Promise<number> {
  const counter = await metrics.payments.get();
  return counter.values.find((value) => value.labels.outcome === 'paid')?.value ?? 0;
}

const toCaller = (number: string) =>
  sms.sent.filter((sent) => `+${sent.address.address}` === number);

describe.each(runnableModes())(
  'a payment outcome reaches a USSD caller exactly once, on $name Redis',
  (mode) => {
    beforeAll(async () => {
      harness = await startTestServer(
        { PAYMENT_CALLBACK_SECRET: CALLBACK_SECRET },
        {
          // The payment mechanics read in the call: the payment starts in the caller's turn (the
          // call kept open, as before issue 38; ussd-pay-after-end.test.ts covers the call ending first).
          payDuringCall: true,
          // Nothing settles, polls or calls back by itself: each test decides the order.
          sandbox: {
            settleDelayMs: 600_000,
            loseAnswer: (operation) => {
              if (!loseNextPay || operation !== 'payQuotation') return false;
              loseNextPay = false;
              return true;
            },
          },
          paymentBackoffMs: [600_000],
          notifiers: [sms],
        },
        mode,
      );
      harness.server.sandbox?.setPaymentCallbackUrl(null);
    });
    afterAll(async () => {
      await harness.close();
    });

    it('sends no SMS when the caller already saw the outcome by checking the status in a turn', async () => {
      const { phone, reference, sandbox } = await payPending();
      const countedBefore = await paidOutcomesCounted();
      sandbox.payments.settleNow(reference, 'success');

      const checked = await phone.send('1');
      expect(checked).toMatch(/^END Paid ZMW 173\.25\. .* Your policy number is MTR-/);

      await postCallback(reference);
      expect(toCaller(phone.number)).toEqual([]);
      // Told once, in the turn: counted once.
      expect((await paidOutcomesCounted()) - countedBefore).toBe(1);
    });

    it('sends one SMS when the callback comes first, however the caller checks afterwards', async () => {
      const { phone, reference, sandbox } = await payPending();
      sandbox.payments.settleNow(reference, 'success');

      await postCallback(reference);
      expect(toCaller(phone.number)).toHaveLength(1);
      expect(toCaller(phone.number)[0]?.prompt.key).toBe('motor.done');

      // The caller still has "1. Check status" on screen and picks it: the outcome, not the menu.
      expect(await phone.send('1')).toMatch(
        /^END Paid ZMW 173\.25\. .* Your policy number is MTR-/,
      );
      await harness.server.payments.settled({ includeDelayed: false });
      expect(toCaller(phone.number)).toHaveLength(1);
    });

    it('takes a pay request whose answer was lost once: one transaction, the outcome reaches the caller, and a second attempt only after the first failed', async () => {
      loseNextPay = true;
      const { phone, reference, sandbox } = await payPending();
      expect(loseNextPay).toBe(false);
      const fromCaller = () =>
        sandbox.payments
          .all()
          .filter((transaction) => transaction.msisdn?.endsWith(phone.number.slice(-9)));
      // Looked up, not sent again: the insurer holds exactly one transaction.
      expect(fromCaller().map((transaction) => transaction.reference)).toEqual([reference]);

      // The attempt was tracked before its request left, so the outcome is pushed to the caller.
      sandbox.payments.settleNow(reference, 'failed');
      await postCallback(reference);
      expect(toCaller(phone.number).map((sent) => sent.prompt.key)).toEqual(['pay.failed']);

      // The screen the caller still has moved on with the flow; the insurer confirms the first
      // attempt Failed, so "Pay again" sends one new request, under a new reference.
      expect(await phone.send('1')).toMatch(/did not go through[\s\S]*1\. Pay again/);
      expect(await phone.send('1')).toMatch(/Pay with:\n1\. My number/);
      const again = await phone.send('1');
      expect(again, again).toMatch(/Approve .* on your phone/);
      expect(fromCaller()).toHaveLength(2);
      expect(fromCaller()[1]?.reference).not.toBe(reference);
    });
  },
);
