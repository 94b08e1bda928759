/*
 * The one clock: "today" and the time of day in Lusaka for every flow, validator and reminder,
 * and the date-only arithmetic on `YYYY-MM-DD` strings. The sandbox insurer keeps its own clock
 * (src/sandbox/clock.ts): it plays another party, whose time tests move by hand.
 */
export { dateOfDay, dayNumber } from './calendar-days.js';
export { LUSAKA_TIME_ZONE, lusakaClock, lusakaNow, lusakaToday, now } from './lusaka-clock.js';
