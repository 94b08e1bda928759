import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/conversation/index.js';
import { createFileStore, type FileStore } from '../../src/files/index.js';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { eventually } from '../support/eventually.js';
import { deleteKeys } from '../support/redis-modes.js';
import { sandboxOf, startTestServer, type TestServer } from './test-server.js';
import { throughStillWorking, type UssdCaller, ussdCaller } from './ussd-caller.js';

/*
 * Issue 35, "Proven identity", on USSD through the real server: a fresh phone types a borrower's
 * NRC into a motor quote for a new plate and stops at "Pay with:". The quote registers a second
 * individual with her NRC at the insurer; it grants nothing. After a forced full holdings sync,
 * and again with the index lost (and with the registrations lost from Redis too, restored from
 * their durable copy, or unknown while it cannot be read), My cover, cover by NRC (and "Send details by SMS") and Track my
 * claims show that phone nothing of hers; her own phone still sees everything.
 */

const { creditLife, claims } = DEMO_BOOK;
const VICTIM = creditLife.borrower;
const DIGITS = VICTIM.nrcNumber.replaceAll('/', '');
/** What of hers must never reach the impersonator: loans, policies, claims, name. */
const HERS = [
  creditLife.payroll.activeLoan.reference,
  creditLife.payroll.closedLoan.reference,
  creditLife.payroll.policyNumber,
  claims.intimated.claimNumber,
  `${VICTIM.firstName} ${VICTIM.lastName}`,
  VICTIM.lastName,
  VICTIM.phoneNumber.slice(3),
];

let harness: TestServer;
/** While set, the file store's durable records cannot be read (the bucket is down). */
let durableDown = false;
let files: FileStore;
beforeAll(async () => {
  files = await createFileStore({
    signingSecret: 'takeover-files',
    publicUrl: () => harness?.url ?? 'http://127.0.0.1',
  });
  // The server's own kind of store, with its records' reads failing while `durableDown`.
  const fileStore: FileStore = {
    ...files,
    records: (folder) => {
      const records = files.records(folder);
      return {
        write: (name, text) => records.write(name, text),
        readAll: async () => {
          if (durableDown) throw new Error('bucket down');
          return records.readAll();
        },
      };
    },
  };
  harness = await startTestServer({}, { sandbox: { settleDelayMs: 50 }, fileStore });
}, 60_000);
afterAll(async () => {
  await harness.close();
  await files.close();
});

const plate = () => `BID ${1000 + Math.floor(Math.random() * 8999)}`;
const outbox = () => sandboxOf(harness).smsOutbox;

/** Answers a motor quote for `car` with the victim's NRC typed, and chooses to pay from its own number. */
async function quoteWithHerNrc(phone: UssdCaller, car: string, seen: string[]): Promise<void> {
  const answers: [RegExp, string][] = [
    [/^Welcome/, '1'],
    [/^Motor insurance:/, '1'],
    [/^Choose cover/, '1'],
    [/number plate/i, car],
    [/make, model and year/i, 'Toyota Corolla 2015'],
    [/Vehicle use/i, '1'],
    [/Chassis/i, 'CH123456'],
    [/Engine number/i, 'EN123456'],
    [/Choose a period/i, '1'],
    [/mobile number/i, '1'],
    // Held with her phone: the impersonator cannot prove it, and goes on as a new holder.
    [/on record with another phone/, '2'],
    [/NRC/, DIGITS],
    [/full name/i, 'Chipo Zulu'],
    [/e-?mail/i, 'chipo@example.com'],
    [/Correct\?/, '1'],
    [/^Is .* your /, '1'],
  ];
  let screen = await throughStillWorking(phone, await phone.dial(), seen);
  for (let step = 0; step < 30 && !/Pay with:/.test(screen); step += 1) {
    const text = screen.replace(/^(CON|END) /, '');
    const answer = answers.find(([pattern]) => pattern.test(text.split('\n')[0] ?? ''))?.[1];
    if (!answer) throw new Error(`no answer for screen:\n${screen}`);
    screen = await throughStillWorking(phone, await phone.send(answer), seen);
  }
  expect(screen).toMatch(/Pay with:/);
  // Nothing is written at the insurer before the caller chooses to pay (issue 38): the
  // impersonator chooses its own number, and the call ends before the PIN prompt.
  const paying = await phone.send('1');
  seen.push(paying);
  expect(paying).toMatch(/^END /);
}

/** Dials from `phone`, answers `inputs`; every screen shown goes to `seen`, the last returned. */
async function walk(phone: UssdCaller, inputs: readonly string[], seen: string[]): Promise<string> {
  let screen = await throughStillWorking(phone, await phone.dial(), seen);
  if (screen.includes(t('ussd.resumeTitle'))) {
    screen = await throughStillWorking(phone, await phone.send('2'), seen);
  }
  for (const input of inputs) {
    screen = await throughStillWorking(phone, await phone.send(input), seen);
  }
  await phone.send('00');
  return screen;
}

/** What of hers `texts` hold. */
const leaks = (texts: readonly string[]) =>
  HERS.filter((item) => texts.some((text) => text.includes(item)));

