import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { CodedError } from '../errors/index.js';
import { hashTag, type RedisConnection } from '../redis/index.js';
import { createMemoryStore, createRedisStore, type KeyValueStore } from '../storage/index.js';
import { maskPersonalData } from './mask-personal-data.js';

/** How long staff look-ups stay in the audit stream: a year, trimmed on every append. */
export const AUDIT_RETENTION_MS = 365 * 86_400_000;

/** What became of a look-up: made, or refused (not on the allow-list, not an admin). */
export const AUDIT_OUTCOMES = ['looked-up', 'refused'] as const;
/** How the look-up was asked for: the slash command, the lookup modal, a button, the App Home. */
export const AUDIT_ROUTES = ['command', 'modal', 'button', 'home'] as const;

/** The longest `what` kept: a desk command is short, anything longer is cut. */
const WHAT_MAX = 200;

/** One staff look-up of a person's record, or an attempt at one: who, when, how, what. */
export const AuditEntry = z.object({
  /** The staff member: Slack `<team>:<user>`. */
  who: z.string().min(1).max(80),
  /** ISO time of the look-up. */
  at: z.iso.datetime(),
  route: z.enum(AUDIT_ROUTES),
  outcome: z.enum(AUDIT_OUTCOMES),
  /** The command as typed; stored masked and on one line ({@link auditText}). */
  what: z.string(),
});
/** One staff look-up. */
export type AuditEntry = z.infer<typeof AuditEntry>;

const Mac = z.string().regex(/^[0-9a-f]{64}$/);

/** An entry as stored: its place in the chain (1, 2, …) and its MAC over the one before. */
const StoredEntry = AuditEntry.extend({ seq: z.coerce.number().int().positive(), mac: Mac });
type StoredEntry = z.infer<typeof StoredEntry>;

/**
 * The head record, written in the same step as each append: the last entry's id, place and MAC,
 * the retention checkpoint (place and MAC of the last entry trimmed, 0 and '' before any trim),
 * and a MAC over them all so the head cannot be wound back.
 */
const AuditHead = z.object({
  lastId: z.string().min(1),
  count: z.coerce.number().int().positive(),
  mac: Mac,
  trimmedCount: z.coerce.number().int().min(0),
  trimmedMac: Mac.or(z.literal('')),
  headMac: Mac,
});
type AuditHead = z.infer<typeof AuditHead>;

/** Where the chain of look-ups breaks, as `/insure audit verify` reports it. */
export type AuditBreak =
  /** Entries missing between two that remain: deleted (XDEL) after `after`. */
  | { readonly kind: 'gap'; readonly after: string; readonly missing: number }
  /** The oldest entries gone without the checkpoint a retention trim records (XTRIM, XDEL). */
  | { readonly kind: 'trimmed'; readonly before: string; readonly missing: number }
  /** The newest entries gone: the head counts more than the stream holds. */
  | {
      readonly kind: 'newest-missing';
      readonly after: string | undefined;
      readonly missing: number;
    }
  /** An entry whose fields or place do not match its MAC. */
  | { readonly kind: 'altered'; readonly at: string }
  /** Entries without the head record (deleted). */
  | { readonly kind: 'head-missing' }
  /** A head record whose MAC does not match (edited, or wound back). */
  | { readonly kind: 'head-altered' };

/** The answer of {@link StaffAuditLog.verify}. */
export interface AuditVerdict {
  readonly intact: boolean;
  /** Entries checked. */
  readonly entries: number;
  /** Where it breaks, oldest first (at most {@link BREAKS_SHOWN}). */
  readonly breaks: readonly AuditBreak[];
}

/** How many breaks a verdict lists; one is enough to distrust the chain. */
const BREAKS_SHOWN = 10;
/** Entries read per round trip while verifying. */
const PAGE = 500;
/** Appends retried when another instance appended first (the head moved meanwhile). */
const APPEND_TRIES = 8;

/** Raised when a look-up could not be appended: other instances kept appending first. */
export class StaffAuditError extends CodedError<'AUDIT_CONTENDED'> {
  override readonly name = 'StaffAuditError';
}

/** A look-up as recorded: the entry without its time, which the log stamps from its clock. */
export type AuditAttempt = Omit<AuditEntry, 'at'>;

/**
 * The append-only, hash-chained record of staff look-ups: each entry carries an HMAC over the
 * entry before it, so a deleted, edited or trimmed entry shows when the chain is verified.
 */
