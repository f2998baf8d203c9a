/**
 * Playable duration of compressed streams, read from their framing without decoding: MPEG audio Layer III
 * frame headers (`mp3`) and Ogg page granule positions of Opus streams (`opus`, one logical stream per
 * generation, pre-skip from each OpusHead). Bytes may be split across chunks anywhere.
 */

/** Counts milliseconds of audio in a byte stream fed chunk by chunk. */
export interface DurationCounter {
  /** Feeds the next bytes; returns the milliseconds of audio completed by them. */
  add(bytes: Uint8Array): number;
}

const MP3_BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MP3_RATES: Record<number, readonly number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** MPEG-1/2/2.5 Layer III frame counter (an ID3v2 tag at the start is skipped). */
export class Mp3DurationCounter implements DurationCounter {
  #pending: Buffer = Buffer.alloc(0);
  #skip = 0;

  add(bytes: Uint8Array): number {
    let data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (this.#skip > 0) {
      const n = Math.min(this.#skip, data.length);
      this.#skip -= n;
      data = data.subarray(n);
    }
    const buf = this.#pending.length > 0 ? Buffer.concat([this.#pending, data]) : data;
    let ms = 0;
    let at = 0;
    while (at + 10 <= buf.length) {
      if (buf[at] === 0x49 && buf[at + 1] === 0x44 && buf[at + 2] === 0x33) {
        at += 10 + (((buf[at + 6] as number) << 21) | ((buf[at + 7] as number) << 14) | ((buf[at + 8] as number) << 7) | (buf[at + 9] as number));
        continue;
      }
      const frame = mp3Frame(buf, at);
      if (!frame) {
        at++;
        continue;
      }
      ms += frame.ms;
      at += frame.bytes;
    }
    if (at > buf.length) {
      this.#skip = at - buf.length;
      this.#pending = Buffer.alloc(0);
    } else this.#pending = Buffer.from(buf.subarray(at));
    return ms;
  }
}

function mp3Frame(buf: Buffer, at: number): { bytes: number; ms: number } | undefined {
  const b1 = buf[at + 1] as number;
  const b2 = buf[at + 2] as number;
  if (buf[at] !== 0xff || (b1 & 0xe0) !== 0xe0 || ((b1 >> 1) & 3) !== 1) return undefined;
  const version = (b1 >> 3) & 3;
  const rate = MP3_RATES[version]?.[(b2 >> 2) & 3];
  const kbps = (version === 3 ? MP3_BITRATES_V1 : MP3_BITRATES_V2)[b2 >> 4];
  if (!rate || !kbps) return undefined;
  const samples = version === 3 ? 1152 : 576;
  return { bytes: Math.floor(((samples / 8) * kbps * 1000) / rate) + ((b2 >> 1) & 1), ms: (samples * 1000) / rate };
}

/** Ogg Opus counter: per logical stream, (last granule position − pre-skip) at 48 kHz. */
export class OggOpusDurationCounter implements DurationCounter {
  #pending: Buffer = Buffer.alloc(0);
  readonly #streams = new Map<number, { preSkip: number; ms: number }>();

  add(bytes: Uint8Array): number {
    const buf = this.#pending.length > 0 ? Buffer.concat([this.#pending, bytes]) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let ms = 0;
    let at = 0;
    while (at + 27 <= buf.length) {
      if (buf.toString('latin1', at, at + 4) !== 'OggS') {
        const next = buf.indexOf('OggS', at + 1, 'latin1');
        at = next < 0 ? Math.max(at + 1, buf.length - 3) : next;
        continue;
      }
      const segments = buf[at + 26] as number;
      if (at + 27 + segments > buf.length) break;
      let body = 0;
      for (let i = 0; i < segments; i++) body += buf[at + 27 + i] as number;
      const end = at + 27 + segments + body;
      if (end > buf.length) break;
      const serial = buf.readUInt32LE(at + 14);
      const granule = Number(buf.readBigInt64LE(at + 6));
      const bodyStart = at + 27 + segments;
      if (buf.toString('latin1', bodyStart, bodyStart + 8) === 'OpusHead') this.#streams.set(serial, { preSkip: buf.readUInt16LE(bodyStart + 10), ms: 0 });
      const stream = this.#streams.get(serial);
      if (stream && granule > 0) {
        const total = Math.max(0, ((granule - stream.preSkip) * 1000) / 48000);
        if (total > stream.ms) {
          ms += total - stream.ms;
          stream.ms = total;
        }
      }
      at = end;
    }
    this.#pending = Buffer.from(buf.subarray(at));
    return ms;
  }
}
