/** Helpers shared by the tag tests: feeding split input, normalizing events, enumerating split points. */
import { TagScanner, type ScanEvent, type TagScannerOptions } from '../../../src/tags/index.js';

/** What one run of the scanner produced: all events, the raw text each push/flush released, and `pending` after each. */
export interface ScanRun {
  events: ScanEvent[];
  released: string[];
  pendings: string[];
  pendingAfterFlush: string;
}

/** Feeds `parts` one push each, then flushes. */
export function run(parts: readonly string[], options: TagScannerOptions = {}): ScanRun {
  const scanner = new TagScanner(options);
  const events: ScanEvent[] = [];
  const released: string[] = [];
  const pendings: string[] = [];
  for (const step of [...parts.map((p) => () => scanner.push(p)), () => scanner.flush()]) {
    const out = step();
    events.push(...out);
    released.push(out.map((e) => e.raw).join(''));
    pendings.push(scanner.pending);
  }
  return { events, released, pendings, pendingAfterFlush: scanner.pending };
}

/** Merges adjacent plain text (a stripped `</config>` stays apart), so results compare across split points. */
export function merge(events: readonly ScanEvent[]): ScanEvent[] {
  const out: ScanEvent[] = [];
  for (const e of events) {
    const last = out.at(-1);
    if (e.type === 'text' && e.text === e.raw && last?.type === 'text' && last.text === last.raw) out[out.length - 1] = { type: 'text', text: last.text + e.text, raw: last.raw + e.raw };
    else out.push(e);
  }
  return out;
}

/** Scans `parts` and returns the merged events. */
export function scan(parts: readonly string[], options: TagScannerOptions = {}): ScanEvent[] {
  return merge(run(parts, options).events);
}

/** Every way of cutting `text` into pieces at code-unit positions (2^(n-1) ways: keep `text` short). */
export function* allSplits(text: string): Generator<string[]> {
  const cuts = text.length - 1;
  if (cuts > 16) throw new Error('too long for exhaustive splits');
  for (let mask = 0; mask < 2 ** Math.max(cuts, 0); mask++) {
    const parts: string[] = [];
    let from = 0;
    for (let i = 0; i < cuts; i++) {
      if (mask & (1 << i)) {
        parts.push(text.slice(from, i + 1));
        from = i + 1;
      }
    }
    parts.push(text.slice(from));
    yield parts;
  }
}

/** Every cut of `text` into two pieces and into three pieces (O(n²) splits, for longer inputs). */
export function* pairSplits(text: string): Generator<string[]> {
  for (let i = 0; i <= text.length; i++) {
    yield [text.slice(0, i), text.slice(i)];
    for (let j = i + 1; j < text.length; j++) yield [text.slice(0, i), text.slice(i, j), text.slice(j)];
  }
}

/** `text` one UTF-16 code unit per piece. */
export function codeUnits(text: string): string[] {
  return Array.from({ length: text.length }, (_, i) => text.charAt(i));
}

/** `text` cut into random pieces of 1..`max` code units. */
export function randomSplit(text: string, random: () => number, max = 8): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(random() * max);
    parts.push(text.slice(i, i + n));
    i += n;
  }
  return parts;
}

/** Offsets of every grapheme cluster boundary of `text`. */
export function graphemeBoundaries(text: string): Set<number> {
  const out = new Set([0]);
  for (const g of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) out.add(g.index + g.segment.length);
  return out;
}
