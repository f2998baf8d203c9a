import { describe, expect, it } from 'vitest';
import { createAudioEncoder, mp3RateFor, type AudioEncoder } from '../../../src/audio/encoder.js';
import { decodeMulaw, encodeMulaw } from '../../../src/audio/mulaw.js';
import { createResampler } from '../../../src/audio/resampler.js';
import { parseWavHeader, WAV_EXTENSIBLE_HEADER_BYTES } from '../../../src/audio/wav.js';
import { decodeAudio } from '../../../src/server/audio-analysis/decode.js';
import { concatInt16, db, tone, toneAmplitude } from './signals.js';
import { readOggPages } from './ogg-reader.js';

const SECOND = tone(440, 48000, 48000, 12000);

/** Feeds `pcm` in 20 ms blocks, then flushes; returns every chunk. */
function encodeAll(encoder: AudioEncoder, pcm: Int16Array = SECOND): Buffer[] {
  const chunks: Buffer[] = [];
  for (let i = 0; i < pcm.length; i += 960) chunks.push(...encoder.encode(pcm.subarray(i, i + 960)));
  chunks.push(...encoder.flush());
  return chunks;
}

function resampled(rate: number, pcm: Int16Array = SECOND): Int16Array {
  const resampler = createResampler(48000, rate);
  return concatInt16([resampler.process(pcm), resampler.flush()]);
}

const int16Of = (bytes: Uint8Array): Int16Array => {
  const copy = Uint8Array.from(bytes);
  return new Int16Array(copy.buffer, 0, copy.length >> 1);
};

describe('createAudioEncoder: PCM formats', () => {
  it.each([8000, 16000, 22050, 36000, 48000])('wav at %i Hz: every chunk a complete extensible WAV holding the resampled audio', (rate) => {
    const chunks = encodeAll(createAudioEncoder({ format: 'wav', sampleRate: rate }));
    expect(chunks.length).toBeGreaterThan(10);
    const samples = chunks.map((chunk) => {
      const header = parseWavHeader(chunk);
      expect(header).toMatchObject({ extensible: true, sampleRate: rate, channels: 1, bitsPerSample: 16, dataOffset: WAV_EXTENSIBLE_HEADER_BYTES });
      expect(header.dataBytes).toBe(chunk.length - WAV_EXTENSIBLE_HEADER_BYTES);
      return int16Of(chunk.subarray(WAV_EXTENSIBLE_HEADER_BYTES));
    });
    expect(concatInt16(samples)).toEqual(resampled(rate));
  });

  it('wav with one header: a streaming-size header first, bare samples after, again after flush', () => {
    const encoder = createAudioEncoder({ format: 'wav', sampleRate: 24000, wavHeaderPerChunk: false });
    const first = encodeAll(encoder);
    const second = encodeAll(encoder);
    for (const chunks of [first, second]) {
      const header = parseWavHeader(chunks[0] as Buffer);
      expect(header.dataBytes).toBeUndefined();
      const body = Buffer.concat(chunks).subarray(header.dataOffset);
      expect(int16Of(body)).toEqual(resampled(24000));
      expect(chunks.slice(1).some((chunk) => chunk.subarray(0, 4).toString('latin1') === 'RIFF')).toBe(false);
    }
  });

  it('s16le is the resampled samples little-endian', () => {
    const bytes = Buffer.concat(encodeAll(createAudioEncoder({ format: 's16le', sampleRate: 16000 })));
    expect(bytes.length).toBe(32000);
    expect(bytes.readInt16LE(2000)).toBe(resampled(16000)[1000]);
    expect(int16Of(bytes)).toEqual(resampled(16000));
  });

  it('mulaw is G.711 of the resampled samples, one byte per sample', () => {
    const bytes = Buffer.concat(encodeAll(createAudioEncoder({ format: 'mulaw', sampleRate: 8000 })));
    expect(bytes.length).toBe(8000);
    expect(new Uint8Array(bytes)).toEqual(encodeMulaw(resampled(8000)));
    const level = toneAmplitude(decodeMulaw(bytes).subarray(800, 7200), 440, 8000);
    expect(Math.abs(db(level, 12000))).toBeLessThan(0.2);
  });

  it('returns at most one chunk per call, for every format', () => {
    for (const format of ['wav', 's16le', 'mulaw', 'mp3', 'opus'] as const) {
      const encoder = createAudioEncoder({ format, sampleRate: 24000 });
      const counts = [];
      for (let i = 0; i < SECOND.length; i += 4800) counts.push(encoder.encode(SECOND.subarray(i, i + 4800)).length);
      counts.push(encoder.flush().length);
      expect(Math.max(...counts), format).toBe(1);
    }
  });

  it('returns nothing for an empty stream', () => {
    for (const format of ['wav', 's16le', 'mulaw', 'mp3', 'opus'] as const) {
      expect(createAudioEncoder({ format, sampleRate: 16000 }).flush()).toEqual([]);
    }
  });
});

