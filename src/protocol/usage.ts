/**
 * Wire shapes of usage reporting (`GET /api/v1/usage/concurrent/by-model`) and live connection counts
 * (`GET /api/v1/concurrent_connections/batch`), plus the one definition of the report's aggregates and of
 * its date-range rules, shared by the reference server and the client's local `UsageMeter`. No I/O.
 *
 * Aggregates, per (modelId, region), over the inclusive UTC date range `from` 00:00:00 … `to` 24:00:00
 * (each metered connection counts as one instance of size 1; an interval still open counts up to "now"):
 * - `totalUsageSecondsTimesSize`: sum of connection-seconds inside the range.
 * - `totalConcurrencyHours`: `totalUsageSecondsTimesSize / 3600`.
 * - `averageInstancesOverRange`: connection-seconds ÷ seconds in the range (`days × 86 400`), i.e. the
 *   time-weighted mean number of open connections, days without usage included.
 * - `daysWithUsage`: number of distinct UTC days of the range with any connection time (> 0 ms).
 * The daily report (`GET /api/v1/usage/concurrent`) gives the same connection-seconds per UTC day, model and
 * region, with `averageSize` = that day's connection-seconds ÷ 86 400.
 */
import { z } from 'zod';

/** Longest accepted range: `from` and `to` inclusive may span at most this many days. */
export const USAGE_MAX_RANGE_DAYS = 366;
/** Milliseconds in one UTC day. */
export const DAY_MS = 86_400_000;

/** One row of the by-model report. */
export const usageByModelItemSchema = z
  .object({
    modelId: z.string(),
    region: z.string(),
    /** Connection-seconds (instance size 1 × seconds) inside the range. */
    totalUsageSecondsTimesSize: z.number(),
    /** `totalUsageSecondsTimesSize / 3600`. */
    totalConcurrencyHours: z.number(),
    /** Connection-seconds ÷ seconds in the whole range. */
    averageInstancesOverRange: z.number(),
    /** Distinct UTC days with any usage. */
    daysWithUsage: z.number().int(),
  })
  .loose();
/** One row of the by-model report. */
export type UsageByModelItem = z.infer<typeof usageByModelItemSchema>;

/** Body of `GET /api/v1/usage/concurrent/by-model`. `customerId` is the account id. */
export const usageByModelReportSchema = z
  .object({ customerId: z.string(), from: z.string(), to: z.string(), items: z.array(usageByModelItemSchema) })
  .loose();
/** Body of `GET /api/v1/usage/concurrent/by-model`. */
export type UsageByModelReport = z.infer<typeof usageByModelReportSchema>;

/** Live connection counts of one model (the `model.ConcurrentConnectionsResponse` data shape). */
export const connectionCountsSchema = z
  .object({
    /** Connections of the account open on this model right now. */
    concurrent_connections: z.number().int(),
    /** The reference service scales with demand, so this equals `concurrent_connections`. */
    desired_concurrent_connections: z.number().int(),
  })
  .loose();
/** Live connection counts of one model. */
export type ConnectionCounts = z.infer<typeof connectionCountsSchema>;

/** Body of `GET /api/v1/concurrent_connections/batch`: `data` maps each requested model id to its counts. */
export const connectionsBatchResponseSchema = z
  .object({ success: z.literal(true), message: z.string(), data: z.record(z.string(), connectionCountsSchema) })
  .loose();
/** Body of `GET /api/v1/concurrent_connections/batch`. */
export type ConnectionsBatchResponse = z.infer<typeof connectionsBatchResponseSchema>;

/** A validated inclusive date range: `startMs` is `from` 00:00Z, `endMs` is the day after `to` 00:00Z. */
export interface UsageDateRange {
  from: string;
  to: string;
  startMs: number;
  endMs: number;
  days: number;
}

/** Outcome of {@link parseUsageDateRange}: the range, or the message explaining why it is invalid. */
export type UsageDateRangeResult = { ok: true; range: UsageDateRange } | { ok: false; message: string };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses a `YYYY-MM-DD` calendar date to its UTC midnight, or undefined when it is malformed or impossible. */
function utcMidnight(value: string): number | undefined {
  const m = DATE.exec(value);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? ms : undefined;
}

/** Validates `from`/`to` (required `YYYY-MM-DD` dates, inclusive, `to` on or after `from`, at most 366 days). */
export function parseUsageDateRange(from: unknown, to: unknown): UsageDateRangeResult {
  if (from === undefined || from === '' || to === undefined || to === '') {
    return { ok: false, message: 'Invalid date range: from and to are required (YYYY-MM-DD)' };
  }
  const startMs = typeof from === 'string' ? utcMidnight(from) : undefined;
  if (startMs === undefined) return { ok: false, message: `Invalid date range: from must be a date in YYYY-MM-DD form, got ${JSON.stringify(from)}` };
  const toMs = typeof to === 'string' ? utcMidnight(to) : undefined;
  if (toMs === undefined) return { ok: false, message: `Invalid date range: to must be a date in YYYY-MM-DD form, got ${JSON.stringify(to)}` };
  if (toMs < startMs) return { ok: false, message: `Invalid date range: to (${to as string}) is before from (${from as string})` };
  const days = (toMs - startMs) / DAY_MS + 1;
  if (days > USAGE_MAX_RANGE_DAYS) {
    return { ok: false, message: `Invalid date range: ${days} days requested, the maximum is ${USAGE_MAX_RANGE_DAYS} (from and to inclusive)` };
  }
  return { ok: true, range: { from: from as string, to: to as string, startMs, endMs: toMs + DAY_MS, days } };
}

