import { describe, expect, it } from 'vitest';
import { createAudioEncoder } from '../../../src/audio/encoder.js';
import { encodeMulaw } from '../../../src/audio/mulaw.js';
import type { PcmChunk } from '../../../src/audio/pcm.js';
import { WavChunkDecoder } from '../../../src/audio/wav-decoder.js';
import { encodeWav, encodeWavHeader, WAV_UNKNOWN_SIZE, WavFormatError } from '../../../src/audio/wav.js';
import { concatInt16, tone } from './signals.js';

/** Pushes `blocks` into a new decoder, ends it, and returns the chunks. */
function decodeBlocks(blocks: Uint8Array[]): PcmChunk[] {
  const decoder = new WavChunkDecoder();
  const out = blocks.flatMap((block) => decoder.push(block));
  decoder.end();
  return out;
}

const samplesOf = (chunks: PcmChunk[]): Int16Array => concatInt16(chunks.map((c) => c.samples));
const bytesOf = (blocks: Uint8Array[]): Buffer => Buffer.concat(blocks);
const oneByteAtATime = (bytes: Uint8Array): Uint8Array[] => Array.from(bytes, (b) => Uint8Array.of(b));

/** Splits bytes at pseudo-random points (deterministic). */
function randomSplits(bytes: Uint8Array, seed: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let state = seed;
  for (let at = 0; at < bytes.length; ) {
    state = (state * 1103515245 + 12345) >>> 0;
    const size = 1 + (state % 97);
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

/** Hosted-style output: a complete 68-byte-header WAV per chunk, plus the PCM it holds. */
function hostedChunks(rate: number): { chunks: Buffer[]; pcm: Int16Array } {
  const encoder = createAudioEncoder({ format: 'wav', sampleRate: rate });
  const source = tone(300, 48000, 9600, 9000);
  const chunks: Buffer[] = [];
  for (let i = 0; i < source.length; i += 960) chunks.push(...encoder.encode(source.subarray(i, i + 960)));
  chunks.push(...encoder.flush());
  return { chunks, pcm: concatInt16(chunks.map((c) => new Int16Array(Uint8Array.from(c.subarray(68)).buffer))) };
}

describe('WavChunkDecoder', () => {
  const { chunks, pcm } = hostedChunks(24000);

  it('strips a 68-byte extensible header from every chunk', () => {
    const out = decodeBlocks(chunks);
    expect(out.every((c) => c.sampleRate === 24000 && c.channels === 1)).toBe(true);
    expect(samplesOf(out)).toEqual(pcm);
  });

  it('gives the same samples fed one byte at a time and at random split points', () => {
    const bytes = bytesOf(chunks);
    expect(samplesOf(decodeBlocks(oneByteAtATime(bytes)))).toEqual(pcm);
    for (const seed of [1, 2, 3]) expect(samplesOf(decodeBlocks(randomSplits(bytes, seed)))).toEqual(pcm);
  });

  it('reads one header with a streaming size followed by bare samples, the header split across blocks', () => {
    const header = encodeWavHeader(WAV_UNKNOWN_SIZE, 16000, 1, { extensible: true });
    const body = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
    const blocks = [header.subarray(0, 7), header.subarray(7, 50), Buffer.concat([header.subarray(50), body.subarray(0, 333)]), body.subarray(333)];
    const out = decodeBlocks(blocks);
    expect(out.every((c) => c.sampleRate === 16000)).toBe(true);
    expect(samplesOf(out)).toEqual(pcm);
  });

  it('recognises a per-chunk header at a block boundary even when the sizes are streaming', () => {
    const a = Buffer.concat([encodeWavHeader(WAV_UNKNOWN_SIZE, 8000), Buffer.from(Int16Array.of(1, 2, 3).buffer)]);
    const b = Buffer.concat([encodeWavHeader(WAV_UNKNOWN_SIZE, 8000), Buffer.from(Int16Array.of(4, 5).buffer)]);
    expect(Array.from(samplesOf(decodeBlocks([a, b])))).toEqual([1, 2, 3, 4, 5]);
  });

  it('strips per-chunk headers whose data size is wrong when chunks are pushed as they arrived', () => {
    const wrong = (samples: Int16Array): Buffer => {
      const wav = encodeWav(samples, 16000);
      wav.writeUInt32LE(1_000_000, 40);
      return wav;
    };
    expect(Array.from(samplesOf(decodeBlocks([wrong(Int16Array.of(1, 2)), wrong(Int16Array.of(3))])))).toEqual([1, 2, 3]);
  });

  it('reads interleaved stereo', () => {
    const out = decodeBlocks(oneByteAtATime(encodeWav(Int16Array.of(1, -1, 2, -2, 3, -3), 44100, 2)));
    expect(out.every((c) => c.channels === 2 && c.sampleRate === 44100)).toBe(true);
    expect(Array.from(samplesOf(out))).toEqual([1, -1, 2, -2, 3, -3]);
  });

  it('follows a change of rate between chunks', () => {
    const out = decodeBlocks([encodeWav(Int16Array.of(1, 2), 8000), encodeWav(Int16Array.of(3), 48000)]);
    expect(out.map((c) => [c.sampleRate, Array.from(c.samples)])).toEqual([
      [8000, [1, 2]],
      [48000, [3]],
    ]);
  });

  it('skips a trailing chunk after the data and the pad byte of an odd-sized data chunk', () => {
    const wav8 = Buffer.from('RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x40\x1f\0\0\x40\x1f\0\0\x01\0\x08\0data\x03\0\0\0\x80\xff\x00\0LIST\x04\0\0\0abcd', 'latin1');
    const next = encodeWav(Int16Array.of(7), 8000);
    for (const blocks of [[Buffer.concat([wav8, next])], oneByteAtATime(Buffer.concat([wav8, next]))]) {
      expect(Array.from(samplesOf(decodeBlocks(blocks)))).toEqual([0, 127 << 8, -128 << 8, 7]);
    }
  });

  it('converts 24-bit, 32-bit float and mu-law WAV to 16-bit', () => {
    const fmt = (tag: number, bits: number): string => {
      const b = Buffer.alloc(16);
      b.writeUInt16LE(tag, 0);
      b.writeUInt16LE(1, 2);
      b.writeUInt32LE(8000, 4);
      b.writeUInt32LE(8000 * (bits / 8), 8);
      b.writeUInt16LE(bits / 8, 12);
      b.writeUInt16LE(bits, 14);
      return b.toString('latin1');
    };
    const file = (tag: number, bits: number, data: Buffer): Buffer =>
      Buffer.concat([Buffer.from(`RIFF\0\0\0\0WAVEfmt \x10\0\0\0${fmt(tag, bits)}data`, 'latin1'), Buffer.from(Uint32Array.of(data.length).buffer), data]);
    const floats = Buffer.from(Float32Array.of(0.5, -1, 2).buffer);
    expect(Array.from(samplesOf(decodeBlocks([file(3, 32, floats)])))).toEqual([16384, -32768, 32767]);
    const int24 = Buffer.from([0x00, 0x34, 0x12, 0xff, 0xff, 0xff]);
    expect(Array.from(samplesOf(decodeBlocks(oneByteAtATime(file(1, 24, int24)))))).toEqual([0x1234, -1]);
    const mulaw = Buffer.from(encodeMulaw(Int16Array.of(0, 1000, -32768)));
    expect(Array.from(samplesOf(decodeBlocks([file(7, 8, mulaw)])))).toEqual([0, 988, -32124]);
  });

  it('refuses bytes that are not WAV, an unsupported encoding, and a stream ending inside a header', () => {
    expect(() => decodeBlocks([Buffer.from('OggS\0\0\0\0')])).toThrow(WavFormatError);
    const decoder = new WavChunkDecoder();
    decoder.push(encodeWav(Int16Array.of(1), 8000).subarray(0, 40));
    expect(() => decoder.end()).toThrow(/truncated header/);
    const adpcm = Buffer.from(encodeWav(Int16Array.of(1), 8000));
    adpcm.writeUInt16LE(2, 20);
    expect(() => decodeBlocks([adpcm])).toThrow(/unsupported sample format/);
  });

  it('is ready for a new stream after end', () => {
    const decoder = new WavChunkDecoder();
    decoder.push(encodeWav(Int16Array.of(1, 2), 8000).subarray(0, 45));
    decoder.end();
    expect(Array.from(decoder.push(encodeWav(Int16Array.of(9), 8000))[0]?.samples ?? [])).toEqual([9]);
  });
});
