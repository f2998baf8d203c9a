/**
 * Ogg page writer (RFC 3533): lays packets out into pages with lacing values, continuation across pages for
 * packets larger than one page, granule positions, sequence numbers and the page CRC (polynomial 0x04C11DB7,
 * not reflected, initial value 0). prism-media only demuxes Ogg, so the muxer lives here.
 */

/** Page header flag: the first packet continues one from the previous page. */
export const OGG_CONTINUED = 0x01;
/** Page header flag: first page of a logical stream. */
export const OGG_BOS = 0x02;
/** Page header flag: last page of a logical stream. */
export const OGG_EOS = 0x04;

/** Granule position of a page on which no packet ends. */
const NO_GRANULE = -1n;
/** Lacing values per page. */
const MAX_SEGMENTS = 255;

const CRC_TABLE = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let r = i << 24;
  for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
  CRC_TABLE[i] = r >>> 0;
}

/** The Ogg CRC-32 of `bytes` (a page with its CRC field zeroed). */
export function oggCrc32(bytes: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ (bytes[i] as number)) & 0xff] as number)) >>> 0;
  return crc;
}

/** A packet to write, with the granule position of its last sample. */
export interface OggPacket {
  data: Uint8Array;
  granule: bigint;
}

/** Writes the pages of one logical Ogg stream. */
export class OggPageWriter {
  /** Stream serial number. */
  readonly serial: number;
  private sequence = 0;

  constructor(serial: number) {
    this.serial = serial >>> 0;
  }

  /**
   * Writes `packets` as complete pages (each packet ends on one of them). The first page gets {@link OGG_BOS}
   * when `bos` is set; the last page gets {@link OGG_EOS} when `eos` is set (an empty page when there are no
   * packets). Packets never share a page with packets of another call, so each call's bytes can be sent at once.
   */
  write(packets: readonly OggPacket[], options: { bos?: boolean; eos?: boolean } = {}): Buffer[] {
    const pages: Buffer[] = [];
    let lacing: number[] = [];
    let bodies: Uint8Array[] = [];
    let granule = NO_GRANULE;
    let continued = false;
    const emit = (last: boolean): void => {
      let flags = continued ? OGG_CONTINUED : 0;
      if (options.bos && this.sequence === 0) flags |= OGG_BOS;
      if (last && options.eos) flags |= OGG_EOS;
      pages.push(this.page(flags, granule, lacing, bodies));
      lacing = [];
      bodies = [];
      granule = NO_GRANULE;
      continued = false;
    };
    for (const packet of packets) {
      let offset = 0;
      for (;;) {
        if (lacing.length === MAX_SEGMENTS) {
          emit(false);
          continued = offset > 0;
        }
        const value = Math.min(255, packet.data.length - offset);
        lacing.push(value);
        bodies.push(packet.data.subarray(offset, offset + value));
        offset += value;
        if (value < 255) break;
      }
      granule = packet.granule;
    }
    if (lacing.length > 0 || options.eos || pages.length === 0) emit(true);
    return pages;
  }

  private page(flags: number, granule: bigint, lacing: readonly number[], bodies: readonly Uint8Array[]): Buffer {
    const bodyLength = bodies.reduce((sum, body) => sum + body.length, 0);
    const page = Buffer.alloc(27 + lacing.length + bodyLength);
    page.write('OggS', 0, 'latin1');
    page[4] = 0; // version
    page[5] = flags;
    page.writeBigInt64LE(granule, 6);
    page.writeUInt32LE(this.serial, 14);
    page.writeUInt32LE(this.sequence++, 18);
    page[26] = lacing.length;
    page.set(lacing, 27);
    let at = 27 + lacing.length;
    for (const body of bodies) {
      page.set(body, at);
      at += body.length;
    }
    page.writeUInt32LE(oggCrc32(page), 22);
    return page;
  }
}
