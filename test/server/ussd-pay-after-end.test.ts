import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Notifier } from '../../src/channels/index.js';
import type { ChannelAddress, Prompt } from '../../src/conversation/index.js';
import { renderPrompt } from '../../src/conversation/index.js';
import { DEMO_BOOK } from '../../src/sandbox/demo-book.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { type InsurerTap, isPay, startInsurerTap } from '../reliability/insurer-tap.js';
import { eventually } from '../support/eventually.js';
import { deleteKeys, testPrefix } from '../support/redis-modes.js';
import { startTestServer, type TestServer } from './test-server.js';
import { amountOn, toPayScreen, type UssdCaller, ussdCaller } from './ussd-caller.js';

/*
 * Issue 38, "END before the prompt": on a handset only one USSD dialogue is open at a time, so
 * the network's mobile-money PIN prompt cannot show while our session holds the screen. Through
 * the real server, engine, Redis and the sandbox insurer behind a recording tap: choosing mobile
 * money answers END; the request to pay reaches the insurer only after that answer was sent;
 * the outcome comes by SMS; dialling again shows where the payment stands.
 */

/** Stands in for the SMS notifier: what USSD callers are told out of turn, rendered. */
class RecordingSms implements Notifier {
  readonly channel = 'ussd';
  readonly sent: Array<{ address: ChannelAddress; prompt: Prompt; text: string }> = [];

  async notify(address: ChannelAddress, prompt: Prompt): Promise<void> {
    // The renewal-reminder notice a new policyholder gets is not a payment message.
    if (prompt.key === 'reminder.smsNotice') return;
    this.sent.push({ address, prompt, text: renderPrompt(prompt, address.locale).text });
  }
}

const sms = new RecordingSms();
let insurer: Sandbox;
let tap: InsurerTap;
let harness: TestServer;

beforeAll(async () => {
  insurer = createSandbox({ settleDelayMs: 50 });
  const { origin } = await insurer.listen();
  // Outcomes are found by the status poll, quickly, whatever the insurer's callback does.
  insurer.setPaymentCallbackUrl(null);
  tap = await startInsurerTap(origin);
  harness = await startTestServer(
    {
      PARTNER_API_URL: `${tap.origin}/api/v1`,
      PARTNER_API_KEY: insurer.apiKey,
      // Long enough that the END answer is on its way before the job runs; the order is what
      // the tests check, through the tap's log, never how long it took.
      USSD_PAY_DELAY_MS: '200',
    },
    { notifiers: [sms], paymentBackoffMs: [50, 100, 200, 400, 800, 1600, 3200] },
  );
});

afterEach(() => {
  tap.decide(() => 'pass');
});

afterAll(async () => {
  await harness?.close();
  await tap?.close();
  await insurer?.close();
});

let plates = 1000 + Math.floor(Math.random() * 8000);
const nextPlate = () => {
  plates += 1;
  return `BCE ${plates}`;
};

/** A request to pay: a quotation's (`/payments/{id}/pay`) or a renewal's (`…/renew/pay`). */
const paying = (request: { method: string; path: string }) =>
  isPay(request) || (request.method === 'POST' && /\/pay$/.test(request.path));

/** What the insurer was asked while a request was open: its writes (reads may run ahead). */
const writesBefore = (log: readonly string[], mark: string) =>
  log.slice(0, log.indexOf(mark)).filter((entry) => !entry.startsWith('GET '));

/** What `phone` was told by SMS, rendered. */
const toldTo = (phone: UssdCaller) =>
  sms.sent.filter((sent) => sent.address.address === phone.msisdn);

/**
 * Sends `input` (the mobile-money choice) and logs, in order, every insurer request the tap sees
 * and the moment the answer came back: `answered` in `log`.
 */
async function chooseLogged(phone: UssdCaller, input: string, log: string[]): Promise<string> {
  tap.decide((request) => {
    log.push(paying(request) ? 'pay' : `${request.method} ${request.path}`);
    return 'pass';
  });
  log.push('chosen');
  const screen = await phone.send(input);
  log.push('answered');
  return screen;
}

