import { describe, expect, it } from 'vitest';
import { InvalidAudioError } from '../../../src/errors.js';
import {
  encodeWav,
  encodeWavHeader,
  parseWavHeader,
  scanWavHeader,
  WAV_EXTENSIBLE_HEADER_BYTES,
  WAV_UNKNOWN_SIZE,
  WAVE_FORMAT_IEEE_FLOAT,
  WAVE_FORMAT_PCM,
  WavFormatError,
} from '../../../src/audio/wav.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** Builds a RIFF file from chunks given as [id, body]. */
function riff(chunks: Array<[string, Uint8Array]>): Buffer {
  const parts = chunks.map(([id, body]) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'latin1');
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body, Buffer.alloc(body.length & 1)]);
  });
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(4 + body.length, 4);
  head.write('WAVE', 8, 'latin1');
  return Buffer.concat([head, body]);
}

function fmtBody(tag: number, channels: number, rate: number, bits: number): Buffer {
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(tag, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE((rate * channels * bits) / 8, 8);
  fmt.writeUInt16LE((channels * bits) / 8, 12);
  fmt.writeUInt16LE(bits, 14);
  return fmt;
}

describe('encodeWav', () => {
  it('writes the canonical 44-byte PCM header byte for byte', () => {
    const wav = encodeWav(Int16Array.of(1, -2), 16000);
    expect(hex(wav)).toBe(
      '52494646' + '28000000' + '57415645' + '666d7420' + '10000000' + '0100' + '0100' + '803e0000' + '007d0000' + '0200' + '1000' + '64617461' + '04000000' + '0100' + 'feff',
    );
  });

  it('writes the 68-byte WAVE_FORMAT_EXTENSIBLE header of the hosted service', () => {
    const wav = encodeWav(Int16Array.of(0x1234), 48000, 1, { extensible: true });
    expect(wav.length).toBe(WAV_EXTENSIBLE_HEADER_BYTES + 2);
    expect(hex(wav.subarray(0, 68))).toBe(
      '52494646' + '3e000000' + '57415645' + '666d7420' + '28000000' + 'feff' + '0100' + '80bb0000' + '00770100' + '0200' + '1000' +
        '1600' + '1000' + '04000000' + '0100000000001000800000aa00389b71' + '64617461' + '02000000',
    );
    expect(hex(wav.subarray(68))).toBe('3412');
  });

  it('writes stereo block alignment and an unknown streaming size', () => {
    const header = encodeWavHeader(WAV_UNKNOWN_SIZE, 44100, 2);
    const parsed = parseWavHeader(header);
    expect(parsed).toMatchObject({ channels: 2, sampleRate: 44100, blockAlign: 4, bitsPerSample: 16, dataOffset: 44, dataBytes: undefined });
    expect(header.readUInt32LE(4)).toBe(WAV_UNKNOWN_SIZE);
  });
});

describe('parseWavHeader', () => {
  it('reads back both header kinds', () => {
    expect(parseWavHeader(encodeWav(new Int16Array(10), 8000))).toEqual({
      formatTag: WAVE_FORMAT_PCM,
      extensible: false,
      channels: 1,
      sampleRate: 8000,
      bitsPerSample: 16,
      blockAlign: 2,
      channelMask: 0,
      dataOffset: 44,
      dataBytes: 20,
    });
    expect(parseWavHeader(encodeWav(new Int16Array(10), 24000, 1, { extensible: true }))).toMatchObject({
      formatTag: WAVE_FORMAT_PCM,
      extensible: true,
      channelMask: 4,
      dataOffset: 68,
      dataBytes: 20,
    });
  });

  it('skips unknown chunks (odd-sized ones padded) before and after fmt', () => {
    const file = riff([
      ['JUNK', Buffer.alloc(5)],
      ['fmt ', fmtBody(WAVE_FORMAT_IEEE_FLOAT, 1, 22050, 32)],
      ['LIST', Buffer.from('INFOISFT\x03\x00\x00\x00ab\x00', 'latin1')],
      ['data', Buffer.alloc(8)],
    ]);
    const header = parseWavHeader(file);
    expect(header).toMatchObject({ formatTag: WAVE_FORMAT_IEEE_FLOAT, sampleRate: 22050, bitsPerSample: 32, dataBytes: 8 });
    expect(header.dataOffset).toBe(file.length - 8);
  });

  it('treats a data size of 0 as streaming', () => {
    const file = riff([['fmt ', fmtBody(1, 1, 8000, 16)]]);
    const data = Buffer.from('data\0\0\0\0', 'latin1');
    expect(parseWavHeader(Buffer.concat([file, data])).dataBytes).toBeUndefined();
  });

  it.each([
    ['missing RIFF header', Buffer.from('RIFX\0\0\0\0WAVE', 'latin1')],
    ['missing RIFF header', Buffer.from('ID3\x04', 'latin1')],
    ['missing RIFF header', Buffer.alloc(0)],
    ['missing WAVE form type', Buffer.from('RIFF\0\0\0\0AVI ', 'latin1')],
    ['data chunk before fmt chunk', riff([['data', Buffer.alloc(4)]])],
    ['fmt chunk too short', riff([['fmt ', Buffer.alloc(12)]])],
    ['zero channels', riff([['fmt ', fmtBody(1, 0, 8000, 16)], ['data', Buffer.alloc(2)]])],
    ['zero sample rate', riff([['fmt ', fmtBody(1, 1, 0, 16)], ['data', Buffer.alloc(2)]])],
    ['truncated header', riff([['fmt ', fmtBody(1, 1, 8000, 16)]])],
    ['truncated header', encodeWav(new Int16Array(4), 8000).subarray(0, 30)],
  ])('refuses with "%s"', (detail, bytes) => {
    let caught: unknown;
    try {
      parseWavHeader(bytes);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WavFormatError);
    expect(caught).toBeInstanceOf(InvalidAudioError);
    expect((caught as WavFormatError).detail).toBe(detail);
    expect((caught as WavFormatError).code).toBe('invalid_audio');
  });

  it('scanWavHeader waits on every prefix of a valid header and answers once the data chunk header is in', () => {
    const file = encodeWav(new Int16Array(3), 16000, 1, { extensible: true });
    for (let length = 0; length < 68; length++) expect(scanWavHeader(file.subarray(0, length))).toBeUndefined();
    expect(scanWavHeader(file.subarray(0, 68))?.dataBytes).toBe(6);
  });
});
