import { describe, expect, it } from 'vitest';
import { MAX_TRIES, nextTry, tooManyTries } from '../../src/conversation/index.js';

describe('tooManyTries', () => {
  it('allows re-prompting after the first and second bad answers', () => {
    expect(tooManyTries({})).toBe(false);
    expect(tooManyTries({ tries: 1 })).toBe(false);
  });

  it('ends on the third bad answer', () => {
    expect(MAX_TRIES).toBe(3);
    expect(tooManyTries({ tries: 2 })).toBe(true);
  });

  it('counts one more bad answer from nothing', () => {
    expect(nextTry({})).toBe(1);
    expect(nextTry({ tries: 1 })).toBe(2);
  });
});
