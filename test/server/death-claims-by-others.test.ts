import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOOK, type Sandbox } from '../../src/sandbox/index.js';
import { FakeSlack } from '../channels/slack/fake-slack.js';
import { slackDeskClient } from '../channels/slack/slack-desk-client.js';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../support/eventually.js';
import { telegramChat } from './telegram-webhook-chat.js';
import { startTestServer, type TestServer } from './test-server.js';
import { dialAndAnswer, GROUP_LIFE_DEATH_ANSWERS, ussdCaller } from './ussd-caller.js';

/*
 * Issue 35, claims made by someone else, through the real server: a relative's death claim texts
 * the member's phone on record once, and asks staff in their (shared) Slack channel to verify it
 * with the reporter's channel and masked number; the desk, in a direct message, shows who
 * reported it in full; the relative's documents are held (the claim stays Intimated at the
 * insurer) until an allowed staff member confirms it, then it is Documented. A Telegram chat
 * that shared no contact cannot report a death.
 */

const TELEGRAM_SECRET = 'death-claims-telegram';
const SLACK_SECRET = 'death-claims-slack-signing';
const STAFF_CHANNEL = 'C0DEATHS';
const STAFF = 'U0DEATHS';
const TEAM = 'T0DEATHS';
const DM = 'D0DEATHS';
const RELATIVE = '+260955444777';
const { groupLife } = DEMO_BOOK;

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
    TELEGRAM_BOT_TOKEN: '747474:death-claims',
    TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
    TELEGRAM_API_ROOT: emulator.config.apiURL,
    PUBLIC_URL: 'https://insurechat.example.test',
    SLACK_BOT_TOKEN: 'xoxb-death-claims',
    SLACK_SIGNING_SECRET: SLACK_SECRET,
    SLACK_ALLOWED_USERS: STAFF,
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

function sandbox(): Sandbox {
  const found = app.server.sandbox;
  if (!found) throw new Error('no embedded sandbox');
  return found;
}

/** The SMS the sandbox's provider delivered to a phone (API form), oldest first. */
const smsTo = (phone: string) => sandbox().smsOutbox.list(`+${phone.replace(/^\+/, '')}`);

/** The claim at the sandbox insurer by its printed number. */
const claimAt = (number: string) =>
  [...sandbox().state.claims.values()].find((claim) => claim.claimNumber === number);

/** Dials from `from` and answers each screen: a RegExp picks the option it names, text is typed. */
const ussd = (from: string, answers: readonly (RegExp | string)[]) =>
  dialAndAnswer(
    ussdCaller(() => local, 'deaths', from),
    answers,
  );

const reportDeath = (from: string) => ussd(from, GROUP_LIFE_DEATH_ANSWERS);

/** `/insure <text>` from the allowed staff member's DM; resolves the answer posted back. */
async function insure(text: string): Promise<string> {
  const desk = slackDeskClient({
    serverUrl: () => local,
    slack,
    signingSecret: SLACK_SECRET,
    user: STAFF,
    team: TEAM,
    channel: DM,
  });
  return (await desk.insure(text)).text;
}

