import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../support/eventually.js';
import { type Sent, telegramChat } from './telegram-webhook-chat.js';
import { startTestServer, type TestServer } from './test-server.js';
import { dialAndAnswer, ussdCaller } from './ussd-caller.js';

/*
 * Issue 23 through the real server: a stranger's claims, claim-by-number and plate journeys on
 * USSD and Telegram end with nobody else's data; the records' own phones still get theirs; a
 * relative's death claim reaches the staff's Slack channel to be verified, and a second one for
 * the same member is refused with the open claim's number.
 */

const TELEGRAM_SECRET = 'access-journeys-telegram';
const STAFF_CHANNEL = 'C0VERIFY';
const { motor, creditLife, groupLife, claims } = DEMO_BOOK;
const STRANGER = '+260955111222';

let emulator: TelegramServer;
let slack: FakeSlack;
let app: TestServer;
let local: string;

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  slack = new FakeSlack();
  await slack.start();
  app = await startTestServer({
    TELEGRAM_BOT_TOKEN: '737373:access-journeys',
    TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
    TELEGRAM_API_ROOT: emulator.config.apiURL,
    PUBLIC_URL: 'https://insurechat.example.test',
    SLACK_BOT_TOKEN: 'xoxb-access-journeys',
    SLACK_SIGNING_SECRET: 'access-journeys-slack',
    SLACK_API_URL: `${slack.baseUrl}/api/`,
    SLACK_DIGEST_CHANNEL: STAFF_CHANNEL,
  });
  local = `http://127.0.0.1:${app.server.info.bound?.port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await slack?.stop();
  await emulator?.stop();
});

/** Dials from `from` and answers each screen (the same phone dialled before starts again). */
function ussd(from: string, answers: readonly (RegExp | string)[]): Promise<string[]> {
  return dialAndAnswer(
    ussdCaller(() => local, 'access', from),
    answers,
  );
}

/** Every demo person's name, NRC and phone, and every demo number, plate and amount. */
const OTHERS = [
  ...[motor.holder, creditLife.borrower, groupLife.member, groupLife.deceased].flatMap((p) => [
    p.lastName,
    p.nrcNumber,
    p.phoneNumber.slice(3),
  ]),
  motor.insured.policyNumber,
  motor.renewal.policyNumber,
  'Nissan',
  'Payable',
  'Add documents',
  '693.00',
];
const leaked = (screens: readonly string[], typed: readonly string[]) =>
  OTHERS.filter((item) => !typed.includes(item) && screens.some((s) => s.includes(item)));

describe('a stranger on USSD', () => {
  it('tracks no one else’s claims, sees only the status of a claim typed by number, and no car or cover behind a plate', async () => {
    const tracked = await ussd(STRANGER, [/claims/i, /track/i]);
    expect(tracked.at(-1)).toContain('You have no claims');

    const byNumber = await ussd(STRANGER, [
      /claims/i,
      /track/i,
      /number/i,
      claims.intimated.claimNumber,
    ]);
    expect(byNumber.at(-1)).toContain(`Claim ${claims.intimated.claimNumber}: claim received`);

    const renew = await ussd(STRANGER, [/motor/i, /renew/i, motor.insured.registrationNumber]);
    expect(renew.at(-1)).toContain('insured under another holder');

    const buy = await ussd(STRANGER, [
      /motor/i,
      /new/i,
      /third party$/i,
      /private/i,
      /1 quarter/i,
      motor.renewal.registrationNumber,
    ]);
    expect(buy.at(-1)).toContain('registered to another holder');

    // The prices before the plate are the tariff's, shown to anyone (a year of Third Party for a
    // private car costs every holder the same): the screens from the plate on are checked.
    expect(
      leaked([...tracked, ...byNumber, ...renew, ...buy.slice(-1)], [claims.intimated.claimNumber]),
    ).toEqual([]);
  }, 60_000);
});

describe('the records’ own phones on USSD', () => {
  it('still list, open and renew what is theirs', async () => {
    const borrower = `+${creditLife.borrower.phoneNumber}`;
    const tracked = await ussd(borrower, [/claims/i, /track/i]);
    expect(tracked.at(-1)).toContain(claims.intimated.claimNumber);
    const opened = await ussd(borrower, [/claims/i, /track/i, /CLC-DEMO/]);
    expect(opened.at(-1)).toMatch(/If the claim is accepted, the cover pays ZMW [\d,]+\.\d\d/);
    expect(opened.at(-1)).toContain('Add documents');

    const renew = await ussd(`+${motor.holder.phoneNumber}`, [
      /motor/i,
      /renew/i,
      motor.renewal.registrationNumber,
    ]);
    expect(renew.at(-1)).toContain(motor.renewal.policyNumber);
  }, 60_000);
});

describe('a relative reporting a death', () => {
  it('is shown no payout, staff are asked to verify it, and a second claim for the member is refused with the open number', async () => {
    const relative = '+260955333444';
    const report = (from: string) =>
      ussd(from, [
        /claims/i,
        /death/i,
        groupLife.policyNumber,
        groupLife.member.nrcNumber.replaceAll('/', ''),
        '01/11/2026',
        'Illness',
        /submit/i,
      ]);
    const first = (await report(relative)).at(-1) ?? '';
    const number = /GLC-\d+/.exec(first)?.[0];
    expect(first).toMatch(/Claim GLC-\d+: claim received/);
    expect(first).not.toContain('cover pays');
    await eventually('staff were asked to verify', () =>
      slack
        .callsTo('/api/chat.postMessage')
        .some((call) => JSON.stringify(call.body).includes(number ?? 'no claim')),
    );
    // The claim's staff notice and the request to verify who reported it are separate posts.
    const posted = slack
      .callsTo('/api/chat.postMessage')
      .map((call) => JSON.stringify(call.body))
      .find((body) => body.includes('verify'));
    expect(posted).toContain(STAFF_CHANNEL);
    expect(posted).toContain(number ?? 'no claim');

    // A second report is told of the open claim as soon as the member is named.
    const named = (from: string) =>
      ussd(from, [
        /claims/i,
        /death/i,
        groupLife.policyNumber,
        groupLife.member.nrcNumber.replaceAll('/', ''),
      ]);
    const again = (await named(relative)).at(-1) ?? '';
    expect(again).toContain(`already open: ${number}`);
    const someoneElse = (await named('+260955333555')).at(-1) ?? '';
    expect(someoneElse).toContain('already open');
    expect(someoneElse).not.toContain(number ?? 'no claim');
  }, 60_000);
});

describe('a stranger on Telegram who shared no contact', () => {
  it('sees no one else’s claims, cars or cover', async () => {
    const chat = telegramChat({
      emulator,
      serverUrl: local,
      secret: TELEGRAM_SECRET,
      chatId: 9_900_023,
    });
    const screens: Sent[] = [];
    const keep = async (screen: Promise<Sent>) => {
      const shown = await screen;
      screens.push(shown);
      return shown;
    };
    let screen = await keep(chat.command('/start'));
    screen = await keep(chat.tap(screen, /claims/i));
    screen = await keep(chat.tap(screen, /track/i));
    screen = await keep(chat.tap(screen, /loan/i));
    expect(screen.message.text).toContain('You have no claims');

    screen = await keep(chat.command('/start'));
    screen = await keep(chat.tap(screen, /claims/i));
    screen = await keep(chat.tap(screen, /track/i));
    screen = await keep(chat.tap(screen, /number/i));
    screen = await keep(chat.type(claims.intimated.claimNumber));
    expect(screen.message.text).toContain(`Claim ${claims.intimated.claimNumber}: claim received`);
    expect(chat.buttonsOf(screen).map((b) => b.text)).not.toContain('Add documents');

    screen = await keep(chat.command('/start'));
    screen = await keep(chat.tap(screen, /motor/i));
    screen = await keep(chat.tap(screen, /renew/i));
    screen = await keep(chat.type(motor.insured.registrationNumber));
    // A chat that showed no phone may share its own, in case the car is theirs.
    expect(screen.message.text).toContain(
      'AJQ 1909 is insured under a holder. If it is yours, share your phone number',
    );

    const texts = screens.map((s) =>
      [s.message.text ?? '', ...chat.buttonsOf(s).map((b) => b.text)].join('\n'),
    );
    expect(leaked(texts, [claims.intimated.claimNumber])).toEqual([]);
  }, 60_000);
});
