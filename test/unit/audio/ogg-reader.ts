/** A minimal independent Ogg page reader for tests (CRC checked with a bitwise CRC, not the table of src/). */

/** One parsed page. */
export interface TestOggPage {
  flags: number;
  granule: bigint;
  serial: number;
  sequence: number;
  lacing: number[];
  body: Buffer;
  crcOk: boolean;
}

function bitwiseCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 24;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  }
  return crc >>> 0;
}

/** Splits `bytes` into Ogg pages; throws when a page does not start where one must. */
export function readOggPages(bytes: Buffer): TestOggPage[] {
  const pages: TestOggPage[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (bytes.subarray(at, at + 4).toString('latin1') !== 'OggS') throw new Error(`no page at ${at}`);
    const count = bytes[at + 26] as number;
    const lacing = Array.from(bytes.subarray(at + 27, at + 27 + count));
    const size = 27 + count + lacing.reduce((a, b) => a + b, 0);
    const page = Buffer.from(bytes.subarray(at, at + size));
    const crc = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    pages.push({
      flags: page[5] as number,
      granule: page.readBigInt64LE(6),
      serial: page.readUInt32LE(14),
      sequence: page.readUInt32LE(18),
      lacing,
      body: page.subarray(27 + count),
      crcOk: bitwiseCrc(page) === crc,
    });
    at += size;
  }
  return pages;
}
