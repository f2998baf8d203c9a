/**
 * The adapters as composable async-iterable transforms: each is a function from one async iterable to
 * another, so `pipe(source, wavToPcm(), resample(8000), pcmToMulaw(), frame(160))` is a lazy, pull-driven
 * chain (backpressure is the consumer's pace; breaking out of the loop stops the source). Every transform
 * holds at most one block or frame of state between items.
 */
import { InvalidAudioError } from '../errors.js';
import { createAudioEncoder, type OutputFormat } from './encoder.js';
import { Framer } from './framer.js';
import { decodeMulaw, encodeMulaw } from './mulaw.js';
import { SampleDecoder, type PcmChunk } from './pcm.js';
import { createResampler, type Resampler } from './resampler.js';
import { WavChunkDecoder } from './wav-decoder.js';
import { encodeWavHeader, WAV_UNKNOWN_SIZE, WAVE_FORMAT_PCM, writeS16le } from './wav.js';

/** A streaming adapter from items of type I to items of type O. */
export type AudioTransform<I, O> = (source: AsyncIterable<I>) => AsyncIterable<O>;

/** Chains transforms onto a source (left to right). */
export function pipe<A>(source: AsyncIterable<A>): AsyncIterable<A>;
export function pipe<A, B>(source: AsyncIterable<A>, t1: AudioTransform<A, B>): AsyncIterable<B>;
export function pipe<A, B, C>(source: AsyncIterable<A>, t1: AudioTransform<A, B>, t2: AudioTransform<B, C>): AsyncIterable<C>;
export function pipe<A, B, C, D>(source: AsyncIterable<A>, t1: AudioTransform<A, B>, t2: AudioTransform<B, C>, t3: AudioTransform<C, D>): AsyncIterable<D>;
export function pipe<A, B, C, D, E>(
  source: AsyncIterable<A>,
  t1: AudioTransform<A, B>,
  t2: AudioTransform<B, C>,
  t3: AudioTransform<C, D>,
  t4: AudioTransform<D, E>,
): AsyncIterable<E>;
export function pipe<A, B, C, D, E, F>(
  source: AsyncIterable<A>,
  t1: AudioTransform<A, B>,
  t2: AudioTransform<B, C>,
  t3: AudioTransform<C, D>,
  t4: AudioTransform<D, E>,
  t5: AudioTransform<E, F>,
): AsyncIterable<F>;
export function pipe(source: AsyncIterable<unknown>, ...transforms: Array<AudioTransform<unknown, unknown>>): AsyncIterable<unknown>;
export function pipe(source: AsyncIterable<unknown>, ...transforms: Array<AudioTransform<unknown, unknown>>): AsyncIterable<unknown> {
  return transforms.reduce((stream, transform) => transform(stream), source);
}

/** WAV bytes (a header per chunk, one header, or split headers) to PCM. See {@link WavChunkDecoder}. */
export function wavToPcm(): AudioTransform<Uint8Array, PcmChunk> {
  return async function* (source) {
    const decoder = new WavChunkDecoder();
    for await (const bytes of source) yield* decoder.push(bytes);
    decoder.end();
  };
}

/** Raw little-endian 16-bit bytes to PCM; a sample split across blocks is carried. */
export function s16leToPcm(sampleRate: number, channels = 1): AudioTransform<Uint8Array, PcmChunk> {
  return async function* (source) {
    const decoder = new SampleDecoder({ formatTag: WAVE_FORMAT_PCM, bitsPerSample: 16, channels, blockAlign: 2 * channels });
    for await (const bytes of source) {
      const samples = decoder.decode(bytes);
      if (samples.length > 0) yield { samples, sampleRate, channels };
    }
    if (decoder.reset() > 0) throw new InvalidAudioError('s16le stream ended inside a sample');
  };
}

/** Mu-law bytes (mono) to PCM. */
export function mulawToPcm(sampleRate = 8000): AudioTransform<Uint8Array, PcmChunk> {
  return async function* (source) {
    for await (const bytes of source) if (bytes.length > 0) yield { samples: decodeMulaw(bytes), sampleRate, channels: 1 };
  };
}

/** PCM to mu-law bytes (one byte per sample; give it mono 8 kHz for telephony). */
export function pcmToMulaw(): AudioTransform<PcmChunk, Uint8Array> {
  return async function* (source) {
    for await (const chunk of source) if (chunk.samples.length > 0) yield encodeMulaw(chunk.samples);
  };
}

