import { type Api, GrammyError, InlineKeyboard } from 'grammy';
import type { InlineKeyboardMarkup, ReplyKeyboardMarkup, ReplyKeyboardRemove } from 'grammy/types';
import type { Logger } from '../../../log/index.js';
import { describeTelegramError } from './telegram-errors.js';
import { TypedInputFile } from './typed-upload.js';

/** A document to send after the message (the certificate), under a name that says what it is. */
export interface TelegramDocument {
  readonly url: string;
  readonly caption: string;
  readonly fileName: string;
}

/** What one Prompt becomes on Telegram (the renderer's output): one message, then its documents. */
export interface TelegramMessage {
  readonly text: string;
  readonly replyMarkup?: InlineKeyboardMarkup | ReplyKeyboardMarkup | ReplyKeyboardRemove;
  /** Link attachments, kept apart so they can go into the text when Telegram refuses a URL button. */
  readonly links: readonly { readonly label: string; readonly url: string }[];
  readonly documents: readonly TelegramDocument[];
  /**
   * A message sent just before this one, carrying the contact-request keyboard: a screen that
   * asks for a phone and also has buttons (the Claims menu) can carry only its inline keyboard.
   */
  readonly contactRequest?: {
    readonly text: string;
    readonly replyMarkup: ReplyKeyboardMarkup;
  };
  /**
   * The contact keyboard is to go (the user just shared their contact) though this message
   * carries an inline keyboard: the sender removes it first and adds the buttons after.
   */
  readonly removeKeyboard?: boolean;
  /**
   * True when the message can replace the one whose button was tapped (`editMessageText` takes
   * inline keyboards only): false when it needs the contact-request keyboard (or its message).
   */
  readonly editable: boolean;
}

/** Puts rendered messages into a chat: as new messages, or in place of a tapped one. */
export interface TelegramSender {
  /** Sends the message, then its documents (the certificate). */
  send(api: Api, chatId: string | number, message: TelegramMessage): Promise<void>;
  /**
   * Shows the next screen in place of the message whose button was tapped: one
   * `editMessageText` with the next inline keyboard. A screen that needs the contact keyboard, or
   * a message Telegram will not edit (too old, deleted), is sent as a new message instead.
   */
  edit(
    api: Api,
    chatId: number,
    messageId: number | undefined,
    message: TelegramMessage,
  ): Promise<void>;
}

/** Creates the {@link TelegramSender}; `log` hears of uploads and edits that fell back. */
export function createTelegramSender(log: Logger): TelegramSender {
  async function sendText(api: Api, chatId: string | number, message: TelegramMessage) {
    if (message.contactRequest) {
      const { text, replyMarkup: share } = message.contactRequest;
      await api.sendMessage(chatId, text, { reply_markup: share });
    }
    const markup = message.replyMarkup;
    // One message cannot both remove the contact keyboard and carry buttons: it is sent
    // removing it, then given its buttons.
    const buttons =
      message.removeKeyboard && markup && 'inline_keyboard' in markup ? markup : undefined;
    const first = buttons ? { remove_keyboard: true as const } : markup;
    let sent: { readonly message_id: number } | undefined;
    try {
      sent = await api.sendMessage(chatId, message.text, first ? { reply_markup: first } : {});
      if (buttons)
        await api.editMessageReplyMarkup(chatId, sent.message_id, { reply_markup: buttons });
    } catch (error) {
      // Telegram refuses URL buttons it cannot open (a local sandbox URL); the links then go into
      // the text so the user still gets them.
      if (!(error instanceof GrammyError) || error.error_code !== 400 || message.links.length === 0)
        throw error;
      const links = message.links.map((link) => `${link.label}: ${link.url}`);
      await api.sendMessage(chatId, (sent ? links : [message.text, ...links]).join('\n'));
    }
  }

  async function sendDocuments(
    api: Api,
    chatId: string | number,
    documents: readonly TelegramDocument[],
  ): Promise<void> {
    for (const document of documents) {
      try {
        // Named `<policy-number>-certificate.pdf` and typed `application/pdf`, where a URL's last
        // segment would be a bare id and grammY would say `application/octet-stream`.
        await api.sendDocument(
          chatId,
          new TypedInputFile(new URL(document.url), document.fileName),
          { caption: document.caption },
        );
      } catch (error) {
        // The certificate must reach the user even when the upload fails: fall back to a link.
        log.warn(describeTelegramError(error), 'telegram document upload failed; sending a link');
        await api.sendMessage(chatId, document.caption, {
          reply_markup: new InlineKeyboard().url(document.caption, document.url),
        });
      }
    }
  }

  return {
    async send(api, chatId, message) {
      await sendText(api, chatId, message);
      await sendDocuments(api, chatId, message.documents);
    },
    async edit(api, chatId, messageId, message) {
      if (messageId === undefined || !message.editable) return this.send(api, chatId, message);
      const markup = message.replyMarkup;
      const inline = markup && 'inline_keyboard' in markup ? { reply_markup: markup } : {};
      try {
        await api.editMessageText(chatId, messageId, message.text, inline);
      } catch (error) {
        // The same screen again (a re-shown step) leaves nothing to change.
        const unchanged = error instanceof GrammyError && /not modified/i.test(error.description);
        if (!unchanged) {
          log.info(describeTelegramError(error), 'telegram edit refused; sending the screen anew');
          await sendText(api, chatId, message);
        }
      }
      await sendDocuments(api, chatId, message.documents);
    },
  };
}
