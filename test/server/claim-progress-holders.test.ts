import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOOK, type Sandbox } from '../../src/sandbox/index.js';
import { freePort } from '../channels/telegram/test-support.js';
import { telegramChat } from './telegram-webhook-chat.js';
import { startTestServer, type TestServer } from './test-server.js';
import { dialAndAnswer, GROUP_LIFE_DEATH_ANSWERS, ussdCaller } from './ussd-caller.js';

/*
 * Issue 40, claim progress pushed to the holder: a claim on the loan or membership a customer
 * holds, moved on at the insurer (sandbox.advanceClaim), is told to them once, where their phone
 * last spoke with insurechat, though they did not report it; and once only when they did. Through
 * the real server, engine, Redis, sandbox and the Telegram emulator.
 */

const SECRET = 'claim-progress-holders-secret';
const { creditLife, groupLife, claims } = DEMO_BOOK;

let emulator: TelegramServer;
let app: TestServer;
let local: string;

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  app = await startTestServer({
    TELEGRAM_BOT_TOKEN: '545454:claim-progress-holders',
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_ROOT: emulator.config.apiURL,
    PUBLIC_URL: 'https://insurechat.example.test',
  });
  local = `http://127.0.0.1:${app.server.info.bound?.port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await emulator?.stop();
});

function sandbox(): Sandbox {
  const found = app.server.sandbox;
  if (!found) throw new Error('no embedded sandbox');
  return found;
}

/** The SMS the sandbox's provider delivered to `phone` about claim `number`, oldest first. */
const smsAbout = (phone: string, number: string) =>
  sandbox()
    .smsOutbox.list(phone)
    .map((sms) => sms.message)
    .filter((message) => message.includes(number) && message.startsWith('Update on claim'));

/** Two sync runs: a claim's state is told once however often the books are read. */
async function syncTwice(): Promise<void> {
  await app.server.holdingsSync.runNow();
  await app.server.holdingsSync.runNow();
}

describe('claim progress pushed to the holder', () => {
  it('tells the borrower of a claim on their loan reported elsewhere, once, in the Telegram chat they used last and not by SMS', async () => {
    const phone = `+${creditLife.borrower.phoneNumber}`;
    const number = claims.intimated.claimNumber;
    // The books read once, so the index links the borrower's phone to their NRC.
    await app.server.holdingsSync.runNow();

    // The borrower dials USSD, then later chats on Telegram and shares their own contact there.
    await ussdCaller(() => local, 'holder', phone).dial();
    const chat = telegramChat({ emulator, serverUrl: local, secret: SECRET, chatId: 7_600_001 });
    const menu = await chat.command('/start');
    await chat.tap(menu, /my cover/i);
    await chat.shareOwnContact(phone);

    const told = () =>
      chat
        .sent()
        .map((sent) => sent.message.text ?? '')
        .filter((text) => text.startsWith(`Update on claim ${number}`));
    await syncTwice();
    // Still Intimated, as it was reported: nothing to tell.
    expect(told()).toEqual([]);

    expect(sandbox().advanceClaim(number, 'Settled')).toBeDefined();
    await syncTwice();
    expect(told()).toEqual([`Update on claim ${number}: the insurer now shows it as Settled.`]);
    expect(smsAbout(phone, number)).toEqual([]);
  }, 90_000);

  it('tells a member who reported a claim on their own membership once per state, not again as its holder', async () => {
    const phone = `+${groupLife.member.phoneNumber}`;
    const screens = await dialAndAnswer(
      ussdCaller(() => local, 'reporter-holder', phone),
      GROUP_LIFE_DEATH_ANSWERS,
    );
    const screen = screens.at(-1) ?? '';
    const number = /GLC-\d+/.exec(screen)?.[0];
    if (!number) throw new Error(`no claim number on: ${screen}`);

    sandbox().advanceClaim(number, 'Settled');
    await syncTwice();
    expect(smsAbout(phone, number)).toEqual([
      `Update on claim ${number}: the insurer now shows it as Settled.`,
    ]);
  }, 90_000);
});
