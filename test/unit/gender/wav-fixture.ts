/** Builds WAV files of every layout the analysis decoder reads, for tests. */

/** Layout of {@link wavBytes}. */
export interface WavLayout {
  sampleRate: number;
  channels?: number;
  /** 8, 16, 24 or 32 (integer) / 32 or 64 with `float`. Default 16. */
  bits?: number;
  float?: boolean;
  /** Write WAVE_FORMAT_EXTENSIBLE (68-byte header, as the hosted service's chunks). */
  extensible?: boolean;
  /** Extra chunk before `data` (e.g. LIST), to be skipped. */
  extraChunk?: boolean;
}

/** Encodes interleaved-by-channel `channels` (each −1…1) as a WAV file. */
export function wavBytes(channels: Float32Array[], layout: WavLayout): Uint8Array {
  const bits = layout.bits ?? 16;
  const width = bits / 8;
  const count = channels.length;
  const frames = channels[0]?.length ?? 0;
  const fmtSize = layout.extensible ? 40 : 16;
  const extra = layout.extraChunk ? 8 + 6 : 0;
  const dataSize = frames * count * width;
  const buffer = new ArrayBuffer(12 + 8 + fmtSize + extra + 8 + dataSize);
  const v = new DataView(buffer);
  const bytes = new Uint8Array(buffer);
  const tag = (at: number, s: string): void => bytes.set([...s].map((c) => c.charCodeAt(0)), at);
  tag(0, 'RIFF');
  v.setUint32(4, buffer.byteLength - 8, true);
  tag(8, 'WAVE');
  tag(12, 'fmt ');
  v.setUint32(16, fmtSize, true);
  const formatTag = layout.float ? 3 : 1;
  v.setUint16(20, layout.extensible ? 0xfffe : formatTag, true);
  v.setUint16(22, count, true);
  v.setUint32(24, layout.sampleRate, true);
  v.setUint32(28, layout.sampleRate * count * width, true);
  v.setUint16(32, count * width, true);
  v.setUint16(34, bits, true);
  if (layout.extensible) {
    v.setUint16(36, 22, true);
    v.setUint16(38, bits, true);
    v.setUint32(40, count === 1 ? 4 : 3, true);
    v.setUint16(44, formatTag, true);
    bytes.set([0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71], 46);
  }
  let at = 20 + fmtSize;
  if (layout.extraChunk) {
    tag(at, 'LIST');
    v.setUint32(at + 4, 6, true);
    at += 14;
  }
  tag(at, 'data');
  v.setUint32(at + 4, dataSize, true);
  at += 8;
  for (let f = 0; f < frames; f++) {
    for (const channel of channels) {
      const s = Math.max(-1, Math.min(1, channel[f] ?? 0));
      if (layout.float && bits === 32) v.setFloat32(at, s, true);
      else if (layout.float) v.setFloat64(at, s, true);
      else if (bits === 8) v.setUint8(at, Math.round(s * 127) + 128);
      else if (bits === 16) v.setInt16(at, Math.round(s * 32767), true);
      else if (bits === 24) {
        const x = Math.round(s * 8_388_607);
        v.setUint8(at, x & 0xff);
        v.setUint8(at + 1, (x >> 8) & 0xff);
        v.setInt8(at + 2, x >> 16);
      } else v.setInt32(at, Math.round(s * 2_147_483_647), true);
      at += width;
    }
  }
  return bytes;
}
