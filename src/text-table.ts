/** Plain-text tables for terminals (CLI output and the usage meter's report). */

/** Prints rows as an aligned text table, or JSON when `json` is set. */
export function printTable(rows: Array<Record<string, unknown>>, json: boolean, out: NodeJS.WritableStream = process.stdout): void {
  if (json) {
    out.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  if (rows.length === 0) {
    out.write('(none)\n');
    return;
  }
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  out.write(`${line(columns)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const r of rows) out.write(`${line(columns.map((c) => cell(r[c])))}\n`);
}
