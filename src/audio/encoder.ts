/**
 * Server-side output encoders: 48 kHz mono PCM from a synthesizer in, the bytes of the requested format and
 * rate out, chunk by chunk so they stream. One encoder per generation; `flush()` ends the stream (resampler
 * tail, MP3 bit reservoir, last Opus frame and end-of-stream page) and leaves the encoder ready for a new one.
 */
import { Mp3Encoder } from '@breezystack/lamejs';
import type { AudioFormat } from '../protocol/speech.js';
import { InvalidArgumentError } from '../errors.js';
import { createResampler, type Resampler } from './resampler.js';
import { encodeMulaw } from './mulaw.js';
import { encodeWav, encodeWavHeader, writeS16le, WAV_UNKNOWN_SIZE } from './wav.js';
import { Framer } from './framer.js';
import { createOpusCodec, OPUS_FRAME_MS, OPUS_PRE_SKIP, OPUS_RATES, type OpusCodec } from './opus-codec.js';
import { OggOpusWriter } from './ogg-opus.js';

/** Output formats of the encoders (the speech socket's formats). */
export type OutputFormat = AudioFormat;

/** A streaming encoder from 48 kHz (or `inputRate`) mono PCM to one output format. */
export interface AudioEncoder {
  readonly format: OutputFormat;
  /** Sample rate the output declares (for `mp3` at 36000 Hz this is 44100, see {@link mp3RateFor}). */
  readonly sampleRate: number;
  /** Encodes the next block of input PCM; returns the bytes it completed (at most one chunk; none while too little has arrived). */
  encode(pcm48k: Int16Array): Buffer[];
  /** Ends the stream and returns its last bytes; the next `encode` starts a new stream. */
  flush(): Buffer[];
}

/** Options of {@link createAudioEncoder}. */
export interface AudioEncoderOptions {
  format: OutputFormat;
  /** Output sample rate in Hz. */
  sampleRate: number;
  /** Rate of the PCM given to `encode` (default 48000). */
  inputRate?: number;
  /**
   * `wav` only: each chunk is a complete WAV file with the 68-byte WAVE_FORMAT_EXTENSIBLE header, as the hosted
   * service sends (default true). When false, the first chunk carries one header with an unknown (streaming)
   * size and later chunks carry bare samples.
   */
  wavHeaderPerChunk?: boolean;
  /** `opus` only: pick the libopus binding (default native, else opusscript). */
  opusBackend?: '@discordjs/opus' | 'opusscript';
}

/** MP3 sample rates (MPEG-1, MPEG-2 and MPEG-2.5), ascending. */
export const MP3_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;

/**
 * The MP3 rate used for a requested rate: the rate itself when MP3 has it, else the next higher MP3 rate so
 * no requested bandwidth is lost (36000 Hz → 44100 Hz; the frame headers say so, so players are not misled).
 */
export function mp3RateFor(rate: number): number {
  return MP3_RATES.find((candidate) => candidate >= rate) ?? 48000;
}

/** Constant bitrate (kbit/s) used for mono MP3 at `rate` Hz. */
export function mp3BitrateFor(rate: number): number {
  if (rate <= 12000) return 32;
  if (rate <= 16000) return 48;
  if (rate <= 24000) return 64;
  if (rate <= 32000) return 96;
  return 128;
}

/** The rate Opus encodes at for a requested rate: the rate itself when libopus runs at it, else 48 kHz. */
export function opusRateFor(rate: number): number {
  return (OPUS_RATES as readonly number[]).includes(rate) ? rate : 48000;
}

/** Creates the encoder for one output stream. */
export function createAudioEncoder(options: AudioEncoderOptions): AudioEncoder {
  const inputRate = options.inputRate ?? 48000;
  const { format, sampleRate } = options;
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) throw new InvalidArgumentError(`sampleRate must be a positive integer, got ${sampleRate}`);
  switch (format) {
    case 'wav':
      return pcmEncoder(format, inputRate, sampleRate, wavChunker(sampleRate, options.wavHeaderPerChunk ?? true));
    case 's16le':
      return pcmEncoder(format, inputRate, sampleRate, () => (pcm) => s16le(pcm));
    case 'mulaw':
      return pcmEncoder(format, inputRate, sampleRate, () => (pcm) => Buffer.from(encodeMulaw(pcm).buffer));
    case 'mp3':
      return mp3Encoder(inputRate, sampleRate);
    case 'opus':
      return opusEncoder(inputRate, sampleRate, options.opusBackend);
    default:
      throw new InvalidArgumentError(`unknown output format ${String(format)}`);
  }
}

/** Turns resampled PCM into one output chunk; a new one is made per stream. */
type Chunker = () => (pcm: Int16Array) => Buffer;

