import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { hashTag, type RedisConnection } from '../redis/index.js';
import { createMemoryStore, createRedisStore, type KeyValueStore } from '../storage/index.js';
import {
  CLAIM_LISTS,
  type ClaimFact,
  type ClaimList,
  type ClaimRef,
  type ClaimsWhere,
  createClaimsPart,
} from './claims-index.js';

/**
 * One record a person holds, by identifiers only (never a name): a motor or travel policy, a
 * membership of a group-life policy, a loan on a credit-life policy. `number` is the printed
 * policy number or the partner's loan reference, shown when the insurer cannot confirm it.
 */
export const HoldingRef = z.discriminatedUnion('line', [
  z.object({ line: z.literal('motor'), policyId: z.string().min(1), number: z.string() }),
  z.object({ line: z.literal('travel'), policyId: z.string().min(1), number: z.string() }),
  z.object({
    line: z.literal('group-life'),
    policyId: z.string().min(1),
    memberId: z.string().min(1),
    number: z.string(),
  }),
  z.object({
    line: z.literal('credit-life'),
    policyId: z.string().min(1),
    loanId: z.string().min(1),
    number: z.string(),
    /** The master policy's number, which the loan's screen names. */
    policyNumber: z.string().optional(),
  }),
]);
/** A record a person holds, by identifiers. */
export type HoldingRef = z.infer<typeof HoldingRef>;

/** What the index knows of one phone: the NRCs registered with it and what was bought with it. */
export interface PhoneEntry {
  readonly nrcs: string[];
  readonly refs: HoldingRef[];
}

/** What the index knows of one NRC: what it holds and the phones on record for it. */
export interface NrcEntry {
  readonly refs: HoldingRef[];
  readonly phones: string[];
}

/** Who holds what, as one write records it: any of the three may be missing. */
export interface HoldingFact {
  /** The holder's phone, normalised (`2609…`). */
  readonly phone?: string | undefined;
  readonly nrc?: string | undefined;
  readonly ref?: HoldingRef | undefined;
  /**
   * A claim the insurer holds (then `nrc` is its member's or borrower's and `phone` its
   * reporter's, for the erasure check only: a claim links no phone to an NRC).
   */
  readonly claim?: ClaimFact | undefined;
}

/** Where the background sync stands, per list it reads (see holdings-sync.ts). */
export type SyncCursor = Record<string, string>;

/**
 * The index of who holds what: phone → NRCs and records, NRC → records and phones. Written when
 * the bot sells, and by the sync for cover sold elsewhere; read by every cover lookup.
 */
export interface HoldingsIndex {
  /** Records facts (idempotent); each refreshes the entry's lifetime. */
  record(facts: readonly HoldingFact[]): Promise<void>;
  /** One phone's entry (one read). */
  ofPhone(phone: string): Promise<PhoneEntry>;
  /** Several NRCs' entries, in order (one round trip). */
  ofNrcs(nrcs: readonly string[]): Promise<NrcEntry[]>;
  /** Drops a record the insurer no longer returns from the NRC and phone entries named. */
  drop(
    ref: HoldingRef,
    where: { readonly phone?: string; readonly nrcs?: readonly string[] },
  ): Promise<void>;
  /**
   * Deletes everything held for a phone (consent withdrawn, "forget me") and the entries of the
   * NRCs it was linked to (the same person's); resolves those NRCs, for the erasure to remember.
   */
  forget(phone: string): Promise<readonly string[]>;
  /** The sync's cursor; empty before the first run. */
  cursor(): Promise<SyncCursor>;
  /** Saves part of the sync's cursor (checkpoint after each page). */
  saveCursor(values: SyncCursor): Promise<void>;
  /** Forgets the sync's cursor: the next run reads every list from the start (a rebuild). */
  resetCursor(): Promise<void>;
  /**
   * Records the sync (or a lookup) could not read, to read again on the sync's next run: a
   * holder read that failed, a lookup answered 404 (perhaps for a moment). With how many runs
   * in a row each has been answered 404.
   */
  toReread(): Promise<readonly Reread[]>;
  /** Adds records to read again (`misses`: runs in a row answered 404 so far; default 0). */
  markReread(refs: readonly HoldingRef[], misses?: number): Promise<void>;
  /** Takes records off the list to read again (read, or gone for good). */
  reread(refs: readonly HoldingRef[]): Promise<void>;
  /**
   * The insurer's policyholder records say `phones` are the phones of `nrc` now (one per
   * individual on record for it: a person may hold two): every other phone linked to the NRC
   * loses the link and the NRC's records it held (a changed number keeps no cover; a policy that
   * names another phone links it again as the full pass reads it).
   */
  relink(nrc: string, phones: readonly string[]): Promise<void>;
  /**
   * Opens a sync run: resolves its id, kept beside the stamps. A Redis loss while the run reads
   * takes the id with it, and the run's stamps are then refused (see {@link markComplete}).
   */
  beginRun(): Promise<string>;
  /**
   * Stamps a list the sync has just read to its end (now), when `run` is still the run on
   * record; resolves false otherwise: facts written before a flush are gone, so the list is not
   * complete, however far the read went.
   */
  markComplete(list: SyncedList | ClaimList, run: string): Promise<boolean>;
  /**
   * Whether the index can say "none": every list a lookup depends on was read to its end within
   * {@link LIST_STALE_AFTER_MS}. A list never read (cold start), lost (Redis flushed) or older
   * makes a lookup that finds nothing "unknown", never "none".
   */
  completeness(): Promise<Completeness>;
  /** The claims kept for a reporting phone, NRCs, loans or memberships; newest number first. */
  claimsOf(where: ClaimsWhere): Promise<ClaimRef[]>;
  /** The claim kept under this number (any case), if any. */
  claimByNumber(number: string): Promise<ClaimRef | undefined>;
  /**
   * Per claim book, whether a lookup that finds no claim may say "none": `fresh` when the sync
   * read the book to its end within {@link LIST_STALE_AFTER_MS} (same run guard as the lists).
   */
  claimsCompleteness(): Promise<Readonly<Record<ClaimList, ListState>>>;
}

