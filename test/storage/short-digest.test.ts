import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base36, shortDigest } from '../../src/storage/short-digest.js';

describe('base36', () => {
  it('writes every whole number up to 2^53 - 1 as toString(36) does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat(100_000), fc.maxSafeNat()), (n) => {
        expect(base36(n)).toBe(n.toString(36));
      }),
      { numRuns: 5000 },
    );
    for (const n of [0, 35, 36, 2 ** 32, 2 ** 53 - 1, 36 ** 10 - 1, 36 ** 10]) {
      expect(base36(n)).toBe(n.toString(36));
    }
  });
});

describe('shortDigest', () => {
  it('tells apart histories of a call and gives a retry the same digest', () => {
    expect(shortDigest(undefined)).toBeUndefined();
    expect(shortDigest('1*AJQ 1909')).toBe(shortDigest('1*AJQ 1909'));
    expect(shortDigest('1*AJQ 1909')).not.toBe(shortDigest('1*AJQ 1909*1'));
  });

  it('writes the digests records already hold: a retry across a deploy is still known', () => {
    expect(shortDigest('1*AJQ 1909')).toBe('a.iqlvxqvngd');
    expect(shortDigest('')).toBe('0.wvjl67o803');
    expect(shortDigest('x'.repeat(2000))).toBe('1jk.41ledz5gis');
  });
});
