import type { InputFile } from 'grammy';
// The package's default export is CommonJS-wrapped; the named class is the same server.
import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createTelegramChannel,
  type RenderPrompt,
  type TelegramChannel,
} from '../../../src/channels/telegram/index.js';
import { renderPrompt } from '../../../src/conversation/index.js';
import { eventually } from '../../support/eventually.js';
import { createRealStack, keyOf, type RealStack } from './real-stack.js';
import { freePort, pollOnUserUpdates, silentLogger } from './test-support.js';

const TOKEN = '555111:transcript';
const CHAT_ID = 6161;
// Sandbox test numbers ending in 1, 2 or 3 fail; this one pays.
const PAYING_NUMBER = '260971234567';

interface Keyboard {
  inline_keyboard?: { text: string; callback_data?: string; url?: string }[][];
  keyboard?: { text: string; request_contact?: boolean }[][];
}
/** One Bot API call the channel made, as it made it. */
interface ApiCall {
  readonly method: string;
  readonly payload: Record<string, unknown>;
  result: unknown;
}
/** A screen the user sees: a message sent, or the tapped message edited in place. */
interface Screen {
  readonly key: string;
  readonly text: string;
  readonly messageId: number;
  readonly keyboard: Keyboard | undefined;
}

// The catalogue's words, prefixed with the message key so the test can follow the flow by key.
const keyedRender: RenderPrompt = (prompt, locale) => {
  const rendered = renderPrompt(prompt, locale);
  return { ...rendered, text: `[${prompt.key}] ${rendered.text}` };
};

let emulator: TelegramServer;
let stack: RealStack;
let channel: TelegramChannel;
const calls: ApiCall[] = [];

beforeAll(async () => {
  emulator = new TelegramServer({ port: await freePort(), host: '127.0.0.1' });
  await emulator.start();
  stack = await createRealStack();
  channel = createTelegramChannel({
    token: TOKEN,
    webhookSecret: 'unused-in-polling',
    engine: stack.engine,
    render: keyedRender,
    logger: silentLogger,
    apiRoot: emulator.config.apiURL,
    // The emulator has no rate limits; the throttler would only space this transcript out.
    throttle: false,
  });
  pollOnUserUpdates(channel.bot, emulator);
  channel.bot.api.config.use(async (prev, method, payload, signal) => {
    if (method === 'getUpdates') return prev(method, payload, signal);
    // Recorded before it is made: a document upload may fail before Telegram answers.
    const call: ApiCall = {
      method,
      payload: payload as Record<string, unknown>,
      result: undefined,
    };
    calls.push(call);
    const result = await prev(method, payload, signal);
    if (result.ok) call.result = result.result;
    return result;
  });
  await channel.startPolling();
});

afterAll(async () => {
  await channel?.stop();
  await stack?.close();
  await emulator?.stop();
});

const client = () =>
  emulator.getClient(TOKEN, { chatId: CHAT_ID, userId: CHAT_ID, type: 'private', timeout: 10_000 });

/**
 * Runs a user action and resolves the Bot API calls it caused, up to the next screen shown;
 * `contact` for a shared contact, whose answer comes removing the contact keyboard and then gets
 * its buttons (one message cannot carry both).
 */
async function act(
  action: () => Promise<unknown>,
  options: { readonly contact?: boolean } = {},
): Promise<{ calls: ApiCall[]; screen: Screen }> {
  const from = calls.length;
  await action();
  const shown = await eventually('the next screen was shown', () =>
    calls
      .slice(from)
      .find(
        (call) =>
          (call.method === 'sendMessage' && call.result !== undefined) ||
          call.method === 'editMessageText',
      ),
  );
  // Documents follow a closing screen: give them their moment before reading the calls.
  if (keyOf(String(shown.payload.text)) === 'motor.done')
    await eventually('the documents were sent', () =>
      calls.slice(from).some((call) => call.method === 'sendDocument'),
    );
  const text = String(shown.payload.text);
  const messageId =
    shown.method === 'editMessageText'
      ? Number(shown.payload.message_id)
      : Number((shown.result as { message_id: number }).message_id);
  let keyboard = shown.payload.reply_markup as Keyboard | undefined;
  if (options.contact) {
    expect(keyboard).toEqual({ remove_keyboard: true });
    const buttons = await eventually('the screen got its buttons', () =>
      calls
        .slice(from)
        .find(
          (call) =>
            call.method === 'editMessageReplyMarkup' &&
            Number(call.payload.message_id) === messageId,
        ),
    );
    keyboard = buttons.payload.reply_markup as Keyboard;
  }
  return {
    calls: calls.slice(from),
    screen: { key: keyOf(text), text, messageId, keyboard },
  };
}

const buttonData = (screen: Screen, id: string): string => {
  const button = (screen.keyboard?.inline_keyboard ?? [])
    .flat()
    .find((b) => b.callback_data?.endsWith(`~${id}`));
  if (!button?.callback_data) throw new Error(`no button ${id} on ${screen.key}`);
  return button.callback_data;
};
const firstChoice = (screen: Screen): string =>
  (screen.keyboard?.inline_keyboard ?? []).flat()[0]?.callback_data?.split('~')[1] ?? '';
