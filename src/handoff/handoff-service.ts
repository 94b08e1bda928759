import { z } from 'zod';
import {
  type Attachment,
  type ChannelAddress,
  type ChannelName,
  FileTooLargeError,
  type Handoff,
  type HandoffFileForward,
  type HandoffForward,
  type HandoffOpening,
  type HandoffRequest,
  type Prompt,
  type TurnEngine,
  t,
} from '../conversation/index.js';
import { MAX_FILE_BYTES, sniffDocumentType } from '../files/index.js';
import { errorFields, type Logger } from '../log/index.js';
import { maskPersonalData, subjectId } from '../privacy/index.js';
import type { SessionStore } from '../session/index.js';
import { readConversation } from './conversation-read.js';
import { HANDOFF_TTL_MS, type HandoffStore, type OpenHandoff } from './handoff-store.js';
import {
  closedNoticeBlocks,
  customerText,
  type HandoffSlackClient,
  type HandoffSlackEvent,
  handoffRootBlocks,
  readHandoffEvent,
  StaffFile,
  staffText,
} from './slack-thread.js';
import { type HandoffFiles, keepStaffFile } from './staff-files.js';
import { createThreadPoster } from './thread-poster.js';

/** Counts what happens to handoffs (src/server's Prometheus metrics). */
export interface HandoffMetrics {
  opened(channel: ChannelName): void;
  /** Seconds from opening to the first staff reply. */
  firstReply(seconds: number): void;
  resolved(by: 'staff' | 'customer'): void;
}

/**
 * Consent before a customer's words reach staff: the privacy notice (which names Slack and the
 * insurer's staff) agreed, or agreed on the handoff's own screen, recorded by the server's
 * personal-data service. A refusal is recorded without personal data.
 */
export interface HandoffConsent {
  consented(request: HandoffRequest): Promise<boolean>;
  agree(request: HandoffRequest): Promise<void>;
  refused(request: HandoffRequest): Promise<void>;
}

/** Reaches a customer outside a turn: the channel's Notifier (Telegram message, SMS). */
export type NotifyCustomer = (address: ChannelAddress, prompt: Prompt) => Promise<void>;

/** Options of {@link createHandoffService}. */
export interface HandoffServiceOptions {
  readonly store: HandoffStore;
  /**
   * The engine, to read (never advance) a conversation: its step, flow and answers. It reads
   * them through {@link handoffMiddleware}, which must be added to it (`engine.use`).
   */
  readonly engine: TurnEngine;
  /**
   * The engine's session store, to keep a paused conversation for as long as its handoff may
   * last (staff may answer the next day) and give it its idle lifetime back when it ends.
   */
  readonly sessions: Pick<SessionStore, 'hold' | 'unhold'>;
  /** Where staff are: the Slack Web API and the handoff channel. Unset: nobody takes handoffs. */
  readonly slack?: { readonly client: HandoffSlackClient; readonly channel: string } | undefined;
  readonly notify: NotifyCustomer;
  /**
   * Where staff files are kept for the customer and how they are fetched from Slack; without it
   * a staff file is not sent (the thread says so) and the reply's text still is.
   */
  readonly files?: HandoffFiles | undefined;
  /** Without it no consent is asked (tests, deployments without the notice). */
  readonly consent?: HandoffConsent;
  readonly logger: Logger;
  readonly metrics?: HandoffMetrics;
  /** The USSD short code, named in the SMS that tells a caller the person has finished. */
  readonly serviceCode: string;
  /** Clock in epoch ms (tests use a manual one). Default `Date.now`. */
  readonly now?: () => number;
}

/** The handoff service: the channels' {@link Handoff} plus what Slack sends about handoffs. */
export interface HandoffService extends Handoff {
  /**
   * Takes a Slack request when it is a handoff's (a staff reply in a thread, a Resolve click):
   * returns the work to do once it is acknowledged, or undefined to leave it to the desk.
   */
  fromSlack(body: unknown): (() => Promise<void>) | undefined;
}

