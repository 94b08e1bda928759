import { z } from 'zod';
import { dayNumber } from '../clock/index.js';
import type { ChannelName } from '../conversation/index.js';
import { hashTag, type RedisConnection } from '../redis/index.js';

const CHANNELS = ['ussd', 'telegram', 'slack', 'web'] as const satisfies readonly ChannelName[];

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
  channel: z.enum(CHANNELS),
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
export interface CardPolicy {
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
   * the holder's session; undefined when the book is not in Redis.
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
export const LANGUAGE_TTL_SECONDS = CONTACT_TTL_SECONDS;

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

/**
 * The contact book in Redis. Each command touches one key, so it runs on a Redis Cluster too;
 * the few writes of one save are not atomic together, and need not be: a contact found through
 * the due index or a holder's set is read from its own key, which is written first.
 */
export function createRedisContactBook(redis: RedisConnection, prefix: string): ContactBook {
  const keys = keysOf(prefix);
  return {
    async save(record, previous) {
      const valid = ContactRecord.parse(record);
      await redis.set(
        keys.contact(valid.policyId),
        JSON.stringify(valid),
        'EX',
        CONTACT_TTL_SECONDS,
      );
      await redis.zadd(keys.due, dayNumber(valid.endDate), valid.policyId);
      const card = keys.card(valid);
      const entry = JSON.stringify({ n: valid.policyNumber, e: valid.endDate });
      await redis.hset(card, `${POLICY_FIELD}${valid.policyId}`, entry);
      await redis.expire(card, CONTACT_TTL_SECONDS);
      if (previous && keys.card(previous) !== card) {
        await redis.hdel(keys.card(previous), `${POLICY_FIELD}${valid.policyId}`);
      }
    },
    async get(policyId) {
      return parse(await redis.get(keys.contact(policyId)));
    },
    async endingBy(lastDay) {
      return redis.zrangebyscore(keys.due, '-inf', lastDay);
    },
    async forgetEndedBefore(day) {
      await redis.zremrangebyscore(keys.due, '-inf', `(${day}`);
    },
    async cardOf(holder) {
      return cardFromFields(await redis.hgetall(keys.card(holder)));
    },
    cardKey: keys.card,
    async forgetHolder(holder) {
      const { policies } = cardFromFields(await redis.hgetall(keys.card(holder)));
      for (const { policyId } of policies) {
        // Only this holder's contact: a policy moved to another address since is theirs.
        const contact = parse(await redis.get(keys.contact(policyId)));
        if (contact && (contact.channel !== holder.channel || contact.address !== holder.address)) {
          continue;
        }
        await redis.del(keys.contact(policyId));
        await redis.zrem(keys.due, policyId);
      }
      await redis.del(keys.card(holder));
      return policies.length;
    },
    async setStopped(holder, stopped) {
      const card = keys.card(holder);
      if (stopped) {
        await redis.hset(card, STOP_FIELD, '1');
        // A STOP from a number with no card yet makes one: it expires like any card.
        await redis.expire(card, CONTACT_TTL_SECONDS, 'NX');
      } else await redis.hdel(card, STOP_FIELD);
    },
    async isStopped(holder) {
      return (await redis.hexists(keys.card(holder), STOP_FIELD)) === 1;
    },
    async setLanguage(holder, locale) {
      const card = keys.card(holder);
      await redis.hset(card, LANGUAGE_FIELD, locale);
      await redis.expire(card, LANGUAGE_TTL_SECONDS);
    },
    async claim(key, value, ttlSeconds) {
      return (await redis.set(keys.claim(key), value, 'EX', ttlSeconds, 'NX')) === 'OK';
    },
    async confirm(key, value, ttlSeconds) {
      await redis.set(keys.claim(key), value, 'EX', ttlSeconds);
    },
    async release(key) {
      await redis.del(keys.claim(key));
    },
    async take(key) {
      return (await redis.getdel(keys.claim(key))) !== null;
    },
  };
}

/** The contact book in this process (the embedded default): lost on restart. */
export function createMemoryContactBook(now: () => number = Date.now): ContactBook {
  const contacts = new Map<string, ContactRecord>();
  const stopped = new Set<string>();
  const languages = new Map<string, string>();
  const claims = new Map<string, { value: string; expiresAt: number }>();
  const holderId = (holder: HolderAddress) => `${holder.channel}:${holder.address}`;
  return {
    async save(record) {
      const valid = ContactRecord.parse(record);
      contacts.set(valid.policyId, valid);
    },
    async get(policyId) {
      return contacts.get(policyId);
    },
    async endingBy(lastDay) {
      return [...contacts.values()]
        .filter((record) => dayNumber(record.endDate) <= lastDay)
        .map((record) => record.policyId);
    },
    async forgetEndedBefore(day) {
      for (const [id, record] of contacts) if (dayNumber(record.endDate) < day) contacts.delete(id);
    },
    async cardOf(holder) {
      const policies = [...contacts.values()]
        .filter((record) => record.channel === holder.channel && record.address === holder.address)
        .map(({ policyId, policyNumber, endDate }) => ({ policyId, policyNumber, endDate }));
      const id = holderId(holder);
      return { policies, stopped: stopped.has(id), language: languages.get(id) };
    },
    async forgetHolder(holder) {
      let count = 0;
      for (const [id, record] of contacts) {
        if (record.channel === holder.channel && record.address === holder.address) {
          contacts.delete(id);
          count += 1;
        }
      }
      stopped.delete(holderId(holder));
      return count;
    },
    async setStopped(holder, stop) {
      if (stop) stopped.add(holderId(holder));
      else stopped.delete(holderId(holder));
    },
    async isStopped(holder) {
      return stopped.has(holderId(holder));
    },
    async setLanguage(holder, locale) {
      languages.set(holderId(holder), locale);
    },
    async claim(key, value, ttlSeconds) {
      const held = claims.get(key);
      if (held && held.expiresAt > now()) return false;
      claims.set(key, { value, expiresAt: now() + ttlSeconds * 1000 });
      return true;
    },
    async confirm(key, value, ttlSeconds) {
      claims.set(key, { value, expiresAt: now() + ttlSeconds * 1000 });
    },
    async release(key) {
      claims.delete(key);
    },
    async take(key) {
      const held = claims.get(key);
      claims.delete(key);
      return held !== undefined && held.expiresAt > now();
    },
  };
}
