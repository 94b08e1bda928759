import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/conversation/index.js';
import { requestHoldingsSync } from '../../src/holdings/index.js';
import { normaliseCaller } from '../../src/msisdn/index.js';
import { DEMO_BOOK, largeBookHolder } from '../../src/sandbox/index.js';
import { sandboxOf, startTestServer, type TestServer } from '../server/test-server.js';
import { throughStillWorking, type UssdCaller, ussdCaller } from '../server/ussd-caller.js';
import { eventually } from '../support/eventually.js';
import { deleteKeys } from '../support/redis-modes.js';

// Issue 36: the holdings sync heals itself. Through the HTTP server, real Redis on the test's own
// prefix and the embedded sandbox.

describe('an insurer that caps its pages at 50, with a book of many pages', () => {
  const BOOK = 1_500;
  let harness: TestServer;
  beforeAll(async () => {
    harness = await startTestServer(
      {},
      { sandbox: { settleDelayMs: 300, bookSize: BOOK, strict: { lateMs: 0, maxPageSize: 50 } } },
    );
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
  });

  it('indexes every policy, member and loan, the last page’s as the first’s', async () => {
    // The server synced at start; every page of each list was read in the size answered (50).
    const last = largeBookHolder(BOOK - 1);
    const first = largeBookHolder(0);
    const entries = await harness.server.holdings.ofNrcs([first.nrcNumber, last.nrcNumber]);
    for (const entry of entries) {
      expect(entry.refs.map((ref) => ref.line).sort()).toEqual([
        'credit-life',
        'group-life',
        'motor',
        'travel',
      ]);
    }
    // Every holder of the book, not a first page of each list.
    const all = await harness.server.holdings.ofNrcs(
      Array.from({ length: BOOK }, (_, i) => largeBookHolder(i).nrcNumber),
    );
    expect(all.filter((entry) => entry.refs.length === 4)).toHaveLength(BOOK);
    expect(sandboxOf(harness).state.members.size).toBeGreaterThan(BOOK);
  }, 120_000);
});

describe('records the sync or a lookup could not read', () => {
  let harness: TestServer;
  beforeAll(async () => {
    harness = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });
  const state = () => sandboxOf(harness).state;
  const suffix = () => String(100000 + Math.floor(Math.random() * 899999));

  /** A policy of `line` held by `holder`, copied from a seeded one and created now. */
  function addPolicy(line: 'motor' | 'travel', id: string, holder: Record<string, unknown>) {
    const seeded = [...state().policies.values()].find((p) => p.line === 'motor');
    if (!seeded) throw new Error('no seeded motor policy');
    const now = new Date().toISOString();
    const number = `${line === 'motor' ? 'MTR' : 'TRV'}-HEAL-${id.slice(-6)}`;
    state().policies.set(id, {
      ...seeded,
      id,
      line,
      ...(line === 'travel' ? { registrationNumbers: [], destination: 'Kenya' } : {}),
      policyNumber: number,
      status: 'Active',
      premiumStatus: 'Paid',
      endDate: '2099-01-01',
      createdAt: now,
      updatedAt: now,
      ...holder,
    });
    return number;
  }

  it('reads again on the next run a motor policy whose holder could not be read', async () => {
    const tail = suffix();
    const clientId = `cli_heal_${tail}`;
    const nrc = `${tail}/11/1`;
    addPolicy('motor', `mtr_heal_${tail}`, { clientId, policyHolder: null });
    // The holder is not (yet) at the insurer: its read fails, the policy is not indexed …
    await harness.server.holdingsSync.runNow();
    const ids = async () =>
      (await harness.server.holdings.ofNrcs([nrc]))[0]?.refs.map((ref) => ref.policyId);
    expect(await ids()).toEqual([]);
    expect((await harness.server.holdings.toReread()).map((r) => r.ref.policyId)).toContain(
      `mtr_heal_${tail}`,
    );
    // … and the next run reads it again, though the motor list's window has moved past it.
    const individual = [...state().clients.values()].find((c) => c.type === 'Individual');
    if (!individual) throw new Error('no seeded individual');
    state().clients.set(clientId, {
      ...individual,
      id: clientId,
      idNumber: nrc,
      phoneNumber: `+26097${tail}1`,
    });
    await harness.server.holdingsSync.runNow();
    expect(await ids()).toEqual([`mtr_heal_${tail}`]);
    expect((await harness.server.holdings.ofPhone(`26097${tail}1`)).refs).toHaveLength(1);
    expect((await harness.server.holdings.toReread()).map((r) => r.ref.policyId)).not.toContain(
      `mtr_heal_${tail}`,
    );
  });

  it('shows again after the next run a policy a lookup was once answered 404 for', async () => {
    const phone = ussdCaller(() => harness.url, 'transient');
    const id = `trv_heal_${phone.msisdn}`;
    const number = addPolicy('travel', id, {
      clientId: null,
      policyHolder: { idType: 'NRC', idNumber: '616161/61/1', phone: phone.msisdn },
    });
    await harness.server.holdingsSync.runNow();
    expect(await myCover(phone)).toContain(`Travel ${number} in force`);
    // The insurer answers 404 for it once (a passing fault): My cover drops it …
    const policy = state().policies.get(id);
    if (!policy) throw new Error('no policy');
    state().policies.delete(id);
    expect(await myCover(phone)).not.toContain(number);
    state().policies.set(id, policy);
    // … and the sync's next run reads it again instead of leaving it out for a week.
    await harness.server.holdingsSync.runNow();
    expect(await myCover(phone)).toContain(`Travel ${number} in force`);
  });
});

