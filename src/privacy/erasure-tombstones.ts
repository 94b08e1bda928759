import { normaliseCaller } from '../msisdn/index.js';
import { hashTag } from '../redis/index.js';
import type { KeyValueStore } from '../storage/index.js';
import { keyedHasher } from './keyed-hash.js';

/**
 * How long an erasure is remembered: two years, renewed each time the holdings sync meets the
 * erased phone or NRC again (the insurer keeps its records, so its lists name them for as long
 * as the cover is on its books). Two years without meeting them and the tombstone goes.
 */
export const ERASURE_TOMBSTONE_TTL_SECONDS = 730 * 86_400;

/** Who an index write or an erasure names: a phone, an NRC, or both. */
export interface ErasedIdentity {
  readonly phone?: string | undefined;
  readonly nrc?: string | undefined;
}

/**
 * Erasures remembered so they last ("Delete my data", "Stop using my data"): a keyed hash (HMAC
 * with a server secret) of the phone and of each NRC, never the clear value, so the background
 * holdings sync does not write back what was erased. A new paid purchase lifts them.
 */
export interface ErasureTombstones {
  /** Remembers the phone and NRCs as erased. */
  bury(phone: string | undefined, nrcs: readonly string[]): Promise<void>;
  /** True when the phone or the NRC named was erased (and not bought with since). */
  erased(who: ErasedIdentity): Promise<boolean>;
  /** Forgets the erasure of the phone and NRC named: their holder bought cover again. */
  lift(who: ErasedIdentity): Promise<void>;
}

/** A phone in one form (`260…`), an NRC by its digits: how `123456/78/1` and `123456781` match. */
function forms(who: ErasedIdentity): string[] {
  const out: string[] = [];
  const phone = who.phone === undefined ? undefined : normaliseCaller(who.phone);
  if (phone) out.push(`phone:${phone}`);
  const nrc = who.nrc?.replace(/\D/g, '');
  if (nrc) out.push(`nrc:${nrc}`);
  return out;
}

/**
 * The tombstones over the key-value port: `<prefix>erased:{<hmac>}`, one string key per phone or
 * NRC, its name a truncated HMAC-SHA-256 (128 bits) under a key derived from `secret`.
 */
export function createErasureTombstones(
  store: KeyValueStore,
  prefix: string,
  secret: string,
): ErasureTombstones {
  const hash = keyedHasher(secret, 'erasure-tombstones');
  const keyOf = (form: string) => `${prefix}erased:${hashTag(hash(form))}`;
  return {
    async bury(phone, nrcs) {
      const all = [...forms({ phone }), ...nrcs.flatMap((nrc) => forms({ nrc }))];
      await Promise.all(
        all.map((form) => store.set(keyOf(form), '1', ERASURE_TOMBSTONE_TTL_SECONDS)),
      );
    },
    async erased(who) {
      const found = await Promise.all(
        forms(who).map((form) => store.getAndTouch(keyOf(form), ERASURE_TOMBSTONE_TTL_SECONDS)),
      );
      return found.some((value) => value !== undefined);
    },
    async lift(who) {
      await Promise.all(forms(who).map((form) => store.delete(keyOf(form))));
    },
  };
}

/** The index write both wrappers below guard: facts naming a phone and an NRC. */
export interface IdentityWriter<Fact extends ErasedIdentity> {
  record(facts: readonly Fact[]): Promise<void>;
}

/**
 * The holdings index as the background sync writes it: a fact naming an erased phone or NRC is
 * left out, so "Delete my data" is not undone by the next run. Logs how many were left out (no
 * identifiers).
 */
export function skippingErased<Fact extends ErasedIdentity, Index extends IdentityWriter<Fact>>(
  index: Index,
  tombstones: ErasureTombstones,
  onSkipped?: (count: number) => void,
): Index {
  return {
    ...index,
    async record(facts: readonly Fact[]) {
      // A page names the same holder many times (a phone per policy): one look-up each.
      const asked = new Map<string, Promise<boolean>>();
      const erasedOnce = (fact: Fact) => {
        const id = `${fact.phone ?? ''}|${fact.nrc ?? ''}`;
        let found = asked.get(id);
        if (!found) {
          found = tombstones.erased(fact);
          asked.set(id, found);
        }
        return found;
      };
      const erased = await Promise.all(facts.map(erasedOnce));
      const kept = facts.filter((_, at) => !erased[at]);
      if (kept.length < facts.length) onSkipped?.(facts.length - kept.length);
      await index.record(kept);
    },
  };
}

/**
 * The holdings index as a sale writes it: a paid purchase is the holder coming back, so the
 * erasure of its phone and NRC is lifted before the purchase is recorded.
 */
export function liftingErased<Fact extends ErasedIdentity, Index extends IdentityWriter<Fact>>(
  index: Index,
  tombstones: ErasureTombstones,
): Index {
  return {
    ...index,
    async record(facts: readonly Fact[]) {
      await Promise.all(facts.map((fact) => tombstones.lift(fact)));
      await index.record(facts);
    },
  };
}
