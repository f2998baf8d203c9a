import { Readable } from 'node:stream';
import prism from 'prism-media';
import { describe, expect, it } from 'vitest';
import { OGG_BOS, OGG_CONTINUED, OGG_EOS, OggPageWriter, oggCrc32 } from '../../../src/audio/ogg.js';
import { opusHead, opusTags } from '../../../src/audio/ogg-opus.js';
import { readOggPages } from './ogg-reader.js';

describe('oggCrc32', () => {
  it('matches the CRC-32 (poly 0x04C11DB7, init 0, no reflection, no final xor) check value', () => {
    // CRC-32/CKSUM of "123456789" is 0x765E7680 with a final inversion; Ogg has none.
    expect(oggCrc32(Buffer.from('123456789'))).toBe(~0x765e7680 >>> 0);
    expect(oggCrc32(new Uint8Array(0))).toBe(0);
  });
});

describe('OggPageWriter', () => {
  it('packs small packets into one page with the last granule, BOS on the first page only', () => {
    const writer = new OggPageWriter(0x1234);
    const [first] = writer.write([{ data: Buffer.from('head'), granule: 0n }], { bos: true });
    const pages = writer.write([
      { data: Buffer.alloc(10, 1), granule: 960n },
      { data: Buffer.alloc(255, 2), granule: 1920n },
    ]);
    expect(pages).toHaveLength(1);
    const parsed = readOggPages(Buffer.concat([first as Buffer, ...pages]));
    expect(parsed.map((p) => [p.flags, p.sequence, p.serial, p.granule])).toEqual([
      [OGG_BOS, 0, 0x1234, 0n],
      [0, 1, 0x1234, 1920n],
    ]);
    expect(parsed[1]?.lacing).toEqual([10, 255, 0]);
    expect(parsed.every((p) => p.crcOk)).toBe(true);
  });

  it('continues a packet larger than a page on the next page, granule -1 where no packet ends', () => {
    const big = Buffer.alloc(255 * 300 + 7, 9);
    const pages = readOggPages(Buffer.concat(new OggPageWriter(1).write([{ data: big, granule: 5000n }], { eos: true })));
    expect(pages.map((p) => [p.flags, p.granule, p.lacing.length])).toEqual([
      [0, -1n, 255],
      [OGG_CONTINUED | OGG_EOS, 5000n, 46],
    ]);
    expect(Buffer.concat(pages.map((p) => p.body))).toEqual(big);
  });

  it('writes an empty end-of-stream page when there is nothing left', () => {
    const pages = readOggPages(Buffer.concat(new OggPageWriter(7).write([], { eos: true })));
    expect(pages).toHaveLength(1);
    expect(pages[0]?.flags).toBe(OGG_EOS);
  });

  it('produces pages prism-media demuxes back to the same Opus packets', async () => {
    const writer = new OggPageWriter(99);
    const packets = Array.from({ length: 60 }, (_, i) => Buffer.alloc(20 + i * 7, i));
    const bytes = Buffer.concat([
      ...writer.write([{ data: opusHead(1, 312, 16000), granule: 0n }], { bos: true }),
      ...writer.write([{ data: opusTags('test'), granule: 0n }]),
      ...writer.write(packets.slice(0, 30).map((data, i) => ({ data, granule: BigInt((i + 1) * 960) }))),
      ...writer.write(packets.slice(30).map((data, i) => ({ data, granule: BigInt((i + 31) * 960) })), { eos: true }),
    ]);
    const demuxed: Buffer[] = [];
    for await (const packet of Readable.from([bytes]).pipe(new prism.opus.OggDemuxer())) demuxed.push(packet as Buffer);
    expect(demuxed).toEqual(packets);
  });
});