/** Formats a time as its UTC `YYYY-MM-DD` date. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** One metered interval: a connection holding `modelId` in `region` from `startMs` to `endMs` (undefined = open). */
export interface UsageInterval {
  modelId: string;
  region: string;
  startMs: number;
  endMs: number | undefined;
}

/**
 * Splits each interval (open ones ending at `nowMs`) at UTC midnights inside `range` and calls `visit` with
 * the interval, the day's index from `range.from` and the milliseconds on that day (always > 0).
 */
function forEachDay(intervals: Iterable<UsageInterval>, range: UsageDateRange, nowMs: number, visit: (i: UsageInterval, day: number, ms: number) => void): void {
  for (const interval of intervals) {
    const start = Math.max(interval.startMs, range.startMs);
    const end = Math.min(interval.endMs ?? nowMs, range.endMs);
    for (let day = Math.floor((start - range.startMs) / DAY_MS); end > start && range.startMs + day * DAY_MS < end; day++) {
      const dayStart = range.startMs + day * DAY_MS;
      const ms = Math.min(end, dayStart + DAY_MS) - Math.max(start, dayStart);
      if (ms > 0) visit(interval, day, ms);
    }
  }
}

const byModelThenRegion = (a: { modelId: string; region: string }, b: { modelId: string; region: string }): number =>
  a.modelId === b.modelId ? a.region.localeCompare(b.region) : a.modelId.localeCompare(b.modelId);

/**
 * Computes the by-model aggregates (see the module comment for the definitions) of `intervals` over `range`.
 * Open intervals end at `nowMs`. Items are sorted by modelId then region; groups with no time in the range
 * are left out.
 */
export function aggregateUsage(intervals: Iterable<UsageInterval>, range: UsageDateRange, nowMs: number): UsageByModelItem[] {
  const groups = new Map<string, { modelId: string; region: string; ms: number; days: Set<number> }>();
  forEachDay(intervals, range, nowMs, (interval, day, ms) => {
    const key = `${interval.modelId}\u0000${interval.region}`;
    let group = groups.get(key);
    if (!group) {
      group = { modelId: interval.modelId, region: interval.region, ms: 0, days: new Set() };
      groups.set(key, group);
    }
    group.ms += ms;
    group.days.add(day);
  });
  const rangeSeconds = range.days * 86_400;
  return [...groups.values()].sort(byModelThenRegion).map((g) => ({
    modelId: g.modelId,
    region: g.region,
    totalUsageSecondsTimesSize: g.ms / 1000,
    totalConcurrencyHours: g.ms / 3_600_000,
    averageInstancesOverRange: g.ms / 1000 / rangeSeconds,
    daysWithUsage: g.days.size,
  }));
}

/** One row of the daily report (`GET /api/v1/usage/concurrent`). */
export const usageDailyItemSchema = z
  .object({
    date: z.string(),
    customerId: z.string(),
    modelId: z.string(),
    region: z.string(),
    /** Connection-seconds on that UTC day. */
    usageSecondsTimesSize: z.number(),
    /** `usageSecondsTimesSize / 3600`. */
    concurrencyHours: z.number(),
    /** Time-weighted mean number of open connections over the day (`usageSecondsTimesSize / 86 400`). */
    averageSize: z.number(),
  })
  .loose();
/** One row of the daily report. */
export type UsageDailyItem = z.infer<typeof usageDailyItemSchema>;

/** Body of `GET /api/v1/usage/concurrent`. */
export const usageDailyReportSchema = z
  .object({ customerId: z.string(), from: z.string(), to: z.string(), items: z.array(usageDailyItemSchema) })
  .loose();
/** Body of `GET /api/v1/usage/concurrent`. */
export type UsageDailyReport = z.infer<typeof usageDailyReportSchema>;

/** Daily rows (date, model, region) of `intervals` over `range`, by date then modelId then region; days without usage are left out. */
export function aggregateUsageDaily(intervals: Iterable<UsageInterval>, range: UsageDateRange, nowMs: number, customerId: string): UsageDailyItem[] {
  const rows = new Map<string, { day: number; modelId: string; region: string; ms: number }>();
  forEachDay(intervals, range, nowMs, (interval, day, ms) => {
    const key = `${day}\u0000${interval.modelId}\u0000${interval.region}`;
    const row = rows.get(key) ?? { day, modelId: interval.modelId, region: interval.region, ms: 0 };
    row.ms += ms;
    rows.set(key, row);
  });
  return [...rows.values()]
    .sort((a, b) => a.day - b.day || byModelThenRegion(a, b))
    .map((r) => ({
      date: utcDate(range.startMs + r.day * DAY_MS),
      customerId,
      modelId: r.modelId,
      region: r.region,
      usageSecondsTimesSize: r.ms / 1000,
      concurrencyHours: r.ms / 3_600_000,
      averageSize: r.ms / DAY_MS,
    }));
}
