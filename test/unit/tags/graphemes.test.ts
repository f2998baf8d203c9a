import { describe, expect, it } from 'vitest';
import { continuableTail, TagScanner } from '../../../src/tags/index.js';

/** The text `continuableTail` holds back at the end of `text`. */
const heldOf = (text: string): string => text.slice(text.length - continuableTail(text));

/** Expects each `[text, held]` pair, naming the text on failure. */
function expectHeld(cases: readonly (readonly [string, string])[]): void {
  for (const [text, held] of cases) expect([text, heldOf(text)]).toEqual([text, held]);
}

describe('continuableTail: what the next message may continue', () => {
  it('holds nothing after ASCII letters, spaces, punctuation, or settled scripts', () => {
    expectHeld(['Hello', 'Hello ', 'end.', 'a, b;', '(x)', 'tab\t', 'line\n', 'Grüße', 'naïve', 'Ωμέγα', 'привет', 'Բարեւ', '你好', 'こんにちは', 'カタカナ', '안녕', '½', '€', '—', '…', '“quoted”', '。'].map((text) => [text, ''] as const));
  });

  it('holds the whole trailing cluster when it is or may become an emoji', () => {
    const cases: [string, string][] = [
      ['x 👍', '👍'],
      ['x 👍🏽', '👍🏽'],
      ['x 👨‍👩‍👧', '👨‍👩‍👧'],
      ['x 👨‍👩‍👧‍', '👨‍👩‍👧‍'],
      ['x ❤', '❤'],
      ['x ❤️', '❤️'],
      ['x 🇫', '🇫'],
      ['x 🇫🇷', '🇫🇷'],
      ['x 🇫🇷🇩', '🇩'],
      ['x 1', '1'],
      ['x #', '#'],
      ['x *', '*'],
      ['x 1️', '1️'],
      ['x 1️⃣', '1️⃣'],
      ['x ©', '©'],
      ['x 🏴󠁧󠁢', '🏴󠁧󠁢'],
    ];
    expectHeld(cases);
  });

  it('holds a cluster ending in a mark, ZWJ or format character, a CR, a dangling high surrogate', () => {
    const cases: [string, string][] = [
      ['x e\u0301', 'e\u0301'],
      ['x a\u200D', 'a\u200D'],
      ['x \u200C', ' \u200C'], // ZWNJ extends the space before it
      ['line\r', '\r'],
      ['x \uD83D', '\uD83D'],
      ['x 👍\uD83C', '👍\uD83C'],
      ['abc\uD83C', '\uD83C'],
      ['\uD83C', '\uD83C'],
    ];
    expectHeld(cases);
  });

  it('holds a letter of a script that attaches vowel signs and points', () => {
    expectHeld([['שלום', 'ם'], ['שָׁלוֹם', 'ם'], ['مرحبا', 'ا'], ['नमस्ते', 'स्ते'] /* one conjunct cluster */, ['क', 'क'], ['สวัสดี', 'ดี'], ['ᄀ', 'ᄀ']]);
  });

  it('keeps Hebrew points and Devanagari vowel signs with their letter across messages', () => {
    for (const [a, b] of [['שָׁל', '\u05D5\u05B9ם'], ['नमस्', '\u0924\u0947'], ['ש', '\u05B8']] as const) {
      const s = new TagScanner();
      const first = s.push(a).map((e) => e.raw).join('');
      const second = [...s.push(b), ...s.flush()].map((e) => e.raw).join('');
      const boundaries = new Set([...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(a + b)].map((g) => g.index));
      expect(boundaries.has(first.length)).toBe(true);
      expect(first + second).toBe(a + b);
    }
  });

  it('is empty for empty text', () => {
    expect(continuableTail('')).toBe(0);
  });
});
