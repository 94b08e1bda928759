import {
  type ChatInput,
  ChatUpdate,
  FileTooLargeError,
  type IncomingFile,
  type Prompt,
  type TurnEngine,
} from '../../conversation/index.js';
import type { InboxAnswer } from '../../inbox/index.js';
import { errorName, type Logger } from '../../log/index.js';
import { type RenderPrompt, renderKey } from '../shared/index.js';
import {
  type GraphClient,
  type InboundMessage,
  kindOf,
  loggable,
  MediaTooLargeError,
  type WhatsAppMessage,
} from './cloud-api/index.js';
import { OWN_NUMBER, PAGE_PREFIX, toWhatsAppMessages } from './render-whatsapp-message.js';
import { typedCommand } from './typed-command.js';
import { ChatReply } from './whatsapp-engine-middleware.js';

/**
 * The outbound side's part in a customer's message (its delivery policy lives in src/push): the
 * phone's 24-hour window opens again, and what was held for it while the window was shut is
 * taken, oldest first, once.
 */
interface ServiceWindow {
  touch(waId: string): Promise<void>;
  takeHeld(waId: string): Promise<readonly { readonly prompt: Prompt; readonly locale: string }[]>;
}

/** Options of {@link createWhatsAppChannel}. */
interface WhatsAppChannelOptions {
  readonly engine: TurnEngine;
  readonly graph: GraphClient;
  readonly window: ServiceWindow;
  readonly render: RenderPrompt;
  readonly logger: Logger;
}

/** The locale of a customer who chose none. */
const DEFAULT_LOCALE = 'en';
/**
 * How long a turn may take before "still working": long enough that a result is never left
 * unseen (see `ChatReply`), and short of Meta's webhook timeout.
 */
const TURN_DEADLINE_MS = 15_000;

/** The platform-free part of the channel: one inbound message at a time. */
interface WhatsAppChannel {
  /**
   * What one customer message is answered with: at most one engine call, nothing sent. Throws
   * when the turn failed (the inbox retries it). `behind` reads the customer's message queued
   * behind it, if any, when asked (after the file was taken, so photos that came meanwhile
   * count): a photo followed by another photo is taken without an answer while the step still
   * takes photos, so several sent at once are answered once, after the last.
   */
  answer(message: InboundMessage, behind?: Behind): Promise<Answer>;
  /** The apology sent when a message's turn failed for good, in the customer's language. */
  apology(locale?: string): WhatsAppMessage;
  /**
   * Marks the message read and shows typing while its turn runs, beside the turn: a failure is
   * logged and never fails or holds the turn. Reactions and system notices get no answer, so no
   * typing either.
   */
  typing(message: InboundMessage): Promise<void>;
}

/** Reads the customer's message queued behind the one answered; undefined when none is. */
type Behind = () => Promise<InboundMessage | undefined>;

/** A turn's answer: the messages to send, and the language they are in. */
type Answer = InboxAnswer<WhatsAppMessage>;

const sessionOf = (waId: string) => `wa:${waId}`;

/**
 * Creates the WhatsApp channel's message handling. Session key `wa:<wa_id>`, audience
 * policyholder; the sender's number is the verified phone (WhatsApp vouches for it, as a USSD
 * gateway does for the caller). It only parses and renders: every message is one engine call
 * with a neutral input at most (the conversation policies, engine middleware, decide handoff,
 * language, reminder buttons and files), what needs WhatsApp's own rules under the session lock
 * decided by `whatsappEngineMiddleware`.
 */
