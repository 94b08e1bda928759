import { afterEach, describe, expect, it } from 'vitest';
import {
  createUssdCore,
  toUssdScreens,
  USSD_MAX_CHARS,
  ussdMiddleware,
} from '../../../src/channels/ussd/index.js';
import {
  type CallerLanguages,
  type Catalogue,
  composeMiddleware,
  keypadPolicy,
  LOCALES,
  type Prompt,
  renderPrompt,
  type TurnEngine,
} from '../../../src/conversation/index.js';
import { createLogger } from '../../../src/log/index.js';
import { engineOf } from '../../support/turn-engine-double.js';

/** A made-up language with only the USSD channel's keys, longer than English to stress paging. */
const TEST_LOCALE = 'x-ussd';
const translated: Catalogue = {
  'ussd.more': 'Endelea zaidi',
  'ussd.back': 'Rudi nyuma',
  'ussd.sorry': 'Samahani, kuna tatizo. Piga tena baadaye.',
  'ussd.resumeTitle': 'Una kikao ambacho hakijaisha.',
  'ussd.resumeContinue': 'Endelea',
  'ussd.resumeRestart': 'Anza upya',
};
const locales = LOCALES as Record<string, Catalogue>;

afterEach(() => {
  delete locales[TEST_LOCALE];
});

describe('the USSD channel speaks from the locale catalogue', () => {
  it('pages with the catalogue words of the caller locale, keeping the keypad digits', () => {
    locales[TEST_LOCALE] = translated;
    const list = Array.from({ length: 20 }, (_, index) => ({
      id: `p${index}`,
      label: `Product number ${index + 1}`,
    }));
    const screens = toUssdScreens({ text: 'Pick a product', choices: list }, TEST_LOCALE);
    expect(screens[0]?.endsWith('98 Endelea zaidi')).toBe(true);
    expect(screens.at(-1)?.endsWith('0 Rudi nyuma')).toBe(true);
    for (const screen of screens) expect(screen.length).toBeLessThanOrEqual(USSD_MAX_CHARS);
  });

  it('apologises in the catalogue words when a turn fails', async () => {
    locales[TEST_LOCALE] = translated;
    const failing: TurnEngine = engineOf({
      turn: async () => {
        throw new Error('engine down');
      },
    });
    const core = createUssdCore({
      engine: failing,
      render: renderPrompt,
      logger: createLogger({ level: 'silent' }),
      locale: TEST_LOCALE,
    });
    const answer = await core.handle({ sessionId: 's1', msisdn: '260977000005', input: undefined });
    expect(answer).toEqual({ text: translated['ussd.sorry'], end: true });
  });

  it('falls back to English for a locale without its own USSD words', () => {
    const list = Array.from({ length: 20 }, (_, index) => ({
      id: `p${index}`,
      label: `Product number ${index + 1}`,
    }));
    const screens = toUssdScreens({ text: 'Pick', choices: list }, 'fr');
    expect(screens[0]?.endsWith('98 More')).toBe(true);
  });
});

describe("the caller's own language", () => {
  const menu: Prompt = { key: 'menu.policyholder', input: 'choice', final: false, choices: [] };
  /**
   * An engine that lets the keypad policy and the channel decide on an empty session and
   * answers the menu.
   */
  const engineSeeing = (
    languages: CallerLanguages,
    seen: { locale?: string | undefined },
  ): TurnEngine =>
    engineOf({
      turn: async (sessionKey, reply, options = {}) => {
        const policy = keypadPolicy({ languages, logger: createLogger({ level: 'silent' }) });
        await composeMiddleware(
          [policy, ussdMiddleware],
          async () => menu,
        )({
          sessionKey,
          options,
          request: { kind: 'reply', reply },
          session: { prompt: undefined, unseen: false, resumable: false, state: undefined },
          channelState: undefined,
          keep: async () => menu,
        });
        seen.locale = options.address?.locale;
        return menu;
      },
    });
  const coreWith = (languages: CallerLanguages, seen: { locale?: string | undefined } = {}) =>
    createUssdCore({
      engine: engineSeeing(languages, seen),
      render: renderPrompt,
      logger: createLogger({ level: 'silent' }),
    });
  const dial = { sessionId: 's1', msisdn: '260977000005', input: undefined };

  it('asks a phone that never chose, in one screen naming each language in itself', async () => {
    const core = coreWith({ chosen: () => undefined, choose: async () => undefined });
    expect(await core.handle(dial)).toEqual({
      text: 'Language / Ululimi / Chiyankhulo:\n1. English\n2. Ichibemba\n3. Chinyanja',
      end: false,
    });
  });

  it('speaks the chosen language, and hands it to the engine for the SMS sent later', async () => {
    const seen: { locale?: string | undefined } = {};
    const core = coreWith({ chosen: () => 'ny', choose: async () => undefined }, seen);
    expect(await core.handle(dial)).toEqual({ text: 'Takulandirani. Mufuna chiyani?', end: false });
    expect(seen.locale).toBe('ny');
  });

  it('goes on in English, without asking, when the language cannot be read', async () => {
    const core = coreWith({
      chosen: () => Promise.reject(new Error('store down')),
      choose: async () => undefined,
    });
    expect(await core.handle(dial)).toEqual({
      text: 'Welcome. What would you like to do?',
      end: false,
    });
  });
});
