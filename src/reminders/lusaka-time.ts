/*
 * Dates and hours as a policyholder in Zambia reads them: reminders go by the local calendar day
 * and stay out of the local night, whatever zone the server runs in.
 */

const LUSAKA = 'Africa/Lusaka';
const DAY_MS = 86_400_000;

const PARTS = new Intl.DateTimeFormat('en-GB', {
  timeZone: LUSAKA,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});

/** The local calendar date (`YYYY-MM-DD`) and hour (0–23) in Lusaka at `at` (epoch ms). */
export function lusakaNow(at: number): { readonly date: string; readonly hour: number } {
  const parts = Object.fromEntries(
    PARTS.formatToParts(new Date(at)).map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/** Whole days from one `YYYY-MM-DD` to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date; NaN when it is not one. */
export function dayNumber(date: string): number {
  const ms = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(ms) ? Number.NaN : Math.floor(ms / DAY_MS);
}

/** Quiet hours, local time: nothing is sent from `start` o'clock until `end` o'clock. */
export interface QuietHours {
  readonly start: number;
  readonly end: number;
}

/** 20:00 to 07:00 in Lusaka. */
export const DEFAULT_QUIET_HOURS: QuietHours = { start: 20, end: 7 };

/** True when `hour` falls in the quiet hours (which may wrap past midnight). */
export function isQuiet(hour: number, quiet: QuietHours): boolean {
  return quiet.start > quiet.end
    ? hour >= quiet.start || hour < quiet.end
    : hour >= quiet.start && hour < quiet.end;
}
