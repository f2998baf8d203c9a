/**
 * Where text may be cut into frames: after a clause (punctuation then whitespace, or a line break) or after
 * a word (whitespace), never in front of a combining mark, ZWJ or variation selector (which would split a
 * grapheme cluster). Offsets are UTF-16 indexes into the string, "cut before this index".
 */

const CLAUSE_END = /[.!?;:,…。！？、；：][)"'”’»\]]*\s+|\n+/g;
const WHITESPACE_RUN = /\s+/g;
const CLUSTER_CONTINUATION = /^[\p{M}\u200d\ufe00-\ufe0f\u{e0020}-\u{e007f}\u{1f3fb}-\u{1f3ff}]/u;

/** Whether a frame may end right before `at` without splitting a grapheme cluster. */
function cuttable(text: string, at: number): boolean {
  return at >= text.length || !CLUSTER_CONTINUATION.test(text.slice(at, at + 2));
}

/** Decides whether a cut before index `at` is allowed (e.g. not inside an inline tag). */
export type CutFilter = (at: number) => boolean;

function lastMatchEnd(text: string, pattern: RegExp, allowed: CutFilter | undefined): number {
  pattern.lastIndex = 0;
  let best = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const end = m.index + m[0].length;
    if (cuttable(text, end) && (!allowed || allowed(end))) best = end;
  }
  return best;
}

/** Index right after the last clause boundary in `text` that `allowed` accepts, or 0 when there is none. */
export function lastClauseCut(text: string, allowed?: CutFilter): number {
  return lastMatchEnd(text, CLAUSE_END, allowed);
}

/** Index right after the last whitespace run in `text` that `allowed` accepts, or 0 when there is none. */
export function lastWordCut(text: string, allowed?: CutFilter): number {
  return lastMatchEnd(text, WHITESPACE_RUN, allowed);
}

/** Whether `text` ends a sentence or clause (so the end itself is a natural cut). */
export function endsClause(text: string): boolean {
  return /[.!?;:,…。！？、；：][)"'”’»\]]*$/.test(text);
}