export interface StaffAuditLog {
  /** Records a look-up now (masked, on one line); throws when it could not be recorded. */
  append(attempt: AuditAttempt): Promise<void>;
  /** The latest `count` entries, newest first. */
  latest(count: number): Promise<AuditEntry[]>;
  /** Walks the whole chain: intact, or where it breaks. */
  verify(): Promise<AuditVerdict>;
}

/** Options of {@link createStaffAuditLog}. */
export interface StaffAuditOptions {
  /** The HMAC key (AUDIT_SECRET): the same on every instance and across restarts. */
  readonly secret: string;
  /** Now in ms, for entry times and the retention; default `Date.now`. */
  readonly now?: () => number;
}

/** The Redis key of the audit stream; tagged so its head shares its Cluster slot. */
export function auditStreamKey(prefix: string): string {
  return `${prefix}${hashTag('staff-audit')}`;
}

/** The Redis key of the audit stream's head record (a hash). */
export function auditHeadKey(prefix: string): string {
  return `${auditStreamKey(prefix)}:head`;
}

/**
 * `what` as the audit keeps it: personal data masked, on one line (a line break shows as `\n`,
 * other control and format characters as `�`, so no entry can forge another's line), and cut to
 * 200 characters.
 */
export function auditText(what: string): string {
  // One line first: a number split across lines is then masked as the text reads.
  const line = maskPersonalData(
    what
      .replace(/\r\n|[\r\n\u2028\u2029\u0085]/g, '\\n')
      .replace(/\t/g, ' ')
      .replace(/[\p{Cc}\p{Cf}]/gu, '\uFFFD'),
  );
  return line.length > WHAT_MAX ? `${line.slice(0, WHAT_MAX - 1)}…` : line;
}

const hmac = (secret: string, parts: readonly (string | number)[]) =>
  createHmac('sha256', secret).update(JSON.stringify(parts)).digest('hex');

function entryMac(secret: string, previous: string, seq: number, entry: AuditEntry): string {
  return hmac(secret, [previous, seq, entry.who, entry.at, entry.route, entry.outcome, entry.what]);
}

function headMac(secret: string, head: Omit<AuditHead, 'lastId' | 'headMac'>): string {
  return hmac(secret, ['head', head.count, head.mac, head.trimmedCount, head.trimmedMac]);
}

