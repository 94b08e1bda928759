import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../support/eventually.js';
import { type Sent, telegramChat } from './telegram-webhook-chat.js';
import { startTestServer, type TestServer } from './test-server.js';

/*
 * The contact button on Telegram wherever a phone is asked for, through the whole server in
 * webhook mode: the Claims menu's screen has buttons of its own, so the share button comes on a
 * line just before it; only the sender's own contact is taken, and the button goes once it is.
 */

const SECRET = 'telegram-contact-secret';
const { creditLife } = DEMO_BOOK;

/** A contact keyboard's button, as the bot sent it. */
interface KeyButton {
  readonly text: string;
  readonly request_contact?: boolean;
}

/** The reply markup of every sendMessage the bot made, by chat, as sent (before any edit). */
interface SentMarkup {
  readonly chatId: string;
  readonly text: string;
  readonly markup: {
    readonly keyboard?: KeyButton[][];
    readonly remove_keyboard?: boolean;
    readonly inline_keyboard?: unknown[][];
  };
}

let emulator: TelegramServer;
let app: TestServer;
const sentMarkups: SentMarkup[] = [];

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  // The emulator keeps messages with their edits merged in: what each sendMessage carried is
  // read as it arrives.
  const target = emulator as unknown as {
    addBotMessage: (message: Record<string, unknown>, token: string) => unknown;
  };
  const add = target.addBotMessage.bind(emulator);
  target.addBotMessage = (message, token) => {
    const raw = message.reply_markup;
    sentMarkups.push({
      chatId: String(message.chat_id),
      text: String(message.text ?? ''),
      markup: (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? {})) as SentMarkup['markup'],
    });
    return add(message, token);
  };
  app = await startTestServer({
    TELEGRAM_BOT_TOKEN: '535353:telegram-contact',
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_ROOT: emulator.config.apiURL,
    PUBLIC_URL: 'https://insurechat.example.test',
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await emulator?.stop();
});

/** A new chat opened on the Claims menu, with what the bot sent it so far. */
async function claimsMenu(chatId: number) {
  const chat = telegramChat({
    emulator,
    serverUrl: `http://127.0.0.1:${app.server.info.bound?.port}`,
    secret: SECRET,
    chatId,
  });
  const menu = await chat.command('/start');
  const claims = await chat.tap(menu, /^Claims$/);
  const markups = () => sentMarkups.filter((sent) => sent.chatId === String(chatId));
  return { chat, claims, markups };
}

const shareButtonsOf = (sent: SentMarkup | undefined) =>
  (sent?.markup.keyboard ?? []).flat().filter((button) => button.request_contact === true);

it('offers the share button with the Claims menu, which asks for a phone and has buttons of its own', async () => {
  const { chat, claims, markups } = await claimsMenu(7_500_001);
  expect(claims.message.text).toMatch(/^Claims\. Share your phone number/);
  // The screen keeps its buttons and stays the newest message; the share button came just before.
  expect(chat.buttonsOf(claims).map((button) => button.text)).toEqual([
    'Loan (credit life)',
    'Death of a member (group life)',
    'Track my claims',
  ]);
  const before = markups().at(-2);
  expect(before?.text).toMatch(/Share my phone number/);
  expect(shareButtonsOf(before)).toEqual([
    { text: 'Share my phone number', request_contact: true },
  ]);
});

it('takes the sender’s own contact as the phone, then removes the share button', async () => {
  const { chat, markups } = await claimsMenu(7_500_002);
  const from = markups().length;
  const verified = await chat.shareOwnContact(`+${creditLife.borrower.phoneNumber}`);
  expect(verified.message.text).toBe('Claims:');
  expect(chat.buttonsOf(verified).map((button) => button.text)).toContain('Claim on my cover');
  // The screen came removing the contact keyboard, then got its buttons.
  const answered = markups().slice(from);
  expect(answered).toHaveLength(1);
  expect(answered[0]?.markup).toEqual({ remove_keyboard: true });
});

it('refuses another user’s contact card with a clear message, and the Claims menu still asks', async () => {
  const { chat, claims, markups } = await claimsMenu(7_500_003);
  const from = chat.sent().length;
  // A contact picked from the address book: Telegram gives it another user's id.
  await chat.sendContact({
    phone_number: `+${creditLife.borrower.phoneNumber}`,
    first_name: 'Natasha',
    user_id: 7_500_999,
  });
  const refusal = await eventually('the contact was refused', () =>
    chat
      .sent()
      .slice(from)
      .find((sent: Sent) => /not your own contact/i.test(sent.message.text ?? '')),
  );
  expect(refusal.message.text).toBe(
    'That is not your own contact. Tap "Share my phone number" to share the number of this Telegram account.',
  );
  // Nothing reached the flow: the menu is the one that asks, and the share button is still up.
  expect(chat.sent().slice(from)).toHaveLength(1);
  expect(markups().at(-1)?.markup.remove_keyboard).toBeUndefined();
  // Without a phone shown to be theirs, tracking asks which claims (the tap edits the menu).
  await chat.tap(claims, /Track my claims/);
  const edited = chat.sent().find((sent) => sent.messageId === claims.messageId);
  expect(edited?.message.text).toBe('Which claims?');
});
