import { z } from 'zod';
import { dayNumber } from '../clock/index.js';
import { CHANNEL_NAMES, type ChannelName } from '../conversation/index.js';
import { hashTag, type RedisConnection } from '../redis/index.js';
import { createMemoryStore, createRedisStore, type KeyValueStore } from '../storage/index.js';

/**
 * Where the holder of one policy bought through insurechat is reached, recorded when it was paid
 * (and again at each renewal): their channel address, the policy and when its period ends.
 */
export const ContactRecord = z.object({
  policyId: z.string().min(1),
  policyNumber: z.string(),
  /** `motor` today; the product line decides the reminder's words and the renewal it opens. */
  product: z.literal('motor'),
  /** What is insured, in the holder's words (product and plate). */
  what: z.string(),
  /** Last day of cover, `YYYY-MM-DD`. */
  endDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  channel: z.enum(CHANNEL_NAMES),
  address: z.string().min(1),
  locale: z.string().min(1),
  /** Reminders agreed (opt-out: true at purchase, with a notice saying how to stop). */
  consent: z.boolean(),
  recordedAt: z.string(),
  /** The end date the last reminder was about: a renewal of that period followed a reminder. */
  remindedFor: z.string().optional(),
});
/** Where a policy's holder is reached and whether they agreed to reminders. */
export type ContactRecord = z.infer<typeof ContactRecord>;

/** A holder's address on one channel (reminders are stopped per address, not per policy). */
export interface HolderAddress {
  readonly channel: ChannelName;
  readonly address: string;
}

/** A policy on a holder's card: what the entry menu's "Renew …" needs. */
interface CardPolicy {
  readonly policyId: string;
  readonly policyNumber: string;
  /** Last day of cover, `YYYY-MM-DD`. */
  readonly endDate: string;
}

/** What the entry menu needs of one holder address: their policies and whether they said STOP. */
export interface HolderCard {
  readonly policies: readonly CardPolicy[];
  readonly stopped: boolean;
  /** The language the holder chose (a locale code); undefined when they never chose. */
  readonly language?: string | undefined;
}

