import { indiaDateAt } from '../../../domain/src/shared/india-date';
import { addDays, dayNumberOf, indianDayAt, planExpiry, reminderDays } from './schedule';

const DAY = 86_400_000;
/** 26-Nov-2026 10:00 in India (04:30 UTC). */
const NOW = Date.parse('2026-11-26T04:30:00Z');
const midnightInIndia = (date: string) => Date.parse(`${date}T00:00:00+05:30`);

describe('document expiry schedule', () => {
  test('with real days every reminder falls at the start of its Indian day and expiry at the end of validTill', () => {
    const plan = planExpiry({ validTill: '2027-01-31', reminderDaysBefore: [30, 7, 0], dayMs: DAY, now: NOW });
    expect(plan.reminders).toEqual([
      { daysBefore: 30, at: midnightInIndia('2027-01-01') },
      { daysBefore: 7, at: midnightInIndia('2027-01-24') },
      { daysBefore: 0, at: midnightInIndia('2027-01-31') },
    ]);
    expect(plan.skipped).toEqual([]);
    expect(plan.expiresAt).toBe(midnightInIndia('2027-02-01'));
  });

  test('reminders whose day is over are skipped; one falling today is due at once', () => {
    const plan = planExpiry({ validTill: '2026-12-03', reminderDaysBefore: [30, 7, 0], dayMs: DAY, now: NOW });
    expect(plan.skipped).toEqual([30]);
    // 7 days before 3-Dec is 26-Nov, today: its midnight has passed, so it is sent now rather than never.
    expect(plan.reminders).toEqual([
      { daysBefore: 7, at: NOW },
      { daysBefore: 0, at: midnightInIndia('2026-12-03') },
    ]);
  });

  test('a date already over expires at once (its moment is in the past)', () => {
    const plan = planExpiry({ validTill: '2026-11-20', reminderDaysBefore: [30, 7, 0], dayMs: DAY, now: NOW });
    expect(plan.reminders).toEqual([]);
    expect(plan.skipped).toEqual([30, 7, 0]);
    expect(plan.expiresAt).toBeLessThan(NOW);
  });

  test('short days scale the clock around now, keeping the part of today already gone', () => {
    const dayMs = 1000;
    const plan = planExpiry({ validTill: '2026-12-27', reminderDaysBefore: [0, 7, 30], dayMs, now: NOW });
    // 10:00 in India: 10/24 of today is gone. 27-Dec is 31 days after 26-Nov.
    const gone = (10 / 24) * dayMs;
    expect(plan.reminders.map((r) => r.daysBefore)).toEqual([30, 7, 0]);
    expect(plan.reminders[0]?.at).toBeCloseTo(NOW + 1 * dayMs - gone, 6);
    expect(plan.reminders[1]?.at).toBeCloseTo(NOW + 24 * dayMs - gone, 6);
    expect(plan.reminders[2]?.at).toBeCloseTo(NOW + 31 * dayMs - gone, 6);
    expect(plan.expiresAt).toBeCloseTo(NOW + 32 * dayMs - gone, 6);
  });

  test('reminder days are whole, non-negative and each honoured once, most days before first', () => {
    expect(reminderDays([0, 7, 7, 30, -1, 2.5])).toEqual([30, 7, 0]);
  });

  test('dates: day numbers, adding days, the Indian date of an instant', () => {
    expect(dayNumberOf('1970-01-02')).toBe(1);
    expect(() => dayNumberOf('31-01-2027')).toThrow(RangeError);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
    // 20:00 UTC on the 25th is 01:30 on the 26th in India.
    expect(indiaDateAt(Date.parse('2026-11-25T20:00:00Z'))).toBe('2026-11-26');
    expect(indianDayAt(midnightInIndia('2026-11-26')).fraction).toBe(0);
  });
});
