import type { CallerLanguages, LanguageHolder } from '../conversation/index.js';
import { hashTag } from '../redis/index.js';
import type { KeyValueStore } from '../storage/index.js';
import { subjectId } from './data-subject.js';
import { keyedHasher } from './keyed-hash.js';

/** How long a language picked before the notice waits for an answer: a USSD call's session. */
export const PENDING_LANGUAGE_MS = 15 * 60_000;
/** How many picks wait at once in one process; the oldest goes first past it. */
const MAX_WAITING_HERE = 10_000;

/**
 * The caller's language, written only once they agreed to the privacy notice: a pick made before
 * (a first dial's language screen) waits until they agree, and is dropped when they decline or
 * after {@link PENDING_LANGUAGE_MS}. It waits twice: in this process, which answers the screens
 * without a round trip, and on the key-value store under a keyed hash of the caller (no key or
 * value names the phone), so an Agree answered by another instance still writes it.
 */
export interface ConsentFirstLanguages {
  /** The languages as the channels use them: a pending pick answers `chosen` while it waits. */
  readonly languages: CallerLanguages;
  /** The holder agreed: their waiting pick is written. */
  agreed(holder: LanguageHolder): Promise<void>;
  /** The holder declined: their waiting pick is dropped. */
  declined(holder: LanguageHolder): Promise<void>;
}

/** Options of {@link consentFirstLanguages}. */
export interface ConsentFirstLanguagesOptions {
  /** Where a language is remembered once agreed (the reminders' contact book). */
  readonly languages: CallerLanguages;
  /** True when the holder agreed to the current notice already. */
  readonly consented: (holder: LanguageHolder) => Promise<boolean>;
  /** Where picks wait: Redis in production, so an Agree on another instance finds the pick. */
  readonly store: KeyValueStore;
  /** Key prefix of the server. */
  readonly prefix: string;
  /** Key of the keyed hash that names a waiting pick (a server secret). */
  readonly secret: string;
  /** Now in ms, for the picks waiting in this process. */
  readonly now?: () => number;
}

/** Creates {@link ConsentFirstLanguages}. */
export function consentFirstLanguages(
  options: ConsentFirstLanguagesOptions,
): ConsentFirstLanguages {
  const { languages, consented, store, prefix } = options;
  const hash = keyedHasher(options.secret, 'pending-language');
  const keyOf = (holder: LanguageHolder) =>
    `${prefix}pending-language:${hashTag(hash(subjectId(holder)))}`;
  const ttlSeconds = PENDING_LANGUAGE_MS / 1000;
  const now = options.now ?? Date.now;
  const here = new Map<string, { locale: string; until: number }>();
  const waitingHere = (holder: LanguageHolder): string | undefined => {
    const id = subjectId(holder);
    const entry = here.get(id);
    if (entry && entry.until > now()) return entry.locale;
    here.delete(id);
    return undefined;
  };
  return {
    languages: {
      // Answered from this process: a turn costs no extra round trip for a pick that waits.
      chosen(holder) {
        const known = languages.chosen(holder);
        if (known instanceof Promise) return known.then((locale) => locale ?? waitingHere(holder));
        return known ?? waitingHere(holder);
      },
      async choose(holder, locale) {
        if (await consented(holder)) return languages.choose(holder, locale);
        // A Map iterates in insertion order: the first key is the oldest pick.
        if (here.size >= MAX_WAITING_HERE) here.delete(here.keys().next().value as string);
        here.set(subjectId(holder), { locale, until: now() + PENDING_LANGUAGE_MS });
        await store.set(keyOf(holder), locale, ttlSeconds);
      },
    },
    async agreed(holder) {
      const id = subjectId(holder);
      const local = waitingHere(holder);
      here.delete(id);
      // Asked of the store only without a pick here: one read, at the one Agree of a caller.
      const locale = local ?? (await store.take(keyOf(holder)));
      if (local !== undefined) await store.delete(keyOf(holder));
      if (locale !== undefined) await languages.choose(holder, locale);
    },
    async declined(holder) {
      here.delete(subjectId(holder));
      await store.delete(keyOf(holder));
    },
  };
}
