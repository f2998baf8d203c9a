/**
 * WAV (RIFF/WAVE) headers: writing the plain 44-byte PCM header or the 68-byte WAVE_FORMAT_EXTENSIBLE header
 * the hosted service puts on every chunk, and parsing a header robustly (fmt chunk plain or extensible,
 * unknown chunks skipped, a streaming data size of 0 or 0xFFFFFFFF meaning "to the end").
 */
import { InvalidAudioError } from '../errors.js';
import { LITTLE_ENDIAN } from './endian.js';

/** `wFormatTag` of integer PCM. */
export const WAVE_FORMAT_PCM = 1;
/** `wFormatTag` of IEEE float. */
export const WAVE_FORMAT_IEEE_FLOAT = 3;
/** `wFormatTag` of G.711 mu-law. */
export const WAVE_FORMAT_MULAW = 7;
/** `wFormatTag` of WAVE_FORMAT_EXTENSIBLE (the real tag is in the sub-format GUID). */
export const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/** Size of the plain PCM header written by {@link encodeWavHeader}. */
export const WAV_HEADER_BYTES = 44;
/** Size of the WAVE_FORMAT_EXTENSIBLE header written by {@link encodeWavHeader} (the hosted service's). */
export const WAV_EXTENSIBLE_HEADER_BYTES = 68;
/** Data size written when the length is not known yet (streaming); readers treat it as "to the end". */
export const WAV_UNKNOWN_SIZE = 0xffffffff;

/** Tail of the KSDATAFORMAT_SUBTYPE_* GUIDs after the 2-byte format tag (00000000-0000-0010-8000-00aa00389b71). */
const SUBFORMAT_TAIL = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];

/** A WAV file's header as far as playing its samples goes. */
export interface WavHeader {
  /** Effective format tag: {@link WAVE_FORMAT_PCM}, {@link WAVE_FORMAT_IEEE_FLOAT}, {@link WAVE_FORMAT_MULAW}, … (resolved through the extensible sub-format). */
  formatTag: number;
  /** Whether the fmt chunk was WAVE_FORMAT_EXTENSIBLE. */
  extensible: boolean;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Bytes per sample frame (all channels). */
  blockAlign: number;
  /** Speaker mask of an extensible header (0 when plain). */
  channelMask: number;
  /** Byte offset of the first sample. */
  dataOffset: number;
  /** Declared size of the data chunk, or undefined when it is a streaming size (0 or 0xFFFFFFFF). */
  dataBytes: number | undefined;
}

/** A WAV file that cannot be read; `detail` says why in a few words (e.g. `missing RIFF header`). */
export class WavFormatError extends InvalidAudioError {
  /** Short reason, suitable after "is not a WAV file: ". */
  readonly detail: string;
  constructor(detail: string) {
    super(`invalid WAV: ${detail}`);
    this.detail = detail;
  }
}

/** Options of {@link encodeWavHeader} and {@link encodeWav}. */
export interface WavEncodeOptions {
  /** Write the 68-byte WAVE_FORMAT_EXTENSIBLE header (as the hosted service does) instead of the 44-byte one. */
  extensible?: boolean;
}

/**
 * Writes the header of a 16-bit PCM WAV file holding `dataBytes` bytes of samples; pass
 * {@link WAV_UNKNOWN_SIZE} when streaming an unknown length.
 */
export function encodeWavHeader(dataBytes: number, sampleRate: number, channels = 1, options: WavEncodeOptions = {}): Buffer {
  const extensible = options.extensible ?? false;
  const size = extensible ? WAV_EXTENSIBLE_HEADER_BYTES : WAV_HEADER_BYTES;
  const header = Buffer.alloc(size);
  const blockAlign = channels * 2;
  const riffSize = dataBytes === WAV_UNKNOWN_SIZE ? WAV_UNKNOWN_SIZE : Math.min(WAV_UNKNOWN_SIZE, size - 8 + dataBytes);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(riffSize, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(extensible ? 40 : 16, 16);
  header.writeUInt16LE(extensible ? WAVE_FORMAT_EXTENSIBLE : WAVE_FORMAT_PCM, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(16, 34);
  let at = 36;
  if (extensible) {
    header.writeUInt16LE(22, 36); // cbSize
    header.writeUInt16LE(16, 38); // valid bits per sample
    header.writeUInt32LE(defaultChannelMask(channels), 40);
    header.writeUInt16LE(WAVE_FORMAT_PCM, 44);
    header.set(SUBFORMAT_TAIL, 46);
    at = 60;
  }
  header.write('data', at, 'latin1');
  header.writeUInt32LE(dataBytes, at + 4);
  return header;
}

/** Encodes 16-bit PCM (interleaved when `channels` > 1) as a complete WAV file. */
export function encodeWav(pcm: Int16Array, sampleRate: number, channels = 1, options: WavEncodeOptions = {}): Buffer {
  const header = encodeWavHeader(pcm.byteLength, sampleRate, channels, options);
  const out = Buffer.allocUnsafe(header.length + pcm.byteLength);
  header.copy(out, 0);
  writeS16le(pcm, out, header.length);
  return out;
}

/** Copies `pcm` into `out` at `offset` as little-endian 16-bit samples. */
export function writeS16le(pcm: Int16Array, out: Uint8Array, offset = 0): void {
  if (LITTLE_ENDIAN) {
    out.set(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength), offset);
    return;
  }
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < pcm.length; i++) view.setInt16(offset + 2 * i, pcm[i] as number, true);
}

