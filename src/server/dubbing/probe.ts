/**
 * Recognises a video container from the head of a file and, where the container says so cheaply, its
 * duration: ISO BMFF (MP4 / QuickTime MOV: `ftyp`, duration from `moov/mvhd`, following the top-level box
 * chain with ranged reads when `moov` sits after the head), Matroska / WebM (EBML header DocType, duration
 * from `Segment/Info`), MPEG transport stream (0x47 sync bytes every 188 bytes, or 192 for M2TS) and AVI
 * (`RIFF…AVI `, duration from `avih`).
 */

/** A recognised container. */
export type VideoContainer = 'mp4' | 'mov' | 'matroska' | 'webm' | 'mpeg-ts' | 'avi';

/** What {@link probeVideo} found. */
export interface VideoProbe {
  container: VideoContainer;
  /** Duration in milliseconds, when the container states it within the bytes read. */
  durationMs?: number;
}

/** Reads `length` bytes at `offset` beyond the head; resolves undefined when ranged reads are not possible. */
export type RangeReader = (offset: number, length: number) => Promise<Uint8Array | undefined>;

const ascii = (b: Uint8Array, at: number, n: number): string => String.fromCharCode(...b.subarray(at, at + n));
const view = (b: Uint8Array): DataView => new DataView(b.buffer, b.byteOffset, b.byteLength);

/** Most follow-up ranged reads spent walking MP4 boxes past the head. */
const MAX_RANGE_READS = 8;
/** Most bytes of `moov` read to find `mvhd`. */
const MOOV_READ_BYTES = 64 * 1024;
const QUICKTIME_TOP_LEVEL = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/** Recognises the container of `head` (the first bytes of the file); undefined when it is not a known video container. */
export async function probeVideo(head: Uint8Array, readMore?: RangeReader): Promise<VideoProbe | undefined> {
  if (head.length >= 12) {
    const type = ascii(head, 4, 4);
    if (type === 'ftyp') return probeIsoBmff(head, ascii(head, 8, 4) === 'qt  ' ? 'mov' : 'mp4', readMore);
    if (QUICKTIME_TOP_LEVEL.has(type) && view(head).getUint32(0) >= 8) return probeIsoBmff(head, 'mov', readMore);
    if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'AVI ') return probeAvi(head);
  }
  if (head.length >= 4 && view(head).getUint32(0) === 0x1a45dfa3) return probeEbml(head);
  if (isTransportStream(head)) return { container: 'mpeg-ts' };
  return undefined;
}

function isTransportStream(b: Uint8Array): boolean {
  for (const [packet, skip] of [
    [188, 0],
    [192, 4],
  ] as const) {
    const packets = Math.min(4, Math.floor(b.length / packet));
    if (packets < 2) continue;
    let ok = true;
    for (let i = 0; i < packets && ok; i++) ok = b[i * packet + skip] === 0x47;
    if (ok) return true;
  }
  return false;
}

/** Reads `length` bytes at `offset`, from the head when it holds them, else through `readMore`. */
async function bytesAt(head: Uint8Array, offset: number, length: number, readMore: RangeReader | undefined, budget: { reads: number }): Promise<Uint8Array | undefined> {
  if (offset + length <= head.length) return head.subarray(offset, offset + length);
  if (!readMore || budget.reads <= 0) return undefined;
  budget.reads--;
  return readMore(offset, length);
}

async function probeIsoBmff(head: Uint8Array, container: 'mp4' | 'mov', readMore: RangeReader | undefined): Promise<VideoProbe> {
  const budget = { reads: MAX_RANGE_READS };
  let offset = 0;
  for (let boxes = 0; boxes < 64; boxes++) {
    const header = await bytesAt(head, offset, 16, readMore, budget);
    if (!header || header.length < 8) break;
    const dv = view(header);
    let size = dv.getUint32(0);
    const type = ascii(header, 4, 4);
    let headerSize = 8;
    if (size === 1) {
      if (header.length < 16) break;
      size = Number(dv.getBigUint64(8));
      headerSize = 16;
    }
    if (type === 'moov') {
      const payload = await bytesAt(head, offset + headerSize, Math.min(size === 0 ? MOOV_READ_BYTES : size - headerSize, MOOV_READ_BYTES), readMore, budget);
      const durationMs = payload ? mvhdDurationMs(payload) : undefined;
      return durationMs === undefined ? { container } : { container, durationMs };
    }
    if (size < headerSize) break; // size 0 (to end of file) or corrupt: no moov follows
    offset += size;
  }
  return { container };
}

