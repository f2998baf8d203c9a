/**
 * Audio-analysis benchmark: time to decode each supported container and to track the pitch of the result,
 * reported per second of audio (the cost of one voice upload or one gender classification besides I/O).
 * Usage: `npx tsx bench/audio-analysis/run.ts [--rounds 5]`. Prints a markdown table for bench/README.md.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { decodeAudio } from '../../src/server/audio-analysis/decode.js';
import { trackPitch } from '../../src/server/audio-analysis/pitch-track.js';
import { syntheticVoice } from '../../test/unit/gender/synthetic-voice.js';
import { wavBytes } from '../../test/unit/gender/wav-fixture.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../test/unit/gender/fixtures/${name}`, import.meta.url)));

const inputs: Array<[string, Uint8Array]> = [
  ['WAV 16-bit 22.05 kHz (espeak)', fixture('espeak-en-m3.wav')],
  ['FLAC 22.05 kHz (espeak)', fixture('espeak-en-f3.flac')],
  ['Ogg Vorbis 22.05 kHz (espeak)', fixture('espeak-en-m7.ogg')],
  ['Ogg Opus 48 kHz (espeak)', fixture('espeak-en-f1.opus')],
  ['WAV 16-bit 48 kHz, 60 s synthetic', wavBytes([syntheticVoice({ f0Hz: 120, seconds: 60, sampleRate: 48_000 })], { sampleRate: 48_000 })],
];

console.log('| input | audio s | decode ms (median) | pitch ms (median) | total ms per audio second |');
console.log('|---|---|---|---|---|');
for (const [name, bytes] of inputs) {
  const decodeMs: number[] = [];
  const pitchMs: number[] = [];
  let seconds = 0;
  for (let r = 0; r < rounds + 1; r++) {
    const t0 = performance.now();
    const audio = await decodeAudio(bytes);
    const t1 = performance.now();
    trackPitch(audio.samples, audio.sampleRate);
    const t2 = performance.now();
    seconds = audio.durationSeconds;
    if (r === 0) continue; // warm-up (WASM compile, JIT)
    decodeMs.push(t1 - t0);
    pitchMs.push(t2 - t1);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
  const d = median(decodeMs);
  const p = median(pitchMs);
  console.log(`| ${name} | ${seconds.toFixed(2)} | ${d.toFixed(1)} | ${p.toFixed(1)} | ${((d + p) / seconds).toFixed(2)} |`);
}
