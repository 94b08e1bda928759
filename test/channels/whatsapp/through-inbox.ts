import type {
  createWhatsAppChannel,
  GraphClient,
  InboundMessage,
} from '../../../src/channels/whatsapp/index.js';
import { createSeenMessages } from '../../../src/inbox/index.js';
import { createLogger } from '../../../src/log/index.js';
import { whatsappInbox } from '../../../src/server/build-whatsapp.js';
import { createMemoryStore } from '../../../src/storage/index.js';

/**
 * Hands each message to `channel` the way the server does: through its inbox, in this process
 * (each message id taken once, its answer sent with `graph`, an apology when its turn fails for
 * good), resolving once its turn is over and its answer sent.
 */
export function throughInbox(
  channel: ReturnType<typeof createWhatsAppChannel>,
  graph: GraphClient,
): (message: InboundMessage) => Promise<void> {
  const store = createMemoryStore();
  const inbox = whatsappInbox(channel, graph, {
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