/** Finds `mvhd` among the children in `moov`'s payload and converts its duration to ms. */
export function mvhdDurationMs(moov: Uint8Array): number | undefined {
  const dv = view(moov);
  for (let at = 0; at + 8 <= moov.length; ) {
    const size = dv.getUint32(at);
    if (ascii(moov, at + 4, 4) === 'mvhd') {
      const version = moov[at + 8];
      const body = at + 12;
      if (version === 1 && body + 28 <= moov.length) {
        const timescale = dv.getUint32(body + 16);
        return timescale ? Math.round((Number(dv.getBigUint64(body + 20)) * 1000) / timescale) : undefined;
      }
      if (version === 0 && body + 16 <= moov.length) {
        const timescale = dv.getUint32(body + 8);
        const duration = dv.getUint32(body + 12);
        return timescale && duration !== 0xffffffff ? Math.round((duration * 1000) / timescale) : undefined;
      }
      return undefined;
    }
    if (size < 8) return undefined;
    at += size;
  }
  return undefined;
}

function probeAvi(head: Uint8Array): VideoProbe {
  const dv = view(head);
  for (let at = 12; at + 8 + 20 <= head.length && at < 4096; at++) {
    if (ascii(head, at, 4) === 'avih') {
      const microSecPerFrame = dv.getUint32(at + 8, true);
      const totalFrames = dv.getUint32(at + 8 + 16, true);
      const durationMs = Math.round((microSecPerFrame * totalFrames) / 1000);
      return durationMs > 0 ? { container: 'avi', durationMs } : { container: 'avi' };
    }
  }
  return { container: 'avi' };
}

/** An EBML element header: id, payload offset and size (undefined for "unknown size"). */
interface EbmlElement {
  id: number;
  data: number;
  size: number | undefined;
}

function readVint(b: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } | undefined {
  const first = b[at];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (at + length > b.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === (0xff >> length);
  for (let i = 1; i < length; i++) {
    const byte = b[at + i] ?? 0;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

function readElement(b: Uint8Array, at: number): EbmlElement | undefined {
  const id = readVint(b, at, true);
  if (!id) return undefined;
  const size = readVint(b, at + id.length, false);
  if (!size) return undefined;
  return { id: id.value, data: at + id.length + size.length, size: size.unknown ? undefined : size.value };
}

function readUint(b: Uint8Array, at: number, size: number): number {
  let v = 0;
  for (let i = 0; i < size; i++) v = v * 256 + (b[at + i] ?? 0);
  return v;
}

const EBML_DOCTYPE = 0x4282;
const SEGMENT = 0x18538067;
const SEGMENT_INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;

function probeEbml(head: Uint8Array): VideoProbe {
  const header = readElement(head, 0);
  if (!header || header.size === undefined) return { container: 'matroska' };
  let container: 'matroska' | 'webm' = 'matroska';
  const headerEnd = header.data + header.size;
  for (let at = header.data; at < headerEnd; ) {
    const el = readElement(head, at);
    if (!el || el.size === undefined) break;
    if (el.id === EBML_DOCTYPE && ascii(head, el.data, el.size) === 'webm') container = 'webm';
    at = el.data + el.size;
  }
  const segment = readElement(head, headerEnd);
  if (!segment || segment.id !== SEGMENT) return { container };
  for (let at = segment.data; at < head.length; ) {
    const el = readElement(head, at);
    if (!el || el.size === undefined) break;
    if (el.id === SEGMENT_INFO) {
      const durationMs = segmentInfoDurationMs(head, el.data, Math.min(el.data + el.size, head.length));
      return durationMs === undefined ? { container } : { container, durationMs };
    }
    at = el.data + el.size;
  }
  return { container };
}

function segmentInfoDurationMs(b: Uint8Array, start: number, end: number): number | undefined {
  let scaleNs = 1_000_000;
  let duration: number | undefined;
  const dv = view(b);
  for (let at = start; at < end; ) {
    const el = readElement(b, at);
    if (!el || el.size === undefined || el.data + el.size > end) break;
    if (el.id === TIMECODE_SCALE) scaleNs = readUint(b, el.data, el.size);
    if (el.id === DURATION) duration = el.size === 4 ? dv.getFloat32(el.data) : el.size === 8 ? dv.getFloat64(el.data) : undefined;
    at = el.data + el.size;
  }
  return duration === undefined || !Number.isFinite(duration) ? undefined : Math.round((duration * scaleNs) / 1e6);
}