/** How recently a list was read to its end: within {@link LIST_STALE_AFTER_MS}, older, or never. */
export type ListState = 'fresh' | 'stale' | 'cold';

/** The insurer's lists the sync reads; every cover lookup depends on each of them. */
export const SYNCED_LISTS = [
  'individuals',
  'motor',
  'travel',
  'group-life',
  'credit-life',
] as const;
/** One list of {@link SYNCED_LISTS}. */
export type SyncedList = (typeof SYNCED_LISTS)[number];

/** Whether the index may say "none", and the state of each list. */
export interface Completeness {
  /** Every list fresh: a lookup that finds nothing may say "none". */
  readonly complete: boolean;
  readonly lists: Readonly<Record<SyncedList, 'fresh' | 'stale' | 'cold'>>;
}

/**
 * How old a list's last complete read may be before the index no longer says "none" from it:
 * two sync intervals (a run missed or slow is tolerated, a sync stopped is not).
 */
export const LIST_STALE_AFTER_MS = 2 * 15 * 60_000;

/** A record to read again, and how many runs in a row the insurer answered it 404. */
export interface Reread {
  readonly ref: HoldingRef;
  readonly misses: number;
}

/** A to-read-again entry as stored: the record and its 404 count. */
const StoredReread = z.object({ r: HoldingRef, m: z.number().int().nonnegative() });

/**
 * How long an entry lives after its last write, and how old a record may be before it is no
 * longer shown: the sync's full pass (weekly) sees every record the insurer still returns, so
 * what it stopped returning goes within this time, at once if a lookup is answered 404.
 */
export const HOLDINGS_TTL_SECONDS = 30 * 86_400;
/** The sync's cursor outlives a few missed runs; lost, the next run is a full one. */
export const CURSOR_TTL_SECONDS = 30 * 86_400;

const NRC_FIELD = 'n:';
const PHONE_FIELD = 'p:';
const REF_FIELD = 'r:';
/** Field of the completeness hash naming the sync run its stamps belong to. */
const RUN_FIELD = 'run';

/** The hash field of a record: its line and ids (what makes two records the same one). */
export function refField(ref: HoldingRef): string {
  switch (ref.line) {
    case 'group-life':
      return `${REF_FIELD}${ref.line}:${ref.policyId}:${ref.memberId}`;
    case 'credit-life':
      return `${REF_FIELD}${ref.line}:${ref.policyId}:${ref.loanId}`;
    default:
      return `${REF_FIELD}${ref.line}:${ref.policyId}`;
  }
}

/** A stored JSON text, or undefined when it is not JSON. */
function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

/** A field's value: the record and when it was last seen (epoch seconds). */
const Stored = z.object({ r: HoldingRef, t: z.number() });

interface Entry {
  nrcs: string[];
  phones: string[];
  refs: HoldingRef[];
}

/** An entry from its hash fields; unreadable or outlived fields are left out. */
function entryOf(fields: Readonly<Record<string, string>>, nowSeconds: number): Entry {
  const entry: Entry = { nrcs: [], phones: [], refs: [] };
  const oldest = nowSeconds - HOLDINGS_TTL_SECONDS;
  for (const field in fields) {
    const value = fields[field] as string;
    if (field.startsWith(NRC_FIELD)) {
      if (Number(value) >= oldest) entry.nrcs.push(field.slice(NRC_FIELD.length));
    } else if (field.startsWith(PHONE_FIELD)) {
      if (Number(value) >= oldest) entry.phones.push(field.slice(PHONE_FIELD.length));
    } else if (field.startsWith(REF_FIELD)) {
      let parsed: z.infer<typeof Stored> | undefined;
      try {
        parsed = Stored.parse(JSON.parse(value));
      } catch {
        continue;
      }
      if (parsed.t < oldest) continue;
      entry.refs.push(parsed.r);
    }
  }
  // A hash keeps its fields' order only while Redis packs it small (values under 64 bytes; a
  // record's value is longer): by line, then number, the same on every read and store.
  entry.refs.sort(byLineThenNumber);
  return entry;
}