describe('a new car bought on USSD, paid by mobile money', () => {
  it('answers END on the choice, sends the pay request after it, tells the outcome by SMS and shows it on the next dial', async () => {
    const phone = ussdCaller(() => harness.url, 'end-pay');
    const plate = nextPlate();
    const quoted = amountOn(await toPayScreen(phone, plate));
    const log: string[] = [];

    const ended = await chooseLogged(phone, '1', log);
    expect(ended).toBe(
      `END Approve ZMW ${quoted} for Motor Third Party for ${plate} when your phone asks for your PIN. We will SMS the result.`,
    );
    await eventually('the pay request', () => log.includes('pay'));
    // Nothing was written at the insurer while the caller's call was open: the registration,
    // the quotation and the pay request all came after the END answer.
    expect(writesBefore(log, 'answered')).toEqual(['chosen']);
    expect(log.slice(log.indexOf('answered')).some((entry) => entry.startsWith('POST '))).toBe(
      true,
    );
    expect(log.indexOf('pay')).toBeGreaterThan(log.indexOf('answered'));
    expect(log.filter((entry) => entry === 'pay')).toHaveLength(1);

    const paid = await eventually('the outcome SMS', () =>
      toldTo(phone).find((sent) => sent.prompt.key === 'motor.done'),
    );
    expect(paid.text).toMatch(`Paid ZMW ${quoted}.`);
    expect(paid.text).toMatch(/policy number is MTR-/);
    // The screen "approve it on your phone" is not sent again by SMS: the caller just read it.
    expect(toldTo(phone).map((sent) => sent.prompt.key)).toEqual(['motor.done']);

    // Dialling again shows the payment's outcome once, then the menu.
    const redial = await phone.dial();
    expect(redial).toMatch(`END Paid ZMW ${quoted}.`);
    expect(redial).toMatch(/policy number is MTR-/);
    expect(await phone.dial()).toMatch(/^CON Welcome/);
    await harness.server.payments.settled();
    expect(log.filter((entry) => entry === 'pay')).toHaveLength(1);
  });

  it('says where a payment still waiting for the PIN stands when the caller dials again', async () => {
    // A number ending in 3: the payer never answers the prompt (pending).
    const phone = ussdCaller(() => harness.url, 'end-pending');
    const quoted = amountOn(await toPayScreen(phone, nextPlate()));
    expect(await phone.send('2')).toMatch(`Mobile money number to pay ZMW ${quoted} from:`);
    const log: string[] = [];
    expect(await chooseLogged(phone, '0971000003', log)).toMatch(
      new RegExp(`^END Approve ZMW ${quoted} for .* when your phone asks for your PIN\\.`),
    );
    await eventually('the pay request', () => log.includes('pay'));

    expect(await phone.dial()).toMatch(/^CON You have an unfinished session\./);
    expect(await phone.send('1')).toBe(
      `END Your payment of ZMW ${quoted} for Motor Third Party for BCE ${plates} is waiting for your PIN on your phone. We will SMS the result.`,
    );
    expect(toldTo(phone)).toEqual([]);
  });
});

describe('a payment that fails after the call ended', () => {
  it('tells a declined payment by SMS, and the next dial offers Pay again and Card', async () => {
    const phone = ussdCaller(() => harness.url, 'end-declined');
    expect(await phone.dial()).toMatch(/^CON Welcome/);
    await phone.send('2');
    await phone.send('Zambia');
    await phone.send('15/01/2099');
    await phone.send('10');
    await phone.send('Mwila Banda');
    await phone.send('479974111');
    await phone.send('2');
    const confirm = await phone.send('1');
    const listed = amountOn(confirm);
    await phone.send('2');
    // A number ending in 1: the payer declines the prompt.
    const ended = await phone.send('0971000001');
    expect(ended).toMatch(
      new RegExp(`^END Approve ZMW ${listed} for .* when your phone asks for your PIN\\.`),
    );

    const declined = await eventually('the declined SMS', () =>
      toldTo(phone).find((sent) => sent.prompt.key === 'pay.failed'),
    );
    expect(declined.text).toMatch(`Payment of ZMW ${listed} for`);
    expect(declined.text).toMatch(/did not go through\. Nothing was charged\./);

    expect(await phone.dial()).toMatch(/^CON You have an unfinished session\./);
    const failed = await phone.send('1');
    expect(failed).toMatch(/^CON Payment of ZMW .* did not go through/);
    expect(failed).toMatch(/1\. Pay again\n2\. Card\n3\. End/);
  });

  it('tells an insurer refusal at pay time by SMS, and the next dial leads back to paying, the call ended again before it', async () => {
    const phone = ussdCaller(() => harness.url, 'end-error');
    const quoted = amountOn(await toPayScreen(phone, nextPlate()));
    const log: string[] = [];
    // The insurer refuses the first pay request (404): nothing is taken.
    tap.decide((request) => {
      if (!paying(request)) return 'pass';
      log.push('pay');
      return log.length === 1 ? 'notFound' : 'pass';
    });
    expect(await phone.send('1')).toMatch(/^END Approve ZMW /);
    const refused = await eventually('the refusal SMS', () =>
      toldTo(phone).find((sent) => sent.prompt.key.startsWith('flow.failed')),
    );
    // Not a closing message: the SMS says how to carry on (the SMS notifier adds the code).
    expect(refused.prompt.final).toBe(false);

    expect(await phone.dial()).toMatch(/^CON You have an unfinished session\./);
    const failure = await phone.send('1');
    expect(failure).toBe(`CON ${refused.text}\n1. Change my answer\n2. End`);
    const again = await phone.send('1');
    expect(amountOn(again)).toBe(quoted);
    expect(again).toMatch(/Pay with:/);
    expect(await phone.send('1')).toMatch(/^END Approve ZMW /);
    await eventually('the paid SMS', () =>
      toldTo(phone).find((sent) => sent.prompt.key === 'motor.done'),
    );
    expect(log).toEqual(['pay', 'pay']);
  });
});