/** PCM to raw little-endian 16-bit bytes. */
export function pcmToS16le(): AudioTransform<PcmChunk, Uint8Array> {
  return async function* (source) {
    for await (const chunk of source) {
      if (chunk.samples.length === 0) continue;
      const out = new Uint8Array(chunk.samples.byteLength);
      writeS16le(chunk.samples, out);
      yield out;
    }
  };
}

/**
 * PCM to one streaming WAV file: a 44-byte header with unknown (streaming) size, then samples. A file writer
 * that can seek may patch the RIFF and data sizes at offsets 4 and 40 afterwards.
 */
export function pcmToWav(): AudioTransform<PcmChunk, Uint8Array> {
  return async function* (source) {
    let format: { sampleRate: number; channels: number } | undefined;
    for await (const chunk of source) {
      if (chunk.samples.length === 0) continue;
      if (!format) {
        format = { sampleRate: chunk.sampleRate, channels: chunk.channels };
        yield encodeWavHeader(WAV_UNKNOWN_SIZE, format.sampleRate, format.channels);
      }
      if (format.sampleRate !== chunk.sampleRate || format.channels !== chunk.channels) throw new InvalidAudioError('PCM format changed inside one WAV file');
      const data = new Uint8Array(chunk.samples.byteLength);
      writeS16le(chunk.samples, data);
      yield data;
    }
  };
}

/**
 * Resamples PCM to `toRate` with a streaming polyphase resampler (see {@link createResampler}); a change of
 * input rate or channel count mid-stream flushes the old resampler and starts a new one.
 */
export function resample(toRate: number): AudioTransform<PcmChunk, PcmChunk> {
  return async function* (source) {
    let resampler: Resampler | undefined;
    const out = (samples: Int16Array, channels: number): PcmChunk[] => (samples.length === 0 ? [] : [{ samples, sampleRate: toRate, channels }]);
    for await (const chunk of source) {
      if (resampler && (resampler.fromRate !== chunk.sampleRate || resampler.channels !== chunk.channels)) {
        yield* out(resampler.flush(), resampler.channels);
        resampler = undefined;
      }
      resampler ??= createResampler(chunk.sampleRate, toRate, { channels: chunk.channels });
      yield* out(resampler.process(chunk.samples), chunk.channels);
    }
    if (resampler) yield* out(resampler.flush(), resampler.channels);
  };
}

/** Averages interleaved channels into mono (mono passes through). */
export function downmix(): AudioTransform<PcmChunk, PcmChunk> {
  return async function* (source) {
    for await (const chunk of source) {
      const { channels } = chunk;
      if (channels === 1) {
        yield chunk;
        continue;
      }
      const frames = Math.floor(chunk.samples.length / channels);
      const mono = new Int16Array(frames);
      for (let f = 0; f < frames; f++) {
        let sum = 0;
        for (let c = 0; c < channels; c++) sum += chunk.samples[f * channels + c] as number;
        mono[f] = Math.round(sum / channels);
      }
      yield { samples: mono, sampleRate: chunk.sampleRate, channels: 1 };
    }
  };
}

/** Options of {@link frame}. */
export interface FrameOptions {
  /** Pad the last partial frame to full size with this byte (e.g. 0xFF for mu-law); by default it is yielded short. */
  pad?: number;
  /** Drop the last partial frame instead. */
  dropPartial?: boolean;
}

/** Cuts bytes into frames of exactly `frameBytes` (e.g. 160 = 20 ms of 8 kHz mu-law), carrying the remainder. */
export function frame(frameBytes: number, options: FrameOptions = {}): AudioTransform<Uint8Array, Uint8Array> {
  return async function* (source) {
    const framer = new Framer<Uint8Array>(frameBytes, (n) => new Uint8Array(n));
    for await (const bytes of source) yield* framer.push(bytes);
    const last = framer.flush(options.pad);
    if (last && !options.dropPartial) yield last;
  };
}

/** PCM to one of the service's output formats with the server-side encoder (see {@link createAudioEncoder}). */
export function encode(format: OutputFormat, sampleRate: number): AudioTransform<PcmChunk, Uint8Array> {
  return async function* (source) {
    let encoder: ReturnType<typeof createAudioEncoder> | undefined;
    let inputRate = 0;
    for await (const chunk of source) {
      if (chunk.channels !== 1) throw new InvalidAudioError('the encoders take mono PCM; add downmix() first');
      if (encoder && inputRate !== chunk.sampleRate) {
        yield* encoder.flush();
        encoder = undefined;
      }
      inputRate = chunk.sampleRate;
      encoder ??= createAudioEncoder({ format, sampleRate, inputRate });
      yield* encoder.encode(chunk.samples);
    }
    if (encoder) yield* encoder.flush();
  };
}
