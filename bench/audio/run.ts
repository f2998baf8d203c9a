/**
 * Audio adapter benchmark: cost per 20 ms frame and × real time for every adapter, side by side with npm
 * alternatives (alawmulaw, speex-resampler, libsamplerate-js, wave-resampler, opusscript), plus the quality of
 * each resampler measured the same way for all (pass-band ripple, worst alias above the output Nyquist).
 * Usage: `npx tsx bench/audio/run.ts [--rounds 7] [--quality]`. Prints markdown tables for bench/README.md.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import libsamplerate from '@alexanderolsen/libsamplerate-js';
import alawmulaw from 'alawmulaw';
import speexModule from 'speex-resampler';
import waveResampler from 'wave-resampler';
import {
  createAudioEncoder,
  createOpusCodec,
  createResampler,
  decodeMulaw,
  encodeMulaw,
  encodeWav,
  Framer,
  OggOpusWriter,
  WavChunkDecoder,
  type OutputFormat,
} from '../../src/audio/index.js';
import { tone, toneAmplitude } from '../../test/unit/audio/signals.js';

// CommonJS packages: take their exports through the default import.
const { create: createLibsamplerate, ConverterType } = libsamplerate;
const alawmulawMulaw = alawmulaw.mulaw;
const SpeexResampler = speexModule.default;
const waveResample = waveResampler.resample;

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' }, quality: { type: 'boolean', default: false } } });
const rounds = Number(values.rounds);

/** A per-frame step under test; called once per 20 ms frame with the frame index. */
type Step = (frame: number) => unknown;

/** Median and best µs per call of `step`, over `rounds` batches of `batch` calls after a warm-up. */
function measure(step: Step, batch = 500): { median: number; best: number } {
  for (let i = 0; i < batch; i++) step(i);
  const perCall: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) step(i);
    perCall.push(((performance.now() - t0) * 1000) / batch);
  }
  perCall.sort((a, b) => a - b);
  return { median: perCall[Math.floor(perCall.length / 2)] as number, best: perCall[0] as number };
}

const FRAME_US = 20_000;
const rows: string[] = [];
function row(name: string, what: string, step: Step, batch?: number): void {
  const { median, best } = measure(step, batch);
  rows.push(`| ${name} | ${what} | ${median.toFixed(2)} | ${best.toFixed(2)} | ${Math.round(FRAME_US / median).toLocaleString('en-US')} |`);
}

// Inputs: 20 ms frames of a speech-band tone mix at 48 kHz (and the other rates where needed).
const frame48 = (() => {
  const a = tone(440, 48000, 960, 8000);
  const b = tone(2900, 48000, 960, 4000);
  return a.map((v, i) => v + (b[i] as number));
})();
const frame8 = tone(440, 8000, 160, 8000);
const frame24 = tone(440, 24000, 480, 8000);
const buffer48 = Buffer.from(frame48.buffer);
const float48 = Float32Array.from(frame48, (v) => v / 32768);
const mulaw8 = encodeMulaw(frame8);

// --- mu-law ---
row('mu-law encode', 'voxpipe `encodeMulaw` (64 KiB table)', () => encodeMulaw(frame8));
row('mu-law encode', '`alawmulaw` mulaw.encode', () => alawmulawMulaw.encode(frame8));
row('mu-law decode', 'voxpipe `decodeMulaw`', () => decodeMulaw(mulaw8));
row('mu-law decode', '`alawmulaw` mulaw.decode', () => alawmulawMulaw.decode(mulaw8));