/** A staff reply: its words and the files attached to it. */
const StaffReply = z.object({ text: z.string(), files: z.array(StaffFile) });
type StaffReply = z.infer<typeof StaffReply>;

const MIB = 1024 * 1024;

/** How long a handoff may take to open before another request may try again. */
const OPENING_TTL_MS = 30_000;

const notice = (key: string, params?: Record<string, string>): Prompt => ({
  key,
  input: 'none',
  final: true,
  ...(params ? { params } : {}),
});

/**
 * Creates the handoff service. A handoff pauses the customer's conversation (the engine is not
 * fed while it lasts) and opens a Slack thread with the conversation's context; staff replies
 * reach the customer by their channel's notifier, the customer's messages go into the thread,
 * and Resolve (or the customer's `/done`) ends it so the conversation resumes where it stopped.
 */
export function createHandoffService(options: HandoffServiceOptions): HandoffService {
  const { store, engine, slack, logger } = options;
  const now = options.now ?? Date.now;
  const log = logger.child({ module: 'handoff' });
  const { post, note, markEnded, markOpen } = createThreadPoster(slack, log);
  const maxFileBytes = options.files?.maxBytes ?? MAX_FILE_BYTES;
  const peek = (handoff: { sessionKey: string; address: ChannelAddress }) =>
    readConversation(engine, handoff.sessionKey, handoff.address);

  /** Tells a customer whose handoff staff resolved that the conversation is theirs again. */
  async function giveBack(handoff: OpenHandoff): Promise<void> {
    const { address } = handoff;
    if (address.channel === 'ussd') {
      await options.notify(
        address,
        notice('handoff.resolvedSms', { serviceCode: options.serviceCode }),
      );
      return;
    }
    const glance = await peek(handoff);
    const step = glance?.prompt && !glance.prompt.final ? glance.prompt : undefined;
    await options.notify(address, notice(step ? 'handoff.resolved' : 'handoff.resolvedFresh'));
    if (step) await options.notify(address, step);
  }

  /** Keeps a staff file for the customer; a file not sent is said in the thread, by name. */
  async function staffAttachment(
    handoff: OpenHandoff,
    file: StaffFile,
  ): Promise<Attachment | undefined> {
    const files = options.files;
    const outcome = files
      ? await keepStaffFile(files, file, subjectId(handoff.address)).catch((error: unknown) => {
          log.error(errorFields(error), 'staff file not kept');
          return { kind: 'failed' as const };
        })
      : { kind: 'failed' as const };
    if (outcome.kind === 'kept') return outcome.attachment;
    const name = customerText(file.name ?? file.title ?? file.id, 120);
    await note(
      handoff,
      outcome.kind === 'tooLarge'
        ? t('handoff.slack.fileTooLarge', { name, megabytes: String(maxFileBytes / MIB) })
        : t('handoff.slack.fileNotSent', { name }),
    );
    return undefined;
  }

  /** Brings a staff reply to the customer: its words, and its files as documents. */
  async function deliver(handoff: OpenHandoff, reply: StaffReply): Promise<void> {
    const text = staffText(reply.text);
    if (text === '' && reply.files.length === 0) return;
    // Staff answered, whether or not the customer can be reached just now.
    if (await store.firstReply(handoff)) {
      options.metrics?.firstReply(Math.max(0, now() - handoff.openedAt) / 1_000);
    }
    const attachments: Attachment[] = [];
    for (const file of reply.files) {
      const attachment = await staffAttachment(handoff, file);
      if (attachment) attachments.push(attachment);
    }
    if (text === '' && attachments.length === 0) return;
    const prompt: Prompt = {
      ...(text === '' ? notice('handoff.staffFile') : notice('handoff.staffReply', { text })),
      ...(attachments.length > 0 ? { attachments } : {}),
    };
    try {
      await options.notify(handoff.address, prompt);
    } catch (error) {
      log.error(
        { ...errorFields(error), channel: handoff.address.channel },
        'staff reply not delivered',
      );
      await note(handoff, t('handoff.slack.notDelivered'));
    }
  }

  async function onReply(event: HandoffSlackEvent & { kind: 'reply' }): Promise<void> {
    const reply = { text: event.text, files: [...event.files] };
    const handoff = await store.byThread(event.slackChannel, event.threadTs);
    if (handoff) return deliver(handoff, reply);
    // Ended: the reply is kept and the thread asks whether to reopen, never a silent drop.
    const closed = await store.closedByThread(event.slackChannel, event.threadTs);
    if (!closed) {
      log.info('staff reply in a thread that is no handoff');
      return;
    }
    await store.keepLate(closed, event.ts, JSON.stringify(reply));
    const closedNotice = closedNoticeBlocks();
    try {
      await post(closedNotice.text, closed.threadTs, closedNotice.blocks);
    } catch (error) {
      log.warn(errorFields(error), 'closed notice not posted');
    }
  }

  async function onReopen(
    event: HandoffSlackEvent & { kind: 'resolve' | 'reopen' },
  ): Promise<void> {
    const closed = await store.closedByThread(event.slackChannel, event.threadTs);
    const late = closed ? await store.reopen(closed) : false;
    if (!closed || late === false) {
      await note({ threadTs: event.threadTs }, t('handoff.slack.cannotReopen'));
      return;
    }
    await holdSession(options.sessions, log, closed.sessionKey, true);
    await markOpen(closed);
    await note(closed, t('handoff.slack.reopenedBy', { user: `<@${event.userId}>` }));
    const key = closed.address.channel === 'ussd' ? 'handoff.reopenedSms' : 'handoff.reopened';
    try {
      await options.notify(closed.address, notice(key));
    } catch (error) {
      log.error(
        { ...errorFields(error), channel: closed.address.channel },
        'customer not told the handoff reopened',
      );
    }
    for (const kept of late) {
      const reply = StaffReply.safeParse(safeJson(kept));
      if (reply.success) await deliver(closed, reply.data);
    }
  }

  async function onResolve(
    event: HandoffSlackEvent & { kind: 'resolve' | 'reopen' },
  ): Promise<void> {
    const handoff = await store.byThread(event.slackChannel, event.threadTs);
    if (!handoff || !(await store.close(handoff))) return;
    await holdSession(options.sessions, log, handoff.sessionKey, false);
    options.metrics?.resolved('staff');
    await markEnded(handoff, { staffUserId: event.userId });
    try {
      await giveBack(handoff);
    } catch (error) {
      log.error(
        { ...errorFields(error), channel: handoff.address.channel },
        'customer not told the handoff ended',
      );
      await note(handoff, t('handoff.slack.notDelivered'));
    }
  }

  return {
    async active(sessionKey) {
      if (!slack) return false;
      return (await store.bySession(sessionKey)) !== undefined;
    },

    async open(request: HandoffRequest): Promise<HandoffOpening> {
      if (!slack) return 'unavailable';
      const consent = options.consent;
      if (consent && request.consent === 'declined') {
        await consent.refused(request);
        return 'declined';
      }
      if (consent && request.consent === 'agreed') await consent.agree(request);
      else if (consent && !(await consent.consented(request))) return 'consent';
      if (!(await store.reserve(request.sessionKey, OPENING_TTL_MS))) return 'already';
      try {
        const glance = request.glance ?? (await peek(request));
        const root = handoffRootBlocks({
          channel: request.address.channel,
          address: request.address.address,
          locale: request.address.locale,
          glance,
        });
        const threadTs = await post(root.text, undefined, root.blocks);
        await store.save({
          sessionKey: request.sessionKey,
          address: request.address,
          slackChannel: slack.channel,
          threadTs,
          openedAt: now(),
          root: root.blocks,
        });
      } catch (error) {
        log.error(
          { ...errorFields(error), channel: request.address.channel },
          'handoff not opened',
        );
        await store.release(request.sessionKey).catch(() => undefined);
        return 'failed';
      }
      await holdSession(options.sessions, log, request.sessionKey, true);
      options.metrics?.opened(request.address.channel);
      return 'opened';
    },

    async forward(sessionKey, text): Promise<HandoffForward> {
      if (!slack) return 'none';
      const handoff = await store.bySession(sessionKey);
      if (handoff === undefined) return 'none';
      // Being opened: the message still goes nowhere near the flow, and the customer is told.
      if (handoff === 'opening') return 'failed';
      try {
        await post(t('handoff.slack.customerSays', { text: customerText(text) }), handoff.threadTs);
      } catch (error) {
        log.error(errorFields(error), 'customer message not posted to the handoff thread');
        return 'failed';
      }
      return 'forwarded';
    },

    async forwardFile(sessionKey, file): Promise<HandoffFileForward> {
      if (!slack) return 'none';
      const handoff = await store.bySession(sessionKey);
      if (handoff === undefined) return 'none';
      if (handoff === 'opening' || !slack.client.files) return 'failed';
      if (file.size !== undefined && file.size > maxFileBytes) return 'tooLarge';
      try {
        const read = await file.read(maxFileBytes);
        const bytes = Buffer.from(read.bytes);
        await slack.client.files.uploadV2({
          channel_id: slack.channel,
          thread_ts: handoff.threadTs,
          file: bytes,
          filename: await customerFileName(bytes, read.name ?? file.name),
          initial_comment: t('handoff.slack.customerFile'),
        });
      } catch (error) {
        if (error instanceof FileTooLargeError || error instanceof RangeError) return 'tooLarge';
        log.error(errorFields(error), 'customer file not posted to the handoff thread');
        return 'failed';
      }
      return 'forwarded';
    },

    async end(sessionKey) {
      if (!slack) return false;
      const handoff = await store.bySession(sessionKey);
      if (handoff === undefined) return false;
      if (handoff === 'opening') {
        await store.release(sessionKey);
        return true;
      }
      if (!(await store.close(handoff))) return false;
      await holdSession(options.sessions, log, sessionKey, false);
      options.metrics?.resolved('customer');
      await note(handoff, t('handoff.slack.customerLeft'));
      await markEnded(handoff, 'customer');
      return true;
    },

    fromSlack(body) {
      if (!slack) return undefined;
      const event = readHandoffEvent(body, slack.channel);
      if (!event) return undefined;
      if (event.kind === 'reply') return () => onReply(event);
      if (event.kind === 'reopen') return () => onReopen(event);
      return () => onResolve(event);
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const UNSAFE_NAME = /[^\w.\- ]/g;

/**
 * A customer file's name in the staff thread: NRCs and phones masked, made safe, its extension
 * the one its bytes show when they show a photo or a PDF.
 */
async function customerFileName(bytes: Uint8Array, declared: string | undefined): Promise<string> {
  const type = await sniffDocumentType(bytes);
  const safe = maskPersonalData(declared ?? '')
    .replace(UNSAFE_NAME, '_')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 120);
  if (!type) return safe || 'file';
  const stem = safe.replace(/\.[^.]*$/, '') || (type.mime.startsWith('image/') ? 'photo' : 'file');
  return `${stem}.${type.ext}`;
}

/**
 * The session is held for the handoff's lifetime and let go when it ends. Best effort: a
 * handoff is not refused nor left open for it; a failure only shortens how long the step waits.
 */
async function holdSession(
  sessions: Pick<SessionStore, 'hold' | 'unhold'>,
  log: Logger,
  sessionKey: string,
  held: boolean,
): Promise<void> {
  try {
    if (held) await sessions.hold(sessionKey, HANDOFF_TTL_MS);
    else await sessions.unhold(sessionKey);
  } catch (error) {
    log.warn({ ...errorFields(error), held }, 'paused session hold not changed');
  }
}
