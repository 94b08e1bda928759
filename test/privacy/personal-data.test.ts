import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { Prompt, TurnRoute } from '../../src/conversation/index.js';
import {
  createErasureTombstones,
  createMemoryConsentStore,
  createPersonalData,
  type DataSubject,
  ErasureIncompleteError,
  type HoldingsIndexHook,
  holdingsIndexStore,
  type PersonalDataStore,
} from '../../src/privacy/index.js';
import { createMemoryStore } from '../../src/storage/index.js';

const logger = pino({ level: 'silent' });
const route: TurnRoute = {
  sessionKey: 'ussd:260971234567',
  channel: 'ussd',
  address: '260971234567',
  locale: 'en',
};

/** A store that remembers what it was asked to forget, or refuses. */
function store(name: string, refuses = false) {
  const forgotten: string[] = [];
  const part: PersonalDataStore = {
    name,
    held: async () => ({ files: 2 }),
    async forget(subject: DataSubject) {
      if (refuses) throw new Error('store down');
      forgotten.push(subject.address);
      return {};
    },
  };
  return { part, forgotten };
}

describe('consent to the privacy notice', () => {
  it('asks again when the notice version changed, and records the version and time agreed', async () => {
    const consent = createMemoryConsentStore();
    const v1 = createPersonalData({ consent, stores: [], logger, noticeVersion: 1 });
    const v2 = createPersonalData({
      consent,
      stores: [],
      logger,
      noticeVersion: 2,
      now: () => Date.parse('2026-11-25T10:00:00Z'),
    });
    expect(await v1.consented(route)).toBe(false);
    await v1.agree(route);
    expect(await v1.consented(route)).toBe(true);
    expect(await v2.consented(route)).toBe(false);
    await v2.agree(route);
    expect(await v2.consented(route)).toBe(true);
    const subject = {
      channel: 'ussd',
      address: route.address,
      sessionKey: route.sessionKey,
    } as const;
    expect(await consent.get(subject)).toEqual({
      version: 2,
      agreedAt: '2026-11-25T10:00:00.000Z',
    });
  });
});

describe('erasure', () => {
  it('erases every store and the consent, then sends the receipt', async () => {
    const consent = createMemoryConsentStore();
    const files = store('files');
    const receipts: Prompt[] = [];
    const data = createPersonalData({
      consent,
      stores: [files.part],
      logger,
      receipt: async (_subject, prompt) => void receipts.push(prompt),
    });
    await data.agree(route);
    expect(await data.held(route)).toMatchObject({ files: 2 });
    expect(await data.erase(route, 'withdraw')).toEqual({ paymentsKept: 0 });
    expect(files.forgotten).toEqual([route.address]);
    expect(await data.consented(route)).toBe(false);
    expect(receipts.map((prompt) => prompt.key)).toEqual(['mydata.receipt.stopped']);
  });

  it('tries every store when one fails, says which, and sends no receipt', async () => {
    const down = store('handoff', true);
    const files = store('files');
    const receipts: Prompt[] = [];
    const data = createPersonalData({
      consent: createMemoryConsentStore(),
      stores: [down.part, files.part],
      logger,
      receipt: async (_subject, prompt) => void receipts.push(prompt),
    });
    const erasing = data.erase(route, 'delete');
    await expect(erasing).rejects.toBeInstanceOf(ErasureIncompleteError);
    await expect(erasing).rejects.toMatchObject({ stores: ['handoff'] });
    expect(files.forgotten).toEqual([route.address]);
    expect(receipts).toEqual([]);
  });
});

describe('the holdings index as personal data', () => {
  /** An index that names one NRC and one policy for one phone, and records what it forgot. */
  function index() {
    const forgotten: string[] = [];
    const hook: HoldingsIndexHook = {
      async forget(phone) {
        forgotten.push(phone);
        return ['479974/11/1'];
      },
      count: async (phone) => (phone === '260971234567' ? 1 : 0),
      ofPhone: async (phone) =>
        phone === '260971234567'
          ? { nrcs: ['479974/11/1'], refs: [{ number: 'MTR-DEMO-000001' }] }
          : { nrcs: [], refs: [] },
    };
    return { hook, forgotten };
  }

  it("lists and erases a WhatsApp sender's holdings by the number WhatsApp verified, and buries it", async () => {
    const { hook, forgotten } = index();
    const tombstones = createErasureTombstones(createMemoryStore(), 't:', 'a-secret');
    const holdings = holdingsIndexStore(hook, tombstones);
    const sender: DataSubject = {
      channel: 'whatsapp',
      address: '260971234567',
      sessionKey: 'wa:260971234567',
    };
    expect(await holdings.held(sender)).toMatchObject({
      policies: 1,
      nrcs: ['479974/11/1'],
      policyNumbers: ['MTR-DEMO-000001'],
    });
    await holdings.forget(sender);
    expect(forgotten).toEqual(['260971234567']);
    expect(await tombstones.erased({ phone: '260971234567' })).toBe(true);
    expect(await tombstones.erased({ nrc: '479974/11/1' })).toBe(true);
  });

  it('names no phone for a Telegram chat, and erases nothing of the index for it', async () => {
    const { hook, forgotten } = index();
    const holdings = holdingsIndexStore(hook);
    const chat: DataSubject = { channel: 'telegram', address: '260971234567', sessionKey: 'tg:1' };
    expect(await holdings.held(chat)).toEqual({});
    await holdings.forget(chat);
    expect(forgotten).toEqual([]);
  });
});
