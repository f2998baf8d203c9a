import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { printUsageTable, UsageMeter } from '../../../src/client/usage-meter.js';
import { InvalidArgumentError } from '../../../src/errors.js';
import { SqliteConnectionMeter } from '../../../src/server/usage/meter.js';
import { openDatabase, type Db } from '../../../src/server/store.js';

const T = (iso: string): number => Date.parse(iso);

/** A clock the test moves by hand. */
function manualClock(start: string): { now: () => number; set(iso: string): void } {
  let t = T(start);
  return { now: () => t, set: (iso) => void (t = T(iso)) };
}

describe('SqliteConnectionMeter', () => {
  let db: Db;
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => db.close());

  it('records model intervals, splits on a model change, ignores repeats and calls after close', () => {
    const clock = manualClock('2026-05-01T10:00:00Z');
    const meter = new SqliteConnectionMeter(db, clock.now);
    const c = meter.open('acct', 'us');
    clock.set('2026-05-01T10:00:05Z');
    c.setModel('dd-etts-3.0');
    clock.set('2026-05-01T10:10:05Z');
    c.setModel('dd-etts-3.0');
    clock.set('2026-05-01T10:20:05Z');
    c.setModel('dd-etts-2.5');
    clock.set('2026-05-01T10:30:05Z');
    c.close();
    clock.set('2026-05-01T11:00:00Z');
    c.close();
    c.setModel('dd-etts-1.1');
    const all = meter.intervals('acct', T('2026-05-01T00:00:00Z'), T('2026-05-02T00:00:00Z'));
    expect(all).toEqual([
      { modelId: 'dd-etts-3.0', region: 'us', startMs: T('2026-05-01T10:00:05Z'), endMs: T('2026-05-01T10:20:05Z') },
      { modelId: 'dd-etts-2.5', region: 'us', startMs: T('2026-05-01T10:20:05Z'), endMs: T('2026-05-01T10:30:05Z') },
    ]);
    const connection = db.prepare('SELECT opened_ms, closed_ms FROM usage_connections').get();
    expect(connection).toEqual({ opened_ms: T('2026-05-01T10:00:00Z'), closed_ms: T('2026-05-01T10:30:05Z') });
  });

  it('counts live connections per model and per account, and filters intervals', () => {
    const clock = manualClock('2026-05-01T10:00:00Z');
    const meter = new SqliteConnectionMeter(db, clock.now);
    const a = meter.open('acct', 'us');
    const b = meter.open('acct', 'eu');
    const other = meter.open('other', 'us');
    const unconfigured = meter.open('acct', 'us');
    a.setModel('m1');
    b.setModel('m1');
    other.setModel('m1');
    expect(meter.liveCounts('acct')).toEqual(new Map([['m1', 2]]));
    b.setModel('m2');
    expect(meter.liveCounts('acct')).toEqual(new Map([['m1', 1], ['m2', 1]]));
    a.close();
    b.close();
    unconfigured.close();
    expect(meter.liveCounts('acct')).toEqual(new Map());
    expect(meter.liveCounts('other')).toEqual(new Map([['m1', 1]]));
    const day = [T('2026-05-01T00:00:00Z'), T('2026-05-02T00:00:00Z')] as const;
    expect(meter.intervals('acct', ...day, { region: 'eu' }).map((i) => i.modelId)).toEqual(['m1', 'm2']);
    expect(meter.intervals('acct', ...day, { modelId: 'm2' })).toHaveLength(1);
  });

  it('closes what a previous process left open, adding no usage', () => {
    const clock = manualClock('2026-05-01T10:00:00Z');
    new SqliteConnectionMeter(db, clock.now).open('acct', 'us').setModel('m1');
    clock.set('2026-05-01T12:00:00Z');
    const restarted = new SqliteConnectionMeter(db, clock.now);
    expect(restarted.closeAbandoned()).toBe(1);
    expect(restarted.liveCounts('acct').size).toBe(0);
    const [interval] = restarted.intervals('acct', T('2026-05-01T00:00:00Z'), T('2026-05-02T00:00:00Z'));
    expect(interval?.endMs).toBe(interval?.startMs);
  });
});

describe('UsageMeter (client-side)', () => {
  it('tracks live and peak concurrency and reports what the service computes for the same sessions', () => {
    const clock = manualClock('2026-05-01T23:00:00Z');
    const meter = new UsageMeter({ clock: clock.now, region: 'us' });
    const s1 = meter.start('dd-etts-3.0');
    clock.set('2026-05-01T23:30:00Z');
    const s2 = meter.start('dd-etts-3.0');
    const s3 = meter.start('dd-etts-2.5', 'eu');
    expect(meter.liveCounts()).toEqual(new Map([['dd-etts-3.0', 2], ['dd-etts-2.5', 1]]));
    clock.set('2026-05-02T00:30:00Z');
    expect(s1.stop()).toBe(90 * 60_000);
    expect(s1.stop()).toBe(90 * 60_000);
    clock.set('2026-05-02T01:00:00Z');
    s3.stop();
    expect(s2.durationMs).toBe(90 * 60_000);
    expect(meter.peakCounts()).toEqual(new Map([['dd-etts-3.0', 2], ['dd-etts-2.5', 1]]));
    const report = meter.report('2026-05-01', '2026-05-02');
    expect(report).toEqual([
      { modelId: 'dd-etts-2.5', region: 'eu', totalUsageSecondsTimesSize: 5400, totalConcurrencyHours: 1.5, averageInstancesOverRange: 5400 / 172_800, daysWithUsage: 2 },
      // s1 90 min + s2 still open 90 min
      { modelId: 'dd-etts-3.0', region: 'us', totalUsageSecondsTimesSize: 10_800, totalConcurrencyHours: 3, averageInstancesOverRange: 10_800 / 172_800, daysWithUsage: 2 },
    ]);
    expect(meter.report('2026-05-01', '2026-05-02', { modelId: 'dd-etts-2.5' })).toEqual(report.slice(0, 1));
    expect(() => meter.report('2026-05-02', '2026-05-01')).toThrow(InvalidArgumentError);
  });

  it('keeps at most maxIntervals finished sessions', () => {
    const meter = new UsageMeter({ maxIntervals: 2, clock: () => 0 });
    for (let i = 0; i < 5; i++) meter.start('m').stop();
    expect(meter.droppedIntervals).toBe(3);
  });

  it('prints the service report columns in order with rounded values', () => {
    let text = '';
    const out = new Writable({
      write(chunk, _enc, done) {
        text += String(chunk);
        done();
      },
    });
    printUsageTable(
      [{ modelId: 'dd-etts-3.0', region: 'us', totalUsageSecondsTimesSize: 5400, totalConcurrencyHours: 1.5, averageInstancesOverRange: 5400 / 172_800, daysWithUsage: 2 }],
      out,
    );
    const [header, rule, row] = text.split('\n');
    expect(header?.split(/\s+/)).toEqual(['modelId', 'region', 'totalUsageSecondsTimesSize', 'totalConcurrencyHours', 'averageInstancesOverRange', 'daysWithUsage']);
    expect(rule).toMatch(/^-+ +-+/);
    expect(row?.split(/\s+/)).toEqual(['dd-etts-3.0', 'us', '5400', '1.5', '0.03125', '2']);
  });
});
