import { describe, expect, it } from 'vitest';
import { MemoryOnceSet } from '../../../src/channels/shared/index.js';
import {
  ChatReply,
  ClaimUpload,
  createWhatsAppChannel,
  createWhatsAppStore,
  type GraphClient,
  type InboundMessage,
  StepShow,
  typedCommand,
  whatsappEngineMiddleware,
} from '../../../src/channels/whatsapp/index.js';
import { createClaimFiles } from '../../../src/claim-documents/index.js';
import {
  type Handoff,
  type Prompt,
  renderPrompt,
  type SessionGlance,
  type TurnContext,
  type TurnEngine,
  type TurnRequest,
} from '../../../src/conversation/index.js';
import { createLogger } from '../../../src/log/index.js';
import { createMemoryStore } from '../../../src/storage/index.js';
import { tinyJpeg, tinyPng } from '../../support/document-bytes.js';

const step: Prompt = { key: 'motor.askPlate', input: 'text', final: false };
const photoStep: Prompt = { key: 'claim.askPhoto', input: 'photo', final: false };

/** An engine that counts its calls and answers `step`. */
function countingEngine() {
  // What each call carried: its channelRequest (for start, where the menu opens).
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

function channelWith(engine: TurnEngine, handoff?: Handoff) {
  const sent: unknown[] = [];
  const graph: GraphClient = {
    async send(_to, message) {
      sent.push(message);
      return `wamid.${sent.length}`;
    },
    async download() {
      return { bytes: tinyJpeg(), mimeType: 'image/jpeg' };
    },
  };
  const channel = createWhatsAppChannel({
    engine,
    graph,
    store: createWhatsAppStore(createMemoryStore(), 'test:'),
    seenMessages: new MemoryOnceSet(),
    render: renderPrompt,
    logger: createLogger({ level: 'silent' }),
    claimFiles: createClaimFiles({
      files: { put: async () => ({ id: 'f1' }), signedUrl: (id) => `https://files/${id}` },
    }),
    ...(handoff ? { handoff } : {}),
  });
  return { channel, sent };
}

let counter = 0;
const inbound = (fields: Partial<InboundMessage>): InboundMessage => {
  counter += 1;
  return { from: '260971234567', id: `wamid.in.${counter}`, type: 'text', ...fields };
};
const text = (body: string) => inbound({ type: 'text', text: { body } });
const tap = (id: string) =>
  inbound({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { id } } });

