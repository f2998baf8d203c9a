/**
 * Decodes a whole RIFF/WAVE file to float channels for analysis. The header is read by the audio module's
 * {@link parseWavHeader} (plain or WAVE_FORMAT_EXTENSIBLE, unknown chunks skipped, streaming sizes); this
 * file converts the samples: integer PCM of 8, 16, 24 and 32 bits, IEEE float of 32 and 64 bits, and G.711
 * mu-law.
 */
import { mulawToLinear } from '../../audio/mulaw.js';
import { parseWavHeader, WAVE_FORMAT_IEEE_FLOAT, WAVE_FORMAT_MULAW, WAVE_FORMAT_PCM, WavFormatError, type WavHeader } from '../../audio/wav.js';
import { InvalidAudioError } from '../../errors.js';
import type { PcmAudio } from './pcm.js';

/** Reads one sample at a byte offset, as −1…1. */
type SampleReader = (view: DataView, at: number) => number;

function readerFor(header: WavHeader): SampleReader | undefined {
  const { formatTag, bitsPerSample: bits } = header;
  if (formatTag === WAVE_FORMAT_PCM) {
    if (bits === 8) return (v, at) => (v.getUint8(at) - 128) / 128;
    if (bits === 16) return (v, at) => v.getInt16(at, true) / 32_768;
    if (bits === 24) return (v, at) => (v.getUint8(at) | (v.getUint8(at + 1) << 8) | (v.getInt8(at + 2) << 16)) / 8_388_608;
    if (bits === 32) return (v, at) => v.getInt32(at, true) / 2_147_483_648;
  }
  if (formatTag === WAVE_FORMAT_IEEE_FLOAT) {
    if (bits === 32) return (v, at) => v.getFloat32(at, true);
    if (bits === 64) return (v, at) => v.getFloat64(at, true);
  }
  if (formatTag === WAVE_FORMAT_MULAW && bits === 8) return (v, at) => mulawToLinear(v.getUint8(at)) / 32_768;
  return undefined;
}

/** Decodes `bytes` (a whole WAV file). Throws {@link InvalidAudioError} with the reason when it cannot. */
export function decodeWav(bytes: Uint8Array): PcmAudio {
  let header: WavHeader;
  try {
    header = parseWavHeader(bytes);
  } catch (error) {
    if (error instanceof WavFormatError) throw new InvalidAudioError(`not a readable WAV file: ${error.detail}`, { cause: error });
    throw error;
  }
  const { channels, sampleRate, bitsPerSample, blockAlign, dataOffset } = header;
  if (sampleRate < 1000 || sampleRate > 384_000) throw new InvalidAudioError(`WAV file declares an unusable sample rate of ${sampleRate} Hz`);
  const read = readerFor(header);
  if (!read) throw new InvalidAudioError(`unsupported WAV encoding: format tag ${header.formatTag}, ${bitsPerSample} bits per sample`);
  const end = header.dataBytes === undefined ? bytes.length : Math.min(bytes.length, dataOffset + header.dataBytes);
  const frames = Math.max(0, Math.floor((end - dataOffset) / blockAlign));
  const width = bitsPerSample / 8;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const channelData = Array.from({ length: channels }, () => new Float32Array(frames));
  channelData.forEach((out, c) => {
    for (let f = 0, at = dataOffset + c * width; f < frames; f++, at += blockAlign) out[f] = read(view, at);
  });
  return { sampleRate, channelData };
}
