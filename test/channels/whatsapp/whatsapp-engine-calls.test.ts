import { describe, expect, it } from 'vitest';
import {
  ChatReply,
  createWhatsAppChannel,
  type GraphClient,
  type InboundMessage,
  typedCommand,
  whatsappEngineMiddleware,
} from '../../../src/channels/whatsapp/index.js';
import { chatFilesOf, createClaimFiles } from '../../../src/claim-documents/index.js';
import {
  type ChatInput,
  ChatUpdate,
  type Handoff,
  type Prompt,
  renderPrompt,
  type SessionGlance,
  type TurnContext,
  type TurnEngine,
  type TurnRequest,
} from '../../../src/conversation/index.js';
import { createLogger } from '../../../src/log/index.js';
import { createWhatsAppNotifier, createWhatsAppStore } from '../../../src/push/index.js';
import { createMemoryStore } from '../../../src/storage/index.js';
import { tinyJpeg, tinyPng } from '../../support/document-bytes.js';
import { PolicyEngine } from '../../support/policy-engine.js';
import { throughInbox } from './through-inbox.js';

const step: Prompt = { key: 'motor.askPlate', input: 'text', final: false };
const photoStep: Prompt = { key: 'claim.askPhoto', input: 'photo', final: false };

/** An engine that counts its calls and answers `step`. */
function countingEngine() {
  // What each call carried: its channelRequest.
  const calls: { method: string; request: object | undefined }[] = [];
  const engine: TurnEngine = {
    turn: async (_key, _reply, options) => {
      calls.push({ method: 'turn', request: options?.channelRequest });
      return step;
    },
    peek: async (_key, options) => {
      calls.push({ method: 'peek', request: options?.channelRequest });
      return step;
    },
    start: async (_key, _flow, options) => {
      calls.push({ method: 'start', request: options?.start });
      return step;
    },
  };
  return { engine, calls };
}

function channelWith(engine: TurnEngine) {
  const sent: unknown[] = [];
  const graph: GraphClient = {
    async send(_to, message) {
      sent.push(message);
      return `wamid.${sent.length}`;
    },
    async markRead() {},
    async download() {
      return { bytes: tinyJpeg(), mimeType: 'image/jpeg' };
    },
  };
  const channel = createWhatsAppChannel({
    engine,
    graph,
    window: createWhatsAppStore(createMemoryStore(), 'test:'),
    render: renderPrompt,
    logger: createLogger({ level: 'silent' }),
  });
  return { channel, handle: throughInbox(channel, graph), sent, graph };
}

let counter = 0;
const inbound = (fields: Partial<InboundMessage>): InboundMessage => {
  counter += 1;
  return { from: '260971234567', id: `wamid.in.${counter}`, type: 'text', ...fields };
};
const text = (body: string) => inbound({ type: 'text', text: { body } });
const tap = (id: string) =>
  inbound({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id } } });

describe('the WhatsApp channel on the engine API (issue 26, issue 28, issue 39)', () => {
  it('calls the engine exactly once per inbound message, a turn carrying what was sent', async () => {
    const { engine, calls } = countingEngine();
    const { handle } = channelWith(engine);
    const messages: [InboundMessage, ChatInput][] = [
      [text('BCE 7781'), { kind: 'text', text: 'BCE 7781' }],
      [tap('motor'), { kind: 'choice', id: 'motor' }],
      [tap('wa.page:1'), { kind: 'look' }],
      [tap('wa.own-number'), { kind: 'contact', phone: '+260971234567' }],
      [tap('language:bem'), { kind: 'choice', id: 'language:bem' }],
      [inbound({ type: 'sticker' }), { kind: 'look', lead: 'chat.unsupported' }],
      [text('menu'), { kind: 'command', command: 'menu' }],
      [tap('renew:pol-1'), { kind: 'choice', id: 'renew:pol-1' }],
      [text('Cancel'), { kind: 'command', command: 'cancel' }],
      [text('done'), { kind: 'command', command: 'done' }],
      [tap('person'), { kind: 'choice', id: 'person' }],
    ];
    for (const [message, input] of messages) {
      const before = calls.length;
      await handle(message);
      expect(calls.slice(before).map((call) => call.method)).toEqual(['turn']);
      const update = calls.at(-1)?.request;
      expect(update).toBeInstanceOf(ChatUpdate);
      expect((update as ChatUpdate).input).toEqual(input);
      // WhatsApp's own rule (a pushed screen) rides with it for whatsappEngineMiddleware.
      expect((update as ChatUpdate).options.own).toBeInstanceOf(ChatReply);
    }
    // A photo is one turn too: its file read only when the policy asks.
    await handle(inbound({ type: 'image', image: { id: 'm1' } }));
    const photo = calls.at(-1)?.request as ChatUpdate;
    expect(calls.at(-1)?.method).toBe('turn');
    expect(photo.input.kind).toBe('file');
  });

  it('leaves the person on "done", "menu" and "cancel", and shows where the customer was', async () => {
    const ended: string[] = [];
    const handoff: Handoff = {
      active: async () => true,
      open: async () => 'opened',
      forward: async () => 'forwarded',
      end: async (key) => {
        ended.push(key);
        return true;
      },
    };
    const engine = new PolicyEngine({
      handoff: () => handoff,
      session: { prompt: step },
      after: [whatsappEngineMiddleware],
    });
    const { handle, sent } = channelWith(engine);
    await handle(text('Hello there'));
    // Forwarded to the person: nothing reached the flow, nothing was sent back.
    expect(engine.calls[0]?.reached).toBeUndefined();
    expect(sent).toHaveLength(0);
    await handle(text('Done'));
    expect(ended).toEqual(['wa:260971234567']);
    expect(JSON.stringify(sent.at(-1))).toMatch(/You are back with the assistant/);
    await handle(text('menu'));
    await handle(text('/cancel'));
    expect(ended).toHaveLength(3);
    expect(engine.calls.map((call) => call.reached?.kind)).toEqual([
      undefined,
      undefined,
      'start',
      'reply',
    ]);
  });

  it('reads the typed words from the catalogues, in any of our languages', () => {
    const command = (words: string) => typedCommand(words, renderPrompt);
    expect(command(' MENU ')).toBe('menu');
    expect(command('/start')).toBe('menu');
    expect(command('menyu')).toBe('menu');
    expect(command('napwa')).toBe('done');
    expect(command('ndatha')).toBe('done');
    expect(command('lekani')).toBe('cancel');
    expect(command('stop')).toBe('cancel');
    expect(command('BCE 7781')).toBeUndefined();
    expect(command('0')).toBeUndefined();
  });
});

