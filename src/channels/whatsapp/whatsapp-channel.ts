import type { ClaimFiles } from '../../claim-documents/index.js';
import {
  type CallerLanguages,
  CHOOSE_LANGUAGE,
  HANDOFF_AGREE,
  HANDOFF_CONSENT,
  HANDOFF_DECLINE,
  type Handoff,
  LANGUAGE_PROMPT,
  localeOfChoice,
  type Prompt,
  type Reply,
  TALK_TO_A_PERSON,
  type TurnEngine,
  type TurnOptions,
} from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import { isMenuShortcut } from '../../reminders/index.js';
import type { OnceSet } from '../shared/index.js';
import { type RenderPrompt, renderKey } from '../telegram/index.js';
import { ClaimUpload } from './claim-upload.js';
import type { GraphClient } from './graph-client.js';
import { OWN_NUMBER, PAGE_PREFIX, toWhatsAppMessages } from './render-whatsapp-message.js';
import { type TypedCommand, typedCommand } from './typed-command.js';
import { type InboundMessage, kindOf, loggable, type MessageStatus } from './webhook-payload.js';
import { ChatReply, StepShow } from './whatsapp-engine-middleware.js';
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
  /**
   * Takes claim photos and documents (checked by their bytes, capped per file and per claim);
   * without it a file gets "cannot take files here".
   */
  readonly claimFiles?: Pick<ClaimFiles, 'keep' | 'maxFileBytes' | 'refusal'>;
  readonly handoff?: Handoff;
  readonly languages?: CallerLanguages;
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

/** One customer message being handled: who wrote, in which language. */
interface Inbound {
  readonly waId: string;
  readonly locale: string;
}

// The policyholder's entry menu (flows/main-menu.ts), which "menu" and "Renew now" open afresh.
const ENTRY_FLOW = 'main-menu';

const sessionOf = (waId: string) => `wa:${waId}`;

/** The options of a WhatsApp turn: its sender, the policyholder's menu, the deadline. */
function turnOptionsOf(at: Inbound, deadlineMs: number, channelRequest?: object): TurnOptions {
  return {
    deadlineMs,
    address: { channel: 'whatsapp', address: at.waId, locale: at.locale },
    // WhatsApp vouches for the sender's number: the principal, but no handset caller.
    caller: { kind: 'sender', phone: at.waId },
    audience: 'policyholder',
    ...(channelRequest ? { channelRequest } : {}),
  };
}

/**
 * Creates the WhatsApp channel's message handling. Session key `wa:<wa_id>`, audience
 * policyholder; the sender's number is the verified phone (WhatsApp vouches for it, as a USSD
 * gateway does for the caller). Every message calls the engine once at most: `turn`, `peek` or
 * `start`, with what needs the session lock decided by `whatsappEngineMiddleware`.
 */
