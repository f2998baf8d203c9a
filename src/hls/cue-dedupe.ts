/**
 * Duplicate suppression for cues of a live WebVTT track whose segments overlap: a cue repeated whole in the next
 * segment (same start, end and text), and a cue a segmenter split at a segment boundary (the same text again,
 * starting where the earlier part ended or inside it). Times are media seconds. Bounded memory; no I/O.
 */
import type { VttCue } from './webvtt.js';

/** Tolerance, in seconds, for "starts where the previous part ended". */
const CONTINUATION_S = 0.05;
/** Largest number of remembered cues. */
const LIMIT = 4096;

/** Remembers delivered cues and tells whether a new one is a repeat or a continuation of one of them. */
export class CueDeduper {
  readonly #exact = new Set<string>();
  readonly #byText = new Map<string, { start: number; end: number }>();

  /** True when `cue` is new (and remembers it); false for a repeat or the continuation of a delivered cue. */
  accept(cue: VttCue): boolean {
    const key = `${cue.start}|${cue.end}|${cue.text}`;
    if (this.#exact.has(key)) return false;
    remember(this.#exact, key);
    const previous = this.#byText.get(cue.text);
    if (previous && cue.start >= previous.start - CONTINUATION_S && cue.start <= previous.end + CONTINUATION_S) {
      previous.end = Math.max(previous.end, cue.end);
      return false;
    }
    this.#byText.delete(cue.text);
    this.#byText.set(cue.text, { start: cue.start, end: cue.end });
    if (this.#byText.size > LIMIT) this.#byText.delete(this.#byText.keys().next().value as string);
    return true;
  }
}

function remember(set: Set<string>, key: string): void {
  set.add(key);
  if (set.size > LIMIT) set.delete(set.values().next().value as string);
}