describe('whatsappEngineMiddleware', () => {
  const glance = (over: Partial<SessionGlance>): SessionGlance => ({
    prompt: step,
    unseen: false,
    resumable: true,
    state: 'kept',
    ...over,
  });
  /** Runs the middleware once; what it asked of the rest of the chain. */
  async function run(channelRequest: object, session: SessionGlance) {
    const reply: TurnRequest = { kind: 'reply', reply: { type: 'user.text', text: 'x' } };
    const context: TurnContext = {
      sessionKey: 'wa:1',
      options: { channelRequest },
      request: reply,
      session,
      channelState: undefined,
      keep: async () => step,
    };
    await whatsappEngineMiddleware(context, async () => step);
    return { request: context.request };
  }

  it('answers a pushed screen with the reply, and opens the menu after a pushed closing one', async () => {
    const pushed = await run(new ChatReply(), glance({ unseen: true }));
    expect(pushed.request).toMatchObject({ kind: 'reply', seen: true });
    const closing = await run(
      new ChatReply(),
      glance({ unseen: true, prompt: { ...step, final: true } }),
    );
    expect(closing.request).toEqual({ kind: 'restart' });
    expect((await run(new ChatReply(), glance({}))).request).toMatchObject({ seen: false });
  });

  it('takes a file only on a step asking for one, read only there', async () => {
    const claimFiles = createClaimFiles({
      files: { put: async () => ({ id: 'f9' }), signedUrl: () => 'https://f/9' },
    });
    let reads = 0;
    const engine = new PolicyEngine({
      files: chatFilesOf(claimFiles),
      session: { prompt: photoStep, state: 'kept' },
      after: [whatsappEngineMiddleware],
    });
    const sent: unknown[] = [];
    const photo = () => inbound({ type: 'image', image: { id: 'm' } });
    const graph: GraphClient = {
      send: async (_to, message) => {
        sent.push(message);
        return 'wamid';
      },
      markRead: async () => undefined,
      download: async () => {
        reads += 1;
        return { bytes: tinyPng(), mimeType: 'image/png' };
      },
    };
    const counted = createWhatsAppChannel({
      engine,
      graph,
      window: createWhatsAppStore(createMemoryStore(), 'test:'),
      render: renderPrompt,
      logger: createLogger({ level: 'silent' }),
    });
    const handle = throughInbox(counted, graph);
    await handle(photo());
    expect(engine.calls.at(-1)?.reached).toEqual({
      kind: 'reply',
      reply: { type: 'user.photo', url: 'https://f/9', fileName: 'm.png' },
      seen: false,
    });
    expect(reads).toBe(1);
    engine.session = glance({});
    await handle(photo());
    expect(engine.calls.at(-1)?.kept).toBe('kept');
    expect(reads).toBe(1);
    expect(JSON.stringify(sent.at(-1))).toMatch(/I do not need a photo or file at this step/);
  });
});

describe('messages and statuses that ask nothing (issue 40)', () => {
  it('calls no engine for a reaction or a system notice and logs only their type, at debug', async () => {
    const lines: string[] = [];
    const { engine, calls } = countingEngine();
    const sent: unknown[] = [];
    const graph: GraphClient = {
      async send(_to, message) {
        sent.push(message);
        return `wamid.${sent.length}`;
      },
      async markRead() {},
      async download() {
        throw new Error('not used');
      },
    };
    const logger = createLogger({
      level: 'debug',
      destination: { write: (line) => lines.push(line) },
    });
    const store = createWhatsAppStore(createMemoryStore(), 'test:');
    const channel = createWhatsAppChannel({
      engine,
      graph,
      window: store,
      render: renderPrompt,
      logger,
    });
    // Delivery statuses are the outbound side's (src/push): its notifier records them.
    const notifier = createWhatsAppNotifier({ graph, store, render: renderPrompt, logger });
    const handle = throughInbox(channel, graph);
    const from = '260971112233';
    await handle({
      ...inbound({}),
      from,
      type: 'reaction',
      reaction: { message_id: 'wamid.out', emoji: '👍' },
    } as InboundMessage);
    await handle({
      ...inbound({}),
      from,
      type: 'system',
      system: {
        body: `User Mwila changed from ${from} to 260971119999`,
        type: 'user_changed_number',
      },
    } as InboundMessage);
    await notifier.recordStatus({ id: 'wamid.out', status: 'played', recipient_id: from });
    expect(calls).toEqual([]);
    expect(sent).toEqual([]);
    const logged = lines.join('\n');
    expect(lines.map((line) => (JSON.parse(line) as { level: number }).level)).toEqual([
      20, 20, 20,
    ]);
    expect(logged).toContain('"type":"reaction"');
    expect(logged).toContain('"type":"system"');
    expect(logged).toContain('"status":"played"');
    expect(logged).not.toMatch(/👍|Mwila|2609711/);
  });
});
