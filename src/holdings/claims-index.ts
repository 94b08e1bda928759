/*
 * The claims part of the holdings index: which claims the insurer holds for an NRC, a reporting
 * phone, a loan or a membership, and a claim by its number. Identifiers only (never a status or
 * an amount: a lookup reads those fresh from the insurer, claim by claim). Written when the bot
 * intimates a claim and by the sync's read of both claim books.
 */
import { z } from 'zod';
import { hashTag } from '../redis/index.js';
import type { KeyValueStore } from '../storage/index.js';
import { phoneOf, text } from './sync-fields.js';

/** The two claim books. */
export const ClaimBook = z.enum(['credit-life', 'group-life']);
/** A claim book: credit-life or group-life. */
export type ClaimBook = z.infer<typeof ClaimBook>;

/** A claim by identifiers: its book, the insurer's id, its number and the policy it is on. */
export const ClaimRef = z.object({
  line: ClaimBook,
  claimId: z.string().min(1),
  number: z.string(),
  policyId: z.string(),
});
/** A claim by identifiers. */
export type ClaimRef = z.infer<typeof ClaimRef>;

/** The fields a claim names its loan or member by (the NRC is kept by its own key). */
export const CLAIM_SUBJECT_FIELDS = ['loanId', 'partnerLoanReference', 'memberId'] as const;
/** One of {@link CLAIM_SUBJECT_FIELDS}. */
export type ClaimSubjectField = (typeof CLAIM_SUBJECT_FIELDS)[number];

/** A loan or membership of one policy, as a claim names it. */
export interface ClaimSubject {
  readonly line: ClaimBook;
  readonly policyId: string;
  readonly field: ClaimSubjectField;
  readonly value: string;
}

/** A claim and what it is found by: written by the sync and by an intimation. */
export interface ClaimFact {
  readonly ref: ClaimRef;
  /** The member's or borrower's NRC, when the claim names it. */
  readonly nrc?: string | undefined;
  /** The phone that reported it, normalised. */
  readonly reporter?: string | undefined;
  readonly subjects: readonly ClaimSubject[];
}

/** Where to look for claims: any of a reporting phone, NRCs and loans or memberships. */
export interface ClaimsWhere {
  readonly phone?: string | undefined;
  readonly nrcs?: readonly string[] | undefined;
  readonly subjects?: readonly ClaimSubject[] | undefined;
}

/** The claim books the sync reads to their end; Track my claims depends on its book's. */
export const CLAIM_LISTS = ['credit-life-claims', 'group-life-claims'] as const;
/** One of {@link CLAIM_LISTS}. */
export type ClaimList = (typeof CLAIM_LISTS)[number];

/** The completeness stamp of a book's claims. */
export const claimListOf = (line: ClaimBook): ClaimList => `${line}-claims`;

/**
 * The claim fact of an insurer's claim record; null when it has no id or number. `known` adds
 * what the caller knows besides the record (the policy and loan a claim was just made against).
 */
export function claimFactOf(
  line: ClaimBook,
  claim: Readonly<Record<string, unknown>>,
  known: Readonly<Record<string, unknown>> = {},
): ClaimFact | null {
  const id = idText(claim.id);
  const number = text(claim.claimNumber);
  if (!id || !number) return null;
  const policyId = idText(claim.policyId) || idText(known.policyId);
  const subjects: ClaimSubject[] = [];
  for (const field of CLAIM_SUBJECT_FIELDS) {
    for (const value of new Set([idText(claim[field]), idText(known[field])])) {
      if (value && policyId) subjects.push({ line, policyId, field, value });
    }
  }
  const nrc = text(claim.nrcNumber) || text(known.nrcNumber);
  return {
    ref: { line, claimId: id, number, policyId },
    ...(nrc ? { nrc } : {}),
    ...(phoneOf(claim.intimatedByPhone) ? { reporter: phoneOf(claim.intimatedByPhone) } : {}),
    subjects,
  };
}

const idText = (value: unknown): string =>
  typeof value === 'number' ? String(value) : text(value).trim();

