/**
 * The PCM block that flows between the adapters, and conversions of raw sample bytes to 16-bit PCM
 * (little-endian integer PCM of 8–32 bits, 32-bit float, mu-law) with carry of a partial sample frame.
 */
import { InvalidAudioError } from '../errors.js';
import { LITTLE_ENDIAN } from './endian.js';
import { mulawToLinear } from './mulaw.js';
import { WAVE_FORMAT_IEEE_FLOAT, WAVE_FORMAT_MULAW, WAVE_FORMAT_PCM } from './wav.js';

/** A block of 16-bit PCM with its format; `samples` is interleaved when `channels` > 1. */
export interface PcmChunk {
  samples: Int16Array;
  sampleRate: number;
  channels: number;
}

/** How raw sample bytes are laid out. */
export interface SampleLayout {
  /** {@link WAVE_FORMAT_PCM}, {@link WAVE_FORMAT_IEEE_FLOAT} or {@link WAVE_FORMAT_MULAW}. */
  formatTag: number;
  bitsPerSample: number;
  channels: number;
  /** Bytes per frame of all channels (at least channels × bytes per sample). */
  blockAlign: number;
}

/** Whether {@link SampleDecoder} can read `layout`; else the reason. */
export function unsupportedLayout(layout: SampleLayout): string | undefined {
  const { formatTag, bitsPerSample } = layout;
  if (formatTag === WAVE_FORMAT_PCM && [8, 16, 24, 32].includes(bitsPerSample)) return undefined;
  if (formatTag === WAVE_FORMAT_IEEE_FLOAT && bitsPerSample === 32) return undefined;
  if (formatTag === WAVE_FORMAT_MULAW && bitsPerSample === 8) return undefined;
  return `unsupported sample format: format tag ${formatTag}, ${bitsPerSample} bits`;
}

/** Streaming conversion of raw sample bytes to 16-bit PCM; a partial frame at the end of a block is carried. */
export class SampleDecoder {
  readonly layout: SampleLayout;
  private readonly carry: Uint8Array;
  private carried = 0;

  constructor(layout: SampleLayout) {
    const problem = unsupportedLayout(layout);
    if (problem) throw new InvalidAudioError(problem);
    this.layout = layout;
    this.carry = new Uint8Array(layout.blockAlign);
  }

  /** Bytes of an incomplete frame waiting for the next block. */
  get pending(): number {
    return this.carried;
  }

  /** Converts `bytes` (continuing the previous block) to interleaved 16-bit samples. */
  decode(bytes: Uint8Array): Int16Array {
    const block = this.layout.blockAlign;
    let head: Int16Array | undefined;
    let input = bytes;
    if (this.carried > 0) {
      const take = Math.min(block - this.carried, bytes.length);
      this.carry.set(bytes.subarray(0, take), this.carried);
      this.carried += take;
      if (this.carried < block) return new Int16Array(0);
      head = this.convert(this.carry);
      this.carried = 0;
      input = bytes.subarray(take);
    }
    const whole = input.length - (input.length % block);
    this.carry.set(input.subarray(whole));
    this.carried = input.length - whole;
    const body = this.convert(input.subarray(0, whole));
    if (!head) return body;
    const out = new Int16Array(head.length + body.length);
    out.set(head);
    out.set(body, head.length);
    return out;
  }

  /** Drops a carried partial frame (end of stream); returns how many bytes were dropped. */
  reset(): number {
    const dropped = this.carried;
    this.carried = 0;
    return dropped;
  }

  private convert(bytes: Uint8Array): Int16Array {
    const { formatTag, bitsPerSample, channels, blockAlign } = this.layout;
    const frames = Math.floor(bytes.length / blockAlign);
    const out = new Int16Array(frames * channels);
    const width = bitsPerSample >> 3;
    if (formatTag === WAVE_FORMAT_PCM && bitsPerSample === 16 && blockAlign === 2 * channels && bytes.byteOffset % 2 === 0 && LITTLE_ENDIAN) {
      out.set(new Int16Array(bytes.buffer, bytes.byteOffset, out.length));
      return out;
    }
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let f = 0; f < frames; f++) {
      for (let c = 0; c < channels; c++) {
        const at = f * blockAlign + c * width;
        out[f * channels + c] = sampleAt(view, at, formatTag, bitsPerSample);
      }
    }
    return out;
  }
}

function sampleAt(view: DataView, at: number, formatTag: number, bits: number): number {
  if (formatTag === WAVE_FORMAT_MULAW) return mulawToLinear(view.getUint8(at));
  if (formatTag === WAVE_FORMAT_IEEE_FLOAT) {
    const v = Math.round(view.getFloat32(at, true) * 32768);
    return v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  switch (bits) {
    case 8:
      return (view.getUint8(at) - 128) << 8;
    case 16:
      return view.getInt16(at, true);
    case 24:
      return view.getInt16(at + 1, true);
    default:
      return view.getInt16(at + 2, true);
  }
}