export function createWhatsAppChannel(options: WhatsAppChannelOptions): WhatsAppChannel {
  const { engine, graph, window, render, logger } = options;
  const log = logger.child({ channel: 'whatsapp' });

  const text = (body: string): WhatsAppMessage => ({ type: 'text', text: { body } });

  /**
   * One engine call for what the customer sent, and the messages that show its answer as the
   * policies say, in the language they decided.
   */
  async function update(
    waId: string,
    input: ChatInput,
    page?: number,
    behind?: Behind,
  ): Promise<Answer> {
    const update = new ChatUpdate(input, {
      channel: 'whatsapp',
      address: waId,
      fallbackLocale: DEFAULT_LOCALE,
      repeatStep: true,
      own: new ChatReply(),
      filesBehind: async () => {
        const next = await behind?.();
        return next !== undefined && (next.image ?? next.document) !== undefined;
      },
    });
    const prompt = await engine.turn(
      sessionOf(waId),
      update.reply,
      update.turnOptions({
        deadlineMs: TURN_DEADLINE_MS,
        // WhatsApp vouches for the sender's number: the principal, but no handset caller.
        caller: { kind: 'sender', phone: waId },
        audience: 'policyholder',
      }),
    );
    const { locale, lead } = update;
    const said = lead ? renderKey(render, lead.key, locale, lead.params) : undefined;
    if (update.answer === 'notice') return { locale, messages: [text(said ?? '')] };
    if (update.answer === 'none') return { locale, messages: [] };
    const opts = { before: said ? [said] : [], ...(page === undefined ? {} : { page }) };
    return { locale, messages: toWhatsAppMessages(prompt, render, locale, opts) };
  }

  /** What one message is, parsed: the input handed to the engine, or a channel notice. */
  function inputOf(message: InboundMessage): ChatInput | { readonly page: number } | undefined {
    const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
    const id =
      reply?.id ?? (message.button ? (message.button.payload ?? message.button.text) : undefined);
    if (id !== undefined) {
      if (id.startsWith(PAGE_PREFIX)) return { page: Number(id.slice(PAGE_PREFIX.length)) || 0 };
      if (id === OWN_NUMBER) return { kind: 'contact', phone: `+${message.from}` };
      return { kind: 'choice', id };
    }
    if (message.text) {
      const command = typedCommand(message.text.body, render);
      return command ? { kind: 'command', command } : { kind: 'text', text: message.text.body };
    }
    const media = message.image ?? message.document;
    if (media) return { kind: 'file', file: fileOf(graph, media) };
    // A message WhatsApp could not pass on: the customer did nothing wrong at the step, so one
    // short line says so, without the step again.
    if (kindOf(message) === 'unsupported') return { kind: 'notice', key: 'whatsapp.unsupported' };
    // Stickers, voice notes, locations, contacts: the step again, with what we cannot use.
    return { kind: 'look', lead: 'chat.unsupported' };
  }

  async function answer(message: InboundMessage, behind?: Behind): Promise<Answer> {
    // Reactions, system notices and types we do not know ask nothing: no answer, no turn.
    if (kindOf(message) === 'ignored') {
      log.debug({ event: 'whatsapp.ignored', type: loggable(message.type) }, 'message ignored');
      return { locale: DEFAULT_LOCALE, messages: [] };
    }
    await window.touch(message.from);
    // What was kept while the window was shut (a template's promised certificate, the step a
    // person left them at) answers this message: it is the reply the template asked for. Taken
    // once, so the next message runs a turn as usual.
    const held = await window.takeHeld(message.from);
    if (held.length > 0) {
      return {
        locale: held.at(-1)?.locale ?? DEFAULT_LOCALE,
        messages: held.flatMap((kept) => toWhatsAppMessages(kept.prompt, render, kept.locale)),
      };
    }
    const input = inputOf(message);
    if (input && 'page' in input) return update(message.from, { kind: 'look' }, input.page);
    return input
      ? update(message.from, input, undefined, behind)
      : { locale: DEFAULT_LOCALE, messages: [] };
  }
  const apology = (locale = DEFAULT_LOCALE) => text(renderKey(render, 'engine.error', locale));

  return {
    answer,
    apology,
    async typing(message) {
      if (kindOf(message) === 'ignored') return;
      try {
        await graph.markRead(message.id);
      } catch (error) {
        log.warn(
          { event: 'whatsapp.read_failed', errorName: errorName(error) },
          'mark read failed',
        );
      }
    },
  };
}

/**
 * A photo or document as the file-step policy reads it: downloaded through the media endpoint
 * only when the step asks for one; named by its media id when WhatsApp gives no name (a photo).
 */
function fileOf(
  graph: GraphClient,
  media: { readonly id: string; readonly filename?: string | undefined },
): IncomingFile {
  return {
    name: media.filename ?? media.id,
    async read(maxBytes) {
      try {
        const { bytes } = await graph.download(media.id, maxBytes);
        return { bytes };
      } catch (error) {
        if (error instanceof MediaTooLargeError) throw new FileTooLargeError();
        throw error;
      }
    },
  };
}
