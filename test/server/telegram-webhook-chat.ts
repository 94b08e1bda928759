import type { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { expect } from 'vitest';
import { eventually } from '../support/eventually.js';

/** An inline keyboard button as the bot sent it. */
export interface Button {
  readonly text: string;
  readonly callback_data?: string;
  readonly url?: string;
}

/** A message the bot sent, as telegram-test-api stores it (edits update it in place). */
export interface Sent {
  readonly message: {
    readonly chat_id: number | string;
    readonly text?: string;
    readonly reply_markup?: { readonly inline_keyboard?: Button[][] };
  };
  readonly messageId: number;
}

/** One Bot API call that changed a chat, as the emulator received it. */
export interface BotCall {
  readonly method: 'sendMessage' | 'editMessageText';
  readonly chatId: string;
  readonly text: string;
  /** The inline keyboard sent with this call, by label; none when the call carried none. */
  readonly buttons: readonly string[];
}

/** What the emulator receives for a sendMessage or an editMessageText. */
interface EmulatedMessage {
  readonly chat_id: number | string;
  readonly text?: string;
  readonly reply_markup?: string | { readonly inline_keyboard?: Button[][] };
}

function callOf(method: BotCall['method'], message: EmulatedMessage): BotCall {
  const markup =
    typeof message.reply_markup === 'string'
      ? (JSON.parse(message.reply_markup) as { inline_keyboard?: Button[][] })
      : message.reply_markup;
  return {
    method,
    chatId: String(message.chat_id),
    text: message.text ?? '',
    buttons: (markup?.inline_keyboard ?? []).flat().map((button) => button.text),
  };
}

/**
 * Records the emulator's sendMessage and editMessageText calls, oldest first, so a test can count
 * how a tap was answered and read what each call carried: the emulator keeps messages, not calls,
 * and merges an edit into the old message (keeping a keyboard Telegram itself would drop).
 */
export function recordBotCalls(emulator: TelegramServer): BotCall[] {
  const calls: BotCall[] = [];
  const target = emulator as unknown as {
    addBotMessage: (message: EmulatedMessage, token: string) => unknown;
    editMessageText: (message: EmulatedMessage) => unknown;
  };
  const send = target.addBotMessage.bind(emulator);
  const edit = target.editMessageText.bind(emulator);
  target.addBotMessage = (message, token) => {
    calls.push(callOf('sendMessage', message));
    return send(message, token);
  };
  target.editMessageText = (message) => {
    calls.push(callOf('editMessageText', message));
    return edit(message);
  };
  return calls;
}

/**
 * One Telegram user chatting with insurechat in webhook mode: their updates are posted to the
 * server's `/telegram/webhook` with the secret token, and the bot's answers are read from the
 * Bot API emulator it calls (`TELEGRAM_API_ROOT`).
 */
export function telegramChat(options: {
  readonly emulator: TelegramServer;
  /** The server itself (not PUBLIC_URL). */
  readonly serverUrl: string;
  readonly secret: string;
  readonly chatId: number;
  /** The user's Telegram app language (`language_code`); none when omitted. */
  readonly languageCode?: string;
}) {
  const { emulator, serverUrl, secret, chatId } = options;
  let updateId = chatId * 1_000;
  const from = {
    id: chatId,
    is_bot: false,
    first_name: 'Mwila',
    ...(options.languageCode ? { language_code: options.languageCode } : {}),
  };
  const chat = { id: chatId, type: 'private' };

  const post = async (update: Record<string, unknown>): Promise<void> => {
    updateId += 1;
    const response = await fetch(`${serverUrl}/telegram/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body: JSON.stringify({ update_id: updateId, ...update }),
    });
    expect(response.status).toBe(200);
  };
  const message = (fields: Record<string, unknown>) =>
    post({ message: { message_id: updateId, date: 0, chat, from, ...fields } });

  /** Every message the bot sent to this chat, oldest first. */
  const sent = (): Sent[] =>
    (emulator.storage.botMessages as unknown as Sent[]).filter(
      (entry) => String(entry.message.chat_id) === String(chatId),
    );
  const fingerprint = () => JSON.stringify(sent().map((entry) => entry.message));

  /** Does `act`, waits for the chat to change, and returns its newest message. */
  const after = async (act: () => Promise<void>): Promise<Sent> => {
    const before = fingerprint();
    await act();
    await eventually('the bot answered', () => fingerprint() !== before);
    return sent().at(-1) as Sent;
  };
  const buttonsOf = (entry: Sent): Button[] =>
    (entry.message.reply_markup?.inline_keyboard ?? []).flat();

  return {
    sent,
    buttonsOf,
    command: (text: string) =>
      after(() =>
        message({ text, entities: [{ type: 'bot_command', offset: 0, length: text.length }] }),
      ),
    type: (text: string) => after(() => message({ text })),
    /** Sends a message without waiting for an answer (one that should get none). */
    send: (text: string) => message({ text }),
    /**
     * Posts a photo or document message and resolves once the webhook answered, without waiting
     * for the chat to change (an album's parts, posted together as Telegram does).
     */
    postFile: (fields: Record<string, unknown>) => message(fields),
    /** Sends a photo or document message (`photo` sizes or `document` fields) and waits. */
    sendFile: (fields: Record<string, unknown>) => after(() => message(fields)),
    /** Sends a photo: Telegram's sizes of it (`file_id`, `width`…), the largest last. */
    photo: (sizes: readonly Record<string, unknown>[]) => after(() => message({ photo: sizes })),
    /** Shares the sender's own contact card, as Telegram's contact button does. */
    shareOwnContact: (phone: string) =>
      after(() =>
        message({ contact: { phone_number: phone, first_name: 'Mwila', user_id: chatId } }),
      ),
    /** Sends a contact card as it is (another user's, say) without waiting for an answer. */
    sendContact: (contact: Record<string, unknown>) => message({ contact }),
    /** Taps the button whose label matches on the given message. */
    tap: (on: Sent, label: RegExp) => {
      const button = buttonsOf(on).find((candidate) => label.test(candidate.text));
      if (!button) throw new Error(`no button ${label} on: ${on.message.text}`);
      return after(() =>
        post({
          callback_query: {
            id: String(updateId),
            from,
            chat_instance: 'test',
            data: button.callback_data,
            message: { message_id: on.messageId, date: 0, chat, text: on.message.text },
          },
        }),
      );
    },
  };
}

/** A chat as {@link telegramChat} returns it. */
export type TelegramChat = ReturnType<typeof telegramChat>;

/**
 * Answers one screen of a motor purchase up to the policyholder's details, as the README's
 * insured plate BCE 7781 and caller 0971234567; undefined when the screen is none of those.
 */
export function answerMotorStep(chat: TelegramChat, screen: Sent): Promise<Sent> | undefined {
  const text = screen.message.text ?? '';
  if (/What would you like/i.test(text)) return chat.tap(screen, /motor/i);
  if (/^Motor insurance/i.test(text)) return chat.tap(screen, /new cover/i);
  if (/^Choose cover|Vehicle use|Choose a period/i.test(text)) return chat.tap(screen, /./);
  if (/number plate/i.test(text)) return chat.type('BCE 7781');
  // Registered by an earlier walk: the holder shows it is theirs by sharing their own phone.
  if (/If it is yours, share your phone number/i.test(text)) {
    return chat.shareOwnContact('+260971234567');
  }
  if (/make, model and year/i.test(text)) return chat.type('Toyota Corolla 2017');
  if (/Chassis/i.test(text)) return chat.type('CH7781001');
  if (/Engine number/i.test(text)) return chat.type('EN7781001');
  if (/mobile number/i.test(text)) return chat.shareOwnContact('+260971234567');
  if (/NRC/i.test(text)) return chat.type('479974/11/1');
  return undefined;
}
