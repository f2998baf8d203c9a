import { describe, expect, it } from 'vitest';
import { createOpusCodec } from '../../../src/audio/opus-codec.js';
import { oggDemux, oggOpusMux, opusDecode, opusEncode, opusPacketSamples48k } from '../../../src/audio/opus-stream.js';
import type { PcmChunk } from '../../../src/audio/pcm.js';
import { pipe } from '../../../src/audio/transforms.js';
import { decodeAudio } from '../../../src/server/audio-analysis/decode.js';
import { InvalidArgumentError, InvalidAudioError } from '../../../src/errors.js';
import { readOggPages } from './ogg-reader.js';
import { collect, concatInt16, db, fromItems, rms, tone, toneAmplitude } from './signals.js';

async function* chunks(samples: Int16Array, rate: number, block: number): AsyncIterable<PcmChunk> {
  for (let i = 0; i < samples.length; i += block) yield { samples: samples.subarray(i, i + block), sampleRate: rate, channels: 1 };
}

describe('opusPacketSamples48k', () => {
  it.each([
    [[0x00], 480], // config 0: SILK NB 10 ms, one frame
    [[0x08], 960], // config 1: SILK NB 20 ms
    [[0x18], 2880], // config 3: SILK NB 60 ms
    [[0x70], 480], // config 14: hybrid FB 10 ms
    [[0x78], 960], // config 15: hybrid FB 20 ms
    [[0xe0], 120], // config 28: CELT FB 2.5 ms
    [[0xf8], 960], // config 31: CELT FB 20 ms
    [[0xf9], 1920], // code 1: two frames
    [[0xfa, 0x01], 1920], // code 2: two frames of different sizes
    [[0xfb, 0x03], 2880], // code 3: frame count byte says 3
  ])('TOC %j → %i samples', (bytes, expected) => {
    expect(opusPacketSamples48k(Uint8Array.from(bytes))).toBe(expected);
  });

  it('refuses an empty packet and a code-3 packet without its frame count', () => {
    expect(() => opusPacketSamples48k(new Uint8Array(0))).toThrow(InvalidAudioError);
    expect(() => opusPacketSamples48k(Uint8Array.of(0xfb))).toThrow(InvalidAudioError);
    expect(() => opusPacketSamples48k(Uint8Array.of(0xfb, 0x00))).toThrow(InvalidAudioError);
  });
});
describe('Opus 20 ms frames', () => {
  it.each(['@discordjs/opus', 'opusscript'] as const)('%s: encode → decode keeps a 1 kHz tone and the duration', async (backend) => {
    const input = tone(1000, 48000, 48000, 12000);
    const packets = await collect(pipe(chunks(input, 48000, 1234), opusEncode({ backend })));
    expect(packets).toHaveLength(50);
    expect(packets.every((p) => opusPacketSamples48k(p) === 960)).toBe(true);
    const decoded = concatInt16((await collect(pipe(fromItems(packets), opusDecode(48000, 1, { backend })))).map((c) => c.samples));
    expect(decoded.length).toBe(48000);
    const middle = decoded.subarray(9600, 38400);
    expect(Math.abs(db(toneAmplitude(middle, 1000, 48000), 12000))).toBeLessThan(1);
    expect(Math.abs(db(rms(middle), 12000 / Math.SQRT2))).toBeLessThan(1);
  });

  it('keeps the two channels of a stereo stream apart', async () => {
    const left = tone(500, 48000, 9600, 10000);
    const right = tone(1500, 48000, 9600, 10000);
    const stereo = new Int16Array(2 * 9600);
    for (let i = 0; i < 9600; i++) {
      stereo[2 * i] = left[i] as number;
      stereo[2 * i + 1] = right[i] as number;
    }
    async function* source(): AsyncIterable<PcmChunk> {
      yield { samples: stereo, sampleRate: 48000, channels: 2 };
    }
    const decoded = concatInt16((await collect(pipe(pipe(source(), opusEncode({ bitrate: 128000 })), opusDecode(48000, 2)))).map((c) => c.samples));
    const channel = (c: number): Int16Array => decoded.filter((_, i) => i % 2 === c).subarray(2400, 7200);
    expect(db(toneAmplitude(channel(0), 500, 48000), toneAmplitude(channel(0), 1500, 48000))).toBeGreaterThan(30);
    expect(db(toneAmplitude(channel(1), 1500, 48000), toneAmplitude(channel(1), 500, 48000))).toBeGreaterThan(30);
  });

  it('encodes at 16 kHz with 320-sample frames and pads the last one', async () => {
    const packets = await collect(pipe(chunks(tone(500, 16000, 16000 + 10), 16000, 320), opusEncode()));
    expect(packets).toHaveLength(51);
  });

  it('refuses a rate Opus does not run at and a format change mid-stream', async () => {
    expect(() => createOpusCodec(44100)).toThrow(InvalidArgumentError);
    async function* mixed(): AsyncIterable<PcmChunk> {
      yield { samples: new Int16Array(960), sampleRate: 48000, channels: 1 };
      yield { samples: new Int16Array(320), sampleRate: 16000, channels: 1 };
    }
    await expect(collect(pipe(mixed(), opusEncode()))).rejects.toThrow(/changed/);
  });
});

describe('Ogg/Opus container', () => {
  it('muxes packets into a stream ogg-opus-decoder plays for the right duration, and demuxes back to the packets', async () => {
    const input = tone(700, 48000, 24000, 10000);
    const packets = await collect(pipe(chunks(input, 48000, 960), opusEncode()));
    const ogg = Buffer.concat(await collect(pipe(fromItems(packets), oggOpusMux({ inputSampleRate: 24000 }))));
    const pages = readOggPages(ogg);
    expect(pages.every((p) => p.crcOk)).toBe(true);
    expect(pages.at(-1)?.flags).toBe(4);
    expect(pages.at(-1)?.granule).toBe(24000n); // 25 packets × 960; the pre-skip is part of them
    expect(pages[0]?.body.readUInt32LE(12)).toBe(24000);
    const decoded = await decodeAudio(ogg);
    expect(decoded.durationSeconds).toBeCloseTo((24000 - 312) / 48000, 4);
    const demuxed = await collect(pipe(fromItems([ogg.subarray(0, 100), ogg.subarray(100)]), oggDemux()));
    expect(demuxed).toEqual(packets);
    const byteAtATime = await collect(pipe(fromItems(Array.from(ogg, (b) => Uint8Array.of(b))), oggDemux()));
    expect(byteAtATime).toEqual(packets);
  });

  it('surfaces a source error through the demuxer', async () => {
    async function* failing(): AsyncIterable<Uint8Array> {
      yield new Uint8Array(10);
      throw new Error('source broke');
    }
    await expect(collect(pipe(failing(), oggDemux()))).rejects.toThrow(/source broke/);
  });
});
