/**
 * Counts how much audio a turn received, from the format the session asked for: PCM (`s16le`, 2 bytes per
 * sample), `mulaw` (1 byte per sample) and `wav` (header stripped: the hosted service sends a complete WAV
 * file per chunk, other servers one header at the start; both are handled), and compressed formats from
 * their framing (`mp3` frame headers, Ogg Opus granule positions, see `compressed-duration.ts`).
 */
import { scanWavHeader, type WavHeader } from '../../audio/wav.js';
import { Mp3DurationCounter, OggOpusDurationCounter, type DurationCounter } from './compressed-duration.js';
import { defaultSampleRate, isSampleRate, normalizeFormat, type AudioFormat, type StreamConfig } from '../../protocol/speech.js';

/** Bytes per second of uncompressed audio, by format; undefined for compressed formats. */
function pcmBytesPerSecond(format: AudioFormat, sampleRate: number): number | undefined {
  if (format === 's16le' || format === 'wav') return sampleRate * 2;
  if (format === 'mulaw') return sampleRate;
  return undefined;
}

/** Accumulates the playable duration of a stream of chunks. */
export class AudioClock {
  readonly format: AudioFormat;
  #bytesPerSecond: number | undefined;
  readonly #compressed: DurationCounter | undefined;
  #ms = 0;

  /** Uses `format` and `sampleRate` of the session's `stream-config` (with the spec's defaults). */
  constructor(config: Pick<StreamConfig, 'format' | 'sampleRate'>) {
    this.format = normalizeFormat(config.format);
    const rate = isSampleRate(config.sampleRate) ? config.sampleRate : defaultSampleRate(this.format);
    this.#bytesPerSecond = pcmBytesPerSecond(this.format, rate);
    if (this.format === 'mp3') this.#compressed = new Mp3DurationCounter();
    else if (this.format === 'opus') this.#compressed = new OggOpusDurationCounter();
  }

  /** Total milliseconds of audio so far. */
  get ms(): number {
    return this.#ms;
  }

  /** Adds one chunk's bytes; returns the milliseconds of audio they completed. */
  add(data: Uint8Array): number {
    if (this.#compressed) {
      const ms = this.#compressed.add(data);
      this.#ms += ms;
      return ms;
    }
    let payload = data.length;
    if (this.format === 'wav') {
      const header = wavHeaderOf(data);
      if (header) {
        payload = Math.max(0, data.length - header.dataOffset);
        this.#bytesPerSecond = header.sampleRate * header.blockAlign;
      }
    }
    if (this.#bytesPerSecond === undefined || this.#bytesPerSecond === 0) return 0;
    const ms = (payload * 1000) / this.#bytesPerSecond;
    this.#ms += ms;
    return ms;
  }
}

/** The header at the start of a WAV chunk, or undefined for a headerless (continuation) chunk. */
function wavHeaderOf(data: Uint8Array): WavHeader | undefined {
  if (data.length < 12 || data[0] !== 0x52 || data[1] !== 0x49 || data[2] !== 0x46 || data[3] !== 0x46) return undefined;
  try {
    return scanWavHeader(data);
  } catch {
    return undefined;
  }
}
