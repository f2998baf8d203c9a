import { readFileSync } from 'node:fs';
import { Mp3Encoder } from '@breezystack/lamejs';
import { describe, expect, it, vi } from 'vitest';
import { InvalidAudioError } from '../../../src/errors.js';
import { analyzeVoice, speechProblem } from '../../../src/server/audio-analysis/analyze.js';
import { decodeBase64Strict } from '../../../src/server/audio-analysis/base64.js';
import { decodeAudio, sniffAudioFormat } from '../../../src/server/audio-analysis/decode.js';
import { encodeMulaw } from '../../../src/audio/mulaw.js';
import { classifyGender } from '../../../src/server/gender/classifier.js';
import { syntheticVoice, toInt16 } from './synthetic-voice.js';
import { wavBytes } from './wav-fixture.js';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

/** Encodes mono float samples as a CBR MP3 with lamejs. */
function mp3Of(samples: Float32Array, rate: number): Uint8Array {
  const encoder = new Mp3Encoder(1, rate, 64);
  const pcm = toInt16(samples);
  const parts: Uint8Array[] = [];
  const keep = (part: Int8Array | Uint8Array): number => parts.push(new Uint8Array(part.buffer, part.byteOffset, part.byteLength));
  for (let i = 0; i < pcm.length; i += 1152) keep(encoder.encodeBuffer(pcm.subarray(i, i + 1152)));
  keep(encoder.flush());
  return new Uint8Array(Buffer.concat(parts));
}

describe('decodeAudio on real espeak-ng speech in every container', () => {
  it.each([
    ['espeak-en-m3.wav', 'wav', 'male', 0.95],
    ['espeak-en-f3.flac', 'flac', 'female', 0.8],
    ['espeak-en-m7.ogg', 'ogg-vorbis', 'male', 0.95],
    // en+f1 speaks at about 172 Hz, close to the 160 Hz boundary: right, but rightly less sure.
    ['espeak-en-f1.opus', 'ogg-opus', 'female', 0.6],
    ['espeak-de-m2.flac', 'flac', 'male', 0.95],
    ['espeak-es-f5.opus', 'ogg-opus', 'female', 0.8],
  ] as const)('%s decodes as %s and classifies as %s', async (name, format, gender, minConfidence) => {
    const bytes = fixture(name);
    expect(sniffAudioFormat(bytes)).toBe(format);
    const analysis = await analyzeVoice(bytes);
    expect(analysis.format).toBe(format);
    expect(analysis.channels).toBe(1);
    expect(analysis.durationSeconds).toBeGreaterThan(1.9);
    expect(analysis.durationSeconds).toBeLessThan(2.6);
    expect(speechProblem(analysis, 1)).toBeUndefined();
    const decision = classifyGender(analysis.medianF0Hz ?? 0, analysis.voicedSeconds);
    expect(decision.predicted_gender).toBe(gender);
    expect(decision.confidence).toBeGreaterThan(minConfidence);
  });

  it('decodes MP3 (lamejs-encoded synthetic voice) and keeps its pitch', async () => {
    const bytes = mp3Of(syntheticVoice({ f0Hz: 120, sampleRate: 44_100 }), 44_100);
    expect(sniffAudioFormat(bytes)).toBe('mp3');
    const decoded = await decodeAudio(bytes);
    expect(decoded.format).toBe('mp3');
    expect(decoded.sampleRate).toBe(44_100);
    expect(decoded.durationSeconds).toBeGreaterThan(1.9);
    expect(decoded.durationSeconds).toBeLessThan(2.2);
    const analysis = await analyzeVoice(bytes);
    expect(Math.abs((analysis.medianF0Hz ?? 0) - 120)).toBeLessThan(3);
  });

  it('sniffs MP3 behind an ID3v2 tag', () => {
    expect(sniffAudioFormat(new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]))).toBe('mp3');
  });

  it('refuses audio longer than the limit', async () => {
    await expect(decodeAudio(fixture('espeak-en-f3.flac'), { maxSeconds: 1 })).rejects.toThrow('audio is longer than the 1 s limit');
    const wav = wavBytes([syntheticVoice({ f0Hz: 100, seconds: 2 })], { sampleRate: 16_000 });
    await expect(decodeAudio(wav, { maxSeconds: 1 })).rejects.toThrow(/longer than the 1 s limit/);
  });
});

