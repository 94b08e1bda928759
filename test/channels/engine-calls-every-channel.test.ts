import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFlowRegistry, mainMenuFlow } from '../../flows/index.js';
import { createPartnerClient } from '../../src/api/index.js';
import { createUssdCore, ussdMiddleware } from '../../src/channels/ussd/index.js';
import {
  createWhatsAppChannel,
  type GraphClient,
  type InboundMessage,
  whatsappEngineMiddleware,
} from '../../src/channels/whatsapp/index.js';
import { chatFilesOf, createClaimFiles } from '../../src/claim-documents/index.js';
import {
  type ConversationEngine,
  chatPolicies,
  createTurnEngine,
  renderPrompt,
} from '../../src/conversation/index.js';
import { createLogger } from '../../src/log/index.js';
import { createWhatsAppNotifier, createWhatsAppStore } from '../../src/push/index.js';
import { isMenuShortcut } from '../../src/reminders/index.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { MemorySessionStore } from '../../src/session/index.js';
import { createMemoryStore } from '../../src/storage/index.js';
import { directPayments } from '../flows/direct-payments.js';
import { CountingEngine } from '../support/counting-engine.js';
import { tinyJpeg } from '../support/document-bytes.js';
import { throughInbox } from './whatsapp/through-inbox.js';

// Issue 39: every update kind of every channel costs the engine one call at most (photos
// included), and what asks nothing (a status, a duplicate, a reaction) none. Telegram's kinds are
// counted in test/channels/telegram/engine-calls.test.ts, Slack's in staff-desk.test.ts.

const silent = createLogger({ level: 'silent' });

describe('one engine call per update, on a real engine with every middleware', () => {
  let sandbox: Sandbox;
  let inner: ConversationEngine;
  let engine: CountingEngine;
  let close: () => Promise<void>;

  beforeAll(async () => {
    sandbox = createSandbox({ settleDelayMs: 50, logger: silent });
    const { url } = await sandbox.listen(0);
    const client = createPartnerClient({ baseUrl: url, apiKey: sandbox.apiKey, logger: silent });
    const flows = createFlowRegistry({
      client,
      files: { save: async () => ({ url: 'https://files.test/1' }) },
      payments: directPayments(client),
    });
    const claimFiles = createClaimFiles({
      files: { put: async () => ({ id: 'f1' }), signedUrl: (id) => `https://files.test/${id}` },
    });
    // Composed as src/server composes it.
    inner = createTurnEngine({ store: new MemorySessionStore(), flows, logger: silent }).use(
      ...chatPolicies({
        files: chatFilesOf(claimFiles),
        shortcuts: { entryFlow: mainMenuFlow.id, isShortcut: isMenuShortcut },
        logger: silent,
      }),
      ussdMiddleware,
      whatsappEngineMiddleware,
    );
    engine = new CountingEngine(inner);
    close = async () => {
      await inner.idle();
      inner.close();
      await client.close();
      await sandbox.close();
    };
  });

  afterAll(async () => {
    await close?.();
  });

  describe('WhatsApp', () => {
    const graph: GraphClient = {
      send: async () => 'wamid.out',
      markRead: async () => undefined,
      download: async () => ({ bytes: tinyJpeg(), mimeType: 'image/jpeg' }),
    };
    let handle: (message: InboundMessage) => Promise<void>;
    // Delivery statuses are the outbound side's (src/push): its notifier records them.
    const notifier = createWhatsAppNotifier({
      graph,
      store: createWhatsAppStore(createMemoryStore(), 'count:'),
      render: renderPrompt,
      logger: silent,
    });
    let counter = 0;
    const from = '260971234500';
    const message = (fields: Partial<InboundMessage>): InboundMessage => {
      counter += 1;
      return { from, id: `wamid.in.${counter}`, type: 'text', ...fields } as InboundMessage;
    };

    beforeAll(() => {
      const channel = createWhatsAppChannel({
        engine,
        graph,
        window: createWhatsAppStore(createMemoryStore(), 'count:'),
        render: renderPrompt,
        logger: silent,
      });
      handle = throughInbox(channel, graph);
    });

    async function callsFor(inbound: InboundMessage): Promise<number> {
      engine.reset();
      await handle(inbound);
      return engine.calls;
    }

    const tap = (id: string) =>
      message({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id } } });

    it.each([
      ['typed text', () => message({ text: { body: 'hello' } })],
      ['a tap', () => tap('language')],
      ['a language picked', () => tap('language:ny')],
      ['a typed command', () => message({ text: { body: 'menu' } })],
      ['"done"', () => message({ text: { body: 'done' } })],
      ['a reminder button', () => tap('reminders-off')],
      ['"talk to a person"', () => tap('person')],
      ['a photo', () => message({ type: 'image', image: { id: 'm1' } })],
      [
        'a document',
        () => message({ type: 'document', document: { id: 'm2', filename: 'a.pdf' } }),
      ],
      ['a sticker', () => message({ type: 'sticker' })],
      ['a message WhatsApp could not pass on', () => message({ type: 'unsupported' })],
      ['the next page of a list', () => tap('wa.page:1')],
    ])('%s: one engine call', async (_kind, inbound) => {
      expect(await callsFor(inbound())).toBe(1);
    });

    it('calls the engine for no status, no duplicate and no reaction', async () => {
      engine.reset();
      await notifier.recordStatus({ id: 'wamid.out', status: 'delivered', recipient_id: from });
      const once = message({ text: { body: 'hello' } });
      await handle(once);
      engine.reset();
      await handle(once);
      await handle(
        message({ type: 'reaction', reaction: { message_id: 'wamid.out', emoji: '👍' } }),
      );
      expect(engine.calls).toBe(0);
    });
  });

  describe('USSD', () => {
    it('calls the engine once for a dial and once for a keypress', async () => {
      const core = createUssdCore({ engine, render: renderPrompt, logger: silent });
      const call = { sessionId: 'count-1', msisdn: '260977000123' };
      engine.reset();
      await core.handle({ ...call, input: undefined });
      expect(engine.calls).toBe(1);
      engine.reset();
      await core.handle({ ...call, input: '1' });
      expect(engine.calls).toBe(1);
      await core.idle();
    });

    it('calls the engine for no page of a long screen, back or forth', async () => {
      const core = createUssdCore({ engine, render: renderPrompt, logger: silent });
      const call = { sessionId: 'count-2', msisdn: '260977000125' };
      // Africa's Talking's way: each request says its history, so the one it follows is known.
      const press = (history: string) => {
        const star = history.lastIndexOf('*');
        return core.handle({
          ...call,
          input: history === '' ? undefined : history.slice(star + 1),
          history,
          step: { id: history, follows: star === -1 ? '' : history.slice(0, star) },
        });
      };
      await press('');
      engine.reset();
      // "My data": what we hold, read whole over several pages.
      const first = await press('6');
      expect(engine.calls).toBe(1);
      expect(first.text).toMatch(/\n98 More$/);
      engine.reset();
      const second = await press('6*98');
      expect(second.text).toMatch(/\n0 Back$|\n98 More\n0 Back$/);
      expect(second.text).not.toBe(first.text);
      expect(await press('6*98*0')).toEqual(first);
      // The gateway's retry of a page gets the same page.
      expect(await press('6*98*0')).toEqual(first);
      expect(engine.calls).toBe(0);
      // Back from the first page is the flow's "back": the engine's.
      await press('6*98*0*0');
      expect(engine.calls).toBe(1);
      await core.idle();
    });
  });
});
