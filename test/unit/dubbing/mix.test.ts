import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseWavHeader } from '../../../src/audio/wav.js';
import { mixTrack } from '../../../src/server/dubbing/mix.js';

const dir = mkdtempSync(join(tmpdir(), 'voxpipe-mix-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pcmFile = (name: string, values: number[], length: number): string => {
  const path = join(dir, name);
  writeFileSync(path, new Uint8Array(Int16Array.from({ length }, (_, i) => values[i % values.length] ?? 0).buffer));
  return path;
};

describe('dubbed track mixer', () => {
  it('places segments at their start, sums overlaps with clipping, and is exactly the asked length', async () => {
    const out = join(dir, 'track.wav');
    const a = pcmFile('a.pcm', [20_000], 60_000); // spans the first block boundary
    const b = pcmFile('b.pcm', [20_000], 1000);
    const c = pcmFile('c.pcm', [-5], 10);
    await mixTrack([{ startSample: 50_000, pcmPath: b }, { startSample: 10_000, pcmPath: a }, { startSample: 119_990, pcmPath: c }], 120_000, out);
    const bytes = readFileSync(out);
    expect(parseWavHeader(bytes)).toMatchObject({ formatTag: 1, channels: 1, sampleRate: 48_000, bitsPerSample: 16, dataOffset: 44, dataBytes: 240_000 });
    expect(bytes.length).toBe(44 + 240_000);
    const samples = new Int16Array(new Uint8Array(bytes.subarray(44)).buffer);
    expect(samples[9_999]).toBe(0);
    expect(samples[10_000]).toBe(20_000);
    expect(samples[50_000]).toBe(32_767); // 20 000 + 20 000 clipped
    expect(samples[51_000]).toBe(20_000);
    expect(samples[69_999]).toBe(20_000);
    expect(samples[70_000]).toBe(0);
    expect(samples[119_999]).toBe(-5);
  });

  it('stops on abort without leaving a file', async () => {
    const out = join(dir, 'aborted.wav');
    await expect(mixTrack([], 480_000, out, AbortSignal.abort())).rejects.toMatchObject({ code: 'aborted' });
    expect(() => readFileSync(out)).toThrow();
  });
});
