import { describe, expect, it } from 'vitest';
import { checkDescription, checkWords } from '../../flows/checks.js';

describe('checkDescription', () => {
  it('accepts a claim description longer than a USSD screen', () => {
    const story = `${'The car was hit from behind at the traffic lights on Cairo Road. '.repeat(4)}`;
    expect(story.trim().length).toBeGreaterThan(200);
    expect(checkDescription(story)).toEqual({ ok: true, value: story.trim() });
  });

  it('rejects an empty answer, punctuation alone and more than 500 characters', () => {
    for (const text of ['', '   ', '!!', 'a'.repeat(501)]) {
      expect(checkDescription(text)).toEqual({ ok: false, reason: 'flow.note.badDescription' });
    }
  });

  it('keeps short answers such as a make to 60 characters', () => {
    expect(checkWords('a'.repeat(61)).ok).toBe(false);
  });
});
