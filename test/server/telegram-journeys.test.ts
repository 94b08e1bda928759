import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { DEMO_BOOK } from '../../src/sandbox/index.js';
import { freePort } from '../channels/telegram/test-support.js';
import { eventually } from '../support/eventually.js';
import {
  answerMotorStep,
  type BotCall,
  recordBotCalls,
  telegramChat,
} from './telegram-webhook-chat.js';
import { startTestServer, type TestServer } from './test-server.js';

/*
 * Customers on Telegram, through the whole server in webhook mode: their updates posted with the
 * secret token, the bot's answers read from the Bot API emulator it calls.
 */

const SECRET = 'telegram-journeys-secret';

let emulator: TelegramServer;
let app: TestServer;
let calls: BotCall[];

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  calls = recordBotCalls(emulator);
  app = await startTestServer({
    TELEGRAM_BOT_TOKEN: '515151:telegram-journeys',
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    TELEGRAM_API_ROOT: emulator.config.apiURL,
    PUBLIC_URL: 'https://insurechat.example.test',
  });
}, 60_000);

// Every message and edit the bot sent in a journey writes dates as users read them (18/11/2026).
afterEach(() => {
  expect(calls.map((call) => call.text).filter((text) => /\d{4}-\d{2}-\d{2}/.test(text))).toEqual(
    [],
  );
});

afterAll(async () => {
  await app?.close();
  await emulator?.stop();
});

