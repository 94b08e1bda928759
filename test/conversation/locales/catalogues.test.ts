import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { GSM7_TEXT } from '../../../src/channels/ussd/index.js';
import {
  type Catalogue,
  isStaffKey,
  LOCALE_NAMES,
  LOCALES,
  t,
} from '../../../src/conversation/index.js';
import { en } from '../../../src/conversation/locales/en.js';

const TRANSLATIONS = Object.keys(LOCALE_NAMES).filter((code) => code !== 'en');
/** Every key a policyholder or funeral member may see. */
const CUSTOMER_KEYS = Object.keys(en).filter((key) => !isStaffKey(key));

/** The arguments a template uses, with how each is written (`date`, `plural`…), sorted. */
function argumentsOf(template: string): string[] {
  const found = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
      if (element.type === TYPE.tag) continue;
      const style = 'style' in element && typeof element.style === 'string' ? element.style : '';
      found.add(`${element.value}:${TYPE[element.type]}${style ? `:${style}` : ''}`);
      if (element.type === TYPE.plural || element.type === TYPE.select) {
        for (const option of Object.values(element.options)) walk(option.value);
      }
    }
  };
  walk(parse(template, { ignoreTag: true }));
  return [...found].sort();
}

describe.each(TRANSLATIONS)('the %s catalogue', (code) => {
  const catalogue: Catalogue = LOCALES[code] ?? {};
  const entries = Object.entries(catalogue) as [string, string][];

  it('has every key a customer may see that English has', () => {
    const missing = CUSTOMER_KEYS.filter((key) => !Object.hasOwn(catalogue, key));
    expect(missing).toEqual([]);
  });

  it('has no key English lacks', () => {
    expect(entries.map(([key]) => key).filter((key) => !Object.hasOwn(en, key))).toEqual([]);
  });

  it('uses the same arguments as English in every template, written the same way', () => {
    for (const [key, template] of entries) {
      const english = (en as Record<string, string>)[key] ?? '';
      expect({ key, args: argumentsOf(template) }).toEqual({ key, args: argumentsOf(english) });
    }
  });

  it('writes only GSM 7-bit characters, so no screen or SMS loses half its room', () => {
    const outside = entries.filter(([, template]) => !GSM7_TEXT.test(template));
    expect(outside).toEqual([]);
  });

  it('counts in its own language: one traveller, then two', () => {
    const one = t('travel.pickPackage', { travellers: 1 }, code);
    const two = t('travel.pickPackage', { travellers: 2 }, code);
    expect(one).toContain('1');
    expect(two).toContain('2');
    expect(one.replace('1', '')).not.toBe(two.replace('2', ''));
    expect(one).not.toBe(t('travel.pickPackage', { travellers: 1 }, 'en'));
  });

  it('writes dates day/month/year as Zambians read them', () => {
    expect(t('cover.note.until', { until: '2027-01-05' }, code)).toContain('05/01/2027');
  });
});

describe('a catalogue lacking a key', () => {
  it('is caught by the completeness check', () => {
    const missingFrom = (catalogue: Catalogue) =>
      CUSTOMER_KEYS.filter((key) => !Object.hasOwn(catalogue, key));
    const lacking: Catalogue = { ...LOCALES.ny };
    delete lacking['menu.choice.motor'];
    expect(missingFrom(LOCALES.ny ?? {})).not.toContain('menu.choice.motor');
    expect(missingFrom(lacking)).toContain('menu.choice.motor');
  });
});
