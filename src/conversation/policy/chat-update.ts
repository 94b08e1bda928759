import type { MessageParams } from '../prompt.js';
import type { Reply } from '../reply.js';
import type { ChannelAddress, ChannelName, TurnOptions } from '../turn-engine.js';

/** Thrown by {@link IncomingFile.read} for a file over its `maxBytes`: refused as too large. */
export class FileTooLargeError extends Error {
  override readonly name = 'FileTooLargeError';

  constructor() {
    super('the file is over the size limit');
  }
}

/** A file a user sent, read only when the step asks for one (see `fileStepPolicy`). */
export interface IncomingFile {
  /** Its size as the platform says, when it says; a file over the limit is never read. */
  readonly size?: number | undefined;
  /** Its name as sent; the policy's store names it when absent. */
  readonly name?: string | undefined;
  /**
   * Reads its bytes (a platform download), at most `maxBytes`; may throw the file store's
   * refusal (too large). Called under the session lock, once at most.
   */
  read(
    maxBytes: number,
  ): Promise<{ readonly bytes: Uint8Array; readonly name?: string | undefined }>;
}

/**
 * A chat command, the same on every channel: Telegram's `/start`, `/cancel`, `/human`, `/done`
 * and WhatsApp's typed words. `menu` may pick an entry of the menu at once (`/status`).
 */
export type ChatCommand =
  | { readonly command: 'menu'; readonly pick?: string }
  | { readonly command: 'cancel' }
  | { readonly command: 'person' }
  | { readonly command: 'done' };

/** What a user sent, as every channel parses it: the engine's neutral input. */
export type ChatInput =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'choice'; readonly id: string }
  | { readonly kind: 'contact'; readonly phone: string }
  | { readonly kind: 'file'; readonly file: IncomingFile }
  | ({ readonly kind: 'command' } & ChatCommand)
  /**
   * The step again, as it is: under `lead` for something the channel cannot use (a sticker,
   * `hint` adding what the step expects), or bare (WhatsApp's next page of a long list).
   */
  | { readonly kind: 'look'; readonly lead?: string; readonly hint?: boolean }
  /** One line and no step, in the user's language (a message the platform could not pass on). */
  | { readonly kind: 'notice'; readonly key: string };

/** A line shown with the answer: a catalogue key and its parameters. */
export interface ChatNotice {
  readonly key: string;
  readonly params?: MessageParams | undefined;
}

/**
 * How the channel shows the Prompt the engine answered with:
 * - `flow`: the answer to the input (Telegram puts it in place of the tapped message);
 * - `screen`: a screen of its own, sent as a new message (the consent notice, the menu a
 *   reminder's button opened);
 * - `step`: the step the conversation waits on, under `lead`; a final Prompt means there is none;
 * - `notice`: only `lead`, no screen;
 * - `none`: nothing (what the user wrote went to a person; a photo with more of its sending
 *   behind it, whose step the last of them shows).
 */
export type ChatAnswer = 'flow' | 'screen' | 'step' | 'notice' | 'none';

/** What a channel says of an update besides the input. */
export interface ChatUpdateOptions {
  readonly channel: ChannelName;
  /** The user's address on the channel (chat id, wa_id). */
  readonly address: string;
  /** The language the platform says the user's app speaks (Telegram's `language_code`). */
  readonly platformLocale?: string | undefined;
  /** The language of a user who chose none and whose app speaks none of ours. */
  readonly fallbackLocale: string;
  /**
   * The chat shows the step again with every notice (WhatsApp, whose older buttons do not stay
   * usable): a refused file's words come above the step, and a step read with no conversation to
   * continue opens the menu. Otherwise (Telegram) a refusal comes alone, and with no conversation
   * the answer is the closing screen (the channel says "send /start").
   */
  readonly repeatStep: boolean;
  /** The channel's own request, for its own engine middleware (a keyboard's screen token). */
  readonly own?: object | undefined;
  /**
   * True when another file the user sent with this one waits behind it (the next photo of an
   * album, or of several picked at once and sent one message each). Asked after the file was
   * taken: a step that still takes photos is then shown once, after the last of them, not once
   * per photo. Without it every file is answered.
   */
  readonly filesBehind?: (() => boolean | Promise<boolean>) | undefined;
}

/**
 * One update from a chat, handed to the engine as the turn's `channelRequest`: the conversation
 * policies (handoff, language, reminder shortcuts, the file step; `src/conversation/policy`)
 * decide under the session lock what it means and say here how to show the answer. A channel
 * only parses the platform's update into a {@link ChatInput} and renders what comes back.
 */
export class ChatUpdate {
  /** How to show the answer; see {@link ChatAnswer}. */
  answer: ChatAnswer = 'flow';
  /** A line above the answer (or the answer itself, for `notice`). */
  lead: ChatNotice | undefined = undefined;
  /** The lead is a hint: the channel adds what the step expects (its own words for it). */
  hint = false;
  /** The language to answer in; the language policy sets it before the flow runs. */
  locale: string;
  /** The user chose a language with this update (Telegram then sets its "/" menu). */
  languageChanged = false;

  constructor(
    readonly input: ChatInput,
    readonly options: ChatUpdateOptions,
  ) {
    this.locale = options.platformLocale ?? options.fallbackLocale;
  }

  /** Where the user is reached; its locale is the update's, as the language policy decides. */
  get address(): ChannelAddress {
    const update = this;
    return {
      channel: this.options.channel,
      address: this.options.address,
      get locale() {
        return update.locale;
      },
    };
  }

  /**
   * The Reply handed to `engine.turn`: the input itself for text, a choice, a contact and a
   * cancel (the flow's own); for what only a policy answers (a file, a look, another command)
   * an empty answer, which the policies replace (an engine without them sees what a channel sent
   * before the engine had `peek` and `start`).
   */
  get reply(): Reply {
    const { input } = this;
    switch (input.kind) {
      case 'text':
        return { type: 'user.text', text: input.text };
      case 'choice':
        return { type: 'user.choice', id: input.id };
      case 'contact':
        return { type: 'user.contact', phone: input.phone };
      case 'command':
        if (input.command === 'cancel') return { type: 'user.cancel' };
        return { type: 'user.text', text: '' };
      default:
        return { type: 'user.text', text: '' };
    }
  }

  /** The options of the update's turn: its address (in the update's language) and itself. */
  turnOptions(base: TurnOptions): TurnOptions {
    return { ...base, address: this.address, channelRequest: this };
  }
}

/** The update a turn carries, when a chat channel sent it. */
export function chatUpdateOf(options: TurnOptions): ChatUpdate | undefined {
  const request = options.channelRequest;
  return request instanceof ChatUpdate ? request : undefined;
}

/**
 * The channel's own request of a turn: inside a {@link ChatUpdate} (`own`), or the request
 * itself (USSD's).
 */
export function ownRequestOf(options: TurnOptions): object | undefined {
  const request = options.channelRequest;
  return request instanceof ChatUpdate ? request.options.own : request;
}