function byLineThenNumber(a: HoldingRef, b: HoldingRef): number {
  return a.line === b.line ? a.number.localeCompare(b.number) : a.line.localeCompare(b.line);
}

/** The fields one fact writes, per key kind. */
function fieldsOf(fact: HoldingFact, nowSeconds: number) {
  const phone: Record<string, string> = {};
  const nrc: Record<string, string> = {};
  const stamp = String(nowSeconds);
  if (fact.ref) {
    const value = JSON.stringify({ r: HoldingRef.parse(fact.ref), t: nowSeconds });
    if (fact.phone) phone[refField(fact.ref)] = value;
    if (fact.nrc) nrc[refField(fact.ref)] = value;
  }
  if (fact.phone && fact.nrc) {
    phone[`${NRC_FIELD}${fact.nrc}`] = stamp;
    nrc[`${PHONE_FIELD}${fact.phone}`] = stamp;
  }
  return { phone, nrc };
}

/** The Redis keys of the index (each a hash, in its own slot: Cluster-safe). */
export function holdingsKeys(prefix: string) {
  return {
    /** `<prefix>holdings:{phone:<msisdn>}`: fields `n:<nrc>` and `r:<record>`. */
    phone: (phone: string) => `${prefix}holdings:${hashTag(`phone:${phone}`)}`,
    /** `<prefix>holdings:{nrc:<nrc>}`: fields `p:<msisdn>` and `r:<record>`. */
    nrc: (nrc: string) => `${prefix}holdings:${hashTag(`nrc:${nrc}`)}`,
    /** `<prefix>holdings-sync:{cursor}`: one field per list the sync reads. */
    cursor: `${prefix}holdings-sync:${hashTag('cursor')}`,
    /** `<prefix>holdings-sync:{complete}`: per list, when it was last read to its end (ms). */
    complete: `${prefix}holdings-sync:${hashTag('complete')}`,
    /** `<prefix>holdings-sync:{reread}`: one field per record to read again on the next run. */
    reread: `${prefix}holdings-sync:${hashTag('reread')}`,
  };
}

/**
 * The index over the key-value port (Redis beside the sessions, or this process). Every key is
 * a hash with a lifetime, each in its own slot: Cluster-safe.
 */
