import { createHmac } from 'node:crypto';
import type { CallerLanguages, LanguageHolder } from '../conversation/index.js';
import { hashTag } from '../redis/index.js';
import type { KeyValueStore } from '../storage/index.js';
import { subjectId } from './data-subject.js';

/** How long a language picked before the notice waits for an answer: a USSD call's session. */
export const PENDING_LANGUAGE_MS = 15 * 60_000;

/**
 * The caller's language, written only once they agreed to the privacy notice: a pick made before
 * (a first dial's language screen) waits on the key-value store under a keyed hash of the caller
 * (no key or value names the phone), shared by every instance, until they agree; it is dropped
 * when they decline and expires after {@link PENDING_LANGUAGE_MS}.
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
}

/** Creates {@link ConsentFirstLanguages}. */
export function consentFirstLanguages(
  options: ConsentFirstLanguagesOptions,
): ConsentFirstLanguages {
  const { languages, consented, store, prefix } = options;
  const hashKey = createHmac('sha256', options.secret).update('pending-language').digest();
  const keyOf = (holder: LanguageHolder) =>
    `${prefix}pending-language:${hashTag(
      createHmac('sha256', hashKey).update(subjectId(holder)).digest('base64url').slice(0, 22),
    )}`;
  const ttlSeconds = PENDING_LANGUAGE_MS / 1000;
  return {
    languages: {
      chosen(holder) {
        // Only a caller with no language on record can have one waiting: the common turn (a
        // caller who chose long ago) makes no extra round trip.
        const known = languages.chosen(holder);
        if (known instanceof Promise) {
          return known.then((locale) => locale ?? store.get(keyOf(holder)));
        }
        return known ?? store.get(keyOf(holder));
      },
      async choose(holder, locale) {
        if (await consented(holder)) return languages.choose(holder, locale);
        await store.set(keyOf(holder), locale, ttlSeconds);
      },
    },
    async agreed(holder) {
      const locale = await store.take(keyOf(holder));
      if (locale !== undefined) await languages.choose(holder, locale);
    },
    async declined(holder) {
      await store.delete(keyOf(holder));
    },
  };
}