describe('the WhatsApp channel on the engine API (issue 26, issue 28)', () => {
  it('calls the engine exactly once per inbound message', async () => {
    const { engine, calls } = countingEngine();
    const { channel } = channelWith(engine);
    const messages: [InboundMessage, string][] = [
      [text('BCE 7781'), 'turn'],
      [tap('motor'), 'turn'],
      [tap('wa.page:1'), 'peek'],
      [tap('wa.own-number'), 'turn'],
      [tap('language:bem'), 'peek'],
      [inbound({ type: 'image', image: { id: 'm1' } }), 'peek'],
      [inbound({ type: 'sticker' }), 'peek'],
      [text('menu'), 'start'],
      [tap('renew:pol-1'), 'start'],
      [text('Cancel'), 'turn'],
      [text('done'), 'peek'],
      [tap('person'), 'peek'],
    ];
    for (const [message, method] of messages) {
      const before = calls.length;
      await channel.handleMessage(message);
      expect(calls.slice(before).map((call) => call.method)).toEqual([method]);
    }
    // A turn of the chat carries its request for whatsappEngineMiddleware.
    expect(calls[0]?.request).toBeInstanceOf(ChatReply);
    expect(calls[2]?.request).toBeInstanceOf(StepShow);
    expect(calls[5]?.request).toBeInstanceOf(ClaimUpload);
    // A reminder's "Renew now" opens the menu picked there, as Telegram's does.
    expect(calls[8]?.request).toEqual({ pick: 'renew:pol-1' });
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
    const { engine, calls } = countingEngine();
    const { channel, sent } = channelWith(engine, handoff);
    await channel.handleMessage(text('Hello there'));
    expect(calls).toHaveLength(0);
    await channel.handleMessage(text('Done'));
    expect(ended).toEqual(['wa:260971234567']);
    expect(JSON.stringify(sent.at(-1))).toMatch(/You are back with the assistant/);
    await channel.handleMessage(text('menu'));
    await channel.handleMessage(text('/cancel'));
    expect(ended).toHaveLength(3);
    expect(calls.map((call) => call.method)).toEqual(['peek', 'start', 'turn']);
  });

  it('reads the typed words from the catalogues, in the customer language and in English', () => {
    const command = (words: string, locale: string) => typedCommand(words, renderPrompt, locale);
    expect(command(' MENU ', 'en')).toBe('menu');
    expect(command('/start', 'en')).toBe('menu');
    expect(command('menyu', 'bem')).toBe('menu');
    expect(command('napwa', 'bem')).toBe('done');
    expect(command('ndatha', 'ny')).toBe('done');
    expect(command('lekani', 'ny')).toBe('cancel');
    expect(command('stop', 'ny')).toBe('cancel');
    expect(command('napwa', 'en')).toBeUndefined();
    expect(command('BCE 7781', 'en')).toBeUndefined();
    expect(command('0', 'en')).toBeUndefined();
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
  /** Runs the middleware once; what it asked of the rest of the chain, or what it kept. */
  async function run(channelRequest: object, session: SessionGlance, request?: TurnRequest) {
    const reply: TurnRequest = { kind: 'reply', reply: { type: 'user.text', text: 'x' } };
    let kept: string | undefined | null = null;
    const context: TurnContext = {
      sessionKey: 'wa:1',
      options: { channelRequest },
      request: request ?? reply,
      session,
      channelState: undefined,
      keep: async (state) => {
        kept = state;
        return step;
      },
    };
    await whatsappEngineMiddleware(context, async () => step);
    return { request: context.request, kept };
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

  it('shows the step as it is, or the menu when none is open', async () => {
    const peek: TurnRequest = { kind: 'peek' };
    expect((await run(new StepShow(), glance({}), peek)).kept).toBe('kept');
    const none = await run(new StepShow(), glance({ prompt: undefined }), peek);
    expect(none.request).toEqual({ kind: 'restart' });
  });

  it('takes a file only on a step asking for one', async () => {
    const graph: GraphClient = {
      send: async () => 'wamid',
      download: async () => ({ bytes: tinyPng(), mimeType: 'image/png' }),
    };
    const claimFiles = createClaimFiles({
      files: { put: async () => ({ id: 'f9' }), signedUrl: () => 'https://f/9' },
    });
    const upload = () => new ClaimUpload({ media: { id: 'm' }, waId: '1', graph, claimFiles });
    const peek: TurnRequest = { kind: 'peek' };
    const taken = await run(upload(), glance({ prompt: photoStep }), peek);
    expect(taken.request).toEqual({
      kind: 'reply',
      reply: { type: 'user.photo', url: 'https://f/9', fileName: 'm.png' },
    });
    const elsewhere = upload();
    expect((await run(elsewhere, glance({}), peek)).kept).toBe('kept');
    expect(elsewhere.lead).toEqual({ key: 'telegram.unexpectedFile' });
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
      async download() {
        throw new Error('not used');
      },
    };
    const channel = createWhatsAppChannel({
      engine,
      graph,
      store: createWhatsAppStore(createMemoryStore(), 'test:'),
      seenMessages: new MemoryOnceSet(),
      render: renderPrompt,
      logger: createLogger({ level: 'debug', destination: { write: (line) => lines.push(line) } }),
    });
    const from = '260971112233';
    await channel.handleMessage({
      ...inbound({}),
      from,
      type: 'reaction',
      reaction: { message_id: 'wamid.out', emoji: '👍' },
    } as InboundMessage);
    await channel.handleMessage({
      ...inbound({}),
      from,
      type: 'system',
      system: {
        body: `User Mwila changed from ${from} to 260971119999`,
        type: 'user_changed_number',
      },
    } as InboundMessage);
    await channel.recordStatus({ id: 'wamid.out', status: 'played', recipient_id: from });
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
