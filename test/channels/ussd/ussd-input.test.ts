import { describe, expect, it } from 'vitest';
import { newestSegment, ussdInputToReply } from '../../../src/channels/ussd/index.js';
import type { Prompt } from '../../../src/conversation/index.js';

const menu: Prompt = {
  key: 'menu.policyholder',
  input: 'choice',
  final: false,
  choices: [
    { id: 'motor', label: 'menu.choice.motor' },
    { id: 'travel', label: 'menu.choice.travel' },
  ],
};
const phone: Prompt = { key: 'motor.holderPhone', input: 'contact', final: false };

describe('USSD input', () => {
  it('maps a digit to the choice at that position', () => {
    expect(ussdInputToReply('2', menu, '260971234567')).toEqual({
      type: 'user.choice',
      id: 'travel',
    });
  });

  it('sends a digit past the last choice as text, for the flow to re-prompt', () => {
    expect(ussdInputToReply('7', menu, '260971234567')).toEqual({ type: 'user.text', text: '7' });
  });

  it('reads 0 as back and 00 or # as cancel', () => {
    expect(ussdInputToReply('0', menu, '260971234567')).toEqual({ type: 'user.back' });
    expect(ussdInputToReply('00', menu, '260971234567')).toEqual({ type: 'user.cancel' });
    expect(ussdInputToReply('#', menu, '260971234567')).toEqual({ type: 'user.cancel' });
  });

  it('offers the caller their own number on a contact prompt, vouched for by the gateway', () => {
    expect(ussdInputToReply('1', phone, '260971234567')).toEqual({
      type: 'user.contact',
      phone: '260971234567',
    });
    expect(ussdInputToReply('0977000111', phone, '260971234567')).toEqual({
      type: 'user.text',
      text: '0977000111',
    });
  });

  it("keeps only the newest segment of Africa's Talking's history", () => {
    expect(newestSegment('')).toBeUndefined();
    expect(newestSegment('1*2*479974111')).toBe('479974111');
    expect(newestSegment('1*')).toBe('');
  });
});
