import { LOCALE_NAMES } from './locales/index.js';
import type { Prompt } from './prompt.js';
import type { ChannelName } from './turn-engine.js';

/**
 * The main-menu choice that changes the language. Channels take it before the flow sees it,
 * as they take "Talk to a person": the choice lives beside the session, not in a flow.
 */
export const CHOOSE_LANGUAGE = 'language';

/** Choice ids on the language screen are this prefix and a locale code (`language:ny`). */
export const LANGUAGE_CHOICE_PREFIX = 'language:';

/**
 * The language screen, the same in every language (the caller may read none of ours yet): each
 * language named in itself, English first.
 */
export const LANGUAGE_PROMPT: Prompt = {
  key: 'language.pick',
  input: 'choice',
  final: false,
  choices: Object.entries(LOCALE_NAMES).map(([code, name]) => ({
    id: `${LANGUAGE_CHOICE_PREFIX}${code}`,
    label: name,
    literal: true,
  })),
};

/** The locale a language-screen choice id picks; undefined for any other id. */
export function localeOfChoice(id: string): string | undefined {
  if (!id.startsWith(LANGUAGE_CHOICE_PREFIX)) return undefined;
  return supportedLocaleOf(id.slice(LANGUAGE_CHOICE_PREFIX.length));
}

/**
 * One of our locales for a language tag from outside (Telegram's `language_code`, `ny-ZM`),
 * by its base language; undefined when we do not speak it.
 */
export function supportedLocaleOf(tag: string | undefined): string | undefined {
  if (!tag) return undefined;
  const base = tag.split(/[-_]/)[0]?.toLowerCase() ?? '';
  return Object.hasOwn(LOCALE_NAMES, base) ? base : undefined;
}

/** A user's address on one channel, as their language is remembered under. */
export interface LanguageHolder {
  readonly channel: ChannelName;
  readonly address: string;
}

/**
 * The language each user chose, remembered per channel address beside the session (it outlives
 * the session). Implemented by src/reminders, which keeps it on the holder's card.
 */
export interface CallerLanguages {
  /**
   * The locale the user chose, undefined when they never chose. Answered without a round trip
   * when the card was read with the session this turn (the engine's prefetch).
   */
  chosen(holder: LanguageHolder): string | undefined | Promise<string | undefined>;
  /** Remembers the user's choice. */
  choose(holder: LanguageHolder, locale: string): Promise<void>;
}

/** How many addresses' last language a process keeps; cleared when full (a bound, not an LRU). */
const MAX_LAST_LOCALES = 10_000;

/**
 * The language each address was last seen in on this process, else `fallback`: a hint for what
 * is shown before the session, and the caller's choice with it, is read.
 */
export class LastLocales {
  private readonly seen = new Map<string, string>();

  constructor(private readonly fallback: string) {}

  /** The language `address` was last seen in, else the fallback. */
  of(address: string): string {
    return this.seen.get(address) ?? this.fallback;
  }

  /** Remembers the language `address` was seen in. */
  remember(address: string, locale: string): void {
    if (this.seen.get(address) === locale) return;
    if (this.seen.size >= MAX_LAST_LOCALES) this.seen.clear();
    this.seen.set(address, locale);
  }
}