function s16le(pcm: Int16Array): Buffer {
  const out = Buffer.allocUnsafe(pcm.byteLength);
  writeS16le(pcm, out);
  return out;
}

function wavChunker(sampleRate: number, headerPerChunk: boolean): Chunker {
  if (headerPerChunk) return () => (pcm) => encodeWav(pcm, sampleRate, 1, { extensible: true });
  return () => {
    let headerSent = false;
    return (pcm) => {
      if (headerSent) return s16le(pcm);
      headerSent = true;
      return Buffer.concat([encodeWavHeader(WAV_UNKNOWN_SIZE, sampleRate, 1, { extensible: true }), s16le(pcm)]);
    };
  };
}

/** Formats whose bytes are a direct function of the resampled samples (wav, s16le, mulaw). */
function pcmEncoder(format: OutputFormat, inputRate: number, sampleRate: number, chunker: Chunker): AudioEncoder {
  const resampler = createResampler(inputRate, sampleRate);
  let chunk = chunker();
  const emit = (pcm: Int16Array): Buffer[] => (pcm.length === 0 ? [] : [chunk(pcm)]);
  return {
    format,
    sampleRate,
    encode: (pcm) => emit(resampler.process(pcm)),
    flush: () => {
      const out = emit(resampler.flush());
      chunk = chunker();
      return out;
    },
  };
}

function mp3Encoder(inputRate: number, requestedRate: number): AudioEncoder {
  const sampleRate = mp3RateFor(requestedRate);
  const resampler = createResampler(inputRate, sampleRate);
  let lame: Mp3Encoder | undefined;
  const bytes = (data: Uint8Array): Buffer[] => (data.length === 0 ? [] : [Buffer.from(data.buffer, data.byteOffset, data.length)]);
  return {
    format: 'mp3',
    sampleRate,
    encode(pcm) {
      lame ??= new Mp3Encoder(1, sampleRate, mp3BitrateFor(sampleRate));
      const samples = resampler.process(pcm);
      return samples.length === 0 ? [] : bytes(lame.encodeBuffer(samples));
    },
    flush() {
      const tail = resampler.flush();
      if (!lame) {
        if (tail.length === 0) return [];
        lame = new Mp3Encoder(1, sampleRate, mp3BitrateFor(sampleRate));
      }
      const out = [...bytes(lame.encodeBuffer(tail)), ...bytes(lame.flush())];
      lame = undefined;
      return out.length <= 1 ? out : [Buffer.concat(out)];
    },
  };
}

function opusEncoder(inputRate: number, requestedRate: number, backend: AudioEncoderOptions['opusBackend']): AudioEncoder {
  const codecRate = opusRateFor(requestedRate);
  const resampler = createResampler(inputRate, codecRate);
  const frameSamples48k = (48000 * OPUS_FRAME_MS) / 1000;
  let codec: OpusCodec | undefined;
  let framer: Framer<Int16Array>;
  let writer: OggOpusWriter;
  let samples = 0; // input samples of this stream, at the codec rate
  let framesWritten = 0;
  const begin = (): void => {
    // A new logical stream is decoded from a fresh decoder state, so it must start from a fresh encoder too.
    codec?.close();
    codec = undefined;
    framer = new Framer(codecRate / 50, (n) => new Int16Array(n));
    writer = new OggOpusWriter({ channels: 1, inputSampleRate: requestedRate, preSkip: OPUS_PRE_SKIP });
    samples = 0;
    framesWritten = 0;
  };
  begin();
  const encodeFrames = (frames: Int16Array[]): Buffer[] => {
    codec ??= createOpusCodec(codecRate, 1, backend === undefined ? {} : { backend });
    const current = codec;
    return frames.map((frame) => current.encode(frame));
  };
  return {
    format: 'opus',
    sampleRate: requestedRate,
    encode(pcm) {
      const resampled = resampler.process(pcm);
      samples += resampled.length;
      const frames = framer.push(resampled);
      framesWritten += frames.length;
      // One chunk per call: the header pages travel with the first audio page.
      return frames.length === 0 ? [] : [Buffer.concat(writer.write(encodeFrames(frames), frameSamples48k))];
    },
    flush() {
      const tail = resampler.flush();
      samples += tail.length;
      if (samples === 0) return [];
      const frames = framer.push(tail);
      const partial = framer.flush(0);
      if (partial) frames.push(partial);
      const total48k = Math.round((samples * 48000) / codecRate);
      // The decoder drops the pre-skip from the front, so the stream must run that much past the input.
      while ((framesWritten + frames.length) * frameSamples48k < total48k + OPUS_PRE_SKIP) frames.push(new Int16Array(framer.frameLength));
      const pages = writer.end(encodeFrames(frames), frameSamples48k, total48k);
      begin();
      return [Buffer.concat(pages)];
    },
  };
}
