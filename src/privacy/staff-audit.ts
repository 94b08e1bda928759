import { z } from 'zod';
import type { RedisConnection } from '../redis/index.js';
import { createMemoryStore, createRedisStore, type KeyValueStore } from '../storage/index.js';

/** How long staff look-ups stay in the audit stream: a year, trimmed on every append. */
export const AUDIT_RETENTION_MS = 365 * 86_400_000;

/** One staff look-up of a person's record: who, when, and what (NRCs and phones masked). */
export const AuditEntry = z.object({
  /** The staff member: Slack `<team>:<user>`. */
  who: z.string().min(1),
  /** ISO time of the look-up. */
  at: z.string(),
  /** The command as typed, NRCs and phone numbers masked by the channel. */
  what: z.string(),
});
/** One staff look-up. */
export type AuditEntry = z.infer<typeof AuditEntry>;

/** The append-only record of staff look-ups; only appended to and read, never edited. */
export interface StaffAuditLog {
  append(entry: AuditEntry): Promise<void>;
  /** The latest `count` entries, newest first. */
  latest(count: number): Promise<AuditEntry[]>;
}

/** The Redis key of the audit stream. */
export function auditStreamKey(prefix: string): string {
  return `${prefix}staff-audit`;
}

/**
 * The audit log as a stream over the key-value port (a Redis stream, or this process): each
 * append trims the entries older than the retention (exact, not `~`: staff look-ups are few, and
 * a year should mean a year).
 */
export function createStaffAuditLog(
  store: KeyValueStore,
  prefix: string,
  now: () => number = Date.now,
): StaffAuditLog {
  const key = auditStreamKey(prefix);
  return {
    async append(entry) {
      const valid = AuditEntry.parse(entry);
      const oldest = Math.max(now() - AUDIT_RETENTION_MS, 0);
      await store.streamAppend(key, { who: valid.who, at: valid.at, what: valid.what }, oldest);
    },
    async latest(count) {
      const entries: AuditEntry[] = [];
      for (const record of await store.streamLatest(key, count)) {
        const parsed = AuditEntry.safeParse(record);
        if (parsed.success) entries.push(parsed.data);
      }
      return entries;
    },
  };
}

/** The audit log as a Redis stream, shared by every instance. */
export function createRedisStaffAuditLog(
  redis: RedisConnection,
  prefix: string,
  now: () => number = Date.now,
): StaffAuditLog {
  return createStaffAuditLog(createRedisStore(redis), prefix, now);
}

/** The audit log in this process (the embedded default), trimmed to the same retention. */
export function createMemoryStaffAuditLog(now: () => number = Date.now): StaffAuditLog {
  return createStaffAuditLog(createMemoryStore({ now }), '', now);
}
