import { type MessageKey, type Prompt, t, type Unfinished } from '../../conversation/index.js';
import type { RenderPrompt } from '../shared/index.js';
import { type RenderedPrompt, toUssdScreens } from './ussd-screens.js';

// The one render contract every channel shares, for this folder's files.
export type { RenderPrompt } from '../shared/index.js';

/** Choice id of the extra "Use this number" line on a contact prompt. */
const USE_CALLER_NUMBER = 'ussd.useCallerNumber';
/** How many phones' last language a process remembers; cleared when full (a bound, not an LRU). */
const MAX_LOCALE_HINTS = 10_000;

/**
 * How USSD lays out what it shows, shared by every request of one core: Prompts as screens of
 * at most 182 characters, the resume menu, the channel's own words, and the language each phone
 * was last seen in (a hint for screens shown before the session is read).
 */
export class UssdLayout {
  /** The resume menu's pages per locale, laid out once each. */
  private readonly resumeLayouts = new Map<string, string[]>();
  private readonly lastLocales = new Map<string, string>();

  constructor(
    private readonly render: RenderPrompt,
    /** Locale of a caller who has not chosen one (gateways do not tell). */
    readonly defaultLocale: string,
  ) {}

  /** One of the channel's own sentences. */
  say(key: `ussd.${string}` & MessageKey, locale: string): string {
    return t(key, undefined, locale);
  }

  /** The language a phone was last seen in on this process, else the default. */
  localeHint(msisdn: string): string {
    return this.lastLocales.get(msisdn) ?? this.defaultLocale;
  }

  /** Remembers the language a phone was seen in. */
  rememberLocale(msisdn: string, locale: string): void {
    if (this.lastLocales.get(msisdn) === locale) return;
    if (this.lastLocales.size >= MAX_LOCALE_HINTS) this.lastLocales.clear();
    this.lastLocales.set(msisdn, locale);
  }

  /** A Prompt as USSD screens; a contact prompt gets a "Use this number" line. */
  screensOf(prompt: Prompt, locale: string): string[] {
    const rendered = this.render(prompt, locale);
    if (prompt.input !== 'contact') return toUssdScreens(rendered, locale);
    const withCaller: RenderedPrompt = {
      text: rendered.text,
      choices: [
        ...rendered.choices,
        { id: USE_CALLER_NUMBER, label: this.say('ussd.useMyNumber', locale) },
      ],
    };
    return toUssdScreens(withCaller, locale);
  }

  /**
   * The "Continue / Start again" menu after a dropped call, naming under its title what is
   * unfinished when the flow says (laid out each time: it carries the caller's answers).
   */
  resumeScreensOf(locale: string, unfinished?: Unfinished): string[] {
    if (unfinished) {
      const what = t(unfinished.key, unfinished.params, locale);
      const title = `${this.say('ussd.resumeTitle', locale)}\n${what}`;
      return toUssdScreens(this.resumeMenu(title, locale), locale);
    }
    let screens = this.resumeLayouts.get(locale);
    if (!screens) {
      screens = toUssdScreens(
        this.resumeMenu(this.say('ussd.resumeTitle', locale), locale),
        locale,
      );
      this.resumeLayouts.set(locale, screens);
    }
    return screens;
  }

  private resumeMenu(title: string, locale: string): RenderedPrompt {
    return {
      text: title,
      choices: [
        { id: 'continue', label: this.say('ussd.resumeContinue', locale) },
        { id: 'restart', label: this.say('ussd.resumeRestart', locale) },
      ],
    };
  }
}
