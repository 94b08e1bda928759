import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toUssdScreens, USSD_MAX_CHARS } from '../../../src/channels/ussd/index.js';

const word = fc.string({
  minLength: 1,
  maxLength: 30,
  unit: fc.constantFrom(...'abcdefghij KLMNOP0123456789.,:/-'),
});
const text = fc
  .array(
    fc.array(word, { minLength: 1, maxLength: 20 }).map((words) => words.join(' ')),
    {
      minLength: 1,
      maxLength: 8,
    },
  )
  .map((lines) => lines.join('\n'));
const choices = fc.array(
  fc.record({ id: fc.uuid(), label: fc.string({ minLength: 1, maxLength: 60 }) }),
  { maxLength: 30 },
);

/** The numbers of three digits or more in a text (a policy number, an amount, a date). */
function keyNumbersOf(body: string): string[] {
  return (body.match(/\d(?:[\d,./-]*\d)?/g) ?? []).filter(
    (number) => number.replace(/\D/g, '').length >= 3,
  );
}

/** The screens with their paging footers removed, joined back together. */
function content(screens: string[]): string {
  return screens
    .map((screen) =>
      screen
        .split('\n')
        .filter((line) => line !== '98 More' && line !== '0 Back')
        .join('\n'),
    )
    .join('\n');
}

describe('toUssdScreens', () => {
  it('keeps a prompt that fits on one screen as it is, with numbered choices', () => {
    const screens = toUssdScreens(
      {
        text: 'Choose cover',
        choices: [
          { id: 'tp', label: 'Third Party' },
          { id: 'comp', label: 'Comprehensive' },
        ],
      },
      'en',
    );
    expect(screens).toEqual(['Choose cover\n1. Third Party\n2. Comprehensive']);
  });

  it('pages a long list with 98 More and 0 Back, numbering choices across pages', () => {
    const list = Array.from({ length: 20 }, (_, index) => ({
      id: `p${index}`,
      label: `Product number ${index + 1}`,
    }));
    const screens = toUssdScreens({ text: 'Pick a product', choices: list }, 'en');
    expect(screens.length).toBeGreaterThan(1);
    expect(screens[0]?.endsWith('98 More')).toBe(true);
    expect(screens[0]).not.toContain('0 Back');
    expect(screens.at(-1)?.endsWith('0 Back')).toBe(true);
    expect(screens.at(-1)).not.toContain('98 More');
    expect(screens.at(-1)).toContain('20. Product number 20');
  });

  it('never exceeds 182 characters on a screen, footer included, and loses no text without choices', () => {
    fc.assert(
      fc.property(text, choices, (body, list) => {
        const screens = toUssdScreens({ text: body, choices: list }, 'en');
        for (const screen of screens) expect(screen.length).toBeLessThanOrEqual(USSD_MAX_CHARS);
        // Every choice is there, numbered in order.
        const numbered = list.map((choice, index) => `${index + 1}. ${choice.label}`).join('');
        expect(content(screens).replace(/\s+/g, '')).toContain(numbered.replace(/\s+/g, ''));
        // Paging only breaks lines at spaces (or inside a word longer than a screen): with the
        // whitespace taken out, the screens of a text without choices hold exactly the text.
        const plain = toUssdScreens({ text: body, choices: [] }, 'en');
        for (const screen of plain) expect(screen.length).toBeLessThanOrEqual(USSD_MAX_CHARS);
        expect(content(plain).replace(/\s+/g, '')).toBe(body.replace(/\s+/g, ''));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every choice on the first screen when they fit there, shortening the text above them', () => {
    fc.assert(
      fc.property(text, choices, (body, list) => {
        fc.pre(list.length > 0);
        const numbered = list.map((choice, index) => `${index + 1}. ${choice.label}`);
        const screens = toUssdScreens({ text: body, choices: list }, 'en');
        if (screens.length > 1 && keyNumbersOf(body).length > 0) {
          // A text whose shortening would cut a number of three digits or more is paged whole.
          const shown = content(screens);
          for (const number of keyNumbersOf(body)) expect(shown).toContain(number);
        } else if (numbered.join('\n').length + 41 <= USSD_MAX_CHARS) {
          expect(screens).toHaveLength(1);
          expect(screens[0]?.endsWith(numbered.join('\n'))).toBe(true);
        } else {
          // A list longer than a screen starts on the first one.
          expect(screens[0]).toContain(`\n${numbered[0]?.slice(0, 20)}`);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('shortens a long refusal to end in ... so its choices stay on the one screen', () => {
    const screens = toUssdScreens(
      {
        text: [
          'The insurer could not accept these details.',
          'Claims must be intimated within 90 days of the loss; this loss was 100 days ago.',
          'Please check the date of the loss.',
        ].join('\n'),
        choices: [
          { id: 'back', label: 'Change my answer' },
          { id: 'end', label: 'End' },
        ],
      },
      'en',
    );
    expect(screens).toEqual([
      [
        'The insurer could not accept these details.',
        'Claims must be intimated within 90 days of the loss; this loss was 100...',
        'Please check the date of the loss.',
        '1. Change my answer',
        '2. End',
      ].join('\n'),
    ]);
  });
});

describe('a text holding a policy number or an amount', () => {
  it('is paged whole rather than cut with ... before the number: a loan in grace keeps its policy and amount', () => {
    const rendered = {
      text: [
        'Ingongole CL-DEMO-000001: ilebomba ukufika 05/01/2027, lipileni premium, 01/06/2026 ukufika 31/05/2027. Policy CL-DEMO-000001. Indalama ZMW 250,000.00.',
        'Inshuwalansi ukucila ZMW 250,000.00 ilefwaya ukupimwa: ukufika apo tailipilwa.',
      ].join('\n'),
      choices: [
        { id: 'claim', label: 'Lombeni claim' },
        { id: 'sms', label: 'Tumeni ifyebo pa SMS' },
        { id: 'list', label: 'Bwelelenipo ku mutande' },
      ],
    };
    const screens = toUssdScreens(rendered, 'bem');
    expect(screens.length).toBeGreaterThan(1);
    for (const screen of screens) expect(screen.length).toBeLessThanOrEqual(USSD_MAX_CHARS);
    expect(screens.join('\n')).not.toContain('...');
    const shown = content(screens);
    for (const number of ['CL-DEMO-000001', '05/01/2027', '250,000.00']) {
      expect(shown.replace(/\n/g, ' ')).toContain(number);
    }
    expect(screens.at(-1)).toContain('3. Bwelelenipo ku mutande');
  });
});

describe('a text read whole before choosing (paged)', () => {
  it('is paged with its choices after it, never shortened', () => {
    const long = Array.from({ length: 12 }, (_, i) => `Line ${i} of a notice worth reading whole.`);
    const rendered = {
      text: long.join('\n'),
      choices: [
        { id: 'agree', label: 'Agree' },
        { id: 'decline', label: 'Decline' },
      ],
    };
    const shortened = toUssdScreens(rendered, 'en');
    // Without the mark the choices stay on one screen and the text loses lines.
    expect(shortened).toHaveLength(1);
    expect(long.every((line) => shortened[0]?.includes(line))).toBe(false);
    const screens = toUssdScreens({ ...rendered, paged: true }, 'en');
    expect(screens.length).toBeGreaterThan(2);
    for (const screen of screens) expect(screen.length).toBeLessThanOrEqual(USSD_MAX_CHARS);
    expect(screens.join('\n')).not.toContain('...');
    for (const line of long) expect(screens.join('\n')).toContain(line);
    expect(screens.at(-1)).toMatch(/1\. Agree\n2\. Decline\n0 Back$/);
  });
});