/** The usual speaker mask for a channel count (front centre for mono, front left/right for stereo). */
function defaultChannelMask(channels: number): number {
  if (channels === 1) return 0x4;
  if (channels === 2) return 0x3;
  return channels >= 32 ? 0xffffffff : 2 ** channels - 1;
}

/**
 * Parses the header of a WAV file (the bytes up to and including the data chunk's header are enough).
 * Throws {@link WavFormatError} when the bytes are not a readable WAV header.
 */
export function parseWavHeader(bytes: Uint8Array): WavHeader {
  const header = scanWavHeader(bytes);
  if (header === undefined) throw new WavFormatError(bytes.length < 12 ? 'missing RIFF header' : 'truncated header');
  return header;
}

/**
 * Like {@link parseWavHeader} but returns undefined while the header is still incomplete, so that a streaming
 * reader can wait for more bytes; throws {@link WavFormatError} as soon as the bytes cannot be a WAV header.
 */
export function scanWavHeader(bytes: Uint8Array): WavHeader | undefined {
  if (!startsLikeRiff(bytes)) throw new WavFormatError('missing RIFF header');
  if (bytes.length >= 12 && fourcc(bytes, 8) !== FOURCC_WAVE) throw new WavFormatError('missing WAVE form type');
  let header: WavHeader | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = fourcc(bytes, offset);
    const size = fourcc(bytes, offset + 4);
    const body = offset + 8;
    if (id === FOURCC_DATA) {
      if (!header) throw new WavFormatError('data chunk before fmt chunk');
      header.dataOffset = body;
      header.dataBytes = size === 0 || size === WAV_UNKNOWN_SIZE ? undefined : size;
      return header;
    }
    if (id === FOURCC_FMT) {
      if (size < 16) throw new WavFormatError('fmt chunk too short');
      if (body + size > bytes.length) return undefined;
      header = readFmt(bytes, body, size);
    }
    offset = body + size + (size & 1);
  }
  return undefined;
}

/** Whether `bytes` starts with (a prefix of) `RIFF`. */
function startsLikeRiff(bytes: Uint8Array): boolean {
  for (let i = 0; i < Math.min(4, bytes.length); i++) if (bytes[i] !== (FOURCC_RIFF >>> (8 * i)) % 256) return false;
  return true;
}

/** Reads a fmt chunk body; the data position is filled in by the caller. */
function readFmt(bytes: Uint8Array, body: number, size: number): WavHeader {
  let formatTag = uint16(bytes, body);
  const channels = uint16(bytes, body + 2);
  const sampleRate = fourcc(bytes, body + 4);
  const blockAlign = uint16(bytes, body + 12);
  const bitsPerSample = uint16(bytes, body + 14);
  const extensible = formatTag === WAVE_FORMAT_EXTENSIBLE;
  let channelMask = 0;
  if (extensible) {
    if (size < 40) throw new WavFormatError('extensible fmt chunk too short');
    channelMask = fourcc(bytes, body + 20);
    formatTag = uint16(bytes, body + 24);
  }
  if (channels === 0) throw new WavFormatError('zero channels');
  if (sampleRate === 0) throw new WavFormatError('zero sample rate');
  if (bitsPerSample === 0 || blockAlign < channels * Math.ceil(bitsPerSample / 8)) throw new WavFormatError('inconsistent block alignment');
  return { formatTag, extensible, channels, sampleRate, bitsPerSample, blockAlign, channelMask, dataOffset: 0, dataBytes: undefined };
}

function uint16(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

/** The four bytes at `at` as a little-endian unsigned number (a RIFF chunk id or size); missing bytes count as 0. */
export function fourcc(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 3] ?? 0) << 24)) >>> 0;
}

/** {@link fourcc} of `RIFF`. */
export const FOURCC_RIFF = 0x46464952;
/** {@link fourcc} of `WAVE`. */
export const FOURCC_WAVE = 0x45564157;
/** {@link fourcc} of `fmt `. */
const FOURCC_FMT = 0x20746d66;
/** {@link fourcc} of `data`. */
export const FOURCC_DATA = 0x61746164;
