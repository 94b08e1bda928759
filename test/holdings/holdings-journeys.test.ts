import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../server/test-server.js';
import {
  closingAfterEnd,
  isStillWorking,
  throughStillWorking,
  toPayScreen,
  type UssdCaller,
  ussdCaller,
} from '../server/ussd-caller.js';

// Issue 25: My cover reads who holds what from the holdings index and asks the insurer only
// about the records it names. Through the HTTP server, the engine, Redis and the embedded sandbox.

/**
 * The USSD turn deadline and the insurer's lateness of the slow journey, both a tenth of
 * production's 4 s and the 1.5 s it was written for: the same turns outlast the deadline, in a
 * tenth of the time.
 */
const USSD_DEADLINE_MS = 400;
const LATE_MS = 150;

let harness: TestServer;
beforeAll(async () => {
  harness = await startTestServer({}, { ussdDeadlineMs: USSD_DEADLINE_MS });
});
afterAll(async () => {
  await harness.close();
});

const sandbox = () => {
  const running = harness.server.sandbox;
  if (!running) throw new Error('the test server runs the embedded sandbox');
  return running;
};
const plate = () => `BCK ${1000 + Math.floor(Math.random() * 8999)}`;

/** Buys motor cover for `car` from the caller's own number; every screen shown goes to `seen`. */
async function buyMotor(phone: UssdCaller, car: string, seen: string[]): Promise<string> {
  await toPayScreen(phone, car, seen);
  // 1: pay from this number. The call ends before the PIN prompt; a dial shows the outcome.
  const ended = await throughStillWorking(phone, await phone.send('1'), seen);
  const screen = await closingAfterEnd(phone, ended, seen);
  expect(screen).toMatch(/^END Paid ZMW/);
  const policy = [...sandbox().state.policies.values()].find((p) =>
    p.registrationNumbers.includes(car),
  );
  if (!policy) throw new Error(`no policy for ${car}`);
  return policy.policyNumber;
}

/** Dials, opens My cover and hangs up (00); every screen shown goes to `seen`. */
async function myCover(phone: UssdCaller, seen: string[] = []): Promise<string> {
  await throughStillWorking(phone, await phone.dial(), seen);
  const cover = await throughStillWorking(phone, await phone.send('3'), seen);
  await phone.send('00');
  return cover;
}

describe('My cover from the holdings index', () => {
  it('lists a policy bought through the bot at once, without waiting for the sync', async () => {
    const phone = ussdCaller(() => harness.url, 'bought');
    const number = await buyMotor(phone, plate(), []);
    expect(await myCover(phone)).toContain(`Motor ${number} in force`);
  }, 60_000);

  it('lists a policy added at the insurer once the sync job has run, and stops when it is removed there', async () => {
    const phone = ussdCaller(() => harness.url, 'elsewhere');
    const id = `trv_elsewhere_${phone.msisdn}`;
    const now = new Date().toISOString();
    sandbox().state.policies.set(id, {
      id,
      line: 'travel',
      policyNumber: `TRV-ELSEWHERE-${phone.msisdn.slice(-6)}`,
      status: 'Active',
      premiumStatus: 'Paid',
      clientId: null,
      quotationId: null,
      registrationNumbers: [],
      destination: 'Kenya',
      policyHolder: { idType: 'NRC', idNumber: '515151/51/1', phone: phone.msisdn },
      startDate: now.slice(0, 10),
      endDate: '2099-01-01',
      basicPremium: 100,
      premiumLevy: 5,
      grossPremium: 105,
      currency: 'ZMW',
      createdAt: now,
      updatedAt: now,
      approvedDate: now,
    });
    const number = `TRV-ELSEWHERE-${phone.msisdn.slice(-6)}`;
    expect(await myCover(phone)).not.toContain(number);

    await harness.server.holdingsSync.runNow();
    expect(await myCover(phone)).toContain(`Travel ${number} in force`);

    sandbox().state.policies.delete(id);
    expect(await myCover(phone)).not.toContain(number);
    // The lookup answered 404 dropped it from the index: the next lookup does not ask again.
    const held = await harness.server.holdings.ofPhone(phone.msisdn);
    expect(held.refs.map((ref) => ref.policyId)).not.toContain(id);
    // The NRC its policyholder carries files the policy, but links no phone to that NRC: a
    // typed NRC makes no phone its owner (issue 35).
    expect(held.nrcs).toEqual([]);
  });
});

describe('with every insurer answer later than a USSD turn may wait for two of them', () => {
  it('finishes a motor purchase and My cover with no screen on the way ending the call', async () => {
    const phone = ussdCaller(() => harness.url, 'slow');
    sandbox().setAnswerDelayMs(LATE_MS);
    try {
      const seen: string[] = [];
      const number = await buyMotor(phone, plate(), seen);
      const cover = await myCover(phone, seen);
      expect(cover).toContain(`Motor ${number} in force`);
      // The insurer was slower than the USSD deadline: "still working" was shown, and kept the
      // call open (CON) like every other screen before the pay choice's, which lets the call go
      // before the PIN prompt, and the purchase's closing one.
      expect(seen.some(isStillWorking)).toBe(true);
      const ends = seen.filter((screen) => screen.startsWith('END'));
      expect(ends).toHaveLength(2);
      expect(ends[0]).toMatch(/^END Approve ZMW/);
      expect(ends[1]).toMatch(/^END Paid ZMW/);
    } finally {
      sandbox().setAnswerDelayMs(0);
    }
  }, 180_000);
});
