import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/conversation/index.js';
import { DEFAULT_LIMITS } from '../../src/limits/index.js';
import { DEMO_BOOK, type DemoPerson } from '../../src/sandbox/index.js';
import { metricsRegistry } from '../../src/server/index.js';
import { DEFAULT_LIMITS_ENV, sandboxOf, startTestServer, type TestServer } from './test-server.js';
import { throughStillWorking, ussdCaller } from './ussd-caller.js';

/*
 * Issue 35 through the real server, with the limits as deployed (docs, Limits): "Send details
 * by SMS" for one NRC, asked 30 times from one phone and from 10 phones, reaches the phone on
 * record at most as often as its per-target count allows, and every request refused shows
 * "You have asked too often" with when to try again; two instances on one Redis count together.
 */

const MENU_COVER = '3';
const BY_NRC = '1';
const SENT = t('cover.sms.sent');
const TOO_OFTEN = t('flow.failed.limited');
const WHEN = [t('limits.note.hour'), t('limits.note.day')];
/** The most SMS one phone on record gets in an hour from everyone together. */
const PER_TARGET = DEFAULT_LIMITS.sms.target.hour;

/** The number of the menu line whose label matches, on a USSD screen. */
function option(screen: string, label: RegExp): string {
  const line = screen.split('\n').find((candidate) => label.test(candidate));
  const number = line?.split('.')[0]?.trim();
  if (!number || !/^\d+$/.test(number)) throw new Error(`no ${label} on: ${screen}`);
  return number;
}

/**
 * One "send details" request: dials from `from`, looks the NRC up and asks for the SMS. Resolves
 * the last screen, which is either "sent" or a refusal (of the look-up or of the SMS).
 */
async function askForDetails(url: string, from: string, nrc: string): Promise<string> {
  const phone = ussdCaller(() => url, 'limits', from);
  let screen = await phone.dial();
  if (/unfinished session/i.test(screen)) screen = await phone.send(option(screen, /start again/i));
  screen = await throughStillWorking(phone, await phone.send(MENU_COVER));
  screen = await throughStillWorking(phone, await phone.send(BY_NRC));
  screen = await throughStillWorking(phone, await phone.send(nrc));
  if (screen.includes(TOO_OFTEN)) return screen;
  const sms = option(screen, new RegExp(t('cover.choice.sms')));
  return throughStillWorking(phone, await phone.send(sms));
}

/** Each request's last screen is either "sent" or the clear refusal: nothing else. */
function expectSentOrRefused(screens: readonly string[]): void {
  for (const screen of screens) {
    if (screen.includes(SENT)) continue;
    expect(screen).toContain(TOO_OFTEN);
    expect(WHEN.some((when) => screen.includes(when))).toBe(true);
    // The flow stays usable: the refusal offers Back, not a dead end.
    expect(screen).toMatch(/^CON /);
    expect(screen).toContain(t('flow.choice.back'));
  }
}

/** Details SMS the sandbox's provider delivered to `person`'s phone on record. */
function detailsTo(harness: TestServer, person: DemoPerson) {
  return sandboxOf(harness)
    .smsOutbox.list(`+${person.phoneNumber}`)
    .filter((sms) => sms.message.startsWith(t('cover.sms.details')));
}

/** The refusals counted so far for `kind` by `scope` (insurechat_limit_refusals_total). */
async function refusals(kind: string, scope: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric('insurechat_limit_refusals_total')?.get();
  const value = metric?.values.find((v) => v.labels.kind === kind && v.labels.scope === scope);
  return value?.value ?? 0;
}

const randomPhone = () =>
  `+26096${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}7`;

describe('limits on "send details by SMS", one instance', () => {
  let harness: TestServer;
  beforeAll(async () => {
    harness = await startTestServer({ ...DEFAULT_LIMITS_ENV });
  }, 60_000);
  afterAll(async () => {
    await harness?.close();
  });

  it('30 requests for one NRC from one phone text the phone on record at most the per-target count, each refusal a clear screen', async () => {
    const person = DEMO_BOOK.creditLife.borrower;
    const from = randomPhone();
    const before = await refusals('sms', 'target');
    const screens: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      screens.push(await askForDetails(harness.url, from, person.nrcNumber));
    }
    expect(detailsTo(harness, person)).toHaveLength(PER_TARGET);
    expect(screens.filter((screen) => screen.includes(SENT))).toHaveLength(PER_TARGET);
    expectSentOrRefused(screens);
    expect(await refusals('sms', 'target')).toBeGreaterThan(before);
    // The phone on record is not locked out of its own cover: My cover still lists it.
    const holder = ussdCaller(() => harness.url, 'limits-own', `+${person.phoneNumber}`);
    await holder.dial();
    const own = await throughStillWorking(holder, await holder.send(MENU_COVER));
    expect(own).not.toContain(TOO_OFTEN);
  }, 120_000);

  it('30 requests for one NRC from 10 phones text the phone on record at most the per-target count', async () => {
    const person = DEMO_BOOK.groupLife.member;
    const phones = Array.from({ length: 10 }, randomPhone);
    const screens: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      screens.push(await askForDetails(harness.url, phones[i % 10] ?? '', person.nrcNumber));
    }
    expect(detailsTo(harness, person)).toHaveLength(PER_TARGET);
    expectSentOrRefused(screens);
  }, 120_000);
});

describe('limits on "send details by SMS", two instances on one Redis', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    // One signing secret for both: it keys the hashes the counts are kept under.
    const env = { ...DEFAULT_LIMITS_ENV, FILES_SIGNING_SECRET: 'limits-journeys-signing-secret' };
    first = await startTestServer(env);
    const sandbox = sandboxOf(first);
    const sandboxUrl = first.server.info.sandboxUrl ?? '';
    // The second calls the first's sandbox as its insurer and as its SMS provider: one outbox.
    second = await startTestServer(
      {
        ...env,
        PARTNER_API_URL: sandboxUrl,
        PARTNER_API_KEY: sandbox.apiKey,
        SMS_API_URL: `${new URL(sandboxUrl).origin}/version1/messaging`,
        SMS_API_KEY: sandbox.apiKey,
      },
      { keyPrefix: first.prefix },
    );
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('30 requests from 10 phones, spread over both instances, text the phone on record at most the per-target count', async () => {
    const person = DEMO_BOOK.creditLife.borrower;
    const phones = Array.from({ length: 10 }, randomPhone);
    const screens: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      const url = (i % 2 === 0 ? first : second).url;
      screens.push(await askForDetails(url, phones[i % 10] ?? '', person.nrcNumber));
    }
    expect(detailsTo(first, person)).toHaveLength(PER_TARGET);
    expectSentOrRefused(screens);
  }, 120_000);
});
