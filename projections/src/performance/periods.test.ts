import { addMonths, average, bucketOf, bucketsEndingAt, indianMonthOf, indianToday, percentage } from './periods';

describe('performance periods', () => {
  it('takes the month in Indian time', () => {
    expect(indianMonthOf('2026-03-31T18:29:59.000Z')).toBe('2026-03');
    expect(indianMonthOf('2026-03-31T18:30:00.000Z')).toBe('2026-04');
    expect(indianToday(new Date('2026-11-30T19:00:00.000Z'))).toBe('2026-12-01');
  });

  it('moves months across years', () => {
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-11', 2)).toBe('2027-01');
    expect(addMonths('2026-11', -23)).toBe('2024-12');
  });

  it('groups months into Indian financial-year quarters and years', () => {
    expect(bucketOf('quarter', '2026-04')).toEqual({ key: '2026-Q1', label: 'Q1 2026-27', months: ['2026-04', '2026-05', '2026-06'] });
    expect(bucketOf('quarter', '2026-11').key).toBe('2026-Q3');
    expect(bucketOf('quarter', '2027-02')).toEqual({ key: '2026-Q4', label: 'Q4 2026-27', months: ['2027-01', '2027-02', '2027-03'] });
    expect(bucketOf('year', '2027-03').key).toBe('2026-27');
    expect(bucketOf('year', '2099-05').key).toBe('2099-00');
    expect(bucketOf('year', '2026-04').months).toHaveLength(12);
    expect(bucketOf('month', '2026-11')).toEqual({ key: '2026-11', label: 'Nov 2026', months: ['2026-11'] });
  });

  it('lists 12 months, 8 quarters or 5 years, oldest first, ending with today', () => {
    const months = bucketsEndingAt('month', '2026-11-26');
    expect(months.map((b) => b.key)).toEqual([
      '2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11',
    ]);
    expect(bucketsEndingAt('quarter', '2026-11-26').map((b) => b.key)).toEqual([
      '2024-Q4', '2025-Q1', '2025-Q2', '2025-Q3', '2025-Q4', '2026-Q1', '2026-Q2', '2026-Q3',
    ]);
    expect(bucketsEndingAt('year', '2026-03-31').map((b) => b.key)).toEqual(['2021-22', '2022-23', '2023-24', '2024-25', '2025-26']);
  });

  it('gives percentages and averages with 2 decimals', () => {
    expect(percentage(1, 3)).toBe(33.33);
    expect(percentage(2, 3)).toBe(66.67);
    expect(percentage(3, 3)).toBe(100);
    expect(percentage(1, 0)).toBe(0);
    expect(average(10, 4)).toBe(2.5);
    expect(average(1, 3)).toBe(0.33);
    expect(average(0, 0)).toBeNull();
  });
});