/** A JPEG's first bytes and filler: what a phone's camera gives the upload page. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2048, 7)]);

describe('a relative reporting a member’s death on USSD', () => {
  let number = '';

  it('texts the member’s phone on record once, with the number and how to object, and asks staff to verify it with the reporter', async () => {
    const member = groupLife.member.phoneNumber;
    const before = smsTo(member).length;
    const first = (await reportDeath(RELATIVE)).at(-1) ?? '';
    number = /GLC-\d+/.exec(first)?.[0] ?? '';
    expect(first).toMatch(/Claim GLC-\d+: claim received/);
    // Only the phone on record and staff learn what the claim pays.
    expect(first).not.toContain('cover pays');

    await eventually('the member was told', () =>
      smsTo(member)
        .slice(before)
        .some((sms) => sms.message.includes(number)),
    );
    // A second report from the same phone is told of the first as soon as the member is named,
    // before the date or story is asked, and texts no one again.
    const again = await ussd(RELATIVE, [
      /claims/i,
      /death/i,
      groupLife.policyNumber,
      groupLife.member.nrcNumber.replaceAll('/', ''),
    ]);
    expect(again.at(-1)).toContain(`already open: ${number}`);
    expect(again.at(-1)).toMatch(/\d\. Track that claim/);
    const told = smsTo(member)
      .slice(before)
      .filter((sms) => sms.message.includes(number));
    expect(told).toHaveLength(1);
    expect(told[0]?.message).toContain('reported on your cover by another phone');
    expect(told[0]?.message).toMatch(/If you did not expect this, dial \S+ and choose Talk to a/);
    // The reporter hears nothing of the member's phone.
    expect(
      smsTo(RELATIVE)
        .map((sms) => sms.message)
        .join('\n'),
    ).not.toContain(member.slice(3));

    await eventually('staff were asked to verify', () =>
      slack
        .callsTo('/api/chat.postMessage')
        .some((call) => JSON.stringify(call.body).includes(`verify claim ${number}`)),
    );
    const posted = slack
      .callsTo('/api/chat.postMessage')
      .map((call) => JSON.stringify(call.body))
      .filter((body) => body.includes(`verify claim ${number}`));
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain(STAFF_CHANNEL);
    // The shared channel sees the channel and the number's last digits, never the number.
    expect(posted[0]).toContain('reported on ussd from');
    expect(posted[0]).toContain('777');
    expect(posted[0]).not.toContain(RELATIVE.slice(1));
    expect(posted[0]).toContain('Phones on record told by SMS: 1');
  }, 90_000);

  it('holds the relative’s documents: the claim stays Intimated at the insurer until an allowed staff member confirms it, then it is Documented', async () => {
    expect(number).not.toBe('');
    const notice = smsTo(RELATIVE).find(
      (sms) => sms.message.includes(number) && /\/d\//.test(sms.message),
    );
    const link = /https?:\/\/\S+\/d\/\S+/.exec(notice?.message ?? '')?.[0] ?? '';
    expect(link).not.toBe('');
    const upload = await fetch(`${local}${new URL(link).pathname}/files`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg', 'x-file-name': 'certificate.jpg' },
      body: JPEG,
    });
    expect(upload.status).toBe(200);
    // The page tells the relative the file is kept for staff, not sent.
    // The status in the page's words: still "claim received" (Intimated at the insurer).
    expect(await upload.json()).toMatchObject({ held: true, status: 'claim received' });
    expect(claimAt(number)?.status).toBe('Intimated');
    expect(claimAt(number)?.documents ?? []).toHaveLength(0);

    // The desk, in a direct message, shows who reported it in full and what is held.
    const view = await insure(`claim ${number}`);
    expect(view).toContain('Reported by');
    expect(view).toContain(`ussd · ${RELATIVE.slice(1)}`);
    expect(view).toContain('1 documents from the reporter held');

    const confirmed = await insure(`confirm ${number}`);
    expect(confirmed).toContain(`Claim ${number}* · confirmed; 1 held documents sent`);
    expect(claimAt(number)?.status).toBe('Documented');
    expect(claimAt(number)?.documents).toHaveLength(1);
    // Confirmed once: asking again has nothing to confirm.
    expect(await insure(`confirm ${number}`)).toContain('nothing to confirm');
  }, 90_000);
});

describe('a Telegram chat that shared no contact', () => {
  it('cannot report a death: it is asked for its phone number first, and typing does not pass', async () => {
    const chat = telegramChat({
      emulator,
      serverUrl: local,
      secret: TELEGRAM_SECRET,
      chatId: 9_900_035,
    });
    const claims = sandbox().state.claims.size;
    let screen = await chat.command('/start');
    screen = await chat.tap(screen, /claims/i);
    screen = await chat.tap(screen, /death/i);
    expect(screen.message.text).toContain('To report a claim, share your phone number first');
    const typed = await chat.type(groupLife.policyNumber);
    expect(typed.message.text).not.toMatch(/policy number/i);
    expect(sandbox().state.claims.size).toBe(claims);

    // Sharing its own contact lets it go on to the claim's questions.
    const shared = await chat.shareOwnContact('+260955444888');
    expect(shared.message.text).toMatch(/policy number/i);
  }, 60_000);
});
