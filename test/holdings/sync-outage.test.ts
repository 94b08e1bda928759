import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/conversation/index.js';
import { HoldingsSyncFailedError } from '../../src/holdings/index.js';
import { createSandbox, DEMO_BOOK, type Sandbox } from '../../src/sandbox/index.js';
import { type InsurerTap, startInsurerTap } from '../reliability/insurer-tap.js';
import { startTestServer, type TestServer } from '../server/test-server.js';
import { throughStillWorking, ussdCaller } from '../server/ussd-caller.js';
import { deleteKeys } from '../support/redis-modes.js';

/*
 * Issue 36: an insurer outage in the middle of the sync that refills the holdings index after a
 * Redis loss. Through the real server (USSD route, engine, Redis on the test's own prefix), its
 * insurer a sandbox on its own port behind a fault-injecting tap. The partner client's circuit
 * breaker runs on a clock the test moves: its 30 s open period passes without being waited for.
 */

const { creditLife, motor, funeral, groupLife } = DEMO_BOOK;
/** The README's demo people who hold cover, each with a record My cover lists. */
const HOLDERS = [
  { who: 'the borrower', phone: creditLife.borrower.phoneNumber, record: 'KL-DEMO-ACTIVE' },
  { who: 'the motor holder', phone: motor.holder.phoneNumber, record: motor.insured.policyNumber },
  {
    who: 'the funeral principal',
    phone: funeral.principal.phoneNumber,
    record: funeral.policyNumber,
  },
] as const;
/** NRCs of README people holding cover, looked up by a phone on record nowhere. */
const COVERED_NRCS = [
  creditLife.borrower.nrcNumber,
  groupLife.member.nrcNumber,
  funeral.principal.nrcNumber,
] as const;
/** The partner client's circuit breaker stays open this long (its default). */
const OPEN_MS = 30_000;

/** Any "none" a holder of cover must never be told. */
const FALSE_NONE = [t('cover.mine.none'), t('cover.limited.none')];

let insurer: Sandbox;
let tap: InsurerTap;
let harness: TestServer;
/** The partner client's clock: still unless the test moves it. */
let clock = Date.now();
/** When Redis lost the server's keys. */
let lostAt = 0;

beforeAll(async () => {
  insurer = createSandbox({ settleDelayMs: 50 });
  const { origin } = await insurer.listen(0);
  tap = await startInsurerTap(origin);
  harness = await startTestServer(
    { PARTNER_API_URL: `${tap.origin}/api/v1`, PARTNER_API_KEY: insurer.apiKey },
    { partnerCircuitBreaker: { openMs: OPEN_MS }, partnerClock: () => clock },
  );
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await tap?.close();
  await insurer?.close();
});

/** Dials from `from` (a random phone when omitted), answers `inputs`; the screens they showed. */
async function journey(from: string | undefined, inputs: readonly string[]): Promise<string> {
  const phone = ussdCaller(() => harness.url, 'sync-outage', from);
  const screen = await phone.dial();
  if (screen.includes(t('ussd.resumeTitle'))) await phone.send('2');
  const seen: string[] = [];
  for (const input of inputs) await throughStillWorking(phone, await phone.send(input), seen);
  await phone.send('00');
  return seen.join('\n');
}

/** My cover, both pages of the list. */
const myCover = (phone: string) => journey(`+${phone}`, ['3', '98']);
const byNrc = (nrc: string) => journey(undefined, ['3', '1', nrc]);
const circuit = async () =>
  ((await (await fetch(`${harness.url}/readyz`)).json()) as { upstreamCircuit: string })
    .upstreamCircuit;
const completeness = () => harness.server.holdings.completeness();

describe('an insurer outage mid-sync after a Redis loss', () => {
  it('fills the index from the insurer before the loss', async () => {
    // A real insurer's book is read in the background after the start: waited for here.
    await harness.server.holdingsSync.runNow();
    expect((await completeness()).complete).toBe(true);
    expect(await myCover(creditLife.borrower.phoneNumber)).toContain('KL-DEMO-ACTIVE');
  }, 60_000);

  it('tells no holder "none" or "in force" while the insurer is down part-way through the sync', async () => {
    lostAt = Date.now();
    await deleteKeys(harness.redis, harness.prefix);
    expect((await completeness()).complete).toBe(false);
    // The sync reads policyholders and motor policies, then the insurer goes down: from the
    // travel list on, every connection is dropped unanswered.
    let down = false;
    tap.decide((request) => {
      if (request.path.endsWith('/policies/travel')) down = true;
      return down ? 'down' : 'pass';
    });
    await expect(harness.server.holdingsSync.runNow()).rejects.toBeInstanceOf(
      HoldingsSyncFailedError,
    );
    // Part-way: the lists read before the outage are stamped, the rest are not.
    expect((await completeness()).lists).toMatchObject({
      individuals: 'fresh',
      motor: 'fresh',
      travel: 'cold',
      'group-life': 'cold',
      'credit-life': 'cold',
    });

    const screens: string[] = [];
    for (const holder of HOLDERS) screens.push(await myCover(holder.phone));
    for (const nrc of COVERED_NRCS) screens.push(await byNrc(nrc));
    // The breaker opened on the failures; it stays open, the clock standing still.
    expect(await circuit()).toBe('open');
    const reached = tap.requests.length;
    for (const holder of HOLDERS) screens.push(await myCover(holder.phone));
    for (const nrc of COVERED_NRCS) screens.push(await byNrc(nrc));
    expect(tap.requests.length).toBe(reached);

    for (const screen of screens) {
      for (const none of FALSE_NONE) expect(screen).not.toContain(none);
      expect(screen).not.toContain('in force');
      expect(screen).not.toMatch(/has cover until/);
      // Said as not known now, or the insurer as unreachable.
      expect(screen).toMatch(
        /We cannot check your cover|could not be confirmed now|cannot be checked now|cannot be reached/,
      );
    }
  }, 120_000);

  it('once the insurer is back, completes the index within one sync and shows the right records, without a restart', async () => {
    tap.decide(() => 'pass');
    // The breaker's open period passes on its clock; the next call is its trial.
    clock += OPEN_MS;
    expect(await circuit()).toBe('half-open');
    // Before the next sync, the index part-filled: the borrower's loans are asked for directly.
    const early = await myCover(creditLife.borrower.phoneNumber);
    expect(early).toContain('KL-DEMO-ACTIVE');
    for (const none of FALSE_NONE) expect(early).not.toContain(none);
    expect(await circuit()).toBe('closed');

    await harness.server.holdingsSync.runNow();
    expect(await circuit()).toBe('closed');
    expect((await completeness()).complete).toBe(true);
    // A full pass, begun after the loss, has been read to its end.
    expect(Number((await harness.server.holdings.cursor()).fullAt)).toBeGreaterThan(lostAt);

    for (const holder of HOLDERS) {
      const screen = await myCover(holder.phone);
      expect(screen, holder.who).toContain(holder.record);
      expect(screen, holder.who).not.toContain('We cannot check your cover');
      expect(screen, holder.who).not.toContain(t('status.notCheckedNow'));
    }
    expect(await myCover(creditLife.borrower.phoneNumber)).toMatch(
      /Loan KL-DEMO-GRACE in grace until/,
    );
    for (const nrc of COVERED_NRCS) {
      const screen = await byNrc(nrc);
      expect(screen, nrc).toMatch(/This NRC has cover until \d\d\/\d\d\/\d{4}/);
    }
    // The schedule the loss took is recreated by the minute's check (called here).
    expect(await harness.server.holdingsSync.ensureScheduled()).toBe(true);
  }, 120_000);
});
