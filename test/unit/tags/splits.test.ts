/**
 * Split invariance: however the input is cut into messages (at any UTF-16 code unit), the scanner emits the
 * same events (adjacent plain text merged), the raw text of the events reproduces the input, and every
 * release ends on a grapheme cluster boundary of the whole input.
 */
import { describe, expect, it } from 'vitest';
import type { TagScannerOptions } from '../../../src/tags/index.js';
import { rng } from '../client/test-utils.js';
import { allSplits, codeUnits, graphemeBoundaries, merge, pairSplits, randomSplit, run, scan } from './scan-helpers.js';

const MODES: TagScannerOptions[] = [{ acceptEmojis: false }, { acceptEmojis: true }];

/** Checks every invariant for one split of `input` against `whole` (the JSON of the whole-input events). */
function checkSplit(input: string, parts: string[], options: TagScannerOptions, whole: string, boundaries: Set<number> | undefined): void {
  const r = run(parts, options);
  const where = `split ${JSON.stringify(parts)} (${JSON.stringify(options)})`;
  if (r.events.map((e) => e.raw).join('') !== input || r.pendingAfterFlush !== '') throw new Error(`${where}: raw text differs from the input`);
  // compare as JSON first (fast); on a difference let expect() show it
  if (JSON.stringify(merge(r.events)) !== whole) expect([where, merge(r.events)]).toEqual([where, JSON.parse(whole)]);
  let at = 0;
  let pushed = 0;
  for (const [i, piece] of r.released.entries()) {
    at += piece.length;
    pushed += parts[i]?.length ?? 0;
    // what was released so far plus what is pending is exactly what was pushed so far
    if (at + (r.pendings[i] ?? '').length !== pushed || input.slice(at, pushed) !== r.pendings[i]) throw new Error(`${where}: released + pending is not the input pushed so far`);
    if (boundaries && !boundaries.has(at)) throw new Error(`${where}: released up to ${at}, inside a grapheme cluster`);
  }
}

/** Runs `checkSplit` for every split of `input` that `splits` yields, in both emoji modes. */
function checkAll(input: string, splits: (input: string) => Iterable<string[]>): void {
  const boundaries = graphemeBoundaries(input);
  for (const options of MODES) {
    const whole = JSON.stringify(scan([input], options));
    for (const parts of splits(input)) checkSplit(input, parts, options, whole, boundaries);
  }
}

/** Short inputs: every one of the 2^(n-1) ways to split them. */
const SHORT = [
  'a[Hi]<config>',
  '👨‍👩‍👧‍👦',
  '👍🏽x👍🏿',
  '🇫🇷🇩🇪🇯',
  '1️⃣#️⃣*⃣9',
  '[ Sad ]😐!',
  '</config>x<c',
  '🏴󠁧󠁢󠁥󠁮󠁧󠁿',
  '<config a=1>',
  'שָׁלוֹם क्षि',
  '🏳️‍🌈 🇺🇸',
  'a\r\nb[x]\r',
  '👩🏽‍💻[ok]',
  '<CONFIG L=x/>',
];

/** Longer inputs: every cut into two or three pieces, and one code unit at a time. */
const LONG = [
  'Hi <config locale="es-ES" voicePromptId=\'v 2\'/>hola [Sad] adiós</config>! 😐 🇲🇽',
  'ok 👨‍👩‍👧‍👦 and 👍🏽 and 🇫🇷 and 1️⃣ and é end [happy] 🌍',
  'a < b, c [0, 1) <b>x</b> [see here] <configure> </CONFIG > [ NORMAL ]',
];

describe('split invariance', () => {
  it('exhaustively splits short inputs at every code unit combination', () => {
    for (const input of SHORT) checkAll(input, allSplits);
  });

  it('splits longer inputs at every pair of points and one code unit at a time', () => {
    for (const input of LONG) checkAll(input, (text) => [codeUnits(text), ...pairSplits(text)]);
  });

  it('holds every split of a multi-codepoint emoji until it is whole', () => {
    for (const emoji of ['👨‍👩‍👧‍👦', '👍🏽', '🇫🇷', '1️⃣', '❤️', '🏳️‍🌈', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '👩🏽‍💻']) {
      for (let cut = 1; cut < emoji.length; cut++) {
        const r = run([`go ${emoji.slice(0, cut)}`, `${emoji.slice(cut)} now`], { acceptEmojis: true });
        expect(r.released[0]).toBe('go ');
        expect(r.events.filter((e) => e.type === 'emoji').map((e) => e.raw)).toEqual([emoji]);
      }
    }
  });

  it('agrees with whole-input scanning for random splits of random inputs (seeded)', () => {
    const random = rng(2026);
    const fragments = ['a', 'Z', ' ', '.', ',', '<', '>', '/', '"', 'config', ' locale="fr-FR"', '/>', '</config>', '[', ']', 'happy', ' Sad ',
      '👍', '🏽', '\u200D', '👩', '🇫', '🇷', '🇺🇸', '1', '#', '\uFE0F', '\u20E3', 'é', 'e\u0301', 'ש', '\u05B8', 'क', '\u094D', '\n', '\r', '😐', '🌏'];
    for (let round = 0; round < 400; round++) {
      let input = '';
      const n = 3 + Math.floor(random() * 25);
      for (let i = 0; i < n; i++) input += fragments[Math.floor(random() * fragments.length)];
      const options = MODES[round % 2] as TagScannerOptions;
      for (let k = 0; k < 4; k++) {
        const parts = randomSplit(input, random, 1 + Math.floor(random() * 10));
        const r = run(parts, options);
        expect(r.events.map((e) => e.raw).join('')).toBe(input);
        expect(scan(parts, options)).toEqual(scan([input], options));
      }
    }
  });
});
