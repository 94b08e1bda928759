import { describe, expect, it } from 'vitest';
import type { CallerLanguages, LanguageHolder } from '../../src/conversation/index.js';
import { consentFirstLanguages, PENDING_LANGUAGE_MS } from '../../src/privacy/index.js';
import { createMemoryStore, type KeyValueStore } from '../../src/storage/index.js';
import { manualClock } from '../support/manual-clock.js';

// Issue 37: a language picked before the privacy notice is agreed is not stored about the phone.

const PHONE: LanguageHolder = { channel: 'ussd', address: '260971234567' };

/** One instance's languages over a shared store (as every instance shares Redis). */
function instance(
  store: KeyValueStore,
  agreed: Set<string>,
  stored: Map<string, string>,
  now: () => number,
) {
  const inner: CallerLanguages = {
    chosen: (holder) => stored.get(holder.address),
    choose: async (holder, locale) => {
      stored.set(holder.address, locale);
    },
  };
  return consentFirstLanguages({
    languages: inner,
    consented: async (holder) => agreed.has(holder.address),
    store,
    prefix: 'test:',
    secret: 'a-secret-of-the-server',
    now,
  });
}

function world(agreed: Set<string>) {
  const clock = manualClock();
  const seen = new Map<string, string>();
  const memory = createMemoryStore({ now: clock.now });
  // Every key and value written, to show none names the phone.
  const store: KeyValueStore = {
    ...memory,
    set: async (key, value, ttl) => {
      seen.set(key, value);
      return memory.set(key, value, ttl);
    },
  };
  const stored = new Map<string, string>();
  return { stored, clock, seen, store, ...instance(store, agreed, stored, clock.now) };
}

describe('languages picked before consent', () => {
  it('wait under a keyed hash naming no phone, and are written when the notice is agreed', async () => {
    const { stored, languages, agreed, seen } = world(new Set());
    await languages.choose(PHONE, 'bem');
    expect(stored.size).toBe(0);
    expect(seen.size).toBe(1);
    for (const [key, value] of seen) expect(`${key} ${value}`).not.toMatch(/971234567/);
    expect(await languages.chosen(PHONE)).toBe('bem');
    await agreed(PHONE);
    expect(stored.get(PHONE.address)).toBe('bem');
  });

  it('wait for an Agree answered by another instance', async () => {
    const { store, stored, languages, clock } = world(new Set());
    const other = instance(store, new Set(), stored, clock.now);
    await languages.choose(PHONE, 'ny');
    await other.agreed(PHONE);
    expect(stored.get(PHONE.address)).toBe('ny');
  });

  it('are dropped on a decline, and forgotten after their time', async () => {
    const { stored, languages, agreed, declined, clock } = world(new Set());
    await languages.choose(PHONE, 'ny');
    await declined(PHONE);
    expect(await languages.chosen(PHONE)).toBeUndefined();
    await agreed(PHONE);
    expect(stored.size).toBe(0);

    await languages.choose(PHONE, 'ny');
    clock.advance(PENDING_LANGUAGE_MS + 1);
    expect(await languages.chosen(PHONE)).toBeUndefined();
    await agreed(PHONE);
    expect(stored.size).toBe(0);
  });

  it('are written at once for a caller who agreed already', async () => {
    const { stored, languages, seen } = world(new Set([PHONE.address]));
    await languages.choose(PHONE, 'ny');
    expect(stored.get(PHONE.address)).toBe('ny');
    expect(seen.size).toBe(0);
  });
});
