import { describe, expect, it } from 'vitest';
import {
  dateOfDay,
  dayNumber,
  lusakaClock,
  lusakaNow,
  lusakaToday,
} from '../../src/clock/index.js';

describe('the Lusaka clock', () => {
  it('reads the date and hour in Lusaka (UTC+2), not in UTC', () => {
    expect(lusakaNow(Date.parse('2026-11-25T21:59:00Z'))).toEqual({ date: '2026-11-25', hour: 23 });
    expect(lusakaNow(Date.parse('2026-11-25T22:00:00Z'))).toEqual({ date: '2026-11-26', hour: 0 });
    expect(lusakaToday(Date.parse('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
  });

  it('reads the time of day in Lusaka on the 24-hour clock', () => {
    expect(lusakaClock(Date.parse('2026-11-23T22:05:00Z'))).toBe('00:05');
    expect(lusakaClock(Date.parse('2026-11-23T11:42:59Z'))).toBe('13:42');
  });

  it('counts whole calendar days', () => {
    expect(dayNumber('1970-01-02')).toBe(1);
    expect(dayNumber('not a date')).toBeNaN();
    expect(dateOfDay(dayNumber('2028-02-28') + 1)).toBe('2028-02-29');
  });
});
