/**
 * A process's own view of its concurrent usage: start a session when a speech connection opens on a model,
 * stop it when it closes, and ask for live counts or for the same per-model aggregates the service reports
 * (`aggregateUsage`, so the numbers and column names match `GET /api/v1/usage/concurrent/by-model`).
 * Finished sessions are kept up to `maxIntervals` (oldest dropped first, counted in `droppedIntervals`).
 */
import { printTable } from '../text-table.js';
import { InvalidArgumentError } from '../errors.js';
import { aggregateUsage, parseUsageDateRange, type UsageByModelItem, type UsageInterval } from '../protocol/usage.js';

/** Options of {@link UsageMeter}. */
export interface UsageMeterOptions {
  /** Region recorded for sessions that name none. Default `local`. */
  region?: string;
  /** Clock in ms since the epoch. Default `Date.now`. */
  clock?: () => number;
  /** Finished sessions kept for reports. Default 100 000. */
  maxIntervals?: number;
}

/** One metered session; {@link UsageSession.stop} ends it (idempotent) and returns its duration. */
export interface UsageSession {
  readonly modelId: string;
  readonly region: string;
  readonly startMs: number;
  /** Milliseconds so far (or in total, once stopped). */
  readonly durationMs: number;
  stop(): number;
}

/** Tracks a process's own concurrent sessions per model. */
export class UsageMeter {
  readonly #clock: () => number;
  readonly #region: string;
  readonly #max: number;
  readonly #finished: UsageInterval[] = [];
  readonly #open = new Set<UsageInterval>();
  readonly #peaks = new Map<string, number>();
  #dropped = 0;

  constructor(options: UsageMeterOptions = {}) {
    this.#clock = options.clock ?? Date.now;
    this.#region = options.region ?? 'local';
    this.#max = options.maxIntervals ?? 100_000;
  }

  /** Finished sessions dropped because more than `maxIntervals` were kept. */
  get droppedIntervals(): number {
    return this.#dropped;
  }

  /** Starts metering one session on `modelId`. */
  start(modelId: string, region = this.#region): UsageSession {
    if (!modelId) throw new InvalidArgumentError('modelId is required');
    const interval: UsageInterval = { modelId, region, startMs: this.#clock(), endMs: undefined };
    this.#open.add(interval);
    this.#peaks.set(modelId, Math.max(this.#peaks.get(modelId) ?? 0, this.liveCounts().get(modelId) ?? 0));
    const clock = this.#clock;
    const finish = (): void => {
      interval.endMs = clock();
      this.#open.delete(interval);
      this.#finished.push(interval);
      if (this.#finished.length > this.#max) {
        this.#finished.shift();
        this.#dropped++;
      }
    };
    return {
      modelId,
      region,
      startMs: interval.startMs,
      get durationMs() {
        return (interval.endMs ?? clock()) - interval.startMs;
      },
      stop() {
        if (interval.endMs === undefined) finish();
        return (interval.endMs ?? clock()) - interval.startMs;
      },
    };
  }

  /** Sessions open right now, per model. */
  liveCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const i of this.#open) counts.set(i.modelId, (counts.get(i.modelId) ?? 0) + 1);
    return counts;
  }

  /** Highest number of simultaneous sessions seen per model. */
  peakCounts(): Map<string, number> {
    return new Map(this.#peaks);
  }

  /** The service's by-model aggregates over the inclusive UTC dates `from`…`to` (`YYYY-MM-DD`), computed locally. */
  report(from: string, to: string, filter: { modelId?: string; region?: string } = {}): UsageByModelItem[] {
    const checked = parseUsageDateRange(from, to);
    if (!checked.ok) throw new InvalidArgumentError(checked.message);
    const intervals = [...this.#finished, ...this.#open].filter(
      (i) => (filter.modelId === undefined || i.modelId === filter.modelId) && (filter.region === undefined || i.region === filter.region),
    );
    return aggregateUsage(intervals, checked.range, this.#clock());
  }

  /** Prints {@link UsageMeter.report} as a table with the service report's column names and units. */
  printReport(from: string, to: string, out: NodeJS.WritableStream = process.stdout): void {
    printUsageTable(this.report(from, to), out);
  }
}

/** Prints by-model usage rows (from the service or from {@link UsageMeter.report}) as an aligned table. */
export function printUsageTable(items: readonly UsageByModelItem[], out: NodeJS.WritableStream = process.stdout): void {
  printTable(
    items.map((i) => ({
      modelId: i.modelId,
      region: i.region,
      totalUsageSecondsTimesSize: round(i.totalUsageSecondsTimesSize, 3),
      totalConcurrencyHours: round(i.totalConcurrencyHours, 6),
      averageInstancesOverRange: round(i.averageInstancesOverRange, 6),
      daysWithUsage: i.daysWithUsage,
    })),
    false,
    out,
  );
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