describe('a phone that typed a borrower NRC into a motor purchase', () => {
  // A number ending in 1: the sandbox's payer declines the prompt, so the quote is never paid.
  const attacker = ussdCaller(
    () => harness.url,
    'impersonator',
    `+26097${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}1`,
  );
  const victim = ussdCaller(() => harness.url, 'victim', `+${VICTIM.phoneNumber}`);
  const seen: string[] = [];

  beforeAll(async () => {
    await quoteWithHerNrc(attacker, plate(), seen);
    // The pay step registered a second individual with her NRC and the impersonator's phone.
    const registered = () =>
      [...sandboxOf(harness).state.clients.values()]
        .filter((client) => client.idNumber === VICTIM.nrcNumber)
        .map((client) => client.phoneNumber);
    await eventually('the impersonator registered with her NRC', () =>
      registered().includes(attacker.msisdn),
    );
    // Its payer declined: the outcome SMS comes before the walks count what was sent.
    await eventually('the declined payment told by SMS', () =>
      outbox()
        .list(attacker.msisdn)
        .some((sms) => sms.message.includes('did not go through')),
    );
  }, 90_000);

  /** Every walk the impersonator takes: My cover, cover by NRC with Send details, claims. */
  async function impersonate(): Promise<string[]> {
    const screens: string[] = [];
    const before = outbox().list().length;
    // Nothing of hers: none, or (index lost) "cannot check" for its own travel cover unread.
    const mine = await walk(attacker, ['3'], screens);
    expect([t('cover.mine.none'), t('cover.unknown')].some((line) => mine.includes(line))).toBe(
      true,
    );
    const limited = await walk(attacker, ['3', '1', DIGITS], screens);
    expect(limited).toContain('Details go only to the phone on record');
    expect(await walk(attacker, ['3', '1', DIGITS, '1'], screens)).toContain(
      'sent by SMS to the phone on record',
    );
    await walk(attacker, ['4', '4', '2'], screens);
    const sms = outbox().list().slice(before);
    // "Send details" went to her phone on record, and to no other.
    expect(sms.map((message) => message.to.slice(-9))).toEqual([VICTIM.phoneNumber.slice(-9)]);
    return [
      ...screens,
      ...outbox()
        .list(attacker.msisdn)
        .map((message) => message.message),
    ];
  }

  /** Her own phone: My cover lists her loans, and her claims are hers to track. */
  async function herOwn(): Promise<string> {
    const screens: string[] = [];
    await walk(victim, ['3'], screens);
    await walk(victim, ['4', '4', '2'], screens);
    return screens.join('\n');
  }

  it('shows it nothing of hers after a full holdings sync, and her phone everything', async () => {
    await harness.server.holdingsSync.runNow({ full: true });
    expect(leaks(await impersonate())).toEqual([]);
    const own = await herOwn();
    expect(own).toContain(creditLife.payroll.activeLoan.reference);
    expect(own).toContain(claims.intimated.claimNumber);
  }, 120_000);

  it('shows it nothing of hers with the index lost (the insurer asked directly)', async () => {
    // The index's keys only: the registrations beside them are kept without expiry.
    await deleteKeys(harness.redis, `${harness.prefix}holdings`);
    expect((await harness.server.holdings.completeness()).complete).toBe(false);
    expect(leaks(await impersonate())).toEqual([]);
    expect(await herOwn()).toContain(creditLife.payroll.activeLoan.reference);
  }, 120_000);

  it('shows it nothing of hers after Redis loses the registrations and the index, and a sync runs', async () => {
    // A flush of what the quote wrote: which individuals insurechat registered unproven, and the
    // index. Restored from the file store's durable copy, never read as "nobody registered".
    await deleteKeys(harness.redis, `${harness.prefix}identity`);
    await deleteKeys(harness.redis, `${harness.prefix}holdings`);
    expect(await harness.redis.exists(`${harness.prefix}identity:unproven`)).toBe(0);
    await harness.server.holdingsSync.runNow({ full: true });

    expect(leaks(await impersonate())).toEqual([]);
    const own = await herOwn();
    expect(own).toContain(creditLife.payroll.activeLoan.reference);
    expect(own).toContain(claims.intimated.claimNumber);
    const impersonator = [...sandboxOf(harness).state.clients.values()].find(
      (client) => client.phoneNumber === attacker.msisdn,
    );
    expect(
      await harness.redis.hexists(`${harness.prefix}identity:unproven`, String(impersonator?.id)),
    ).toBe(1);
  }, 120_000);

  it('says her cover cannot be checked now, and shows it nothing, while the registrations cannot be restored', async () => {
    await deleteKeys(harness.redis, `${harness.prefix}identity`);
    await deleteKeys(harness.redis, `${harness.prefix}holdings`);
    durableDown = true;
    try {
      await harness.server.holdingsSync.runNow({ full: true });
      const screens: string[] = [];
      const mine = await walk(attacker, ['3'], screens);
      expect([t('cover.mine.none'), t('cover.unknown')].some((line) => mine.includes(line))).toBe(
        true,
      );
      // Her own phone is told the truth: unknown now, not "no policies" and not her loans by
      // everyone's rule.
      const hers = await walk(victim, ['3'], []);
      expect(hers).toContain(t('cover.unknown'));
      expect(
        leaks([
          ...screens,
          ...outbox()
            .list(attacker.msisdn)
            .map((m) => m.message),
        ]),
      ).toEqual([]);
    } finally {
      durableDown = false;
    }
    // The copy answers again: the next lookup restores, and her phone sees her loans.
    expect(await herOwn()).toContain(creditLife.payroll.activeLoan.reference);
  }, 120_000);
});
