/*
 * One-time codes that prove a typed NRC: six digits sent by SMS to a phone on record for it. The
 * only proof a caller can give that an NRC is theirs when the insurer holds it with another
 * phone (issue 35). Kept on the key-value port, shared by every instance, and only as keyed
 * hashes: neither the code nor the NRC nor the caller is ever stored in clear.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import { keyedHasher } from '../privacy/index.js';
import { hashTag } from '../redis/index.js';
import type { KeyValueStore } from '../storage/index.js';

/** How long a code stays good: 10 minutes. */
export const CODE_TTL_SECONDS = 600;
/** Wrong answers a code takes before it is spent. */
export const CODE_TRIES = 3;
/** Codes one NRC (or one caller) may be sent per {@link CODE_WINDOW_SECONDS}. */
export const CODES_PER_WINDOW = 3;
/** The window codes are counted in, and how long a code spent by wrong answers locks: 1 hour. */
export const CODE_WINDOW_SECONDS = 3_600;

/** Who a code is for: the NRC it proves and the caller who asked (a phone or a chat). */
export interface CodeSubject {
  readonly nrc: string;
  readonly caller: string;
}

/** Why no code was sent. */
export type CodeRefusal = 'too-often';

/** What an answer to a code came to. */
export type CodeCheck =
  | { readonly outcome: 'right' }
  | { readonly outcome: 'wrong'; readonly triesLeft: number }
  /** Wrong {@link CODE_TRIES} times: no answer is right any more, and no code for an hour. */
  | { readonly outcome: 'spent' }
  /** Past its 10 minutes, already used, or never sent: a new one may be asked for. */
  | { readonly outcome: 'expired' };

/** One-time codes (see the module comment). */
export interface OneTimeCodes {
  /**
   * A fresh code for `subject`, replacing any earlier one; refused while the NRC or the caller
   * asked too often or spent a code by wrong answers within the hour.
   */
  issue(subject: CodeSubject): Promise<{ code: string } | { refused: CodeRefusal }>;
  /** Checks an answer: right once (the code is then gone), wrong up to {@link CODE_TRIES}. */
  check(subject: CodeSubject, answer: string): Promise<CodeCheck>;
}

/** Options of {@link createOneTimeCodes}; tests pin the code. */
export interface OneTimeCodeOptions {
  /** Six digits; defaults to `crypto.randomInt`. */
  readonly newCode?: () => string;
}

/** An NRC by its digits: `123456/78/1` and `123456781` are one NRC. */
const nrcForm = (nrc: string) => nrc.replace(/\D/g, '');

/**
 * One-time codes over the key-value port. Keys (each a keyed hash in a hash tag, so one key per
 * command on Redis Cluster): `otp:{<h(nrc,caller)>}` the code's hash (10 minutes),
 * `otp-tries:{…}` its wrong answers, `otp-sent:{<h(nrc)>}` / `{<h(caller)>}` codes sent this
 * hour, `otp-lock:{…}` an NRC or caller locked after a spent code.
 */
export function createOneTimeCodes(
  store: KeyValueStore,
  prefix: string,
  secret: string,
  options: OneTimeCodeOptions = {},
): OneTimeCodes {
  const hash = keyedHasher(secret, 'one-time-codes');
  const codeKey = (s: CodeSubject) =>
    `${prefix}otp:${hashTag(hash(`code:${nrcForm(s.nrc)}:${s.caller}`))}`;
  const triesKey = (s: CodeSubject) =>
    `${prefix}otp-tries:${hashTag(hash(`code:${nrcForm(s.nrc)}:${s.caller}`))}`;
  const parties = (s: CodeSubject) => [hash(`nrc:${nrcForm(s.nrc)}`), hash(`caller:${s.caller}`)];
  const sentKey = (party: string) => `${prefix}otp-sent:${hashTag(party)}`;
  const lockKey = (party: string) => `${prefix}otp-lock:${hashTag(party)}`;
  const newCode = options.newCode ?? (() => String(randomInt(0, 1_000_000)).padStart(6, '0'));
  // The code's hash binds the subject too: a code read from one key proves nothing elsewhere.
  const codeHash = (s: CodeSubject, code: string) =>
    hash(`answer:${nrcForm(s.nrc)}:${s.caller}:${code.trim()}`);

  return {
    async issue(subject) {
      const [nrc, caller] = parties(subject);
      const locks = await Promise.all([nrc, caller].map((p) => store.get(lockKey(String(p)))));
      if (locks.some(Boolean)) return { refused: 'too-often' };
      // Counted before sending: two instances asked at once still send at most the allowance.
      const sent = await Promise.all(
        [nrc, caller].map((p) => store.increment(sentKey(String(p)), CODE_WINDOW_SECONDS)),
      );
      if (sent.some((n) => n > CODES_PER_WINDOW)) return { refused: 'too-often' };
      const code = newCode();
      await store.delete(triesKey(subject));
      await store.set(codeKey(subject), codeHash(subject, code), CODE_TTL_SECONDS);
      return { code };
    },
    async check(subject, answer) {
      const kept = await store.get(codeKey(subject));
      if (!kept) return { outcome: 'expired' };
      // Counted first (atomic): however many answers arrive at once, at most CODE_TRIES are judged.
      const tries = await store.increment(triesKey(subject), CODE_TTL_SECONDS);
      if (tries > CODE_TRIES) return { outcome: 'spent' };
      const given = Buffer.from(codeHash(subject, answer));
      const right = given.length === kept.length && timingSafeEqual(given, Buffer.from(kept));
      if (right) {
        // Single use: taken, so a second answer with the same code finds nothing.
        const taken = await store.take(codeKey(subject));
        await store.delete(triesKey(subject));
        return taken ? { outcome: 'right' } : { outcome: 'expired' };
      }
      if (tries < CODE_TRIES) return { outcome: 'wrong', triesLeft: CODE_TRIES - tries };
      // The last try was wrong: the code goes, and the NRC and the caller wait out the hour.
      await store.delete(codeKey(subject));
      await Promise.all(
        parties(subject).map((p) => store.set(lockKey(String(p)), '1', CODE_WINDOW_SECONDS)),
      );
      return { outcome: 'spent' };
    },
  };
}