describe('a policyholder whose phone changed at the insurer', () => {
  let harness: TestServer;
  beforeAll(async () => {
    harness = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });

  it('runs a full pass asked for from outside the server (npm run sync-now) on the server’s worker', async () => {
    const borrower = DEMO_BOOK.creditLife.borrower;
    const before = Number((await harness.server.holdings.cursor()).fullAt);
    await requestHoldingsSync({ redis: harness.redis, prefix: harness.prefix, full: true });
    expect(Number((await harness.server.holdings.cursor()).fullAt)).toBeGreaterThan(before);
    expect(
      (await harness.server.holdings.ofNrcs([borrower.nrcNumber]))[0]?.refs.length,
    ).toBeGreaterThan(0);
  }, 60_000);

  it('moves the link on the next full pass: the old number loses My cover, the new one gains it', async () => {
    const borrower = DEMO_BOOK.creditLife.borrower;
    const oldPhone = ussdCaller(
      () => harness.url,
      'old',
      `+${normaliseCaller(borrower.phoneNumber)}`,
    );
    expect(await myCover(oldPhone)).toContain('KL-DEMO-ACTIVE');
    const person = [...sandboxOf(harness).state.clients.values()].find(
      (client) => client.idNumber === borrower.nrcNumber,
    );
    if (!person) throw new Error('the borrower is no policyholder of the sandbox');
    const newPhone = ussdCaller(() => harness.url, 'new');
    person.phoneNumber = newPhone.number;

    await harness.server.holdingsSync.runNow({ full: true });
    const moved = await myCover(oldPhone);
    expect(moved).not.toContain('KL-DEMO-ACTIVE');
    expect(moved).toContain(t('cover.mine.none'));
    expect(await myCover(newPhone)).toContain('KL-DEMO-ACTIVE');
    expect((await harness.server.holdings.ofPhone(oldPhone.msisdn)).nrcs).toEqual([]);
  }, 60_000);
});

describe('after Redis lost every key of the server', () => {
  let harness: TestServer;
  beforeAll(async () => {
    harness = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });
  const borrower = DEMO_BOOK.creditLife.borrower;
  const held = async () => (await harness.server.holdings.ofNrcs([borrower.nrcNumber]))[0];
  const borrowerPhone = () =>
    ussdCaller(() => harness.url, 'borrower', `+${normaliseCaller(borrower.phoneNumber)}`);

  it('answers from a warm index with no unknown', async () => {
    expect((await harness.server.holdings.completeness()).complete).toBe(true);
    const cover = await myCover(borrowerPhone());
    expect(cover).toContain('KL-DEMO-ACTIVE');
    expect(cover).not.toContain(t('cover.unknown'));
  });

  it('asks the insurer directly, never "none", then recreates the sync’s schedule on its next check and fills the index again, without a restart', async () => {
    expect((await held())?.refs.length).toBeGreaterThan(0);
    // The schedule is there: the check leaves it be.
    expect(await harness.server.holdingsSync.ensureScheduled()).toBe(false);

    await deleteKeys(harness.redis, harness.prefix);
    expect((await held())?.refs).toEqual([]);
    // The index lost its lists: the insurer is asked directly (the client record, each master
    // policy's loan search), so the holder still sees the loans, never "no policies", and a
    // stranger asking by the holder's NRC is told it has cover.
    const cold = await myCover(borrowerPhone());
    expect(cold).toContain('KL-DEMO-ACTIVE');
    expect(cold).not.toContain(t('cover.mine.none'));
    const stranger = await coverByNrc(
      ussdCaller(() => harness.url, 'stranger'),
      borrower.nrcNumber,
    );
    expect(stranger).toMatch(/This NRC has cover until/);
    expect(stranger).not.toContain(t('cover.limited.none'));

    // The minute's check (called here rather than waited for) finds the schedule gone.
    expect(await harness.server.holdingsSync.ensureScheduled()).toBe(true);
    // The recreated schedule runs at once: a full run fills the index again.
    await eventually(
      'a full run filled the index again',
      async () => (await harness.server.holdings.completeness()).complete,
      30_000,
    );
    expect((await held())?.refs.length).toBeGreaterThan(0);
    expect(await myCover(borrowerPhone())).toContain('KL-DEMO-ACTIVE');
    expect(await harness.server.holdingsSync.ensureScheduled()).toBe(false);
  }, 60_000);

  it('says it cannot check at a cold start with the insurer 1.5 s slow, until a sync has run', async () => {
    // The embedded sandbox's seeded book is synced at start; a cold index is one never filled.
    await deleteKeys(harness.redis, harness.prefix);
    sandboxOf(harness).setAnswerDelayMs(1_500);
    try {
      for (let dial = 0; dial < 3; dial += 1) {
        const screen = await myCover(borrowerPhone());
        expect(screen).not.toContain(t('cover.mine.none'));
        expect(screen).toContain(t('cover.unknown'));
      }
    } finally {
      sandboxOf(harness).setAnswerDelayMs(0);
    }
    await harness.server.holdingsSync.runNow();
    expect(await myCover(borrowerPhone())).toContain('KL-DEMO-ACTIVE');
  }, 120_000);
});

/** Dials, opens My cover, checks cover by NRC (1, the NRC) and hangs up (00). */
async function coverByNrc(phone: UssdCaller, nrc: string): Promise<string> {
  await throughStillWorking(phone, await phone.dial(), []);
  await throughStillWorking(phone, await phone.send('3'), []);
  await throughStillWorking(phone, await phone.send('1'), []);
  const cover = await throughStillWorking(phone, await phone.send(nrc), []);
  await phone.send('00');
  return cover;
}

/** Dials, opens My cover and hangs up (00). */
async function myCover(phone: UssdCaller): Promise<string> {
  await throughStillWorking(phone, await phone.dial(), []);
  const cover = await throughStillWorking(phone, await phone.send('3'), []);
  await phone.send('00');
  return cover;
}
