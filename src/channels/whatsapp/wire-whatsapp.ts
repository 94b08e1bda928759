import type { FastifyInstance } from 'fastify';
import type { TurnEngine } from '../../conversation/index.js';
import type { Logger } from '../../log/index.js';
import type { KeyValueStore } from '../../storage/index.js';
import type { Notifier } from '../index.js';
import { type RenderPrompt, StoreOnceSet } from '../shared/index.js';
import { createGraphClient } from './cloud-api/index.js';
import { createWhatsAppChannel } from './whatsapp-channel.js';
import type { WhatsAppConfig } from './whatsapp-config.js';
import { createWhatsAppNotifier } from './whatsapp-notifier.js';
import { createWhatsAppStore, type WhatsAppStore } from './whatsapp-store.js';
import { registerWhatsAppWebhook } from './whatsapp-webhook.js';

/** What the server hands the WhatsApp channel. */
export interface WhatsAppWiring {
  readonly config: WhatsAppConfig;
  readonly engine: TurnEngine;
  readonly render: RenderPrompt;
  readonly logger: Logger;
  /** The server's key-value store: the window, statuses and handled message ids. */
  readonly store: KeyValueStore;
  readonly keyPrefix: string;
  /** The server's notifiers: the channel's is added. */
  readonly notifiers: { add(notifier: Notifier): void };
  /** The server's shutdown: waiting for webhooks and pushes in flight is added. */
  readonly closers: { last(close: () => Promise<void>): void };
  /** The server's channel names: `whatsapp` is added. */
  readonly channels: string[];
}

/** The mounted channel: its notifier, its store, and what close waits for. */
export interface WiredWhatsApp {
  readonly notifier: Notifier;
  readonly store: WhatsAppStore;
  /** Resolves once the webhooks and pushes being handled have finished. */
  idle(): Promise<void>;
}

/**
 * Builds the WhatsApp channel from its configuration, mounts its webhook on `app`
 * (`/whatsapp/webhook`) and adds its notifier and shutdown to the server's: the server's one
 * call to put WhatsApp on.
 */
export function wireWhatsApp(app: FastifyInstance, wiring: WhatsAppWiring): WiredWhatsApp {
  const { config, keyPrefix } = wiring;
  const graph = createGraphClient(config);
  const store = createWhatsAppStore(wiring.store, keyPrefix);
  const channel = createWhatsAppChannel({
    engine: wiring.engine,
    graph,
    store,
    seenMessages: new StoreOnceSet(wiring.store, `${keyPrefix}whatsapp-message:`),
    render: wiring.render,
    logger: wiring.logger,
  });
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };
  registerWhatsAppWebhook(app, {
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
  wiring.notifiers.add(wired.notifier);
  wiring.closers.last(() => wired.idle());
  wiring.channels.push('whatsapp');
  return wired;
}