/** The methods a tap caused, without the answer that stops the button's spinner. */
const effects = (made: ApiCall[]) =>
  made.map((call) => call.method).filter((method) => method !== 'answerCallbackQuery');

it('buys motor cover with every tap answered by one edit in place and a named PDF certificate', async () => {
  const user = client();
  const tapData = (screen: Screen, data: string) =>
    act(() =>
      user.sendCallback(
        user.makeCallbackQuery(data, {
          message: { message_id: screen.messageId, chat: { id: CHAT_ID } },
        } as never),
      ),
    );
  const tap = (screen: Screen, id: string) => tapData(screen, buttonData(screen, id));
  const type = (text: string) => act(() => user.sendMessage(user.makeMessage(text)));
  const shareContact = () =>
    act(
      () =>
        user.sendMessage(
          user.makeMessage('', {
            contact: { phone_number: PAYING_NUMBER, first_name: 'Mwila', user_id: CHAT_ID },
          } as never),
        ),
      { contact: true },
    );

  let step = await act(() => user.sendCommand(user.makeCommand('/start')));
  expect(step.screen.key).toBe('menu.policyholder');
  expect(step.screen.text).toBe('[menu.policyholder] Welcome. What would you like to do?');
  expect(
    (step.screen.keyboard?.inline_keyboard ?? []).map((row) => row.map((b) => b.text)),
  ).toEqual([
    ['Motor insurance'],
    ['Travel insurance'],
    ['My cover'],
    ['Claims'],
    ['Talk to a person'],
    ['My data'],
    ['Language'],
  ]);
  const menu = step.screen;

  // A choice tap: the menu message becomes the next step, with its keyboard, in one call.
  step = await tap(menu, 'motor');
  expect(effects(step.calls)).toEqual(['editMessageText']);
  expect(step.screen.messageId).toBe(menu.messageId);
  expect(step.screen.key).toBe('motor.mode');

  // The menu's old button, tapped again: expired, and the current step is shown instead.
  const stale = await tapData(menu, buttonData(menu, 'travel'));
  expect(effects(stale.calls)).toEqual(['editMessageText']);
  expect(stale.screen.text).toMatch(
    /^\[telegram\.menuExpired\] That menu has expired\. Here is where we are:\n\n\[motor\.mode\]/,
  );
  step = { ...step, screen: { ...stale.screen, key: 'motor.mode' } };

  const taps: string[][] = [];
  for (let turn = 0; turn < 40 && step.screen.key !== 'motor.done'; turn++) {
    const screen = step.screen;
    switch (screen.key) {
      case 'motor.mode':
        step = await tap(screen, 'new');
        break;
      case 'motor.pickProduct':
      case 'motor.pickCategory':
      case 'motor.pickDuration':
      case 'pay.waitPhone':
      case 'engine.stillWorking':
        step = await tap(screen, firstChoice(screen));
        break;
      case 'motor.confirmHolder':
        step = await tap(screen, 'yes');
        break;
      case 'motor.confirmQuote':
        expect(screen.text).toContain('ZMW');
        step = await tap(screen, 'other');
        break;
      case 'motor.askPlate':
        step = await type('ABZ 4321');
        break;
      case 'motor.askVehicle':
        step = await type('Toyota Corolla 2018');
        break;
      case 'motor.askChassis':
        step = await type('JT123456789');
        break;
      case 'motor.askEngine':
        step = await type('1NZ1234567');
        break;
      case 'motor.askHolderPhone':
      case 'pay.askPhone':
        expect(screen.keyboard?.keyboard?.[0]?.[0]?.request_contact).toBe(true);
        step = await shareContact();
        break;
      default:
        throw new Error(`unexpected screen ${screen.key}: ${screen.text}`);
    }
    if (step.calls.some((call) => call.method === 'answerCallbackQuery'))
      taps.push(effects(step.calls));
  }

  expect(step.screen.text).toMatch(
    /^\[motor\.done\] Paid ZMW [\d,.]+\. Motor .+\. Your policy number is MTR-/,
  );
  const policyNumber = /MTR-[\d-]+/.exec(step.screen.text)?.[0] ?? '';
  // Every tap was answered by one call: an edit in place, or a new message where the next step
  // needs the contact keyboard (which an edit cannot carry).
  const last = taps.pop();
  for (const made of taps) expect([['editMessageText'], ['sendMessage']]).toContainEqual(made);
  expect(taps.filter((made) => made[0] === 'editMessageText').length).toBeGreaterThan(3);
  // The closing screen replaces the waiting screen; the certificate follows as a document (the
  // emulator cannot fetch the sandbox's file, so a link to it comes after).
  expect(last?.slice(0, 2)).toEqual(['editMessageText', 'sendDocument']);

  const document = step.calls.find((call) => call.method === 'sendDocument');
  const file = document?.payload.document as InputFile | undefined;
  expect(file?.filename).toBe(`${policyNumber}-certificate.pdf`);
});
