import { describe, expect, it } from 'vitest';
import { type Prompt, renderPrompt, t } from '../../src/conversation/index.js';

describe('t', () => {
  it('fills placeholders from parameters', () => {
    expect(t('validation.amount.tooLarge', { max: 5000 })).toBe('The amount must be at most 5000.');
  });

  it('falls back to English for an unknown locale', () => {
    expect(t('engine.error', undefined, 'xx-YY')).toBe(t('engine.error', undefined, 'en'));
  });

  it('renders an unknown key as the key itself', () => {
    expect(t('no.such.key')).toBe('no.such.key');
  });

  it('leaves a placeholder without a parameter visible', () => {
    expect(t('validation.date.tooLate', {})).toBe('The date must be on or before {max}.');
  });
});

describe('renderPrompt', () => {
  it('renders the message, then its notes, and translates choice labels', () => {
    const prompt: Prompt = {
      key: 'engine.stillWorking',
      notes: [{ key: 'engine.interrupted' }],
      choices: [
        { id: 'refresh', label: 'engine.checkAgain' },
        { id: 'p1', label: 'Motor Private {cover}', params: { cover: 'TP' }, literal: true },
      ],
      input: 'choice',
      final: false,
    };
    expect(renderPrompt(prompt, 'en')).toEqual({
      text: `${t('engine.stillWorking')}\n${t('engine.interrupted')}`,
      choices: [
        { id: 'refresh', label: 'Check again' },
        { id: 'p1', label: 'Motor Private TP' },
      ],
    });
  });
});
