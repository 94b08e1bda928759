/*
 * The time as a policyholder in Zambia reads it: "today" is the calendar day in Lusaka (UTC+2, no
 * daylight saving), whatever zone the server runs in. From 00:00 to 02:00 in Lusaka the UTC date
 * is still yesterday, so nothing may take "today" from `toISOString()`.
 */

/** The zone every "today" and every local hour is read in. */
export const LUSAKA_TIME_ZONE = 'Africa/Lusaka';

const PARTS = new Intl.DateTimeFormat('en-GB', {
  timeZone: LUSAKA_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The current instant in epoch ms: the one place the process reads the system clock for dates. */
export function now(): number {
  return Date.now();
}

/** A calendar date (`YYYY-MM-DD`) and hour (0–23) as read in Lusaka. */
type LusakaTime = { readonly date: string; readonly hour: number };

const HOUR_MS = 3_600_000;
/**
 * From here on Lusaka's offset is whole hours (UTC+2 since 1903; a zone change would move it by
 * whole hours too), so every instant of one UTC hour has one local date and hour. Before it the
 * zone's local mean time was not, and those instants are always formatted afresh.
 */
const WHOLE_HOURS_SINCE = Date.UTC(1910, 0, 1);
// The last UTC hour read and its local time: formatToParts costs ~50k instructions, and every
// flow start reads the same hour over and over (issue 26's per-turn cost).
let lastHour = Number.NaN;
let lastLocal: LusakaTime = { date: '', hour: 0 };

/** The local calendar date (`YYYY-MM-DD`) and hour (0–23) in Lusaka at `at` (epoch ms). */
export function lusakaNow(at: number): LusakaTime {
  const hour = Math.floor(at / HOUR_MS);
  if (hour === lastHour && at >= WHOLE_HOURS_SINCE) return lastLocal;
  const parts = Object.fromEntries(
    PARTS.formatToParts(new Date(at)).map((part) => [part.type, part.value]),
  );
  const local = { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
  if (at >= WHOLE_HOURS_SINCE) {
    lastHour = hour;
    lastLocal = local;
  }
  return local;
}

/** The time of day in Lusaka at `at` (epoch ms) as users in Zambia read it: `10:42`. */
export function lusakaClock(at: number): string {
  const parts = Object.fromEntries(
    PARTS.formatToParts(new Date(at)).map((part) => [part.type, part.value]),
  );
  return `${parts.hour}:${parts.minute}`;
}

/** Today's date in Lusaka as `YYYY-MM-DD`, at `at` (epoch ms; default now). */
export function lusakaToday(at: number = now()): string {
  return lusakaNow(at).date;
}
