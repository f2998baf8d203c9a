/**
 * Opus as async-iterable transforms: PCM to 20 ms Opus packets and back, Opus packets to an Ogg/Opus stream
 * (own page writer) and an Ogg/Opus stream to packets (prism-media's OggDemuxer).
 */
import { pipeline, Readable } from 'node:stream';
import prism from 'prism-media';
import { InvalidAudioError } from '../errors.js';
import { Framer } from './framer.js';
import { OggOpusWriter } from './ogg-opus.js';
import { createOpusCodec, OPUS_PRE_SKIP, type OpusCodec, type OpusCodecOptions } from './opus-codec.js';
import type { PcmChunk } from './pcm.js';
import type { AudioTransform } from './transforms.js';

/**
 * Duration of an Opus packet in 48 kHz samples, from its TOC byte (RFC 6716 §3.1); throws
 * {@link InvalidAudioError} for an empty or malformed packet.
 */
export function opusPacketSamples48k(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) throw new InvalidAudioError('empty Opus packet');
  const config = toc >> 3;
  let frameSamples: number;
  if (config < 12) frameSamples = [480, 960, 1920, 2880][config & 3] as number;
  else if (config < 16) frameSamples = config & 1 ? 960 : 480;
  else frameSamples = [120, 240, 480, 960][config & 3] as number;
  const code = toc & 3;
  const frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  if (frames === 0) throw new InvalidAudioError('malformed Opus packet');
  return frames * frameSamples;
}

/**
 * PCM (at 8, 12, 16, 24 or 48 kHz, mono or stereo) to one Opus packet per 20 ms; the last partial frame is
 * padded with silence. The first chunk fixes the rate and channel count.
 */
export function opusEncode(options: OpusCodecOptions = {}): AudioTransform<PcmChunk, Buffer> {
  return async function* (source) {
    let codec: OpusCodec | undefined;
    let framer: Framer<Int16Array> | undefined;
    try {
      for await (const chunk of source) {
        if (!codec) {
          codec = createOpusCodec(chunk.sampleRate, chunk.channels, options);
          framer = new Framer(codec.frameSize * codec.channels, (n) => new Int16Array(n));
        } else if (codec.sampleRate !== chunk.sampleRate || codec.channels !== chunk.channels) {
          throw new InvalidAudioError('PCM format changed inside one Opus stream');
        }
        for (const pcmFrame of framer?.push(chunk.samples) ?? []) yield codec.encode(pcmFrame);
      }
      const last = framer?.flush(0);
      if (codec && last) yield codec.encode(last);
    } finally {
      codec?.close();
    }
  };
}

/** Opus packets to PCM at `sampleRate` (an Opus rate, default 48000) with `channels` (default 1). */
export function opusDecode(sampleRate = 48000, channels = 1, options: OpusCodecOptions = {}): AudioTransform<Uint8Array, PcmChunk> {
  return async function* (source) {
    const codec = createOpusCodec(sampleRate, channels, options);
    try {
      for await (const packet of source) yield { samples: codec.decode(packet), sampleRate, channels };
    } finally {
      codec.close();
    }
  };
}

/** Options of {@link oggOpusMux}. */
export interface OggOpusMuxOptions {
  channels?: number;
  /** Original input rate recorded in OpusHead (default 48000). */
  inputSampleRate?: number;
  /** Encoder look-ahead in 48 kHz samples (default libopus's {@link OPUS_PRE_SKIP}). */
  preSkip?: number;
}

/**
 * Opus packets to an Ogg/Opus stream. Each packet goes out on its own page as soon as the next one arrives
 * (the last is held back so the end-of-stream page can carry it).
 */
export function oggOpusMux(options: OggOpusMuxOptions = {}): AudioTransform<Uint8Array, Buffer> {
  return async function* (source) {
    const preSkip = options.preSkip ?? OPUS_PRE_SKIP;
    const writer = new OggOpusWriter({ channels: options.channels ?? 1, inputSampleRate: options.inputSampleRate ?? 48000, preSkip });
    let held: Uint8Array | undefined;
    let total = 0;
    for await (const packet of source) {
      if (held) yield* writer.write([held], opusPacketSamples48k(held));
      held = packet;
      total += opusPacketSamples48k(packet);
    }
    const samples = held ? opusPacketSamples48k(held) : 0;
    yield* writer.end(held ? [held] : [], samples, Math.max(0, total - preSkip));
  };
}

/** An Ogg/Opus byte stream to its Opus audio packets (OpusHead and OpusTags are consumed). */
export function oggDemux(): AudioTransform<Uint8Array, Buffer> {
  return async function* (source) {
    const demuxer = new prism.opus.OggDemuxer();
    // pipeline carries a source error into the demuxer (and so into this loop) and a break back to the source.
    pipeline(Readable.from(source, { objectMode: false }), demuxer, () => undefined);
    for await (const packet of demuxer) yield packet as Buffer;
  };
}
