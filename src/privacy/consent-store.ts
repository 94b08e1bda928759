import { z } from 'zod';
import { hashTag } from '../redis/index.js';
import { createMemoryStore, type KeyValueStore } from '../storage/index.js';
import { type DataSubject, subjectId } from './data-subject.js';

/**
 * The version of the privacy notice customers agree to. Change it whenever the notice's words
 * change what is kept, why or for how long: everyone is asked again on their next visit. Version 2
 * (issue 37): the full notice names the controller and its contact, who the data is shared with,
 * what goes abroad, the erasure tombstone and the right to complain to the Commissioner.
 */
export const CONSENT_NOTICE_VERSION = 2;

/** How long a recorded consent lasts after the subject was last seen: a year. */
export const CONSENT_TTL_SECONDS = 365 * 86_400;

/** What a subject agreed to and when. */
export const ConsentRecord = z.object({
  version: z.number().int().positive(),
  /** ISO time of the agreement. */
  agreedAt: z.string(),
});
/** What a subject agreed to and when. */
export type ConsentRecord = z.infer<typeof ConsentRecord>;

/** Consent per subject: in Redis shared by every instance, or in this process. */
export interface ConsentStore {
  /** The subject's consent, its lifetime renewed (they are using the service); undefined: none. */
  get(subject: DataSubject): Promise<ConsentRecord | undefined>;
  /** Records that the subject agreed to `record.version` at `record.agreedAt`. */
  agree(subject: DataSubject, record: ConsentRecord): Promise<void>;
  /** Forgets the subject's consent (withdrawn, or erased with the rest). */
  forget(subject: DataSubject): Promise<void>;
}

function parse(raw: string | null | undefined): ConsentRecord | undefined {
  if (!raw) return undefined;
  try {
    const parsed = ConsentRecord.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The Redis key of a subject's consent (`<prefix>consent:{ussd:260…}`). */
export function consentKey(prefix: string, subject: DataSubject): string {
  return `${prefix}consent:${hashTag(subjectId(subject))}`;
}

/**
 * Consent over the key-value port: one string per subject, expiring a year after it was last
 * read (in Redis shared by every instance, or in this process, then asked again after a restart).
 */
export function createConsentStore(store: KeyValueStore, prefix: string): ConsentStore {
  return {
    async get(subject) {
      return parse(await store.getAndTouch(consentKey(prefix, subject), CONSENT_TTL_SECONDS));
    },
    async agree(subject, record) {
      const valid = ConsentRecord.parse(record);
      await store.set(consentKey(prefix, subject), JSON.stringify(valid), CONSENT_TTL_SECONDS);
    },
    async forget(subject) {
      await store.delete(consentKey(prefix, subject));
    },
  };
}

/** Consent in this process (the embedded default): lost on restart, then asked again. */
export function createMemoryConsentStore(): ConsentStore {
  return createConsentStore(createMemoryStore(), '');
}
