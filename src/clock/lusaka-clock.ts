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
  hourCycle: 'h23',
});

/** The current instant in epoch ms: the one place the process reads the system clock for dates. */
export function now(): number {
  return Date.now();
}

/** The local calendar date (`YYYY-MM-DD`) and hour (0–23) in Lusaka at `at` (epoch ms). */
export function lusakaNow(at: number): { readonly date: string; readonly hour: number } {
  const parts = Object.fromEntries(
    PARTS.formatToParts(new Date(at)).map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/** Today's date in Lusaka as `YYYY-MM-DD`, at `at` (epoch ms; default now). */
export function lusakaToday(at: number = now()): string {
  return lusakaNow(at).date;
}
