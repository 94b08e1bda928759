import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_BOOK, type Sandbox } from '../../src/sandbox/index.js';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../support/eventually.js';
import { type Sent, type TelegramChat, telegramChat } from './telegram-webhook-chat.js';
import { startTestServer, type TestServer } from './test-server.js';

/*
 * Issue 30, on Telegram with the README's demo people only: My cover asks for the contact with
 * the real contact button, and a claim starts from a loan or membership there; each claim is
 * confirmed by one chat message, and each journey ends on the insurer's own record.
 */

const SECRET = 'claims-telegram-secret';
const { creditLife, groupLife } = DEMO_BOOK;

let emulator: TelegramServer;
let app: TestServer;
let local: string;

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  app = await startTestServer({
    TELEGRAM_BOT_TOKEN: '303030:claims-from-my-cover',
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

const typedDaysAgo = (days: number) => {
  const [year, month, day] = new Date(Date.now() - days * 86_400_000)
    .toISOString()
    .slice(0, 10)
    .split('-');
  return `${day}/${month}/${year}`;
};

/** The reply keyboard a message carries, as the emulator stored it. */
function replyKeyboard(sent: Sent): { text: string; request_contact?: boolean }[] {
  const markup = (sent.message as { reply_markup?: unknown }).reply_markup;
  const parsed = (typeof markup === 'string' ? JSON.parse(markup) : markup) as
    | { keyboard?: { text: string; request_contact?: boolean }[][] }
    | undefined;
  return (parsed?.keyboard ?? []).flat();
}

/** Opens My cover in a new chat and shares the user's own contact with the contact button. */
async function myCover(chatId: number, phone: string): Promise<{ chat: TelegramChat; list: Sent }> {
  const chat = telegramChat({ emulator, serverUrl: local, secret: SECRET, chatId });
  let screen = await chat.command('/start');
  screen = await chat.tap(screen, /my cover/i);
  expect(screen.message.text).toMatch(/Share my phone number/);
  expect(replyKeyboard(screen)).toEqual([
    expect.objectContaining({ text: 'Share my phone number', request_contact: true }),
  ]);
  const list = await chat.shareOwnContact(`+${phone}`);
  return { chat, list };
}

it('makes a credit-life retrenchment claim from My cover, named by the loan reference, confirmed by one chat message', async () => {
  const { chat, list } = await myCover(9_300_001, creditLife.borrower.phoneNumber);
  let screen = await chat.tap(list, new RegExp(creditLife.inGrace.loan.reference));
  screen = await chat.tap(screen, /Make a claim/);
  expect(chat.buttonsOf(screen).map((b) => b.text)).toEqual([
    'Death',
    'Permanent disability',
    'Retrenchment',
  ]);
  screen = await chat.tap(screen, /Retrenchment/);
  screen = await chat.type(typedDaysAgo(2));
  screen = await chat.type('Retrenched when the branch closed');
  expect(screen.message.text).toContain(
    `Retrenchment claim on loan ${creditLife.inGrace.loan.reference}`,
  );
  await chat.tap(screen, /Submit/);
  // The claim's screen, and its confirmation, each a message of its own.
  const intimated = () =>
    chat.sent().find((sent) => /^Claim CLC-\d+: claim received/.test(sent.message.text ?? ''));
  await eventually('the claim was shown', () => intimated() !== undefined);
  expect(intimated()?.message.text).toMatch(/Documents needed: Termination letter\./);
  const number = /CLC-\d+/.exec(intimated()?.message.text ?? '')?.[0] ?? '';

  // One confirmation, a message of its own in the chat, with what happens next.
  await eventually('the confirmation arrived', () =>
    chat.sent().some((sent) => /is received/.test(sent.message.text ?? '')),
  );
  const confirmations = chat
    .sent()
    .filter((sent) => (sent.message.text ?? '').includes(`Claim ${number} (Retrenchment`));
  expect(confirmations).toHaveLength(1);
  expect(confirmations[0]?.message.text).toContain('Send photos or files in this chat');

  const record = [...sandbox().state.claims.values()].find((c) => c.claimNumber === number);
  expect(record).toMatchObject({ status: 'Intimated', claimType: 'Retrenchment' });
  expect(record?.partnerLoanReference).toBe(creditLife.inGrace.loan.reference);
}, 60_000);

it('makes a group-life death claim from My cover that names the member', async () => {
  const { chat, list } = await myCover(9_300_002, groupLife.member.phoneNumber);
  let screen = await chat.tap(list, new RegExp(groupLife.policyNumber));
  screen = await chat.tap(screen, /Make a claim/);
  screen = await chat.type(typedDaysAgo(1));
  screen = await chat.type('Died after an illness');
  const name = `${groupLife.member.firstName} ${groupLife.member.lastName}`;
  expect(screen.message.text).toContain(`Death claim for ${name}`);
  await chat.tap(screen, /Submit/);
  const intimated = () =>
    chat.sent().find((sent) => /^Claim GLC-\d+: claim received/.test(sent.message.text ?? ''));
  await eventually('the claim was shown', () => intimated() !== undefined);
  expect(intimated()?.message.text).toMatch(/Documents needed: Death certificate\./);
  const number = /GLC-\d+/.exec(intimated()?.message.text ?? '')?.[0] ?? '';
  await eventually('the confirmation arrived', () =>
    chat.sent().some((sent) => (sent.message.text ?? '').includes(`Claim ${number} (Death`)),
  );

  const record = [...sandbox().state.claims.values()].find((c) => c.claimNumber === number);
  expect(record).toMatchObject({ status: 'Intimated', claimType: 'Death' });
  expect(record?.nrcNumber).toBe(groupLife.member.nrcNumber);
}, 60_000);
