/**
 * Decodes an uploaded or fetched audio file, whatever its container, to float PCM: WAV (own reader), MP3
 * (`mpg123-decoder`), FLAC (`@wasm-audio-decoders/flac`), Ogg Vorbis (`@wasm-audio-decoders/ogg-vorbis`) and
 * Ogg Opus (`ogg-opus-decoder`). The format is sniffed from the bytes, never from a file name. The WASM
 * decoders are loaded on first use and fed in 64 KiB pieces so that a long file is refused as soon as it
 * passes the duration limit instead of after it has been decoded whole.
 */
import { InvalidAudioError } from '../../errors.js';
import { mixToMono, type PcmAudio } from './pcm.js';
import { decodeWav } from './wav-decode.js';

/** Containers/codecs {@link decodeAudio} understands. */
export type AudioFileFormat = 'wav' | 'mp3' | 'flac' | 'ogg-vorbis' | 'ogg-opus';

/** Mono audio ready for analysis. */
export interface DecodedAudio {
  format: AudioFileFormat;
  sampleRate: number;
  /** Channels in the file (the samples are their average). */
  channels: number;
  samples: Float32Array;
  durationSeconds: number;
}

/** Options of {@link decodeAudio}. */
export interface DecodeAudioOptions {
  /** Longest accepted audio in seconds. Default 600. */
  maxSeconds?: number;
}

/** Identifies the container of `bytes` from its first bytes, or undefined when it is none of the supported ones. */
export function sniffAudioFormat(bytes: Uint8Array): AudioFileFormat | undefined {
  const ascii = (at: number, length: number): string => String.fromCharCode(...bytes.subarray(at, at + length));
  if (ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WAVE') return 'wav';
  if (ascii(0, 4) === 'fLaC') return 'flac';
  if (ascii(0, 4) === 'OggS') {
    const segments = bytes[26] ?? 0;
    const packet = 27 + segments;
    if (ascii(packet, 8) === 'OpusHead') return 'ogg-opus';
    if (bytes[packet] === 1 && ascii(packet + 1, 6) === 'vorbis') return 'ogg-vorbis';
    return undefined;
  }
  if (ascii(0, 3) === 'ID3') return 'mp3';
  return isMpegFrameHeader(bytes, 0) ? 'mp3' : undefined;
}

/** Whether a valid MPEG audio frame header (Layer I–III) starts at `at`. */
function isMpegFrameHeader(bytes: Uint8Array, at: number): boolean {
  const b1 = bytes[at + 1] ?? 0;
  const b2 = bytes[at + 2] ?? 0;
  return bytes[at] === 0xff && (b1 & 0xe0) === 0xe0 && (b1 & 0x18) !== 0x08 && (b1 & 0x06) !== 0 && b2 >> 4 !== 0x0f && (b2 & 0x0c) !== 0x0c;
}

/** Decodes a whole audio file to mono float samples. Throws {@link InvalidAudioError} with a readable reason. */
export async function decodeAudio(bytes: Uint8Array, options: DecodeAudioOptions = {}): Promise<DecodedAudio> {
  const format = sniffAudioFormat(bytes);
  if (!format) throw new InvalidAudioError('not a supported audio file (expected WAV, MP3, FLAC, Ogg Vorbis or Ogg Opus)');
  const maxSeconds = options.maxSeconds ?? 600;
  const pcm = format === 'wav' ? decodeWav(bytes) : await decodeCompressed(format, bytes, maxSeconds);
  const samples = mixToMono(pcm);
  if (samples.length === 0) throw new InvalidAudioError(`the ${format} file contains no audio samples`);
  const durationSeconds = samples.length / pcm.sampleRate;
  if (durationSeconds > maxSeconds) throw tooLong(maxSeconds);
  return { format, sampleRate: pcm.sampleRate, channels: pcm.channelData.length, samples, durationSeconds };
}

function tooLong(maxSeconds: number): InvalidAudioError {
  return new InvalidAudioError(`audio is longer than the ${maxSeconds} s limit`);
}

/** The part of every WASM decoder's API used here. */
interface StreamDecoder {
  ready: Promise<void>;
  decode(data: Uint8Array): WasmDecoded | Promise<WasmDecoded>;
  flush?(): Promise<WasmDecoded>;
  free(): void | Promise<void>;
}
interface WasmDecoded {
  channelData: Float32Array[];
  samplesDecoded: number;
  sampleRate: number;
  errors: Array<{ message: string }>;
}

async function createDecoder(format: Exclude<AudioFileFormat, 'wav'>): Promise<StreamDecoder> {
  switch (format) {
    case 'mp3':
      return new (await import('mpg123-decoder')).MPEGDecoder();
    case 'flac':
      return new (await import('@wasm-audio-decoders/flac')).FLACDecoder();
    case 'ogg-vorbis':
      return new (await import('@wasm-audio-decoders/ogg-vorbis')).OggVorbisDecoder();
    case 'ogg-opus':
      return new (await import('ogg-opus-decoder')).OggOpusDecoder();
  }
}

const PIECE_BYTES = 64 * 1024;

async function decodeCompressed(format: Exclude<AudioFileFormat, 'wav'>, bytes: Uint8Array, maxSeconds: number): Promise<PcmAudio> {
  const decoder = await createDecoder(format);
  const parts: WasmDecoded[] = [];
  let total = 0;
  let sampleRate = 0;
  let firstError: string | undefined;
  const take = (part: WasmDecoded): void => {
    firstError ??= part.errors[0]?.message;
    if (part.samplesDecoded === 0) return;
    sampleRate ||= part.sampleRate;
    parts.push(part);
    total += part.samplesDecoded;
    if (sampleRate > 0 && total / sampleRate > maxSeconds) throw tooLong(maxSeconds);
  };
  try {
    await decoder.ready;
    for (let at = 0; at < bytes.length; at += PIECE_BYTES) take(await decoder.decode(bytes.subarray(at, at + PIECE_BYTES)));
    if (decoder.flush) take(await decoder.flush());
  } catch (error) {
    if (error instanceof InvalidAudioError) throw error;
    throw new InvalidAudioError(`could not decode the ${format} stream: ${(error as Error).message}`, { cause: error });
  } finally {
    await decoder.free();
  }
  if (total === 0 || sampleRate === 0) {
    throw new InvalidAudioError(`could not decode the ${format} stream${firstError ? `: ${firstError}` : ': no audio frames found'}`);
  }
  const channels = Math.max(...parts.map((p) => p.channelData.length));
  const channelData = Array.from({ length: channels }, () => new Float32Array(total));
  let offset = 0;
  for (const part of parts) {
    channelData.forEach((out, c) => out.set((part.channelData[c] ?? part.channelData[0] ?? new Float32Array(0)).subarray(0, part.samplesDecoded), offset));
    offset += part.samplesDecoded;
  }
  return { sampleRate, channelData };
}
