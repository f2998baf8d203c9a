import { describe, expect, it } from 'vitest';
import { aggregateUsage, aggregateUsageDaily, DAY_MS, parseUsageDateRange, type UsageDateRange, type UsageInterval } from '../../../src/protocol/usage.js';

const T = (iso: string): number => Date.parse(iso);
function range(from: string, to: string): UsageDateRange {
  const parsed = parseUsageDateRange(from, to);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.range;
}

describe('parseUsageDateRange', () => {
  it('accepts an inclusive range and computes its bounds and day count', () => {
    expect(range('2026-05-01', '2026-05-31')).toEqual({
      from: '2026-05-01',
      to: '2026-05-31',
      startMs: T('2026-05-01T00:00:00Z'),
      endMs: T('2026-06-01T00:00:00Z'),
      days: 31,
    });
    expect(range('2026-05-01', '2026-05-01').days).toBe(1);
  });

  it('allows exactly 366 days (a leap year) and refuses 367', () => {
    expect(range('2028-01-01', '2028-12-31').days).toBe(366);
    expect(parseUsageDateRange('2026-01-01', '2027-01-02')).toEqual({
      ok: false,
      message: 'Invalid date range: 367 days requested, the maximum is 366 (from and to inclusive)',
    });
  });

  it.each([
    [undefined, '2026-01-01', 'Invalid date range: from and to are required (YYYY-MM-DD)'],
    ['2026-01-01', '', 'Invalid date range: from and to are required (YYYY-MM-DD)'],
    ['2026-1-01', '2026-01-02', 'Invalid date range: from must be a date in YYYY-MM-DD form, got "2026-1-01"'],
    ['2026-02-29', '2026-03-01', 'Invalid date range: from must be a date in YYYY-MM-DD form, got "2026-02-29"'],
    ['2026-01-01', '2026-13-01', 'Invalid date range: to must be a date in YYYY-MM-DD form, got "2026-13-01"'],
    ['2026-01-01', '2026-01-01T00:00:00Z', 'Invalid date range: to must be a date in YYYY-MM-DD form, got "2026-01-01T00:00:00Z"'],
    ['2026-03-02', '2026-03-01', 'Invalid date range: to (2026-03-01) is before from (2026-03-02)'],
  ])('refuses from=%j to=%j', (from, to, message) => {
    expect(parseUsageDateRange(from, to)).toEqual({ ok: false, message });
  });

  it('accepts 29 February in a leap year', () => {
    expect(range('2028-02-29', '2028-02-29').days).toBe(1);
  });
});

describe('aggregateUsage', () => {
  const r = range('2026-05-01', '2026-05-03');
  const now = T('2026-05-03T12:00:00Z');

  it('matches hand-computed aggregates: clipping, midnight spans, open intervals, grouping and order', () => {
    const intervals: UsageInterval[] = [
      // 2 h on 1 May, model A us
      { modelId: 'A', region: 'us', startMs: T('2026-05-01T10:00:00Z'), endMs: T('2026-05-01T12:00:00Z') },
      // 30 min across midnight 1→2 May, model A us: 15 min each day
      { modelId: 'A', region: 'us', startMs: T('2026-05-01T23:45:00Z'), endMs: T('2026-05-02T00:15:00Z') },
      // starts before the range: only 1 h (00:00–01:00 on 1 May) counts, model B us
      { modelId: 'B', region: 'us', startMs: T('2026-04-30T22:00:00Z'), endMs: T('2026-05-01T01:00:00Z') },
      // open since 3 May 11:00 → 1 h up to now, model A eu
      { modelId: 'A', region: 'eu', startMs: T('2026-05-03T11:00:00Z'), endMs: undefined },
      // entirely outside the range: ignored
      { modelId: 'C', region: 'us', startMs: T('2026-05-04T00:00:00Z'), endMs: T('2026-05-04T05:00:00Z') },
      // zero length: ignored
      { modelId: 'D', region: 'us', startMs: T('2026-05-02T05:00:00Z'), endMs: T('2026-05-02T05:00:00Z') },
    ];
    const seconds = 3 * 86_400;
    expect(aggregateUsage(intervals, r, now)).toEqual([
      { modelId: 'A', region: 'eu', totalUsageSecondsTimesSize: 3600, totalConcurrencyHours: 1, averageInstancesOverRange: 3600 / seconds, daysWithUsage: 1 },
      { modelId: 'A', region: 'us', totalUsageSecondsTimesSize: 9000, totalConcurrencyHours: 2.5, averageInstancesOverRange: 9000 / seconds, daysWithUsage: 2 },
      { modelId: 'B', region: 'us', totalUsageSecondsTimesSize: 3600, totalConcurrencyHours: 1, averageInstancesOverRange: 3600 / seconds, daysWithUsage: 1 },
    ]);
  });

  it('counts two simultaneous connections twice (connection-seconds) and clips at the end of the range', () => {
    const both = { modelId: 'A', region: 'us', startMs: T('2026-05-03T20:00:00Z'), endMs: T('2026-05-04T04:00:00Z') };
    const [item] = aggregateUsage([both, { ...both }], r, T('2026-06-01T00:00:00Z'));
    expect(item?.totalUsageSecondsTimesSize).toBe(2 * 4 * 3600);
    expect(item?.daysWithUsage).toBe(1);
  });

  it('an interval ending exactly at midnight does not count the next day', () => {
    const [item] = aggregateUsage([{ modelId: 'A', region: 'us', startMs: T('2026-05-01T23:00:00Z'), endMs: T('2026-05-02T00:00:00Z') }], r, now);
    expect(item?.daysWithUsage).toBe(1);
  });

  it('a connection open across the whole range averages one instance on every day', () => {
    const [item] = aggregateUsage([{ modelId: 'A', region: 'us', startMs: T('2026-04-01T00:00:00Z'), endMs: undefined }], r, T('2026-06-01T00:00:00Z'));
    expect(item).toMatchObject({ totalUsageSecondsTimesSize: 3 * DAY_MS / 1000, averageInstancesOverRange: 1, daysWithUsage: 3, totalConcurrencyHours: 72 });
  });

  it('an open interval that starts after now adds nothing', () => {
    expect(aggregateUsage([{ modelId: 'A', region: 'us', startMs: now + 1000, endMs: undefined }], r, now)).toEqual([]);
  });
});