describe('decodeAudio on WAV layouts', () => {
  const voice = syntheticVoice({ f0Hz: 140, sampleRate: 16_000, seconds: 1.5 });
  it.each([
    [{ bits: 8 }],
    [{ bits: 16 }],
    [{ bits: 24 }],
    [{ bits: 32 }],
    [{ bits: 32, float: true }],
    [{ bits: 64, float: true }],
    [{ bits: 16, extensible: true }],
    [{ bits: 32, float: true, extensible: true }],
    [{ bits: 16, extraChunk: true }],
  ])('reads %o', async (layout) => {
    const decoded = await decodeAudio(wavBytes([voice], { sampleRate: 16_000, ...layout }));
    expect(decoded.sampleRate).toBe(16_000);
    expect(decoded.samples.length).toBe(voice.length);
    const tolerance = layout.bits === 8 ? 0.01 : 1e-4;
    for (const i of [100, 5000, 12_345]) expect(decoded.samples[i]).toBeCloseTo(voice[i] ?? 0, tolerance === 0.01 ? 1 : 3);
  });

  it('reads G.711 mu-law WAV (format tag 7)', async () => {
    const bytes = wavBytes([voice], { sampleRate: 16_000, bits: 8 });
    new DataView(bytes.buffer).setUint16(20, 7, true);
    bytes.set(encodeMulaw(toInt16(voice)), 44);
    const decoded = await decodeAudio(bytes);
    for (const i of [100, 5000, 12_345]) expect(decoded.samples[i]).toBeCloseTo(voice[i] ?? 0, 1);
    expect(Math.abs(((await analyzeVoice(bytes)).medianF0Hz ?? 0) - 140)).toBeLessThan(3);
  });

  it('mixes stereo to mono by averaging the channels', async () => {
    const left = new Float32Array(1600).fill(0.5);
    const right = new Float32Array(1600).fill(-0.25);
    const decoded = await decodeAudio(wavBytes([left, right], { sampleRate: 16_000 }));
    expect(decoded.channels).toBe(2);
    expect(decoded.samples[800]).toBeCloseTo(0.125, 3);
  });

  it('reads a streaming WAV whose data size is 0xFFFFFFFF', async () => {
    const bytes = wavBytes([voice], { sampleRate: 16_000 });
    new DataView(bytes.buffer).setUint32(40, 0xffffffff, true);
    expect((await decodeAudio(bytes)).samples.length).toBe(voice.length);
  });
});

describe('decodeAudio refusals', () => {
  const wav = wavBytes([new Float32Array(1600)], { sampleRate: 16_000 });
  const cases: Array<[string, Uint8Array, RegExp | string]> = [
    ['random bytes', new Uint8Array(Buffer.from('hello world, this is not audio at all')), /not a supported audio file/],
    ['an empty file', new Uint8Array(0), /not a supported audio file/],
    ['a RIFF header only', wav.subarray(0, 12), 'not a readable WAV file: truncated header'],
    ['a truncated fmt chunk', wav.subarray(0, 24), 'not a readable WAV file: truncated header'],
    ['a WAV without data chunk', wav.subarray(0, 36), 'not a readable WAV file: truncated header'],
    ['a RIFF file of another form', new Uint8Array([...Buffer.from('RIFF'), 4, 0, 0, 0, ...Buffer.from('AVI ')]), /not a supported audio file/],
    ['an empty data chunk', wav.subarray(0, 44), /contains no audio samples/],
    ['an unknown Ogg codec', new Uint8Array([...Buffer.from('OggS'), ...new Uint8Array(22), 1, 30, ...Buffer.from('\x7fFLAC')]), /not a supported audio file/],
    ['a FLAC marker followed by garbage', new Uint8Array([...Buffer.from('fLaC'), ...new Uint8Array(200).fill(7)]), /could not decode the flac stream/],
    ['an MPEG frame sync followed by garbage', new Uint8Array([0xff, 0xfb, 0x90, 0x64, ...new Uint8Array(50)]), /could not decode the mp3 stream/],
  ];
  it.each(cases)('refuses %s with InvalidAudioError', async (_name, bytes, message) => {
    const error = await decodeAudio(bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidAudioError);
    expect((error as InvalidAudioError).code).toBe('invalid_audio');
    expect((error as Error).message).toMatch(message);
  });

  it('refuses WAV encodings it cannot read (ADPCM, 12-bit)', async () => {
    const adpcm = wavBytes([new Float32Array(160)], { sampleRate: 8000 });
    new DataView(adpcm.buffer).setUint16(20, 0x11, true);
    await expect(decodeAudio(adpcm)).rejects.toThrow('unsupported WAV encoding: format tag 17, 16 bits per sample');
    const odd = wavBytes([new Float32Array(160)], { sampleRate: 8000 });
    new DataView(odd.buffer).setUint16(34, 12, true);
    await expect(decodeAudio(odd)).rejects.toThrow(/12 bits per sample/);
  });
});

