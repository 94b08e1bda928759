import type { CallerLanguages, LanguageHolder } from '../conversation/index.js';
import { subjectId } from './data-subject.js';

/** How long a language picked before the notice waits for an answer: a USSD call's session. */
export const PENDING_LANGUAGE_MS = 15 * 60_000;
/** How many picks wait at once in one process; the oldest goes first past it. */
const MAX_PENDING = 10_000;

/**
 * The caller's language, written only once they agreed to the privacy notice: a pick made before
 * (a first dial's language screen) waits in this process until they agree, and is dropped when
 * they decline or after {@link PENDING_LANGUAGE_MS}. Nothing about the phone is stored meanwhile.
 */
export interface ConsentFirstLanguages {
  /** The languages as the channels use them: a pending pick answers `chosen` while it waits. */
  readonly languages: CallerLanguages;
  /** The holder agreed: their waiting pick is written. */
  agreed(holder: LanguageHolder): Promise<void>;
  /** The holder declined: their waiting pick is dropped. */
  declined(holder: LanguageHolder): void;
}

/** Options of {@link consentFirstLanguages}. */
export interface ConsentFirstLanguagesOptions {
  /** Where a language is remembered once agreed (the reminders' contact book). */
  readonly languages: CallerLanguages;
  /** True when the holder agreed to the current notice already. */
  readonly consented: (holder: LanguageHolder) => Promise<boolean>;
  readonly now?: () => number;
}

/** Creates {@link ConsentFirstLanguages}. */
export function consentFirstLanguages(
  options: ConsentFirstLanguagesOptions,
): ConsentFirstLanguages {
  const { languages, consented } = options;
  const now = options.now ?? Date.now;
  const pending = new Map<string, { locale: string; until: number }>();
  const waiting = (holder: LanguageHolder): string | undefined => {
    const id = subjectId(holder);
    const entry = pending.get(id);
    if (!entry) return undefined;
    if (entry.until > now()) return entry.locale;
    pending.delete(id);
    return undefined;
  };
  return {
    languages: {
      chosen(holder) {
        return waiting(holder) ?? languages.chosen(holder);
      },
      async choose(holder, locale) {
        if (await consented(holder)) return languages.choose(holder, locale);
        // A Map iterates in insertion order: the first key is the oldest pick.
        if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value as string);
        pending.set(subjectId(holder), { locale, until: now() + PENDING_LANGUAGE_MS });
      },
    },
    async agreed(holder) {
      const locale = waiting(holder);
      if (locale === undefined) return;
      pending.delete(subjectId(holder));
      await languages.choose(holder, locale);
    },
    declined(holder) {
      pending.delete(subjectId(holder));
    },
  };
}