it('pays a motor policy by card on Telegram: the 3-D Secure page is a URL button, and the outcome is pushed into the chat once the insurer settles it', async () => {
  const chat = telegramChat({
    emulator,
    serverUrl: `http://127.0.0.1:${app.server.info.bound?.port}`,
    secret: SECRET,
    chatId: 7_700_001,
  });
  let screen = await chat.command('/start');
  const seen: string[] = [];
  let cardUrl: string | undefined;
  for (let step = 0; step < 30 && cardUrl === undefined; step += 1) {
    const text = screen.message.text ?? '';
    seen.push(text.split('\n')[0] ?? '');
    const motor = answerMotorStep(chat, screen);
    if (motor) screen = await motor;
    else if (/first name/i.test(text)) screen = await chat.type('Mwila');
    else if (/last name/i.test(text)) screen = await chat.type('Banda');
    else if (/e-?mail/i.test(text)) screen = await chat.type('mwila@example.com');
    else if (/Correct\?/i.test(text)) screen = await chat.tap(screen, /yes|correct/i);
    else if (/Pay with/i.test(text)) {
      expect(text).toMatch(/ZMW [\d,]+\.\d\d/);
      screen = await chat.tap(screen, /card/i);
    } else if (chat.buttonsOf(screen).some((button) => button.url)) {
      cardUrl = chat.buttonsOf(screen).find((button) => button.url)?.url;
    } else throw new Error(`unexpected screen: ${text}\nafter: ${seen.join(' | ')}`);
  }

  expect(screen.message.text).toMatch(/card/i);
  expect(cardUrl).toMatch(/\/3ds\//);
  // The customer completes the insurer's 3-D Secure page in the browser, and taps nothing more.
  expect((await fetch(cardUrl ?? '')).status).toBe(200);

  const paid = () => chat.sent().filter((sent) => /^Paid ZMW/.test(sent.message.text ?? ''));
  await eventually('the outcome was pushed into the chat', () => paid().length > 0);
  expect(paid()).toHaveLength(1);
  expect(paid()[0]?.message.text).toMatch(/BCE 7781.*Your policy number is MTR-/s);
}, 90_000);

it('buys travel cover on Telegram: the premium of each package is on screen before paying, and the paid outcome names the trip', async () => {
  const chat = telegramChat({
    emulator,
    serverUrl: `http://127.0.0.1:${app.server.info.bound?.port}`,
    secret: SECRET,
    chatId: 9_900_001,
  });
  const start = new Date(Date.now() + 10 * 86_400_000);
  const typedStart = `${String(start.getUTCDate()).padStart(2, '0')}/${String(start.getUTCMonth() + 1).padStart(2, '0')}/${start.getUTCFullYear()}`;
  let screen = await chat.command('/start');
  const seen: string[] = [];
  let priced = '';
  for (
    let step = 0;
    step < 30 && !/Approve|will tell you/i.test(screen.message.text ?? '');
    step++
  ) {
    const text = screen.message.text ?? '';
    seen.push(text.split('\n')[0] ?? '');
    if (/What would you like/i.test(text)) screen = await chat.tap(screen, /travel/i);
    else if (/Destination/i.test(text)) screen = await chat.type('South Africa');
    else if (/start date/i.test(text)) screen = await chat.type(typedStart);
    else if (/how many days|days/i.test(text)) screen = await chat.type('14');
    else if (/NRC/i.test(text)) screen = await chat.type('479974/11/1');
    else if (/full name|your name|name/i.test(text) && !/traveller/i.test(text))
      screen = await chat.type('Mwila Banda');
    else if (/Travellers so far/i.test(text)) screen = await chat.tap(screen, /continue/i);
    else if (/package|cover/i.test(text) && chat.buttonsOf(screen).length > 1) {
      priced =
        chat
          .buttonsOf(screen)
          .map((button) => button.text)
          .join(' | ') + text;
      screen = await chat.tap(screen, /./);
    } else if (/Pay with/i.test(text)) screen = await chat.tap(screen, /another/i);
    else if (/number to pay/i.test(text)) screen = await chat.shareOwnContact('+260971234567');
    else if (/Correct\?|Confirm/i.test(text))
      screen = await chat.tap(screen, /yes|correct|confirm|pay/i);
    else throw new Error(`unexpected screen: ${text}\nafter: ${seen.join(' | ')}`);
  }
  // Every package was shown with its premium before the traveller chose one.
  expect(priced).toMatch(/ZMW [\d,]+\.\d\d/);
  const asked = /ZMW ([\d,]+\.\d\d)/.exec(screen.message.text ?? '')?.[1];
  expect(asked).toBeDefined();

  const paid = () => chat.sent().filter((sent) => /^Paid ZMW/.test(sent.message.text ?? ''));
  await eventually('the outcome was pushed into the chat', () => paid().length > 0);
  expect(paid()[0]?.message.text).toContain(`Paid ZMW ${asked}`);
  expect(paid()[0]?.message.text).toMatch(/South Africa/);
}, 90_000);

/** DD/MM/YYYY and YYYY-MM-DD of a day `days` before today (UTC). */
function daysAgo(days: number): { typed: string; iso: string } {
  const iso = new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  const [y, m, d] = iso.split('-');
  return { typed: `${d}/${m}/${y}`, iso };
}

/**
 * A chat with its own id whose every step also returns the Bot API calls that answered it, each
 * with the text and keyboard it carried (what the user sees after the step).
 */
function recordedChat(chatId: number) {
  const chat = telegramChat({
    emulator,
    serverUrl: `http://127.0.0.1:${app.server.info.bound?.port}`,
    secret: SECRET,
    chatId,
  });
  const answered = async <T>(act: () => Promise<T>): Promise<{ sent: T; calls: BotCall[] }> => {
    const from = calls.length;
    const sent = await act();
    return { sent, calls: calls.slice(from).filter((call) => call.chatId === String(chatId)) };
  };
  return { chat, answered };
}

/** A call as the transcript reads it: the method, the text and the buttons it carried. */
const shown = (call: BotCall | undefined) =>
  call ? { method: call.method, text: call.text, buttons: call.buttons } : undefined;

it("shows my cover on Telegram: the phone shared, the borrower's four loans each in its own state, one in place and back, every tap answered by one edit", async () => {
  const { chat, answered } = recordedChat(8_800_001);
  let screen = await chat.command('/status');
  expect(screen.message.text).toBe(
    'Tap "Share my phone number" to see your cover, or type an NRC number to look one up.',
  );

  // Natasha Phiri of the demo book, whose four loans are in four states.
  screen = await chat.shareOwnContact('+260966345678');
  const LIST = [
    'Loan KL-DEMO-ACTIVE in force',
    expect.stringMatching(/^Loan KL-DEMO-GRACE in grace until \d\d\/\d\d\/\d{4}$/),
    'Loan KL-DEMO-CLOSED off cover',
    'Loan KL-DEMO-PENDING waiting for the premium',
    'Another NRC',
    'End',
  ];
  expect(screen.message.text).toBe('Your cover (4):');
  expect(chat.buttonsOf(screen).map((button) => button.text)).toEqual(LIST);

  const detail = await answered(() => chat.tap(screen, /KL-DEMO-ACTIVE/));
  expect(detail.calls.map(shown)).toEqual([
    {
      method: 'editMessageText',
      text: expect.stringMatching(
        /^Loan KL-DEMO-ACTIVE: in force, \d\d\/\d\d\/\d{4} to \d\d\/\d\d\/\d{4}\. Policy CL-DEMO-000001\. Amount ZMW 25,000\.00\.$/,
      ),
      buttons: ['Make a claim', 'Back to list', 'End'],
    },
  ]);
  // Edited in place: the same message, no new one.
  expect(detail.sent.messageId).toBe(screen.messageId);

  const list = await answered(() => chat.tap(detail.sent, /back to list/i));
  expect(list.calls.map(shown)).toEqual([
    { method: 'editMessageText', text: 'Your cover (4):', buttons: LIST },
  ]);
}, 60_000);

it('sends the certificate of an insured car from My cover on Telegram: the screen edited in place, the certificate after it', async () => {
  const { chat, answered } = recordedChat(8_800_003);
  await chat.command('/status');
  // Mwila Banda of the demo book: the insured car AJQ 1909 (and whatever this file bought).
  const list = await chat.shareOwnContact('+260971234567');
  expect(chat.buttonsOf(list).map((button) => button.text)).toContain(
    'Motor MTR-DEMO-000001 in force',
  );
  const detail = await answered(() => chat.tap(list, /MTR-DEMO-000001/));
  expect(detail.calls.map(shown)).toEqual([
    {
      method: 'editMessageText',
      text: expect.stringMatching(
        /^Motor MTR-DEMO-000001: in force, \d\d\/\d\d\/\d{4} to \d\d\/\d\d\/\d{4}\. Vehicle AJQ 1909\. Premium ZMW [\d,]+\.\d\d\.$/,
      ),
      buttons: ['Certificate', 'Back to list', 'End'],
    },
  ]);

  const certificate = await answered(() => chat.tap(detail.sent, /certificate/i));
  // The emulator has no sendDocument: the channel falls back to a link button, as it does when
  // an upload fails (the upload itself is tested against a local Bot API in typed-upload.test).
  expect(certificate.calls.map(shown)).toEqual([
    {
      method: 'editMessageText',
      text: 'Certificate of MTR-DEMO-000001:',
      buttons: ['Back to list', 'End'],
    },
    { method: 'sendMessage', text: 'Certificate', buttons: ['Certificate'] },
  ]);
  const link = chat.sent().find((sent) => sent.message.text === 'Certificate');
  expect(chat.buttonsOf(link ?? certificate.sent)[0]?.url).toMatch(/^https?:\/\//);
}, 60_000);

it("makes a credit-life claim on Telegram from the demo book's loan, with a 600-character description the insurer records in full", async () => {
  const { chat, answered } = recordedChat(8_800_002);
  const loss = daysAgo(5);
  const story = 'The borrower died in a road accident on the Great North Road near Kabwe. '.repeat(
    9,
  );
  expect(story.trim().length).toBeGreaterThan(600);

  const menu = await chat.command('/start');
  expect(chat.buttonsOf(menu).map((button) => button.text)).toContain('Claims');
  // A chat is nobody until it shares its own contact (issue 23): then the claim is the
  // borrower's own, and so is its payout.
  // The screen has buttons of its own, so the contact button comes on a line just before it.
  const asked = await answered(() => chat.tap(menu, /claims/i));
  expect(asked.calls.map(shown)).toEqual([
    {
      method: 'sendMessage',
      text: 'Tap "Share my phone number" below to share the number of this Telegram account.',
      buttons: [],
    },
    {
      method: 'sendMessage',
      text: 'Claims. Share your phone number to see your own claims and cover.',
      buttons: ['Loan (credit life)', 'Death of a member (group life)', 'Track my claims'],
    },
  ]);
  const claims = await answered(() =>
    chat.shareOwnContact(`+${DEMO_BOOK.creditLife.borrower.phoneNumber}`),
  );
  // Sent removing the contact keyboard, then given its buttons.
  expect(claims.calls.map(shown)).toEqual([
    { method: 'sendMessage', text: 'Claims:', buttons: [] },
  ]);
  expect(chat.buttonsOf(claims.sent).map((button) => button.text)).toEqual([
    'Claim on my cover',
    'Loan (credit life)',
    'Death of a member (group life)',
    'Track my claims',
  ]);
  const policy = await answered(() => chat.tap(claims.sent, /credit life/i));
  // A typed question: the edit carries no keyboard.
  expect(policy.calls.map(shown)).toEqual([
    { method: 'editMessageText', text: 'Policy number (e.g. CL-DEMO-000001):', buttons: [] },
  ]);
  expect((await chat.type('CL-DEMO-000003')).message.text).toBe('Your loan reference:');
  // KL-DEMO-ACTIVE has the demo book's open claim: a second one would be refused.
  let screen = await chat.type('KL-DEMO-GRACE');
  expect(screen.message.text).toBe('What happened to the borrower?');
  expect(chat.buttonsOf(screen).map((button) => button.text)).toEqual([
    'Death',
    'Permanent disability',
    'Retrenchment',
  ]);
  const date = await answered(() => chat.tap(screen, /^death$/i));
  expect(date.calls.map(shown)).toEqual([
    { method: 'editMessageText', text: 'Date of the loss (DD/MM/YYYY):', buttons: [] },
  ]);
  expect((await chat.type(loss.typed)).message.text).toBe('What happened?');
  screen = await chat.type(story);
  expect(screen.message.text).toBe(`Death claim on loan KL-DEMO-GRACE, loss on ${loss.typed}.`);
  expect(chat.buttonsOf(screen).map((button) => button.text)).toEqual(['Submit claim', 'Back']);

  const submitted = await answered(() => chat.tap(screen, /submit/i));
  // The claim's screen in place, and its one confirmation as a message of its own (issue 30).
  expect(submitted.calls.map(shown)).toEqual(
    expect.arrayContaining([
      {
        method: 'editMessageText',
        text: expect.stringMatching(
          /^Claim CLC-\d{6}: claim received\. If the claim is accepted, the cover pays ZMW 12,000\.00\. Documents needed: Death certificate, Loan statement\.$/,
        ),
        buttons: ['Add documents', 'Later'],
      },
      {
        method: 'sendMessage',
        text: expect.stringMatching(/^Claim CLC-\d{6} \(Death, KL-DEMO-GRACE\) is received\./),
        buttons: [],
      },
    ]),
  );
  expect(submitted.calls).toHaveLength(2);

  // The insurer's own record: the claim under the number shown, on the loan, the whole story.
  const claimNumber = /CLC-\d{6}/.exec(submitted.calls.at(-1)?.text ?? '')?.[0];
  const recorded = [...(app.server.sandbox?.state.claims.values() ?? [])].find(
    (claim) => claim.claimNumber === claimNumber,
  );
  expect(recorded).toMatchObject({
    line: 'credit-life',
    status: 'Intimated',
    partnerLoanReference: 'KL-DEMO-GRACE',
    lossDate: loss.iso,
    description: story.trim(),
  });
}, 60_000);

it('speaks Nyanja to a user whose Telegram is in Nyanja (language_code ny): menu, motor screens and buttons', async () => {
  const chat = telegramChat({
    emulator,
    serverUrl: `http://127.0.0.1:${app.server.info.bound?.port}`,
    secret: SECRET,
    chatId: 7_700_027,
    languageCode: 'ny',
  });
  const menu = await chat.command('/start');
  expect(menu.message.text).toBe('Takulandirani. Mufuna chiyani?');
  expect(chat.buttonsOf(menu).map((button) => button.text)).toEqual(
    expect.arrayContaining(['Galimoto', 'Lankhulani ndi munthu', 'Chiyankhulo']),
  );
  const mode = await chat.tap(menu, /^Galimoto$/);
  expect(mode.message.text).toBe('Inshuwalansi ya galimoto:');
  expect(chat.buttonsOf(mode).map((button) => button.text)).toContain('Inshuwalansi yatsopano');
  const products = await chat.tap(mode, /^Inshuwalansi yatsopano$/);
  expect(products.message.text).toBe('Sankhani inshuwalansi:');
});

it('keeps English for a Telegram language we do not speak, and /language switches to Bemba for good', async () => {
  const chat = telegramChat({
    emulator,
    serverUrl: `http://127.0.0.1:${app.server.info.bound?.port}`,
    secret: SECRET,
    chatId: 7_700_028,
    languageCode: 'fr',
  });
  expect((await chat.command('/start')).message.text).toBe('Welcome. What would you like to do?');
  const screen = await chat.command('/language');
  expect(screen.message.text).toBe('Language / Ululimi / Chiyankhulo:');
  const chosen = await chat.tap(screen, /^Ichibemba$/);
  // Said in the new language, with the screen the conversation is on (the menu) under it.
  expect(chosen.message.text).toMatch(
    /^Ululimi lwenu nomba ni Ichibemba\.\s+Mwaiseni\. Finshi mulefwaya ukucita\?/,
  );
  expect((await chat.command('/start')).message.text).toBe('Mwaiseni. Finshi mulefwaya ukucita?');
});
