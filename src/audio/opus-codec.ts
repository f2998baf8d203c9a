/**
 * Opus encode/decode of fixed-duration frames through `@discordjs/opus` (native libopus), falling back to
 * `opusscript` (libopus compiled to WASM) when the native module cannot be loaded. Both are loaded on first
 * use so that importing `voxpipe/audio` never pulls a native module in by itself.
 */
import { createRequire } from 'node:module';
import { InvalidArgumentError, InvalidAudioError } from '../errors.js';

/** Sample rates libopus encodes and decodes at. */
export const OPUS_RATES = [8000, 12000, 16000, 24000, 48000] as const;
/** Frame duration used throughout (ms). */
export const OPUS_FRAME_MS = 20;
/**
 * Encoder look-ahead of libopus (application AUDIO) in 48 kHz samples: the decoder drops this many samples
 * at the start of a stream (the Ogg/Opus pre-skip).
 */
export const OPUS_PRE_SKIP = 312;

/** Which libopus binding to use. */
export type OpusBackend = '@discordjs/opus' | 'opusscript';

/** Options of {@link createOpusCodec}. */
export interface OpusCodecOptions {
  /** Force a binding; by default the native one, else opusscript. */
  backend?: OpusBackend;
  /** Target bitrate in bits per second (libopus chooses by default). */
  bitrate?: number;
}

/** An Opus encoder and decoder for one rate and channel count. */
export interface OpusCodec {
  readonly backend: OpusBackend;
  readonly sampleRate: number;
  readonly channels: number;
  /** Samples per channel in one 20 ms frame. */
  readonly frameSize: number;
  /** Encodes exactly one frame (frameSize × channels interleaved samples) to one packet. */
  encode(frame: Int16Array): Buffer;
  /** Decodes one packet to interleaved samples. */
  decode(packet: Uint8Array): Int16Array;
  /** Frees the WASM memory of the opusscript backend (no-op for the native one). */
  close(): void;
}

interface Binding {
  encode(pcm: Buffer, frameSize: number): Buffer;
  decode(packet: Buffer): Buffer;
  setBitrate(bitrate: number): void;
  close(): void;
}

const require = createRequire(import.meta.url);
let nativeUnavailable = false;

function loadBinding(backend: OpusBackend | undefined, rate: number, channels: number): [OpusBackend, Binding] {
  if (backend !== 'opusscript' && !nativeUnavailable) {
    try {
      const { OpusEncoder } = require('@discordjs/opus') as typeof import('@discordjs/opus');
      const native = new OpusEncoder(rate, channels);
      return [
        '@discordjs/opus',
        { encode: (pcm) => native.encode(pcm), decode: (packet) => native.decode(packet), setBitrate: (bps) => native.setBitrate(bps), close: () => undefined },
      ];
    } catch (error) {
      if (backend === '@discordjs/opus') throw new InvalidArgumentError('@discordjs/opus could not be loaded', { cause: error });
      nativeUnavailable = true;
    }
  }
  const OpusScript = require('opusscript') as typeof import('opusscript');
  const wasm = new OpusScript(rate as 48000, channels, OpusScript.Application.AUDIO);
  return [
    'opusscript',
    {
      encode: (pcm, frameSize) => wasm.encode(pcm, frameSize),
      decode: (packet) => wasm.decode(packet),
      setBitrate: (bps) => wasm.encoderCTL(4002, bps), // OPUS_SET_BITRATE
      close: () => wasm.delete(),
    },
  ];
}

/** Creates an Opus codec at `sampleRate` (one of {@link OPUS_RATES}) with 20 ms frames. */
export function createOpusCodec(sampleRate: number, channels = 1, options: OpusCodecOptions = {}): OpusCodec {
  if (!(OPUS_RATES as readonly number[]).includes(sampleRate)) throw new InvalidArgumentError(`Opus cannot run at ${sampleRate} Hz`);
  if (channels !== 1 && channels !== 2) throw new InvalidArgumentError(`Opus streams here have 1 or 2 channels, got ${channels}`);
  const [backend, binding] = loadBinding(options.backend, sampleRate, channels);
  if (options.bitrate !== undefined) binding.setBitrate(options.bitrate);
  const frameSize = (sampleRate * OPUS_FRAME_MS) / 1000;
  return {
    backend,
    sampleRate,
    channels,
    frameSize,
    encode(frame) {
      if (frame.length !== frameSize * channels) throw new InvalidArgumentError(`an Opus frame holds ${frameSize * channels} samples, got ${frame.length}`);
      return binding.encode(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength), frameSize);
    },
    decode(packet) {
      let pcm: Buffer;
      try {
        pcm = binding.decode(Buffer.from(packet.buffer, packet.byteOffset, packet.byteLength));
      } catch (error) {
        throw new InvalidAudioError('Opus packet could not be decoded', { cause: error });
      }
      const out = new Int16Array(pcm.length >> 1);
      for (let i = 0; i < out.length; i++) out[i] = pcm.readInt16LE(2 * i);
      return out;
    },
    close: () => binding.close(),
  };
}
