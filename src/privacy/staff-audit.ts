import { z } from 'zod';
import type { RedisConnection } from '../redis/index.js';

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
 * The audit log as a Redis stream: XADD with MINID trimming, so entries older than the retention
 * leave as new ones come (a stream id starts with its epoch ms). Exact trimming, not `~`: staff
 * look-ups are few, and a year should mean a year.
 */
export function createRedisStaffAuditLog(
  redis: RedisConnection,
  prefix: string,
  now: () => number = Date.now,
): StaffAuditLog {
  const key = auditStreamKey(prefix);
  return {
    async append(entry) {
      const valid = AuditEntry.parse(entry);
      const oldest = Math.max(now() - AUDIT_RETENTION_MS, 0);
      await redis.xadd(
        key,
        'MINID',
        String(oldest),
        '*',
        'who',
        valid.who,
        'at',
        valid.at,
        'what',
        valid.what,
      );
    },
    async latest(count) {
      const rows = await redis.xrevrange(key, '+', '-', 'COUNT', count);
      const entries: AuditEntry[] = [];
      for (const [, fields] of rows) {
        const record: Record<string, string> = {};
        for (let i = 0; i + 1 < fields.length; i += 2) {
          record[fields[i] as string] = fields[i + 1] as string;
        }
        const parsed = AuditEntry.safeParse(record);
        if (parsed.success) entries.push(parsed.data);
      }
      return entries;
    },
  };
}

/** The audit log in this process (the embedded default), trimmed to the same retention. */
export function createMemoryStaffAuditLog(now: () => number = Date.now): StaffAuditLog {
  const entries: Array<{ readonly atMs: number; readonly entry: AuditEntry }> = [];
  return {
    async append(entry) {
      const atMs = now();
      entries.push({ atMs, entry: AuditEntry.parse(entry) });
      while (entries[0] && entries[0].atMs < atMs - AUDIT_RETENTION_MS) entries.shift();
    },
    async latest(count) {
      return entries
        .slice(-count)
        .reverse()
        .map(({ entry }) => entry);
    },
  };
}
