import type { FastifyInstance } from 'fastify';
import type { RenderPrompt } from '../channels/shared/index.js';
import {
  createGraphClient,
  createWhatsAppChannel,
  type GraphClient,
  type InboundMessage,
  registerWhatsAppWebhook,
  type WhatsAppMessage,
} from '../channels/whatsapp/index.js';
import type { TurnEngine } from '../conversation/index.js';
import { createInbox, createSeenMessages, type Inbox } from '../inbox/index.js';
import type { Logger } from '../log/index.js';
import { createWhatsAppNotifier, createWhatsAppStore } from '../push/index.js';
import type { RedisConnection } from '../redis/index.js';
import type { KeyValueStore } from '../storage/index.js';
import type { WhatsAppConfig } from './config.js';
import { type NotifierDirectory, smsInstead } from './notifier-directory.js';

/** What the server hands the WhatsApp channel. */
interface WhatsAppWiring {
  readonly config: WhatsAppConfig;
  readonly engine: TurnEngine;
  readonly render: RenderPrompt;
  readonly logger: Logger;
  /** The server's key-value store: the window, statuses, handled message ids, the inbox. */
  readonly store: KeyValueStore;
  /** The server's Redis, when it has one: the inbox's queue is then BullMQ's. */
  readonly redis: RedisConnection | undefined;
  /**
   * The server's test seams: the de-duplication clock, the Graph client's rate-limit sleep, the
   * inbox's retry delay.
   */
  readonly deps?: {
    readonly whatsappClock?: (() => number) | undefined;
    readonly whatsappSleep?: ((ms: number) => Promise<void>) | undefined;
    readonly whatsappTurnBackoffMs?: number | undefined;
  };
  readonly keyPrefix: string;
  /** The server's notifiers: WhatsApp's is added; SMS is found there for a paused template. */
  readonly notifiers: Pick<NotifierDirectory, 'add' | 'find'>;
  /** The server's shutdown: waiting for webhooks and pushes in flight is added. */
  readonly closers: { last(close: () => Promise<void>): void };
  /** The server's channel names: `whatsapp` is added. */
  readonly channels: string[];
}

/** The mounted channel, for tests (src/server's `whatsapp`). */
export interface WiredWhatsApp {
  /** Resolves once no customer message waits for its turn or a retry. */
  settled(): Promise<void>;
}

/**
 * WhatsApp Cloud API: its channel over the inbox (src/inbox), its webhook mounted on `app`
 * (`/whatsapp/webhook`), its notifier (src/push) with SMS instead of a template Meta paused or
 * refused, and their shutdown added to the server's.
 */
export function buildWhatsApp(app: FastifyInstance, wiring: WhatsAppWiring): WiredWhatsApp {
  const { config, keyPrefix } = wiring;
  const sleep = wiring.deps?.whatsappSleep;
  const turnBackoffMs = wiring.deps?.whatsappTurnBackoffMs;
  const graph = createGraphClient({ ...config, ...(sleep ? { sleep } : {}) });
  const store = createWhatsAppStore(wiring.store, keyPrefix);
  const seen = createSeenMessages(
    wiring.store,
    `${keyPrefix}whatsapp-seen:`,
    wiring.deps?.whatsappClock,
  );
  const channel = createWhatsAppChannel({
    engine: wiring.engine,
    graph,
    window: store,
    render: wiring.render,
    logger: wiring.logger,
  });
  const inbox = whatsappInbox(channel, graph, {
    store: wiring.store,
    keyPrefix,
    redis: wiring.redis,
    logger: wiring.logger,
    seen,
    ...(turnBackoffMs === undefined ? {} : { backoffMs: turnBackoffMs }),
  });
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };
  const notifier = createWhatsAppNotifier({
    graph,
    store,
    render: wiring.render,
    logger: wiring.logger,
    bySms: smsInstead(wiring.notifiers),
  });
  registerWhatsAppWebhook(app, {
    inbox,
    phoneNumberId: config.phoneNumberId,
    appSecret: config.appSecret,
    verifyToken: config.verifyToken,
    logger: wiring.logger,
    recordStatus: (status) => notifier.recordStatus(status),
    templateStatus: (update) => notifier.recordTemplateStatus(update),
    failedStatus: (status) => track(notifier.failed(status)),
  });
  wiring.notifiers.add({
    channel: 'whatsapp',
    notify: (address, prompt) => track(notifier.notify(address, prompt)),
  });
  // Stops the inbox's worker (turns under way finish) and waits for pushes in flight.
  wiring.closers.last(async () => {
    await inbox.close();
    await Promise.allSettled([...inFlight]);
  });
  wiring.channels.push('whatsapp');
  return { settled: () => inbox.settled() };
}

/**
 * The channel's messages over the inbox (src/inbox): each one's turn, apology and read receipt
 * are the channel's, its answer sent with the Graph client.
 */
export function whatsappInbox(
  channel: ReturnType<typeof createWhatsAppChannel>,
  graph: GraphClient,
  options: Omit<Parameters<typeof createInbox>[0], 'name' | 'handler'>,
): Inbox<InboundMessage> {
  return createInbox<InboundMessage, WhatsAppMessage>({
    ...options,
    name: 'whatsapp',
    handler: {
      answer: (message, behind) => channel.answer(message, behind),
      apology: (locale) => channel.apology(locale),
      beside: (message) => channel.typing(message),
      send: (to, message) => graph.send(to, message),
    },
  });
}
