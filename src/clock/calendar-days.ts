/*
 * Calendar dates without a time of day (`YYYY-MM-DD`), counted in whole days. Pure: the date
 * itself already says which day it is in Lusaka (see lusaka-clock.ts).
 */

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date; NaN when it is not one. */
export function dayNumber(date: string): number {
  const ms = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(ms) ? Number.NaN : Math.floor(ms / DAY_MS);
}

/** The `YYYY-MM-DD` date of a {@link dayNumber}. */
export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
