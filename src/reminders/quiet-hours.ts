/*
 * Reminders stay out of the local night: hours are Lusaka's (src/clock), whatever zone the
 * server runs in.
 */

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
