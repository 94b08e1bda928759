import { dateOfDay, dayNumber, lusakaToday } from '../../src/clock/index.js';

/**
 * The `YYYY-MM-DD` date `days` before today in Lusaka (after it when negative): the day the flows
 * count from. A UTC date is yesterday's from 00:00 to 02:00 in Lusaka, and a test that typed it
 * would read one day more than it meant.
 */
export function lusakaDaysAgo(days: number, at?: number): string {
  return dateOfDay(dayNumber(lusakaToday(at)) - days);
}

/** {@link lusakaDaysAgo} as a caller types it: `DD/MM/YYYY`. */
export function typedDaysAgo(days: number, at?: number): string {
  const [year, month, day] = lusakaDaysAgo(days, at).split('-');
  return `${day}/${month}/${year}`;
}
