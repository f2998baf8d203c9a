/** Small statistics helpers for the Twilio bridge benchmarks (percentiles, CPU time of a process). */
import { readFileSync } from 'node:fs';

/** Nearest-rank percentile of `values` (unsorted), NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

/** `p50 / p95 / p99 (n)` of `values` in ms, one decimal. */
export function summary(values: readonly number[]): string {
  if (values.length === 0) return '–';
  const f = (p: number): string => percentile(values, p).toFixed(1);
  return `${f(50)} / ${f(95)} / ${f(99)} (n=${values.length})`;
}

/** User + system CPU seconds a process has used so far (Linux `/proc/PID/stat`, 100 ticks per second). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