/** Constant-time comparison of two hex MACs. */
function sameMac(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/**
 * The audit log as a hash chain over the key-value port (a Redis stream and its head hash, or
 * this process). Each append reads the head, MACs the new entry over the last one's MAC, and
 * writes entry and head in one step only if the head has not moved (another instance appended:
 * read again and retry). Entries older than the retention are trimmed in that step, the last
 * one trimmed becoming the checkpoint, so a trim by the app verifies and any other does not.
 */
export function createStaffAuditLog(
  store: KeyValueStore,
  prefix: string,
  options: StaffAuditOptions,
): StaffAuditLog {
  const { secret } = options;
  const now = options.now ?? Date.now;
  const key = auditStreamKey(prefix);
  const headKey = auditHeadKey(prefix);
  // Appends of this process one at a time: they would only race each other for the head.
  let queue: Promise<unknown> = Promise.resolve();

  async function appendOnce(entry: AuditEntry): Promise<boolean> {
    const raw = await store.hashGetAll(headKey);
    const count = Number(raw.count ?? 0);
    const previous = raw.mac ?? '';
    const seq = count + 1;
    const mac = entryMac(secret, previous, seq, entry);
    let trimmedCount = Number(raw.trimmedCount ?? 0);
    let trimmedMac = raw.trimmedMac ?? '';
    const oldestMs = now() - AUDIT_RETENTION_MS;
    const trimmed = await store.streamNewestBefore(key, oldestMs);
    if (trimmed) {
      // The checkpoint: where the chain now starts. An entry that does not parse is trimmed
      // all the same (a year is a year), and verify will say the chain was cut there.
      const parsed = StoredEntry.safeParse(trimmed.fields);
      if (parsed.success) {
        trimmedCount = parsed.data.seq;
        trimmedMac = parsed.data.mac;
      }
    }
    const head = { count: seq, mac, trimmedCount, trimmedMac };
    const id = await store.streamAppendLinked(key, headKey, {
      fields: { ...entry, seq: String(seq), mac },
      head: {
        count: String(seq),
        mac,
        trimmedCount: String(trimmedCount),
        trimmedMac,
        headMac: headMac(secret, head),
      },
      expect: { field: 'mac', value: previous },
      atMs: Date.parse(entry.at),
      trimBeforeMs: trimmed ? oldestMs : undefined,
    });
    return id !== undefined;
  }

  async function append(attempt: AuditAttempt): Promise<void> {
    const at = new Date(now()).toISOString();
    const valid = AuditEntry.parse({ ...attempt, at, what: auditText(attempt.what) });
    for (let attempt = 0; attempt < APPEND_TRIES; attempt += 1) {
      if (await appendOnce(valid)) return;
    }
    throw new StaffAuditError(
      'AUDIT_CONTENDED',
      `the audit head moved ${APPEND_TRIES} times; look-up not recorded`,
    );
  }

  /** One walk of the chain against the head as read at its start. */
  async function walk(raw: Record<string, string>): Promise<AuditVerdict> {
    if (Object.keys(raw).length === 0) {
      const [any] = await store.streamRange(key, undefined, 1);
      return any
        ? { intact: false, entries: 0, breaks: [{ kind: 'head-missing' }] }
        : { intact: true, entries: 0, breaks: [] };
    }
    const parsedHead = AuditHead.safeParse(raw);
    if (
      !parsedHead.success ||
      !sameMac(parsedHead.data.headMac, headMac(secret, parsedHead.data))
    ) {
      return { intact: false, entries: 0, breaks: [{ kind: 'head-altered' }] };
    }
    const head = parsedHead.data;
    const breaks: AuditBreak[] = [];
    let previous = head.trimmedMac;
    let expected = head.trimmedCount + 1;
    let last: StoredEntry | undefined;
    let entries = 0;
    let after: string | undefined;
    let reachedHead = false;
    while (!reachedHead) {
      const page = await store.streamRange(key, after, PAGE);
      for (const { id, fields } of page) {
        after = id;
        const parsed = StoredEntry.safeParse(fields);
        entries += 1;
        if (!parsed.success) {
          breaks.push({ kind: 'altered', at: fields.at ?? id });
          previous = fields.mac ?? '';
        } else {
          const entry = parsed.data;
          if (entry.seq > expected) {
            const missing = entry.seq - expected;
            breaks.push(
              last
                ? { kind: 'gap', after: last.at, missing }
                : { kind: 'trimmed', before: entry.at, missing },
            );
          } else if (
            entry.seq < expected ||
            !sameMac(entry.mac, entryMac(secret, previous, entry.seq, entry))
          ) {
            breaks.push({ kind: 'altered', at: entry.at });
          }
          previous = entry.mac;
          expected = entry.seq + 1;
          last = entry;
        }
        // Entries after the head's were appended since it was read: the next verify sees them.
        if (id === head.lastId) {
          reachedHead = true;
          break;
        }
      }
      if (page.length < PAGE) break;
    }
    if (expected - 1 < head.count) {
      breaks.push({ kind: 'newest-missing', after: last?.at, missing: head.count - expected + 1 });
    } else if (!last || !sameMac(last.mac, head.mac)) {
      // The newest entry is not the one the head sealed (said once, if its MAC said so already).
      const at = last?.at ?? head.lastId;
      if (!breaks.some((found) => found.kind === 'altered' && found.at === at))
        breaks.push({ kind: 'altered', at });
    }
    return { intact: breaks.length === 0, entries, breaks: breaks.slice(0, BREAKS_SHOWN) };
  }

  return {
    append(entry) {
      const done = queue.then(() => append(entry));
      queue = done.catch(() => undefined);
      return done;
    },
    async latest(count) {
      const entries: AuditEntry[] = [];
      for (const record of await store.streamLatest(key, count)) {
        const parsed = AuditEntry.safeParse(record);
        if (parsed.success) entries.push(parsed.data);
      }
      return entries;
    },
    async verify() {
      // A trim or append racing the walk looks like a break: walk again if the head moved.
      let verdict: AuditVerdict = { intact: true, entries: 0, breaks: [] };
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const raw = await store.hashGetAll(headKey);
        verdict = await walk(raw);
        if (verdict.intact || (await store.hashGetAll(headKey)).lastId === raw.lastId) break;
      }
      return verdict;
    },
  };
}

/** The audit log as a Redis stream, shared by every instance. */
export function createRedisStaffAuditLog(
  redis: RedisConnection,
  prefix: string,
  options: StaffAuditOptions,
): StaffAuditLog {
  return createStaffAuditLog(createRedisStore(redis), prefix, options);
}

/**
 * The audit log in this process, trimmed to the same retention; keyed by a secret of its own
 * unless one is given (the chain lives no longer than the process).
 */
export function createMemoryStaffAuditLog(options: Partial<StaffAuditOptions> = {}): StaffAuditLog {
  const now = options.now ?? Date.now;
  const secret = options.secret ?? randomBytes(32).toString('hex');
  return createStaffAuditLog(createMemoryStore({ now }), '', { secret, now });
}