/** The stored contacts and the per-milestone send claims, shared by every instance over Redis. */
export interface ContactBook {
  /** Saves a contact; `previous` is the holder it was saved for before, if another one. */
  save(record: ContactRecord, previous?: HolderAddress): Promise<void>;
  get(policyId: string): Promise<ContactRecord | undefined>;
  /** Policy ids whose cover ends on or before day number `lastDay` (days since 1970-01-01). */
  endingBy(lastDay: number): Promise<string[]>;
  /** Forgets the due-index entries of covers that ended before day number `day`. */
  forgetEndedBefore(day: number): Promise<void>;
  /** One holder address's card: one read. */
  cardOf(holder: HolderAddress): Promise<HolderCard>;
  /**
   * The Redis key of a holder's card (a hash: see {@link cardFromFields}), for reading it with
   * the holder's session; undefined unless the book shares the sessions' Redis.
   */
  cardKey?(holder: HolderAddress): string;
  /**
   * Erases a holder address: its card, the contacts of its policies and their due entries
   * ("Delete my data"); resolves how many policies the card named.
   */
  forgetHolder(holder: HolderAddress): Promise<number>;
  /** Turns reminders off (`true`) or back on for every policy of the address. */
  setStopped(holder: HolderAddress, stopped: boolean): Promise<void>;
  isStopped(holder: HolderAddress): Promise<boolean>;
  /**
   * Remembers the language the holder chose, on their card, for {@link LANGUAGE_TTL_SECONDS}
   * from now (each choice and each purchase starts it again).
   */
  setLanguage(holder: HolderAddress, locale: string): Promise<void>;
  /** Takes `key` for `ttlSeconds` unless someone holds it; true when this caller took it. */
  claim(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Replaces a held claim's value and lifetime (sending → sent). */
  confirm(key: string, value: string, ttlSeconds: number): Promise<void>;
  release(key: string): Promise<void>;
  /** Takes a held claim away (read and deleted at once): true when it was held till now. */
  take(key: string): Promise<boolean>;
}

/** How long a contact is kept after its last write: past a year's cover and its grace. */
const CONTACT_TTL_SECONDS = 500 * 86_400;

/**
 * How long a holder's language choice is kept after it was made: as long as their contacts, so
 * it lives on the same card (`reminder-card:{<channel>:<address>}`, field `lang`) without
 * shortening its life. A caller not heard of for that long is asked again.
 */
const LANGUAGE_TTL_SECONDS = CONTACT_TTL_SECONDS;

/** A card's field for the holder's language. */
const LANGUAGE_FIELD = 'lang';

/** A card's field for the STOP flag; each policy is a field `p:<policyId>`. */
const STOP_FIELD = 'stop';
const POLICY_FIELD = 'p:';

/** A card policy's field value: its number and end date. */
const CardEntry = z.object({ n: z.string(), e: z.string() });

/** The language on a card's hash fields, without reading the rest (every turn reads it). */
export function languageFromFields(fields: Readonly<Record<string, string>>): string | undefined {
  return fields[LANGUAGE_FIELD];
}

/** A holder's card from its hash fields (an unreadable entry is left out, not fatal). */
export function cardFromFields(fields: Readonly<Record<string, string>>): HolderCard {
  const policies: CardPolicy[] = [];
  for (const field in fields) {
    if (!field.startsWith(POLICY_FIELD)) continue;
    let entry: z.infer<typeof CardEntry> | undefined;
    try {
      entry = CardEntry.parse(JSON.parse(fields[field] as string));
    } catch {
      continue;
    }
    policies.push({
      policyId: field.slice(POLICY_FIELD.length),
      policyNumber: entry.n,
      endDate: entry.e,
    });
  }
  return { policies, stopped: fields[STOP_FIELD] === '1', language: languageFromFields(fields) };
}

function keysOf(prefix: string) {
  return {
    contact: (policyId: string) => `${prefix}reminder-contact:${hashTag(policyId)}`,
    // Tagged like the holder's session (`<channel>:<address>`, as USSD's is), so the session
    // store can read the card with the session's record in one script on a Cluster too.
    card: (holder: HolderAddress) =>
      `${prefix}reminder-card:${hashTag(`${holder.channel}:${holder.address}`)}`,
    due: `${prefix}reminder-due`,
    claim: (key: string) => `${prefix}reminder-claim:${hashTag(key)}`,
  };
}

function parse(raw: string | null | undefined): ContactRecord | undefined {
  if (!raw) return undefined;
  const parsed = ContactRecord.safeParse(JSON.parse(raw));
  return parsed.success ? parsed.data : undefined;
}

/** Options of {@link createContactBook}. */
export interface ContactBookOptions {
  /**
   * Whether the book hands out its cards' keys ({@link ContactBook.cardKey}) for the session
   * store to read a card with the session: only when both live in the same Redis.
   */
  readonly sharesSessionRedis?: boolean;
}

/**
 * The contact book over the key-value port (Redis shared by every instance, or this process).
 * Each call touches one key, so it runs on a Redis Cluster too; the few writes of one save are
 * not atomic together, and need not be: a contact found through the due index or a holder's card
 * is read from its own key, which is written first.
 */
function createContactBook(
  store: KeyValueStore,
  prefix: string,
  options: ContactBookOptions = {},
): ContactBook {
  const keys = keysOf(prefix);
  const read = async (policyId: string) => parse(await store.get(keys.contact(policyId)));
  return {
    async save(record, previous) {
      const valid = ContactRecord.parse(record);
      await store.set(keys.contact(valid.policyId), JSON.stringify(valid), CONTACT_TTL_SECONDS);
      await store.sortedAdd(keys.due, dayNumber(valid.endDate), valid.policyId);
      const card = keys.card(valid);
      const entry = JSON.stringify({ n: valid.policyNumber, e: valid.endDate });
      await store.hashSet(
        card,
        { [`${POLICY_FIELD}${valid.policyId}`]: entry },
        CONTACT_TTL_SECONDS,
      );
      if (previous && keys.card(previous) !== card) {
        await store.hashDelete(keys.card(previous), `${POLICY_FIELD}${valid.policyId}`);
      }
    },
    get: read,
    async endingBy(lastDay) {
      return store.sortedUpTo(keys.due, lastDay);
    },
    async forgetEndedBefore(day) {
      await store.sortedRemoveBelow(keys.due, day);
    },
    async cardOf(holder) {
      return cardFromFields(await store.hashGetAll(keys.card(holder)));
    },
    ...(options.sharesSessionRedis ? { cardKey: keys.card } : {}),
    async forgetHolder(holder) {
      const { policies } = cardFromFields(await store.hashGetAll(keys.card(holder)));
      for (const { policyId } of policies) {
        // Only this holder's contact: a policy moved to another address since is theirs.
        const contact = await read(policyId);
        if (contact && (contact.channel !== holder.channel || contact.address !== holder.address)) {
          continue;
        }
        await store.delete(keys.contact(policyId));
        await store.sortedRemove(keys.due, policyId);
      }
      await store.delete(keys.card(holder));
      return policies.length;
    },
    async setStopped(holder, stopped) {
      const card = keys.card(holder);
      if (stopped) {
        await store.hashSet(card, { [STOP_FIELD]: '1' });
        // A STOP from a number with no card yet makes one: it expires like any card.
        await store.expire(card, CONTACT_TTL_SECONDS, { onlyIfNone: true });
      } else await store.hashDelete(card, STOP_FIELD);
    },
    async isStopped(holder) {
      return store.hashHas(keys.card(holder), STOP_FIELD);
    },
    async setLanguage(holder, locale) {
      await store.hashSet(keys.card(holder), { [LANGUAGE_FIELD]: locale }, LANGUAGE_TTL_SECONDS);
    },
    async claim(key, value, ttlSeconds) {
      return store.setIfAbsent(keys.claim(key), value, ttlSeconds);
    },
    async confirm(key, value, ttlSeconds) {
      await store.set(keys.claim(key), value, ttlSeconds);
    },
    async release(key) {
      await store.delete(keys.claim(key));
    },
    async take(key) {
      return (await store.take(keys.claim(key))) !== undefined;
    },
  };
}

/** The contact book in Redis, beside the sessions (it hands out its card keys). */
export function createRedisContactBook(redis: RedisConnection, prefix: string): ContactBook {
  return createContactBook(createRedisStore(redis), prefix, { sharesSessionRedis: true });
}

/** The contact book in this process (the embedded default): lost on restart. */
export function createMemoryContactBook(now: () => number = Date.now): ContactBook {
  return createContactBook(createMemoryStore({ now }), '');
}
