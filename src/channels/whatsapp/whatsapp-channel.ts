import {
  type ChatInput,
  ChatUpdate,
  FileTooLargeError,
  type IncomingFile,
  type Prompt,
  type TurnEngine,
} from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import { type OnceSet, type RenderPrompt, renderKey } from '../shared/index.js';
import {
  type GraphClient,
  type InboundMessage,
  kindOf,
  loggable,
  MediaTooLargeError,
  type MessageStatus,
} from './cloud-api/index.js';
import { OWN_NUMBER, PAGE_PREFIX, toWhatsAppMessages } from './render-whatsapp-message.js';
import { typedCommand } from './typed-command.js';
import { ChatReply } from './whatsapp-engine-middleware.js';
import { isDeliveryStatus, type WhatsAppStore } from './whatsapp-store.js';

/** Options of {@link createWhatsAppChannel}. */
export interface WhatsAppChannelOptions {
  readonly engine: TurnEngine;
  readonly graph: GraphClient;
  readonly store: WhatsAppStore;
  /** Remembers handled message ids: WhatsApp redelivers a webhook it thinks failed. */
  readonly seenMessages: OnceSet;
  readonly render: RenderPrompt;
  readonly logger: Logger;
  /** Locale of a customer who chose none; default `en`. */
  readonly locale?: string;
  /**
   * How long a turn may take before "still working"; default 15 000 ms, long enough that a result
   * is never left unseen (see `ChatReply`) and short of Meta's webhook timeout.
   */
  readonly turnDeadlineMs?: number;
}

/** The platform-free part of the channel: one inbound message or status at a time. */
export interface WhatsAppChannel {
  /** Handles one customer message: at most one engine call, then its answer sent. */
  handleMessage(message: InboundMessage): Promise<void>;
  /** Records a delivery status; it never reaches the conversation. */
  recordStatus(status: MessageStatus): Promise<void>;
}

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
  const { engine, graph, store, render, logger } = options;
  const log = logger.child({ channel: 'whatsapp' });
  const defaultLocale = options.locale ?? 'en';
  const deadlineMs = options.turnDeadlineMs ?? 15_000;

  async function show(
    waId: string,
    locale: string,
    prompt: Prompt,
    before: string[],
    page?: number,
  ) {
    const opts = { before, ...(page === undefined ? {} : { page }) };
    for (const message of toWhatsAppMessages(prompt, render, locale, opts)) {
      await graph.send(waId, message);
    }
  }
  const notice = async (waId: string, text: string): Promise<void> => {
    await graph.send(waId, { type: 'text', text: { body: text } });
  };

  /**
   * One engine call for what the customer sent, and its answer shown as the policies say, in the
   * language they decided (kept in `spoken` for an apology should the sending fail).
   */
  async function update(
    waId: string,
    spoken: { locale: string },
    input: ChatInput,
    page?: number,
  ): Promise<void> {
    const update = new ChatUpdate(input, {
      channel: 'whatsapp',
      address: waId,
      fallbackLocale: defaultLocale,
      repeatStep: true,
      own: new ChatReply(),
    });
    const prompt = await engine.turn(
      sessionOf(waId),
      update.reply,
      update.turnOptions({
        deadlineMs,
        // WhatsApp vouches for the sender's number: the principal, but no handset caller.
        caller: { kind: 'sender', phone: waId },
        audience: 'policyholder',
      }),
    );
    const { locale, lead } = update;
    spoken.locale = locale;
    const said = lead ? renderKey(render, lead.key, locale, lead.params) : undefined;
    if (update.answer === 'notice') await notice(waId, said ?? '');
    else if (update.answer !== 'none') await show(waId, locale, prompt, said ? [said] : [], page);
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

  return {
    async handleMessage(message) {
      // Reactions, system notices and types we do not know ask nothing: no answer, no turn.
      if (kindOf(message) === 'ignored') {
        log.debug({ event: 'whatsapp.ignored', type: loggable(message.type) }, 'message ignored');
        return;
      }
      if (!(await options.seenMessages.claim(message.id))) {
        log.info({ event: 'whatsapp.duplicate' }, 'whatsapp message already handled');
        return;
      }
      await store.touch(message.from);
      const waId = message.from;
      const spoken = { locale: defaultLocale };
      try {
        const input = inputOf(message);
        if (input && 'page' in input) await update(waId, spoken, { kind: 'look' }, input.page);
        else if (input) await update(waId, spoken, input);
      } catch (error) {
        // The one error boundary: logged without what the customer wrote, and an apology.
        log.error(
          { event: 'whatsapp.failed', errorName: nameOf(error), type: message.type },
          'whatsapp message failed',
        );
        const apology = renderKey(render, 'engine.error', spoken.locale);
        await notice(waId, apology).catch(() => undefined);
      }
    },
    recordStatus: (status) => recordStatus(store, log, status),
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

/**
 * Records a delivery status; a failed one is logged with WhatsApp's error codes. Statuses beyond
 * sent, delivered, read and failed (played, deleted, warning, any Meta adds) are only logged.
 */
async function recordStatus(store: WhatsAppStore, log: Logger, status: MessageStatus) {
  if (!isDeliveryStatus(status.status)) {
    log.debug(
      { event: 'whatsapp.status.ignored', status: loggable(status.status) },
      'status ignored',
    );
    return;
  }
  await store.recordStatus(status.id, status.status);
  if (status.status === 'failed') {
    const codes = (status.errors ?? []).map((error) => error.code);
    log.warn({ event: 'whatsapp.status.failed', codes }, 'whatsapp message not delivered');
  }
}

/** An error's name only: its message could echo what the customer wrote. */
function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
