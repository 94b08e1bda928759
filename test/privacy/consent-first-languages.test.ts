import { describe, expect, it } from 'vitest';
import type { CallerLanguages, LanguageHolder } from '../../src/conversation/index.js';
import { consentFirstLanguages, PENDING_LANGUAGE_MS } from '../../src/privacy/index.js';
import { manualClock } from '../support/manual-clock.js';

// Issue 37: a language picked before the privacy notice is agreed is not stored about the phone.

const PHONE: LanguageHolder = { channel: 'ussd', address: '260971234567' };

function world(agreed: Set<string>) {
  const stored = new Map<string, string>();
  const inner: CallerLanguages = {
    chosen: (holder) => stored.get(holder.address),
    choose: async (holder, locale) => {
      stored.set(holder.address, locale);
    },
  };
  const clock = manualClock();
  const languages = consentFirstLanguages({
    languages: inner,
    consented: async (holder) => agreed.has(holder.address),
    now: clock.now,
  });
  return { stored, clock, ...languages };
}

describe('languages picked before consent', () => {
  it('wait, answered from the process, and are written when the notice is agreed', async () => {
    const { stored, languages, agreed } = world(new Set());
    await languages.choose(PHONE, 'bem');
    expect(stored.size).toBe(0);
    expect(await languages.chosen(PHONE)).toBe('bem');
    await agreed(PHONE);
    expect(stored.get(PHONE.address)).toBe('bem');
  });

  it('are dropped on a decline, and forgotten after their time', async () => {
    const { stored, languages, agreed, declined, clock } = world(new Set());
    await languages.choose(PHONE, 'ny');
    declined(PHONE);
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
    const { stored, languages } = world(new Set([PHONE.address]));
    await languages.choose(PHONE, 'ny');
    expect(stored.get(PHONE.address)).toBe('ny');
  });
});