export function createWhatsAppChannel(options: WhatsAppChannelOptions): WhatsAppChannel {
  const { engine, graph, store, render, logger } = options;
  const log = logger.child({ channel: 'whatsapp' });
  const defaultLocale = options.locale ?? 'en';
  const say = (key: string, locale: string) => renderKey(render, key, locale);
  const deadlineMs = options.turnDeadlineMs ?? 15_000;
  const turnOptions = (at: Inbound, channelRequest?: object) =>
    turnOptionsOf(at, deadlineMs, channelRequest);

  async function show(at: Inbound, prompt: Prompt, before: string[] = [], page?: number) {
    const opts = { before, ...(page === undefined ? {} : { page }) };
    for (const message of toWhatsAppMessages(prompt, render, at.locale, opts)) {
      await graph.send(at.waId, message);
    }
  }
  const notice = async (at: Inbound, key: string): Promise<void> => {
    await graph.send(at.waId, { type: 'text', text: { body: say(key, at.locale) } });
  };
  const turn = async (at: Inbound, reply: Reply) =>
    show(at, await engine.turn(sessionOf(at.waId), reply, turnOptions(at, new ChatReply())));
  /** The step the conversation waits on (or the menu), under a channel notice. */
  const showStep = async (at: Inbound, leadKey?: string, page?: number) => {
    const step = await engine.peek(sessionOf(at.waId), turnOptions(at, new StepShow()));
    await show(at, step, leadKey ? [say(leadKey, at.locale)] : [], page);
  };
  /**
   * Drops whatever conversation was open and opens the main menu, taking `pick` there first when
   * given (a reminder's "Renew now", chosen outside the menu).
   */
  const menuAfresh = async (at: Inbound, pick?: string) => {
    const start = pick === undefined ? {} : { start: { pick } };
    const menu = await engine.start(sessionOf(at.waId), ENTRY_FLOW, {
      ...turnOptions(at),
      ...start,
    });
    await show(at, menu);
  };

  /** Asks for a person; not agreed to the notice yet, the customer is asked first. */
  async function askForPerson(at: Inbound, consent?: 'agreed' | 'declined'): Promise<void> {
    const opening = options.handoff
      ? await options.handoff.open({
          sessionKey: sessionOf(at.waId),
          address: { channel: 'whatsapp', address: at.waId, locale: at.locale },
          ...(consent ? { consent } : {}),
        })
      : 'unavailable';
    if (opening === 'opened' || opening === 'already') await notice(at, `handoff.${opening}`);
    else if (opening === 'consent') await show(at, HANDOFF_CONSENT);
    else await showStep(at, `handoff.${opening}`);
  }

  async function choose(at: Inbound, id: string): Promise<void> {
    if (id.startsWith(PAGE_PREFIX))
      return showStep(at, undefined, Number(id.slice(PAGE_PREFIX.length)) || 0);
    if (id === CHOOSE_LANGUAGE) return show(at, LANGUAGE_PROMPT);
    if (id === OWN_NUMBER) return turn(at, { type: 'user.contact', phone: `+${at.waId}` });
    const picked = localeOfChoice(id);
    if (picked !== undefined) {
      await options.languages
        ?.choose({ channel: 'whatsapp', address: at.waId }, picked)
        .catch((error: unknown) => log.warn({ errorName: nameOf(error) }, 'language not saved'));
      return showStep({ ...at, locale: picked }, 'language.changed');
    }
    if (id === TALK_TO_A_PERSON) return askForPerson(at);
    if (id === HANDOFF_AGREE) return askForPerson(at, 'agreed');
    if (id === HANDOFF_DECLINE) return askForPerson(at, 'declined');
    if (await options.handoff?.active(sessionOf(at.waId))) return notice(at, 'handoff.already');
    // A reminder's "Renew now" or "Stop reminders" belongs to no step: the menu afresh, picked there.
    if (isMenuShortcut(id)) return menuAfresh(at, id);
    return turn(at, { type: 'user.choice', id });
  }

  async function text(at: Inbound, body: string): Promise<void> {
    const command = typedCommand(body, render, at.locale);
    if (command) return typed(at, command);
    // While a person has the conversation, what the customer writes is for them, not the flow.
    const forwarded = await options.handoff?.forward(sessionOf(at.waId), body);
    if (forwarded === 'forwarded') return;
    if (forwarded === 'failed') return notice(at, 'handoff.forwardFailed');
    return turn(at, { type: 'user.text', text: body });
  }

  /**
   * Telegram's /start, /cancel and /done as words: the first two leave the person (the customer
   * chose the assistant again); "done" goes back to the step the conversation waits on.
   */
  async function typed(at: Inbound, command: TypedCommand): Promise<void> {
    const ended = (await options.handoff?.end(sessionOf(at.waId))) ?? false;
    if (command === 'menu') return menuAfresh(at);
    if (command === 'cancel') return turn(at, { type: 'user.cancel' });
    return showStep(at, ended ? 'handoff.back' : 'handoff.notOpen');
  }

  /**
   * A photo or document: downloaded and kept only when the step asks for one, decided under the
   * session lock in the one engine call; any other step is shown again with a hint.
   */
  async function media(at: Inbound, message: InboundMessage): Promise<void> {
    const source = message.image ?? message.document;
    const claimFiles = options.claimFiles;
    if (!source) return;
    if (!claimFiles) return notice(at, 'telegram.filesUnavailable');
    if (await options.handoff?.active(sessionOf(at.waId))) return notice(at, 'handoff.already');
    const upload = new ClaimUpload({ media: source, waId: at.waId, graph, claimFiles });
    const prompt = await engine.peek(sessionOf(at.waId), turnOptions(at, upload));
    const lead = upload.lead;
    await show(at, prompt, lead ? [renderKey(render, lead.key, at.locale, lead.params)] : []);
  }

  async function dispatch(at: Inbound, message: InboundMessage): Promise<void> {
    const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
    if (reply) return choose(at, reply.id);
    if (message.button) return choose(at, message.button.payload ?? message.button.text);
    if (message.text) return text(at, message.text.body);
    if (message.image || message.document) return media(at, message);
    // A message WhatsApp could not pass on: the customer did nothing wrong at the step, so one
    // short line says so, without the step again.
    if (kindOf(message) === 'unsupported') return notice(at, 'whatsapp.unsupported');
    // Stickers, voice notes, locations, contacts: the step again, with what we cannot use.
    return showStep(at, 'telegram.unsupported');
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
      const chosen = await Promise.resolve(
        options.languages?.chosen({ channel: 'whatsapp', address: message.from }),
      ).catch(() => undefined);
      const at: Inbound = { waId: message.from, locale: chosen ?? defaultLocale };
      try {
        await dispatch(at, message);
      } catch (error) {
        // The one error boundary: logged without what the customer wrote, and an apology.
        log.error(
          { event: 'whatsapp.failed', errorName: nameOf(error), type: message.type },
          'whatsapp message failed',
        );
        await notice(at, 'engine.error').catch(() => undefined);
      }
    },
    recordStatus: (status) => recordStatus(store, log, status),
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
