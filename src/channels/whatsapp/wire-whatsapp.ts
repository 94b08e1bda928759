import type { FastifyInstance } from 'fastify';
import type { CallerLanguages, Handoff, TurnEngine } from '../../conversation/index.js';
import type { FileStore } from '../../files/index.js';
import type { Logger } from '../../log/index.js';
import type { Notifier } from '../../payments/index.js';
import type { RedisConnection } from '../../redis/index.js';
import { MemoryOnceSet, RedisOnceSet } from '../shared/index.js';
import type { RenderPrompt } from '../telegram/index.js';
import { createGraphClient } from './graph-client.js';
import { createWhatsAppChannel } from './whatsapp-channel.js';
import type { WhatsAppConfig } from './whatsapp-config.js';
import { createWhatsAppNotifier } from './whatsapp-notifier.js';
import { memoryWhatsAppStore, redisWhatsAppStore, type WhatsAppStore } from './whatsapp-store.js';
import { registerWhatsAppWebhook } from './whatsapp-webhook.js';

/** What the server hands the WhatsApp channel. */
export interface WhatsAppWiring {
  readonly config: WhatsAppConfig;
  readonly engine: TurnEngine;
  readonly render: RenderPrompt;
  readonly logger: Logger;
  readonly files?: Pick<FileStore, 'put' | 'signedUrl'>;
  readonly handoff?: Handoff;
  readonly languages?: CallerLanguages;
  /** Redis for the window, statuses and handled ids; this process's memory without it. */
  readonly redis?: RedisConnection | undefined;
  readonly keyPrefix: string;
  /** The server's notifiers: the channel's is added. */
  readonly notifiers: Notifier[];
  /** The server's shutdown steps: waiting for webhooks in flight is added first. */
  readonly closers: Array<() => Promise<void>>;
  /** The server's channel names: `whatsapp` is added. */
  readonly channels: string[];
}

/** The mounted channel: its notifier for the server's list, and what close must wait for. */
export interface WiredWhatsApp {
  readonly notifier: Notifier;
  readonly store: WhatsAppStore;
  /** Resolves once the webhooks being handled have finished. */
  idle(): Promise<void>;
}

/**
 * Builds the WhatsApp channel from its configuration and mounts its webhook on `app`
 * (`/whatsapp/webhook`): the server's one call to put WhatsApp on.
 */
export async function wireWhatsApp(
  app: FastifyInstance,
  wiring: WhatsAppWiring,
): Promise<WiredWhatsApp> {
  const { config, redis, keyPrefix } = wiring;
  const graph = createGraphClient(config);
  const store = redis ? redisWhatsAppStore(redis, keyPrefix) : memoryWhatsAppStore();
  const channel = createWhatsAppChannel({
    engine: wiring.engine,
    graph,
    store,
    seenMessages: redis
      ? new RedisOnceSet(redis, `${keyPrefix}whatsapp-message:`)
      : new MemoryOnceSet(),
    render: wiring.render,
    logger: wiring.logger,
    ...(wiring.files ? { files: wiring.files } : {}),
    ...(wiring.handoff ? { handoff: wiring.handoff } : {}),
    ...(wiring.languages ? { languages: wiring.languages } : {}),
  });
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };
  await registerWhatsAppWebhook(app, {
    channel,
    phoneNumberId: config.phoneNumberId,
    appSecret: config.appSecret,
    verifyToken: config.verifyToken,
    logger: wiring.logger,
    track,
  });
  const notifier = createWhatsAppNotifier({
    graph,
    store,
    render: wiring.render,
    templates: config.templates,
  });
  const wired: WiredWhatsApp = {
    notifier: {
      channel: 'whatsapp',
      notify: (address, prompt) => track(notifier.notify(address, prompt)),
    },
    store,
    async idle() {
      await Promise.allSettled([...inFlight]);
    },
  };
  wiring.notifiers.push(wired.notifier);
  wiring.closers.unshift(() => wired.idle());
  wiring.channels.push('whatsapp');
  return wired;
}