const CLAIM_FIELD = 'c:';

/** The Redis keys of the claims part (each a hash in its own slot: Cluster-safe). */
export function claimKeys(prefix: string) {
  return {
    /** `<prefix>claims:{nrc:<nrc>}`: the claims naming this NRC. */
    nrc: (nrc: string) => `${prefix}claims:${hashTag(`nrc:${nrc}`)}`,
    /** `<prefix>claims:{phone:<msisdn>}`: the claims this phone reported. */
    phone: (phone: string) => `${prefix}claims:${hashTag(`phone:${phone}`)}`,
    /** `<prefix>claims:{of:<line>:<policy>:<field>:<value>}`: the claims on a loan or member. */
    subject: (s: ClaimSubject) =>
      `${prefix}claims:${hashTag(`of:${s.line}:${s.policyId}:${s.field}:${s.value.toUpperCase()}`)}`,
    /** `<prefix>claims:{number:<NUMBER>}`: the claim with this number. */
    number: (number: string) => `${prefix}claims:${hashTag(`number:${number.toUpperCase()}`)}`,
  };
}

const Stored = z.object({ r: ClaimRef, t: z.number() });

/** The claims part over the key-value port; entries live `ttlSeconds` after their last write. */
export function createClaimsPart(
  store: KeyValueStore,
  prefix: string,
  seconds: () => number,
  ttlSeconds: number,
) {
  const keys = claimKeys(prefix);
  const refsOf = (fields: Readonly<Record<string, string>>): ClaimRef[] => {
    const oldest = seconds() - ttlSeconds;
    const refs: ClaimRef[] = [];
    for (const field in fields) {
      if (!field.startsWith(CLAIM_FIELD)) continue;
      const parsed = Stored.safeParse(safeJson(fields[field] as string));
      if (parsed.success && parsed.data.t >= oldest) refs.push(parsed.data.r);
    }
    return refs;
  };
  return {
    /** Writes the claims' keys, one write per key, all at once. */
    async write(facts: readonly ClaimFact[]): Promise<void> {
      if (facts.length === 0) return;
      const at = seconds();
      const writes = new Map<string, Record<string, string>>();
      for (const fact of facts) {
        const ref = ClaimRef.parse(fact.ref);
        const field = `${CLAIM_FIELD}${ref.line}:${ref.claimId}`;
        const value = JSON.stringify({ r: ref, t: at });
        const where = [
          keys.number(ref.number),
          ...(fact.nrc ? [keys.nrc(fact.nrc)] : []),
          ...(fact.reporter ? [keys.phone(fact.reporter)] : []),
          ...fact.subjects.map(keys.subject),
        ];
        for (const key of where) writes.set(key, { ...writes.get(key), [field]: value });
      }
      await Promise.all([...writes].map(([key, fields]) => store.hashSet(key, fields, ttlSeconds)));
    },
    /** The claims kept under any of `where`'s keys, each once, newest number first. */
    async claimsOf(where: ClaimsWhere): Promise<ClaimRef[]> {
      const asked = [
        ...(where.phone ? [keys.phone(where.phone)] : []),
        ...(where.nrcs ?? []).map(keys.nrc),
        ...(where.subjects ?? []).map(keys.subject),
      ];
      const all = await Promise.all([...new Set(asked)].map((key) => store.hashGetAll(key)));
      const unique = new Map<string, ClaimRef>();
      for (const ref of all.flatMap(refsOf)) unique.set(`${ref.line}:${ref.claimId}`, ref);
      return [...unique.values()].sort((a, b) => b.number.localeCompare(a.number));
    },
    /** The claim with this number, when kept. */
    async claimByNumber(number: string): Promise<ClaimRef | undefined> {
      return refsOf(await store.hashGetAll(keys.number(number)))[0];
    },
    /** Deletes the claims kept for a phone and for its NRCs ("forget me"). */
    async forget(phone: string, nrcs: readonly string[]): Promise<void> {
      await Promise.all([keys.phone(phone), ...nrcs.map(keys.nrc)].map((key) => store.delete(key)));
    },
  };
}

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}