export function createHoldingsIndex(
  store: KeyValueStore,
  prefix: string,
  now: () => number = Date.now,
): HoldingsIndex {
  const keys = holdingsKeys(prefix);
  const seconds = () => Math.floor(now() / 1000);
  const claims = createClaimsPart(store, prefix, seconds, HOLDINGS_TTL_SECONDS);
  const stateOf = (stamps: Readonly<Record<string, string>>, list: string): ListState => {
    const stamp = Number(stamps[list]);
    if (!stamps[list] || !Number.isFinite(stamp)) return 'cold';
    return now() - stamp <= LIST_STALE_AFTER_MS ? 'fresh' : 'stale';
  };
  const markReread = async (refs: readonly HoldingRef[], misses = 0) => {
    if (refs.length === 0) return;
    const fields = Object.fromEntries(
      refs.map((ref) => [refField(ref), JSON.stringify({ r: HoldingRef.parse(ref), m: misses })]),
    );
    await store.hashSet(keys.reread, fields, CURSOR_TTL_SECONDS);
  };
  return {
    async record(all) {
      const claimed = all.flatMap((fact) => (fact.claim ? [fact.claim] : []));
      const facts = all.filter((fact) => !fact.claim);
      if (claimed.length > 0) await claims.write(claimed);
      if (facts.length === 0) return;
      const at = seconds();
      // One write per key, all sent at once: the keys live in different slots of a Cluster, so
      // they are not put in one pipeline (each key's fields are merged first).
      const writes = new Map<string, Record<string, string>>();
      const merge = (key: string, fields: Record<string, string>) => {
        if (Object.keys(fields).length > 0) writes.set(key, { ...writes.get(key), ...fields });
      };
      for (const fact of facts) {
        const { phone, nrc } = fieldsOf(fact, at);
        if (fact.phone) merge(keys.phone(fact.phone), phone);
        if (fact.nrc) merge(keys.nrc(fact.nrc), nrc);
      }
      await Promise.all(
        [...writes].map(([key, fields]) => store.hashSet(key, fields, HOLDINGS_TTL_SECONDS)),
      );
    },
    async ofPhone(phone) {
      const { nrcs, refs } = entryOf(await store.hashGetAll(keys.phone(phone)), seconds());
      return { nrcs, refs };
    },
    async ofNrcs(nrcs) {
      const all = await Promise.all(nrcs.map((nrc) => store.hashGetAll(keys.nrc(nrc))));
      const at = seconds();
      return all.map((fields) => {
        const { refs, phones } = entryOf(fields, at);
        return { refs, phones };
      });
    },
    async drop(ref, where) {
      const field = refField(ref);
      const keysOf = [
        ...(where.phone ? [keys.phone(where.phone)] : []),
        ...(where.nrcs ?? []).map(keys.nrc),
      ];
      await Promise.all(keysOf.map((key) => store.hashDelete(key, field)));
      // A 404 may be the insurer's passing fault: the sync's next run reads the record again.
      await markReread([ref]);
    },
    async forget(phone) {
      // Every NRC the phone was ever linked to, however old the link.
      const fields = await store.hashGetAll(keys.phone(phone));
      const { nrcs } = entryOf(fields, Number.NEGATIVE_INFINITY);
      await Promise.all(nrcs.map((nrc) => store.delete(keys.nrc(nrc))));
      await store.delete(keys.phone(phone));
      await claims.forget(phone, nrcs);
      return nrcs;
    },
    async cursor() {
      return store.hashGetAll(keys.cursor);
    },
    async saveCursor(values) {
      if (Object.keys(values).length === 0) return;
      await store.hashSet(keys.cursor, values, CURSOR_TTL_SECONDS);
    },
    async resetCursor() {
      await store.delete(keys.cursor);
    },
    async toReread() {
      const fields = await store.hashGetAll(keys.reread);
      const found: Reread[] = [];
      for (const value of Object.values(fields)) {
        const parsed = StoredReread.safeParse(safeJson(value));
        if (parsed.success) found.push({ ref: parsed.data.r, misses: parsed.data.m });
      }
      return found;
    },
    markReread,
    async relink(nrc, phones) {
      const nrcKey = keys.nrc(nrc);
      const fields = await store.hashGetAll(nrcKey);
      const others = Object.keys(fields)
        .filter((field) => field.startsWith(PHONE_FIELD))
        .map((field) => field.slice(PHONE_FIELD.length))
        .filter((other) => !phones.includes(other));
      const refs = Object.keys(fields).filter((field) => field.startsWith(REF_FIELD));
      await Promise.all(
        others.flatMap((other) => [
          store.hashDelete(nrcKey, `${PHONE_FIELD}${other}`),
          store.hashDelete(keys.phone(other), `${NRC_FIELD}${nrc}`),
          ...refs.map((field) => store.hashDelete(keys.phone(other), field)),
        ]),
      );
    },
    async beginRun() {
      const run = randomUUID();
      await store.hashSet(keys.complete, { [RUN_FIELD]: run }, CURSOR_TTL_SECONDS);
      return run;
    },
    async markComplete(list, run) {
      // Checked, then stamped: a flush in between is a window of one round trip, against the
      // whole read a sync run takes.
      const stamps = await store.hashGetAll(keys.complete);
      if (stamps[RUN_FIELD] !== run) return false;
      await store.hashSet(keys.complete, { [list]: String(now()) }, CURSOR_TTL_SECONDS);
      return true;
    },
    async completeness() {
      const stamps = await store.hashGetAll(keys.complete);
      const lists = Object.fromEntries(
        SYNCED_LISTS.map((list) => [list, stateOf(stamps, list)]),
      ) as Record<SyncedList, ListState>;
      return { complete: Object.values(lists).every((state) => state === 'fresh'), lists };
    },
    async claimsCompleteness() {
      const stamps = await store.hashGetAll(keys.complete);
      return Object.fromEntries(CLAIM_LISTS.map((list) => [list, stateOf(stamps, list)])) as Record<
        ClaimList,
        ListState
      >;
    },
    claimsOf: (where) => claims.claimsOf(where),
    claimByNumber: (number) => claims.claimByNumber(number),
    async reread(refs) {
      await Promise.all(refs.map((ref) => store.hashDelete(keys.reread, refField(ref))));
    },
  };
}

/** The index in Redis, beside the sessions. */
export function createRedisHoldingsIndex(
  redis: RedisConnection,
  prefix: string,
  now: () => number = Date.now,
): HoldingsIndex {
  return createHoldingsIndex(createRedisStore(redis), prefix, now);
}

/** The index in this process (no Redis: `npm start` with in-memory sessions); lost on restart. */
export function createMemoryHoldingsIndex(now: () => number = Date.now): HoldingsIndex {
  return createHoldingsIndex(createMemoryStore({ now }), '', now);
}
