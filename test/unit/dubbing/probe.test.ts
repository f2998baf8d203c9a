import { describe, expect, it } from 'vitest';
import { mvhdDurationMs, probeVideo } from '../../../src/server/dubbing/probe.js';
import { aviHead, mp4File, mpegTsHead, mvhd, webmHead } from '../../e2e/dubbing/media-fixtures.js';

describe('probeVideo', () => {
  it('recognises each container and reads its duration', async () => {
    await expect(probeVideo(mp4File(12_345))).resolves.toEqual({ container: 'mp4', durationMs: 12_345 });
    await expect(probeVideo(mp4File(4000, { brand: 'qt  ' }))).resolves.toEqual({ container: 'mov', durationMs: 4000 });
    await expect(probeVideo(webmHead(12_500))).resolves.toEqual({ container: 'webm', durationMs: 12_500 });
    await expect(probeVideo(mpegTsHead())).resolves.toEqual({ container: 'mpeg-ts' });
    await expect(probeVideo(aviHead(250))).resolves.toEqual({ container: 'avi', durationMs: 10_000 });
  });

  it('reads mvhd with other timescales and version 1 boxes', () => {
    expect(mvhdDurationMs(mvhd(2500, 90_000))).toBe(2500);
    const v1 = Buffer.alloc(8 + 4 + 28);
    v1.writeUInt32BE(v1.length, 0);
    v1.write('mvhd', 4, 'ascii');
    v1.writeUInt8(1, 8);
    v1.writeUInt32BE(600, 12 + 16);
    v1.writeBigUInt64BE(600n * 7n, 12 + 20);
    expect(mvhdDurationMs(v1)).toBe(7000);
  });

  it('follows the box chain past the head with ranged reads when moov is at the end', async () => {
    const file = mp4File(8000, { moovAtEnd: true, mdatBytes: 200_000 });
    const reads: Array<[number, number]> = [];
    const readMore = async (offset: number, length: number): Promise<Uint8Array> => {
      reads.push([offset, length]);
      return file.subarray(offset, offset + length);
    };
    await expect(probeVideo(file.subarray(0, 65_536), readMore)).resolves.toEqual({ container: 'mp4', durationMs: 8000 });
    expect(reads.length).toBeLessThanOrEqual(3);
    await expect(probeVideo(file.subarray(0, 65_536))).resolves.toEqual({ container: 'mp4' });
  });

  it('rejects what is not a video, and never throws on any truncation of a real head', async () => {
    await expect(probeVideo(Buffer.from('GIF89a...............'))).resolves.toBeUndefined();
    await expect(probeVideo(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).resolves.toBeUndefined();
    await expect(probeVideo(new Uint8Array(0))).resolves.toBeUndefined();
    await expect(probeVideo(Buffer.concat([Buffer.from([0x47]), Buffer.alloc(187), Buffer.from([0x46]), Buffer.alloc(187)]))).resolves.toBeUndefined();
    for (const head of [mp4File(1000), webmHead(1000), aviHead(10), mpegTsHead()]) {
      const results = await Promise.all(Array.from({ length: head.length + 1 }, (_, n) => probeVideo(head.subarray(0, n))));
      expect(results.at(-1)).toBeDefined();
    }
  });
});
