import { describe, expect, it } from 'vitest';
import type {
  GraphClient,
  InboundMessage,
  WhatsAppChannel,
  WhatsAppMessage,
} from '../../../src/channels/whatsapp/index.js';
import { createSeenMessages, createWhatsAppInbox } from '../../../src/channels/whatsapp/index.js';
import { createLogger } from '../../../src/log/index.js';
import { createMemoryStore } from '../../../src/storage/index.js';
import { manualClock } from '../../support/manual-clock.js';

/*
 * The inbox on its own, in memory (timers, no Redis): a channel double whose turns fail when told,
 * and a Graph double recording what it sent.
 */

const DAY_MS = 24 * 3_600_000;
const text = (body: string): WhatsAppMessage => ({ type: 'text', text: { body } });
const message = (id: string, body: string): InboundMessage => ({
  from: '260977000200',
  id,
  type: 'text',
  text: { body },
});

function inboxWith(failures: Record<string, number>) {
  const store = createMemoryStore();
  const sent: string[] = [];
  const turns: string[] = [];
  const channel: WhatsAppChannel = {
    async answer(inbound) {
      const body = inbound.text?.body ?? '';
      turns.push(body);
      const left = failures[body] ?? 0;
      if (left > 0) {
        failures[body] = left - 1;
        throw new Error('insurer down');
      }
      return { locale: 'en', messages: [text(`re: ${body}`)] };
    },
    apology: () => text('sorry'),
    handleMessage: async () => undefined,
    recordStatus: async () => undefined,
  };
  const graph = {
    async send(_to: string, out: WhatsAppMessage) {
      sent.push(out.type === 'text' ? out.text.body : out.type);
      return { id: `wamid.out.${sent.length}` };
    },
  } as unknown as GraphClient;
  const inbox = createWhatsAppInbox({
    channel,
    graph,
    store,
    keyPrefix: 't:',
    redis: undefined,
    logger: createLogger({ level: 'silent' }),
    seen: createSeenMessages(store, 't:'),
    backoffMs: 5,
  });
  return { inbox, sent, turns };
}

describe('the WhatsApp inbox', () => {
  it('runs a later message only after an earlier one that failed once has been retried', async () => {
    const { inbox, sent } = inboxWith({ first: 1 });
    await inbox.accept(message('m1', 'first'));
    await inbox.accept(message('m2', 'second'));
    await inbox.settled();
    expect(sent).toEqual(['re: first', 're: second']);
    await inbox.close();
  });

  it('apologises once after the last try of a turn that keeps failing, and goes on', async () => {
    const { inbox, sent, turns } = inboxWith({ broken: 99 });
    await inbox.accept(message('m1', 'broken'));
    await inbox.accept(message('m2', 'after'));
    await inbox.settled();
    expect(turns.filter((turn) => turn === 'broken')).toHaveLength(4);
    expect(sent).toEqual(['sorry', 're: after']);
    await inbox.close();
  });

  it('takes a message id once', async () => {
    const { inbox, sent } = inboxWith({});
    await inbox.accept(message('m1', 'hello'));
    await inbox.accept(message('m1', 'hello'));
    await inbox.settled();
    expect(sent).toEqual(['re: hello']);
    await inbox.close();
  });
});

describe('the remembered message ids', () => {
  it('remembers an id for 7 days on the clock it is given, then forgets it', async () => {
    const clock = manualClock();
    const seen = createSeenMessages(createMemoryStore({ now: clock.now }), 'p:', clock.now);
    expect(await seen.claim('wamid.1')).toBe(true);
    clock.advance(7 * DAY_MS);
    expect(await seen.claim('wamid.1')).toBe(false);
    clock.advance(2 * DAY_MS);
    expect(await seen.claim('wamid.1')).toBe(true);
  });
});