describe('createAudioEncoder: input rate and reuse', () => {
  it('takes PCM at another input rate', () => {
    const input = tone(440, 24000, 24000, 12000);
    const bytes = Buffer.concat(encodeAll(createAudioEncoder({ format: 'mulaw', sampleRate: 8000, inputRate: 24000 }), input));
    expect(bytes.length).toBe(8000);
    expect(Math.abs(db(toneAmplitude(decodeMulaw(bytes).subarray(800, 7200), 440, 8000), 12000))).toBeLessThan(0.2);
  });

  it.each(['mp3', 'opus', 'wav'] as const)('%s: a second stream after flush encodes like the first', async (format) => {
    const encoder = createAudioEncoder({ format, sampleRate: 16000 });
    const first = Buffer.concat(encodeAll(encoder));
    const second = Buffer.concat(encodeAll(encoder));
    if (format === 'opus') {
      // Same audio from a fresh encoder, new logical stream: only the serial number and the CRCs differ.
      const pagesOf = (bytes: Buffer) => readOggPages(bytes).map((page) => [page.flags, page.granule, page.sequence, page.body]);
      expect(pagesOf(second)).toEqual(pagesOf(first));
      expect(readOggPages(second)[0]?.serial).not.toBe(readOggPages(first)[0]?.serial);
      expect((await decodeAudio(second)).durationSeconds).toBeCloseTo(1, 3);
    } else {
      expect(second).toEqual(first);
    }
  });
});

describe('createAudioEncoder: mp3', () => {
  it('maps 36 kHz to 44.1 kHz and keeps the MP3 rates', () => {
    expect(mp3RateFor(36000)).toBe(44100);
    for (const rate of [8000, 16000, 22050, 24000, 32000, 44100, 48000]) expect(mp3RateFor(rate)).toBe(rate);
  });

  it.each([8000, 16000, 22050, 24000, 32000, 36000, 44100, 48000])('at %i Hz decodes back to a 1 s 440 Hz tone', async (rate) => {
    const encoder = createAudioEncoder({ format: 'mp3', sampleRate: rate });
    const chunks = encodeAll(encoder);
    expect(chunks.length).toBeGreaterThan(1); // streamed, not all at flush
    const decoded = await decodeAudio(Buffer.concat(chunks));
    expect(decoded.format).toBe('mp3');
    expect(decoded.sampleRate).toBe(encoder.sampleRate);
    // MP3 without a gapless tag keeps the encoder delay and last-frame padding: at most ~2 frames more.
    expect(decoded.durationSeconds).toBeGreaterThanOrEqual(1);
    expect(decoded.durationSeconds).toBeLessThan(1 + (2 * 1152) / encoder.sampleRate + 0.01);
    const middle = decoded.samples.subarray(Math.round(rate * 0.3), Math.round(rate * 0.7));
    expect(Math.abs(db(toneAmplitude(middle, 440, decoded.sampleRate), 12000 / 32768))).toBeLessThan(1);
  });
});

describe('createAudioEncoder: opus', () => {
  it.each([8000, 16000, 22050, 24000, 36000, 48000])('at %i Hz: Ogg/Opus pages stream and decode back to exactly 1 s', async (rate) => {
    const encoder = createAudioEncoder({ format: 'opus', sampleRate: rate });
    const chunks = encodeAll(encoder);
    expect(chunks.length).toBeGreaterThan(10);
    const bytes = Buffer.concat(chunks);
    const pages = readOggPages(bytes);
    expect(pages.every((page) => page.crcOk)).toBe(true);
    expect(pages[0]?.flags).toBe(2);
    expect(pages[pages.length - 1]?.flags).toBe(4);
    const head = pages[0]?.body as Buffer;
    expect(head.subarray(0, 8).toString('latin1')).toBe('OpusHead');
    expect(head.readUInt32LE(12)).toBe(rate);
    expect(pages[1]?.body.subarray(0, 8).toString('latin1')).toBe('OpusTags');
    expect(pages[pages.length - 1]?.granule).toBe(BigInt(312 + 48000));
    const decoded = await decodeAudio(bytes);
    expect(decoded.format).toBe('ogg-opus');
    expect(decoded.durationSeconds).toBeCloseTo(1, 3);
    const middle = decoded.samples.subarray(14400, 33600);
    expect(Math.abs(db(toneAmplitude(middle, 440, 48000), 12000 / 32768))).toBeLessThan(1);
  });

  it.each([8000, 16000, 48000])('at %i Hz the pre-skip lines the decoded audio up with the input', async (rate) => {
    const pcm = new Int16Array(48000);
    pcm.set(tone(1000, 48000, 24000, 10000), 24000); // silence, then a tone from 0.5 s
    const encoder = createAudioEncoder({ format: 'opus', sampleRate: rate });
    const decoded = await decodeAudio(Buffer.concat([...encoder.encode(pcm), ...encoder.flush()]));
    const onset = decoded.samples.findIndex((v) => Math.abs(v) > 0.05);
    expect(Math.abs(onset - 24000)).toBeLessThan(24); // within 0.5 ms
  });

  it('starts a new logical stream after flush', () => {
    const encoder = createAudioEncoder({ format: 'opus', sampleRate: 48000 });
    const first = readOggPages(Buffer.concat(encodeAll(encoder)));
    const second = readOggPages(Buffer.concat(encodeAll(encoder)));
    expect(second[0]?.flags).toBe(2);
    expect(second[0]?.sequence).toBe(0);
    expect(second.length).toBe(first.length);
  });
});