describe('speechProblem', () => {
  it('names too-short, silent and unvoiced recordings', async () => {
    const short = await analyzeVoice(wavBytes([syntheticVoice({ f0Hz: 120, seconds: 0.5 })], { sampleRate: 16_000 }));
    expect(speechProblem(short, 1)).toMatch(/^audio is too short: 0\.50 s/);
    const silent = await analyzeVoice(wavBytes([new Float32Array(32_000)], { sampleRate: 16_000 }));
    expect(speechProblem(silent, 1)).toBe('audio is silent (loudest passage digital silence)');
    let s = 3;
    const hiss = Float32Array.from({ length: 32_000 }, () => ((s = (s * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff - 0.5) * 0.5);
    const unvoiced = await analyzeVoice(wavBytes([hiss], { sampleRate: 16_000 }));
    expect(speechProblem(unvoiced, 1)).toMatch(/^no voiced speech found/);
  });
});

describe('decodeBase64Strict', () => {
  it('decodes standard, URL-safe, line-wrapped and data-URL base64', () => {
    const bytes = new Uint8Array([0xfb, 0xff, 0xfe, 1, 2]);
    const std = Buffer.from(bytes).toString('base64');
    expect(decodeBase64Strict(std)).toEqual(bytes);
    expect(decodeBase64Strict(Buffer.from(bytes).toString('base64url'))).toEqual(bytes);
    expect(decodeBase64Strict(`${std.slice(0, 4)}\n${std.slice(4)}`)).toEqual(bytes);
    expect(decodeBase64Strict(`data:audio/wav;base64,${std}`)).toEqual(bytes);
  });

  it.each([
    ['', 'base64 data is empty'],
    ['abc$def', 'invalid base64 character "$" at position 3'],
    ['ab=c', 'misplaced base64 padding'],
    ['abcde', 'truncated base64 data (length is not a valid multiple of 4)'],
    ['abc==', 'truncated base64 data (length is not a valid multiple of 4)'],
  ])('rejects %j: %s', (text, message) => {
    expect(() => decodeBase64Strict(text)).toThrow(message);
  });
});

describe('decodeAudio on damaged files', () => {
  it.each(['espeak-en-m3.wav', 'espeak-en-f3.flac', 'espeak-en-m7.ogg', 'espeak-en-f1.opus'])(
    'truncated or byte-flipped %s either decodes or fails with InvalidAudioError',
    async (name) => {
      // The WASM decoders also print what they skip to console.error; keep the test output clean.
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const original = fixture(name);
        let seed = 11;
        const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff;
        const outcomes = new Set<string>();
        for (let i = 0; i < 16; i++) {
          const damaged = i % 2 === 0 ? original.subarray(0, Math.floor(random() * original.length)) : Uint8Array.from(original);
          if (i % 2 === 1) for (let k = 0; k < 20; k++) damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
          const outcome = await decodeAudio(damaged).then(
            () => 'decoded',
            (error: unknown) => (error instanceof InvalidAudioError ? 'invalid' : `unexpected: ${String(error)}`),
          );
          outcomes.add(outcome);
        }
        expect([...outcomes].filter((o) => o.startsWith('unexpected'))).toEqual([]);
      } finally {
        quiet.mockRestore();
      }
    },
  );
});