describe('aggregateUsageDaily', () => {
  it('splits connection-seconds at UTC midnight into date/model/region rows, in date order', () => {
    const r = range('2026-05-01', '2026-05-03');
    const intervals: UsageInterval[] = [
      { modelId: 'B', region: 'us', startMs: T('2026-05-01T23:00:00Z'), endMs: T('2026-05-02T02:00:00Z') },
      { modelId: 'A', region: 'us', startMs: T('2026-05-02T06:00:00Z'), endMs: T('2026-05-02T06:30:00Z') },
      { modelId: 'A', region: 'us', startMs: T('2026-05-02T07:00:00Z'), endMs: T('2026-05-02T07:30:00Z') },
      { modelId: 'A', region: 'eu', startMs: T('2026-05-03T23:00:00Z'), endMs: undefined },
    ];
    expect(aggregateUsageDaily(intervals, r, T('2026-05-05T00:00:00Z'), 'acct')).toEqual([
      { date: '2026-05-01', customerId: 'acct', modelId: 'B', region: 'us', usageSecondsTimesSize: 3600, concurrencyHours: 1, averageSize: 3600 / 86_400 },
      { date: '2026-05-02', customerId: 'acct', modelId: 'A', region: 'us', usageSecondsTimesSize: 3600, concurrencyHours: 1, averageSize: 3600 / 86_400 },
      { date: '2026-05-02', customerId: 'acct', modelId: 'B', region: 'us', usageSecondsTimesSize: 7200, concurrencyHours: 2, averageSize: 7200 / 86_400 },
      { date: '2026-05-03', customerId: 'acct', modelId: 'A', region: 'eu', usageSecondsTimesSize: 3600, concurrencyHours: 1, averageSize: 3600 / 86_400 },
    ]);
  });

  it('sums to the by-model totals', () => {
    const r = range('2026-05-01', '2026-05-31');
    const intervals: UsageInterval[] = Array.from({ length: 40 }, (_, i) => ({
      modelId: i % 3 === 0 ? 'A' : 'B',
      region: 'us',
      startMs: T('2026-04-30T20:00:00Z') + i * 19 * 3_600_000,
      endMs: T('2026-04-30T20:00:00Z') + i * 19 * 3_600_000 + (i + 1) * 1_234_567,
    }));
    const daily = aggregateUsageDaily(intervals, r, 0, 'acct');
    for (const item of aggregateUsage(intervals, r, 0)) {
      const rows = daily.filter((d) => d.modelId === item.modelId);
      expect(rows.reduce((sum, d) => sum + d.usageSecondsTimesSize, 0)).toBeCloseTo(item.totalUsageSecondsTimesSize, 6);
      expect(rows.length).toBe(item.daysWithUsage);
    }
  });
});
