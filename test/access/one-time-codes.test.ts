import { describe, expect, it } from 'vitest';
import { CODES_PER_WINDOW, createOneTimeCodes } from '../../src/access/index.js';
import { createMemoryStore } from '../../src/storage/index.js';

const SUBJECT = { nrc: '479974/11/1', caller: 'phone:260955000111' };

function codes(sequence: string[] = ['123456', '654321', '111222', '333444']) {
  const store = createMemoryStore();
  let next = 0;
  const made = createOneTimeCodes(store, 'test:', 'secret', {
    newCode: () => sequence[next++ % sequence.length] ?? '000000',
  });
  return { store, codes: made };
}

describe('one-time codes', () => {
  it('are six random digits by default, kept only as a keyed hash', async () => {
    const store = createMemoryStore();
    const written: string[] = [];
    const recording = {
      ...store,
      set: async (key: string, value: string, ttl: number) => {
        written.push(key, value);
        await store.set(key, value, ttl);
      },
      increment: async (key: string, ttl: number) => {
        written.push(key);
        return store.increment(key, ttl);
      },
    };
    const made = createOneTimeCodes(recording, 'test:', 'secret');
    const issued = await made.issue(SUBJECT);
    if (!('code' in issued)) throw new Error('refused');
    expect(issued.code).toMatch(/^\d{6}$/);
    const dump = written.join(' ');
    expect(written.length).toBeGreaterThan(0);
    expect(dump).not.toContain(issued.code);
    expect(dump).not.toContain('479974');
    expect(dump).not.toContain('260955000111');
  });

  it('take the right answer once: a second use finds none', async () => {
    const { codes: c } = codes();
    await c.issue(SUBJECT);
    expect(await c.check(SUBJECT, '123456')).toEqual({ outcome: 'right' });
    expect(await c.check(SUBJECT, '123456')).toEqual({ outcome: 'expired' });
  });

  it('prove nothing for another caller or another NRC', async () => {
    const { codes: c } = codes();
    await c.issue(SUBJECT);
    expect(await c.check({ ...SUBJECT, caller: 'phone:260955000222' }, '123456')).toEqual({
      outcome: 'expired',
    });
    expect(await c.check({ ...SUBJECT, nrc: '111111/11/1' }, '123456')).toEqual({
      outcome: 'expired',
    });
  });

  it('are spent by three wrong answers, then refused for the NRC and the caller for a while', async () => {
    const { codes: c } = codes();
    await c.issue(SUBJECT);
    expect(await c.check(SUBJECT, '000000')).toEqual({ outcome: 'wrong', triesLeft: 2 });
    expect(await c.check(SUBJECT, '000000')).toEqual({ outcome: 'wrong', triesLeft: 1 });
    expect(await c.check(SUBJECT, '000000')).toEqual({ outcome: 'spent' });
    // The right code no longer proves anything.
    expect(await c.check(SUBJECT, '123456')).toEqual({ outcome: 'expired' });
    expect(await c.issue(SUBJECT)).toEqual({ refused: 'too-often' });
    expect(await c.issue({ ...SUBJECT, caller: 'telegram:42' })).toEqual({ refused: 'too-often' });
    expect(await c.issue({ ...SUBJECT, nrc: '222222/22/2' })).toEqual({ refused: 'too-often' });
  });

  it(`are sent at most ${CODES_PER_WINDOW} an hour for one NRC, a new one replacing the last`, async () => {
    const { codes: c } = codes();
    for (let i = 0; i < CODES_PER_WINDOW; i += 1) {
      expect(await c.issue({ ...SUBJECT, caller: `phone:26095500000${i}` })).toHaveProperty('code');
    }
    expect(await c.issue({ ...SUBJECT, caller: 'phone:260955000009' })).toEqual({
      refused: 'too-often',
    });
  });

  it('forget a code after its ten minutes', async () => {
    let now = 0;
    const store = createMemoryStore({ now: () => now });
    const c = createOneTimeCodes(store, 'test:', 'secret', { newCode: () => '123456' });
    await c.issue(SUBJECT);
    now += 601_000;
    expect(await c.check(SUBJECT, '123456')).toEqual({ outcome: 'expired' });
  });
});
