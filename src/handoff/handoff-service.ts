import {
  type ChannelAddress,
  type ChannelName,
  type Handoff,
  type HandoffForward,
  type HandoffOpening,
  type HandoffRequest,
  type Prompt,
  type TurnEngine,
  t,
} from '../conversation/index.js';
import type { Logger } from '../log/index.js';
import type { SessionStore } from '../session/index.js';
import { readConversation } from './conversation-read.js';
import { HANDOFF_TTL_MS, type HandoffStore, type OpenHandoff } from './handoff-store.js';
import {
  customerText,
  type HandoffSlackClient,
  type HandoffSlackEvent,
  handoffRootBlocks,
  readHandoffEvent,
  staffText,
} from './slack-thread.js';
import { createThreadPoster, errorFields } from './thread-poster.js';

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
  const { post, note, markEnded } = createThreadPoster(slack, log);
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

  async function onReply(event: HandoffSlackEvent & { kind: 'reply' }): Promise<void> {
    const handoff = await store.byThread(event.slackChannel, event.threadTs);
    if (!handoff) {
      log.info('staff reply in a thread that is no open handoff');
      return;
    }
    const text = staffText(event.text);
    if (text === '') return;
    // Staff answered, whether or not the customer can be reached just now.
    if (await store.firstReply(handoff)) {
      options.metrics?.firstReply(Math.max(0, now() - handoff.openedAt) / 1_000);
    }
    try {
      await options.notify(handoff.address, notice('handoff.staffReply', { text }));
    } catch (error) {
      log.error(
        { ...errorFields(error), channel: handoff.address.channel },
        'staff reply not delivered',
      );
      await note(handoff, t('handoff.slack.notDelivered'));
      return;
    }
  }

  async function onResolve(event: HandoffSlackEvent & { kind: 'resolve' }): Promise<void> {
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
      return () => (event.kind === 'reply' ? onReply(event) : onResolve(event));
    },
  };
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
