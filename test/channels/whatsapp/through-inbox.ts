import type {
  createWhatsAppChannel,
  GraphClient,
  InboundMessage,
  WhatsAppMessage,
} from '../../../src/channels/whatsapp/index.js';
import { createInbox, createSeenMessages } from '../../../src/inbox/index.js';
import { createLogger } from '../../../src/log/index.js';
import { createMemoryStore } from '../../../src/storage/index.js';

/**
 * Hands each message to `channel` the way the server does (src/server/build-whatsapp.ts):
 * through an inbox in this process (each message id taken once, its answer sent with `graph`, an
 * apology when its turn fails for good), resolving once its turn is over and its answer sent.
 */
export function throughInbox(
  channel: ReturnType<typeof createWhatsAppChannel>,
  graph: GraphClient,
): (message: InboundMessage) => Promise<void> {
  const store = createMemoryStore();
  const inbox = createInbox<InboundMessage, WhatsAppMessage>({
    name: 'whatsapp',
    handler: {
      answer: (message, behind) => channel.answer(message, behind),
      apology: (locale) => channel.apology(locale),
      beside: (message) => channel.typing(message),
      send: (to, message) => graph.send(to, message),
    },
    store,
    keyPrefix: 'test:',
    redis: undefined,
    logger: createLogger({ level: 'silent' }),
    seen: createSeenMessages(store, 'test:whatsapp-seen:'),
  });
  return async (message) => {
    await inbox.accept(message);
    await inbox.settled();
  };
}
