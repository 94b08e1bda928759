import { describe, expect, it } from 'vitest';
import { formatDate, LOCALES, type Prompt, renderPrompt, t } from '../../src/conversation/index.js';

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
    expect(t('validation.date.tooLate', {})).toBe('The date must be on or before {max, date}.');
  });
});

describe("statuses in the customer's words", () => {
  it('writes a status key as its words, in the language of the conversation', () => {
    const line = (locale: string) =>
      t('cover.line.motor', { number: 'MTR-1', status: 'status.inForce' }, locale);
    expect(line('en')).toBe('Motor MTR-1 in force');
    for (const code of ['bem', 'ny']) {
      expect(line(code)).toBe(
        t('cover.line.motor', { number: 'MTR-1', status: t('status.inForce', {}, code) }, code),
      );
      expect(line(code)).not.toContain('status.');
      expect(line(code)).not.toBe(line('en'));
    }
  });

  it('gives the status words the parameters of the message around them', () => {
    const params = { number: 'KL-1', status: 'status.inGraceUntil', until: '2027-01-05' };
    expect(t('cover.line.creditLife', params)).toBe('Loan KL-1 in grace until 05/01/2027');
    expect(t('cover.line.creditLife', params, 'ny')).toContain('05/01/2027');
  });

  it('shows any other value as it came, a status word of the insurer included', () => {
    expect(t('cover.line.motor', { number: 'MTR-1', status: 'Active' })).toBe('Motor MTR-1 Active');
    expect(t('cover.line.motor', { number: 'MTR-1', status: 'status.noSuchWords' })).toBe(
      'Motor MTR-1 status.noSuchWords',
    );
  });
});

describe('dates shown to users', () => {
  it('writes an ISO date as a Zambian reads it, day/month/year', () => {
    expect(
      t('claim.confirm.credit-life', {
        claimType: 'Death',
        subject: 'KL-1',
        eventDate: '2026-11-18',
      }),
    ).toBe('Death claim on loan KL-1, loss on 18/11/2026.');
    expect(formatDate('2026-11-18', 'en')).toBe('18/11/2026');
  });

  it('writes the date the same way in a language whose own region writes month first', () => {
    expect(formatDate('2027-01-05', 'en-US')).toBe('05/01/2027');
    // ICU has no Zambian Chichewa: written as in Zambian English, not in US order.
    expect(formatDate('2027-01-05', 'ny')).toBe('05/01/2027');
    expect(formatDate('2027-01-05', 'not a tag')).toBe('05/01/2027');
  });

  it('keeps the time of a date and time, and shows anything else as it is', () => {
    expect(formatDate('2026-11-18T10:42:00.000Z')).toBe('18/11/2026 10:42');
    expect(formatDate('2026-11-18 10:42')).toBe('18/11/2026 10:42');
    expect(formatDate('-')).toBe('-');
    expect(formatDate('')).toBe('');
  });

  it('writes day and month only where a label says short', () => {
    expect(t('menu.choice.renewal', { policyNumber: 'MTR-1', endDate: '2026-11-21' })).toBe(
      'MTR-1 (ends 21/11)',
    );
  });

  it('writes every date placeholder of the catalogue as a date, so no ISO date reaches a user', () => {
    const DATE_NAME = /date|Date|until|At$/;
    for (const [key, template] of Object.entries(LOCALES.en ?? {})) {
      const names = [...(template ?? '').matchAll(/\{(\w+)(, date(?:, short)?)?\}/g)];
      for (const [, name, date] of names) {
        const dated = DATE_NAME.test(name ?? '') || key.startsWith('validation.date.');
        expect({ key, name, date: Boolean(date) }).toEqual({ key, name, date: dated });
      }
      // The insurer's form given to every date placeholder: rendering writes it for the user.
      const params = Object.fromEntries(
        names.map(([, name, date]) => [name ?? '', date ? '2026-11-18' : '7']),
      );
      expect(t(key, params)).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    }
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

describe('plurals', () => {
  it('says "1 traveller" for one and "2 travellers" for two', () => {
    expect(t('travel.pickPackage', { travellers: 1 })).toBe('Cover for 1 traveller. Choose:');
    expect(t('travel.pickPackage', { travellers: 2 })).toBe('Cover for 2 travellers. Choose:');
  });

  it('keeps the other placeholders of a quote around its plural', () => {
    const params = {
      what: 'Schengen',
      startDate: '01/03/2027',
      endDate: '07/03/2027',
      currency: 'ZMW',
      amount: '13,125.00',
    };
    expect(t('travel.confirmQuote', { ...params, travellers: 1 })).toBe(
      'Schengen, 01/03/2027 to 07/03/2027, 1 traveller: ZMW 13,125.00. Pay with:',
    );
    expect(t('travel.confirmQuote', { ...params, travellers: 3 })).toBe(
      'Schengen, 01/03/2027 to 07/03/2027, 3 travellers: ZMW 13,125.00. Pay with:',
    );
  });

  it('counts policies and claims on the staff desk in the right number', () => {
    expect(t('staff.today', { date: '23/11/2026', paidPolicies: 1, claims: 1 })).toBe(
      '*Today, 23/11/2026* · 1 policy paid · 1 claim',
    );
    expect(t('staff.today', { date: '23/11/2026', paidPolicies: 0, claims: 2 })).toBe(
      '*Today, 23/11/2026* · 0 policies paid · 2 claims',
    );
  });

  it('picks the form by the language of the conversation, an exact =N first', () => {
    const label = '{n, plural, =0 {none} one {# jour} other {# jours}}';
    const rendered = (n: number, locale: string) =>
      renderPrompt(
        {
          key: 'engine.checkAgain',
          choices: [{ id: 'd', label, params: { n }, literal: true }],
          input: 'choice',
          final: false,
        },
        locale,
      ).choices[0]?.label;
    expect(rendered(0, 'fr')).toBe('none');
    // French counts 1.5 as singular, English does not; `#` is the number as French writes it.
    expect(rendered(1.5, 'fr')).toBe('1,5 jour');
    expect(rendered(1.5, 'en')).toBe('1.5 jours');
  });

  it('leaves a plural without its count visible instead of guessing', () => {
    expect(t('travel.pickPackage', {})).toBe(
      'Cover for {travellers, plural, one {# traveller} other {# travellers}}. Choose:',
    );
  });

  it('never writes a count-dependent word as "(s)" anywhere in the catalogue', () => {
    const guessed = Object.entries(LOCALES.en ?? {}).filter(([, text]) =>
      /\w\((s|es)\)/.test(text),
    );
    expect(guessed).toEqual([]);
  });
});
