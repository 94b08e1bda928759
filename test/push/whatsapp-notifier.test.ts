import { describe, expect, it } from 'vitest';
import type { GraphClient } from '../../src/channels/whatsapp/index.js';
import { type Prompt, renderPrompt } from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import { createWhatsAppNotifier, createWhatsAppStore } from '../../src/push/index.js';
import { createMemoryStore } from '../../src/storage/index.js';

/** A Graph client that records what it is asked to send. */
function recordingGraph() {
  const sent: { to: string; message: unknown }[] = [];
  const graph: GraphClient = {
    async send(to, message) {
      sent.push({ to, message });
      return `wamid.${sent.length}`;
    },
    async markRead() {},
    async download() {
      throw new Error('not used');
    },
  };
  return { graph, sent };
}

const declined: Prompt = {
  key: 'pay.failed',
  params: { currency: 'ZMW', amount: '173.25', what: 'Motor Third Party' },
  notes: [{ key: 'pay.note.reason', params: { reason: 'The customer declined' } }],
  input: 'choice',
  final: false,
  choices: [{ id: 'retry', label: 'pay.choice.tryAgain' }],
};

describe('the WhatsApp notifier', () => {
  it('sends a payment outcome as ordinary messages inside the window, as its own template outside it', async () => {
    const { graph, sent } = recordingGraph();
    const store = createWhatsAppStore(createMemoryStore(), 'test:');
    const notifier = createWhatsAppNotifier({
      graph,
      store,
      render: renderPrompt,
      logger: createLogger({ level: 'silent' }),
    });
    const address = { channel: 'whatsapp' as const, address: '260971234567', locale: 'bem' };
    await notifier.notify(address, declined);
    expect(sent[0]?.message).toMatchObject({
      type: 'template',
      template: {
        name: 'insurechat_payment_failed',
        language: { code: 'en' },
        components: [
          {
            type: 'body',
            parameters: [{ type: 'text', parameter_name: 'amount', text: 'ZMW 173.25' }],
          },
        ],
      },
    });
    const text = JSON.stringify(sent[0]?.message);
    expect(text).not.toMatch(/\\n/);
    await store.touch('260971234567');
    await notifier.notify(address, declined);
    expect(sent[1]?.message).toMatchObject({ type: 'interactive' });
    await store.touch('260971234567');
    expect(await store.isOpen('260971234567')).toBe(true);
    expect(await store.isOpen('260970000000')).toBe(false);
  });
});