describe('a motor renewal on USSD', () => {
  it('answers END on the mobile-money choice and tells the renewal by SMS', async () => {
    const phone = ussdCaller(() => harness.url, 'end-renewal');
    const { renewal } = DEMO_BOOK.motor;
    await harness.server.reminders.recordPurchase({
      route: { channel: 'ussd', address: phone.msisdn, locale: 'en' },
      policyId: renewal.policyId,
      policyNumber: renewal.policyNumber,
      what: `Motor Third Party for ${renewal.registrationNumber}`,
      endDate: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
      renewal: false,
    });
    const menu = await phone.dial();
    const item = new RegExp(`(\\d+)\\. Renew ${renewal.policyNumber}`).exec(menu)?.[1];
    if (!item) throw new Error(`no Renew on:\n${menu}`);
    const priced = await phone.send(item);
    expect(priced).toMatch(/Pay with:/);
    const quoted = amountOn(priced);
    const log: string[] = [];
    expect(await chooseLogged(phone, '1', log)).toMatch(
      new RegExp(`^END Approve ZMW ${quoted} for renewal of ${renewal.policyNumber}`),
    );
    await eventually('the pay request', () => log.includes('pay'));
    expect(writesBefore(log, 'answered')).toEqual(['chosen']);
    const renewed = await eventually('the renewal SMS', () =>
      toldTo(phone).find((sent) => sent.prompt.key === 'motor.renewed'),
    );
    expect(renewed.text).toMatch(`Paid ZMW ${quoted}.`);
  });
});

describe('an instance restarted between the END and the pay request', () => {
  it('loses nothing: the next instance sends the pay request once, and the outcome SMS comes', async () => {
    // Two instances of one deployment in turn, over the same Redis keys.
    const shared = testPrefix();
    const env = {
      PARTNER_API_URL: `${tap.origin}/api/v1`,
      PARTNER_API_KEY: insurer.apiKey,
      // Long enough for the first instance to be gone before the job is due.
      USSD_PAY_DELAY_MS: '5000',
    };
    const deps = {
      notifiers: [sms],
      paymentBackoffMs: [50, 100, 200, 400, 800, 1600, 3200],
      keyPrefix: shared,
    };
    const first = await startTestServer(env, deps);
    let url = first.url;
    const phone = ussdCaller(() => url, 'end-restart');
    const plate = nextPlate();
    try {
      await toPayScreen(phone, plate);
      const log: string[] = [];
      expect(await chooseLogged(phone, '1', log)).toMatch(/^END Approve ZMW /);
      await first.close();
      expect(log).not.toContain('pay');

      const second = await startTestServer(env, deps);
      url = second.url;
      try {
        await eventually('the pay request from the next instance', () => log.includes('pay'));
        const paid = await eventually('the outcome SMS', () =>
          toldTo(phone).find((sent) => sent.prompt.key === 'motor.done'),
        );
        expect(JSON.stringify(paid.prompt.params)).toContain(plate);
        await second.server.payments.settled();
        expect(log.filter((entry) => entry === 'pay')).toHaveLength(1);
      } finally {
        await second.close();
      }
    } finally {
      await deleteKeys(harness.redis, shared);
    }
  }, 60_000);
});
