/**
 * Decodes a RIFF/WAVE file to float channels for analysis: integer PCM of 8, 16, 24 and 32 bits, IEEE float
 * of 32 and 64 bits, plain or WAVE_FORMAT_EXTENSIBLE; unknown chunks are skipped and a streaming data size
 * (0 or 0xFFFFFFFF) means "to the end of the file".
 */
import { InvalidAudioError } from '../../errors.js';
import type { PcmAudio } from './pcm.js';

const PCM = 1;
const FLOAT = 3;
const EXTENSIBLE = 0xfffe;

/** Decodes `bytes` (a whole WAV file). Throws {@link InvalidAudioError} with the reason when it cannot. */
export function decodeWav(bytes: Uint8Array): PcmAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number): string => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new InvalidAudioError('not a WAV file: missing RIFF/WAVE header');
  let fmt: { format: number; channels: number; sampleRate: number; bits: number; blockAlign: number } | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = tag(offset);
    let size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length) throw new InvalidAudioError('WAV fmt chunk is truncated');
      let format = view.getUint16(body, true);
      if (format === EXTENSIBLE && size >= 40 && body + 26 <= bytes.length) format = view.getUint16(body + 24, true);
      fmt = {
        format,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!fmt) throw new InvalidAudioError('WAV data chunk comes before the fmt chunk');
      if (size === 0 || size === 0xffffffff || body + size > bytes.length) size = bytes.length - body;
      return samplesOf(bytes.subarray(body, body + size), fmt);
    }
    offset = body + size + (size & 1);
  }
  throw new InvalidAudioError(fmt ? 'WAV file has no data chunk' : 'WAV file has no fmt chunk');
}

function samplesOf(data: Uint8Array, fmt: { format: number; channels: number; sampleRate: number; bits: number; blockAlign: number }): PcmAudio {
  const { format, channels, sampleRate, bits } = fmt;
  if (channels < 1 || channels > 32) throw new InvalidAudioError(`WAV file declares ${channels} channels`);
  if (sampleRate < 1000 || sampleRate > 384_000) throw new InvalidAudioError(`WAV file declares an unusable sample rate of ${sampleRate} Hz`);
  const width = bits / 8;
  const readable = (format === PCM && [8, 16, 24, 32].includes(bits)) || (format === FLOAT && (bits === 32 || bits === 64));
  if (!readable) throw new InvalidAudioError(`unsupported WAV encoding: format tag ${format}, ${bits} bits per sample`);
  const frameBytes = Math.max(fmt.blockAlign, width * channels);
  const frames = Math.floor(data.length / frameBytes);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let f = 0; f < frames; f++) {
    for (let c = 0; c < channels; c++) {
      const at = f * frameBytes + c * width;
      let v: number;
      if (format === FLOAT) v = bits === 32 ? view.getFloat32(at, true) : view.getFloat64(at, true);
      else if (bits === 8) v = ((data[at] ?? 128) - 128) / 128;
      else if (bits === 16) v = view.getInt16(at, true) / 32768;
      else if (bits === 24) v = (view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)) / 8_388_608;
      else v = view.getInt32(at, true) / 2_147_483_648;
      (out[c] as Float32Array)[f] = v;
    }
  }
  return { sampleRate, channelData: out };
}
