/**
 * Grapheme clusters at the end of a message: which trailing text could still be continued by the next
 * message, so that an incremental reader holds it back instead of splitting a cluster.
 *
 * Held back (the next message may really continue it):
 * - anything that is or may become an emoji: a cluster with a pictograph (may take a skin tone, VS16, a ZWJ
 *   and another pictograph, tag characters) or a regional indicator (half a flag; a whole flag is held too,
 *   so a following selector can never change what it means), an ASCII keycap base `0-9 # *` (may take
 *   `U+FE0F U+20E3`);
 * - a trailing carriage return (`\r\n` is one cluster);
 * - a cluster ending in a mark, a variation selector, a ZWJ or another format character (more may follow);
 * - a letter of a script whose NFC text still attaches vowel signs or points to letters (Hebrew, Arabic,
 *   Devanagari and the other Indic scripts, Thai, Khmer, Hangul jamo, ...);
 * - a dangling high surrogate (the message was cut inside a code point).
 *
 * Released at once (no added latency): whitespace, punctuation, symbols that are not emoji, non-ASCII-digit
 * numbers, and letters of Latin, Greek, Cyrillic, Armenian, Georgian, Han, kana,
 * Bopomofo and precomposed Hangul. A combining mark that arrives in the *next* message after such a letter
 * (decomposed NFD text) therefore starts a new piece of text: the characters are all delivered in order, but
 * that one cluster straddles two events. This trade favours latency; LLM output is NFC in practice.
 */

const SEGMENTER = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** ASCII code units after which more of the same cluster may follow: digits, `#`, `*` (keycaps) and CR. */
const ASCII_MAY_CONTINUE = new Uint8Array(128);
for (const c of '0123456789#*\r') ASCII_MAY_CONTINUE[c.charCodeAt(0)] = 1;

const EMOJI_PART = /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u;
const MARK_OR_FORMAT = /[\p{M}\p{Cf}]$/u;
const LETTER = /\p{L}$/u;
const SETTLED_SCRIPT = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Armenian}\p{Script=Georgian}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}\uAC00-\uD7A3]$/u;

/** The grapheme clusters of `text` (iterable, with random access by `containing(index)`). */
export function segmentGraphemes(text: string): Intl.Segments {
  return SEGMENTER.segment(text);
}

/** Whether a complete-looking grapheme cluster may still be continued by text that has not arrived yet. */
export function mayContinue(cluster: string): boolean {
  if (EMOJI_PART.test(cluster)) return true;
  if (cluster.length === 1 && cluster.charCodeAt(0) < 0x80) return ASCII_MAY_CONTINUE[cluster.charCodeAt(0)] === 1;
  if (MARK_OR_FORMAT.test(cluster)) return true;
  return LETTER.test(cluster) && !SETTLED_SCRIPT.test(cluster);
}

/**
 * How many code units at the end of `text` to hold back because the next message may continue that grapheme
 * cluster; 0 when the text ends settled. Cost: O(1) for text ending in ASCII, otherwise one cluster lookup.
 */
export function continuableTail(text: string): number {
  let end = text.length;
  let held = 0;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) {
    held = 1;
    end--;
  }
  if (end === 0) return held;
  const c = text.charCodeAt(end - 1);
  if (c < 0x80) return held + (ASCII_MAY_CONTINUE[c] ?? 0);
  const cluster = segmentGraphemes(text).containing(end - 1);
  if (!cluster || !mayContinue(cluster.segment)) return held;
  return held + end - cluster.index;
}