// --- resampling 48 kHz → 8 kHz, 20 ms chunks, state kept between chunks ---
await SpeexResampler.initPromise;
const ours48to8 = createResampler(48000, 8000);
row('resample 48→8 kHz', 'voxpipe polyphase FIR (2 stages)', () => ours48to8.process(frame48));
for (const quality of [3, 7, 10]) {
  const speex = new SpeexResampler(1, 48000, 8000, quality);
  row('resample 48→8 kHz', `\`speex-resampler\` quality ${quality} (WASM)`, () => speex.processChunk(buffer48));
}
for (const [label, type] of [
  ['SINC_FASTEST', ConverterType.SRC_SINC_FASTEST],
  ['SINC_MEDIUM', ConverterType.SRC_SINC_MEDIUM_QUALITY],
  ['SINC_BEST', ConverterType.SRC_SINC_BEST_QUALITY],
] as const) {
  const src = await createLibsamplerate(1, 48000, 8000, { converterType: type });
  row('resample 48→8 kHz', `\`libsamplerate-js\` ${label} (WASM, full API)`, () => src.full(float48), label === 'SINC_BEST' ? 50 : 500);
  src.destroy();
}
row('resample 48→8 kHz', '`wave-resampler` sinc (stateless, per chunk)', () => waveResample(frame48, 48000, 8000), 50);

// --- other resampling pairs (voxpipe) ---
for (const [from, to] of [
  [48000, 16000],
  [48000, 24000],
  [48000, 22050],
  [48000, 44100],
  [24000, 48000],
  [8000, 48000],
] as const) {
  const resampler = createResampler(from, to);
  const input = from === 48000 ? frame48 : from === 24000 ? frame24 : frame8;
  row(`resample ${from / 1000}→${to / 1000} kHz`, 'voxpipe polyphase FIR', () => resampler.process(input));
}

// --- client: WAV chunk decoding and the whole Twilio path ---
const hostedChunk = encodeWav(frame48, 48000, 1, { extensible: true });
const wavDecoder = new WavChunkDecoder();
row('WAV chunk decode', 'voxpipe `WavChunkDecoder`, 68-byte header per 20 ms chunk', () => wavDecoder.push(hostedChunk));
const twilioDecoder = new WavChunkDecoder();
const twilioResampler = createResampler(48000, 8000);
const twilioFramer = new Framer<Uint8Array>(160, (n) => new Uint8Array(n));
row('Twilio path', 'WAV chunk 48 kHz → resample 8 kHz → mu-law → 160 B frame', () => {
  for (const chunk of twilioDecoder.push(hostedChunk)) twilioFramer.push(encodeMulaw(twilioResampler.process(chunk.samples)));
});
const bareResampler = createResampler(48000, 8000);
const mulawOut = new Uint8Array(160);
row('Twilio path', 'PCM 48 kHz → resample 8 kHz → mu-law (no container)', () => encodeMulaw(bareResampler.process(frame48), mulawOut));

// --- Opus ---
for (const backend of ['@discordjs/opus', 'opusscript'] as const) {
  const codec = createOpusCodec(48000, 1, { backend });
  const packet = codec.encode(frame48);
  row('Opus encode 48 kHz mono', `\`${backend}\``, () => codec.encode(frame48), 200);
  row('Opus decode 48 kHz mono', `\`${backend}\``, () => codec.decode(packet), 200);
}
const oggWriter = new OggOpusWriter({ channels: 1, inputSampleRate: 48000 });
const opusPacket = createOpusCodec(48000).encode(frame48);
row('Ogg/Opus mux', 'voxpipe `OggOpusWriter`, one page per packet', () => oggWriter.write([opusPacket], 960));

// --- server encoders: 20 ms of 48 kHz in, the requested format out ---
for (const [format, rate] of [
  ['wav', 24000],
  ['s16le', 16000],
  ['mulaw', 8000],
  ['mp3', 22050],
  ['mp3', 44100],
  ['opus', 48000],
  ['opus', 24000],
] as Array<[OutputFormat, number]>) {
  const encoder = createAudioEncoder({ format, sampleRate: rate });
  row('server encoder', `\`${format}\` at ${rate} Hz from 48 kHz`, () => encoder.encode(frame48), format === 'mp3' || format === 'opus' ? 200 : 500);
}

console.log('| adapter | implementation | µs per 20 ms frame (median) | best | × real time |');
console.log('|---|---|---|---|---|');
for (const line of rows) console.log(line);

