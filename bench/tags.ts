/**
 * Tag scanner throughput: MB/s of mixed text pushed in large chunks, and the cost of one push for LLM-like
 * tokens of 1-4 code units (cut anywhere, even inside a surrogate pair), with and without emoji handling;
 * plus the interpreter on top.
 *
 *   npx tsx bench/tags.ts [--rounds 5] [--chunked 2000000] [--tokens 200000] [--module ./src/tags/index.ts]
 *
 * `--module` points at another build of the scanner (same exports) to compare versions.
 */
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type * as Tags from '../src/tags/index.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, chunked: { type: 'string', default: '2000000' }, tokens: { type: 'string', default: '200000' }, module: { type: 'string', default: './src/tags/index.ts' } } });
const rounds = Number(values.rounds);
const chunkedSize = Number(values.chunked);
const tokenSize = Number(values.tokens);
const tags = (await import(pathToFileURL(resolve(values.module)).href)) as typeof Tags;

/** Deterministic LCG in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const WORDS = 'the quick brown fox jumps over a lazy dog while voice agents stream tokens to speech with low latency'.split(' ');
const EXTRAS = [' [happy] ', ' [ Sad ] ', ' [normal] ', ' <config locale="fr-FR"/> ', '</config>', ' 👍🏽 ', ' 🇫🇷 ', ' 👨‍👩‍👧 ', ' 😐 ', ' 1️⃣ ', ' שָׁלוֹם ', ' नमस्ते ', ' 1 < 2 ', ' [0, 1) ', ' 42, ', ' 😀 '];

/** ~`size` code units of prose; `mixed` sprinkles tags, emoji and other scripts (about one extra per 8 words). */
function corpus(size: number, mixed: boolean, random: () => number): string {
  let out = '';
  while (out.length < size) {
    out += WORDS[Math.floor(random() * WORDS.length)];
    out += random() < 0.1 ? '. ' : ' ';
    if (mixed && random() < 0.125) out += EXTRAS[Math.floor(random() * EXTRAS.length)];
  }
  return out;
}

/** Cuts `text` into tokens of 1-4 code units. */
function tokens(text: string, random: () => number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(random() * 4);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

/** Median of `rounds` timings (ms) of `fn`, after one warm-up. */
function median(fn: () => void): number {
  fn();
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

let sink = 0;
const catalog = tags.openEmotionCatalog(['happy', 'sad'], { '😀': 'happy' });
const state = { locale: 'en-US', voicePromptId: 'v', targetGender: undefined, emotion: undefined };

function scanChunks(text: string, chunk: number, acceptEmojis: boolean, interpret: boolean): void {
  const s = new tags.TagScanner({ acceptEmojis });
  const interpreter = interpret ? new tags.TagInterpreter(state, catalog) : undefined;
  for (let i = 0; i < text.length; i += chunk) {
    const events = s.push(text.slice(i, i + chunk));
    sink += interpreter ? interpreter.apply(events).length : events.length;
  }
  sink += s.flush().length;
}

function scanTokens(list: string[], acceptEmojis: boolean, interpret: boolean): void {
  const s = new tags.TagScanner({ acceptEmojis });
  const interpreter = interpret ? new tags.TagInterpreter(state, catalog) : undefined;
  for (const t of list) {
    const events = s.push(t);
    sink += interpreter ? interpreter.apply(events).length : events.length;
  }
  sink += s.flush().length;
}

const rows: string[] = [];
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
for (const mixed of [false, true]) {
  const text = corpus(chunkedSize, mixed, lcg(1));
  const list = tokens(corpus(tokenSize, mixed, lcg(2)), lcg(3));
  for (const acceptEmojis of [false, true]) {
    for (const interpret of [false, true]) {
      const ms = median(() => scanChunks(text, 65_536, acceptEmojis, interpret));
      const tokenMs = median(() => scanTokens(list, acceptEmojis, interpret));
      const mbps = bytes(text) / 1e6 / (ms / 1000);
      const nsPerToken = (tokenMs * 1e6) / list.length;
      const tokenMbps = bytes(list.join('')) / 1e6 / (tokenMs / 1000);
      rows.push(`| ${mixed ? 'mixed' : 'ASCII prose'} | ${acceptEmojis ? 'on' : 'off'} | ${interpret ? 'scanner + interpreter' : 'scanner'} | ${mbps.toFixed(1)} | ${nsPerToken.toFixed(0)} | ${tokenMbps.toFixed(1)} |`);
    }
  }
}

console.log(`Tag scanner (${values.module}), median of ${rounds} rounds; ${chunkedSize} code units pushed in 64 KiB chunks; ${tokenSize} code units as 1-4 code-unit tokens`);
console.log('| text | acceptEmojis | path | MB/s (64 KiB chunks) | ns per token (1-4 units) | MB/s as tokens |');
console.log('|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
if (sink < 0) console.log(sink);