// --- mu-law exactness: alawmulaw against voxpipe's tables (which the unit tests hold to ITU-T G.191) ---
{
  const all = Int16Array.from({ length: 65536 }, (_, i) => i - 32768);
  const theirs = alawmulawMulaw.encode(all);
  const ours = encodeMulaw(all);
  const differing = all.filter((_, i) => theirs[i] !== ours[i]);
  const codes = Uint8Array.from({ length: 256 }, (_, i) => i);
  const decodedTheirs = alawmulawMulaw.decode(codes);
  const decodedOurs = decodeMulaw(codes);
  const decodeDiffers = codes.filter((_, i) => decodedTheirs[i] !== decodedOurs[i]).length;
  console.log('\n| mu-law implementation | encode: inputs differing from G.191 (of 65536) | decode: codes differing (of 256) |');
  console.log('|---|---|---|');
  console.log('| voxpipe | 0 (unit test against a transcription of G.191) | 0 |');
  console.log(`| alawmulaw | ${differing.length}${differing.length ? ` (e.g. ${Array.from(differing.slice(0, 3)).join(', ')})` : ''} | ${decodeDiffers} |`);
}

// --- quality: the same measurement for every resampler, 48 kHz → 8 kHz in 20 ms chunks ---
if (values.quality) {
  type ChunkResampler = (chunk: Int16Array) => ArrayLike<number>;
  const candidates: Array<[string, () => Promise<ChunkResampler>]> = [
    ['voxpipe polyphase FIR', async () => { const r = createResampler(48000, 8000); return (c) => r.process(c); }],
    ...[3, 7, 10].map((q): [string, () => Promise<ChunkResampler>] => [`speex-resampler q${q}`, async () => {
      const r = new SpeexResampler(1, 48000, 8000, q);
      return (c) => { const out = r.processChunk(Buffer.from(c.buffer, c.byteOffset, c.byteLength)); return new Int16Array(out.buffer, out.byteOffset, out.length >> 1); };
    }]),
    ...([['SINC_FASTEST', ConverterType.SRC_SINC_FASTEST], ['SINC_MEDIUM', ConverterType.SRC_SINC_MEDIUM_QUALITY], ['SINC_BEST', ConverterType.SRC_SINC_BEST_QUALITY]] as const).map(
      ([label, type]): [string, () => Promise<ChunkResampler>] => [`libsamplerate-js ${label}`, async () => {
        const src = await createLibsamplerate(1, 48000, 8000, { converterType: type });
        return (c) => Array.from(src.full(Float32Array.from(c, (v) => v / 32768)), (v) => v * 32768);
      }],
    ),
    ['wave-resampler sinc, per chunk', async () => (c) => waveResample(c, 48000, 8000)],
  ];
  console.log('\n| resampler (48→8 kHz, 20 ms chunks) | pass-band ripple 0.1–3.4 kHz (dB) | worst alias, tones 4–24 kHz (dB) |');
  console.log('|---|---|---|');
  for (const [name, make] of candidates) {
    const toneThrough = async (hz: number): Promise<number[]> => {
      const process = await make();
      const input = tone(hz, 48000, 9600, 16000, 0.3);
      const out: number[] = [];
      for (let i = 0; i < input.length; i += 960) out.push(...Array.from(process(input.subarray(i, i + 960))));
      return out.slice(240, 1400);
    };
    let low = 0;
    let high = -Infinity;
    for (let hz = 100; hz <= 3400; hz += 275) {
      const gain = 20 * Math.log10(toneAmplitude(await toneThrough(hz), hz, 8000) / 16000);
      low = Math.min(low, gain);
      high = Math.max(high, gain);
    }
    let worst = -Infinity;
    for (let hz = 4010; hz < 24000; hz += 397) {
      const f = hz % 8000;
      const alias = f > 4000 ? 8000 - f : f;
      if (alias < 20 || alias > 3980) continue;
      worst = Math.max(worst, 20 * Math.log10(toneAmplitude(await toneThrough(hz), alias, 8000) / 16000));
    }
    const alias = worst === -Infinity ? 'none above ½ LSB (output exactly 0)' : worst.toFixed(1);
    console.log(`| ${name} | ${low.toFixed(3)} … +${Math.max(0, high).toFixed(3)} | ${alias} |`);
  }
}
