/**
 * Dubbing production costs: WSOLA time-stretch and the track mixer per audio second, and one AUTOMATED job
 * end to end (POST → DELIVERED_TO_CLIENT, no step pause) with 30 segments over a 60 s video.
 * `npx tsx bench/dubbing/run.ts [--rounds N]`
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DubbingClient } from '../../src/client/dubbing.js';
import type { DubbingSegment } from '../../src/protocol/dubbing.js';
import { startServer } from '../../src/server/app.js';
import { timeStretch } from '../../src/server/dubbing/fit.js';
import { mixTrack } from '../../src/server/dubbing/mix.js';
import { mp4File, startMediaServer } from '../../test/e2e/dubbing/media-fixtures.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const time = async (fn: () => unknown): Promise<number> => {
  await fn(); // warm-up
  const runs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await fn();
    runs.push(performance.now() - t);
  }
  return median(runs);
};

// Speech-like test signal: 120 Hz voice with 12 harmonics and a slow amplitude envelope.
const voiced = (seconds: number): Int16Array =>
  Int16Array.from({ length: seconds * 48_000 }, (_, i) => {
    let v = 0;
    for (let h = 1; h <= 12; h++) v += Math.sin((2 * Math.PI * 120 * h * i) / 48_000) / h;
    return Math.round(6000 * v * (0.6 + 0.4 * Math.sin((2 * Math.PI * 3 * i) / 48_000)));
  });

const input = voiced(10);
const stretchMs = await time(() => timeStretch(input, Math.round(input.length / 1.3)));

const dir = mkdtempSync(join(tmpdir(), 'voxpipe-bench-dub-'));
const segPath = join(dir, 'seg.pcm');
writeFileSync(segPath, new Uint8Array(voiced(3).buffer));
const placed = Array.from({ length: 120 }, (_, i) => ({ startSample: i * 5 * 48_000, pcmPath: segPath }));
const mixMs = await time(() => mixTrack(placed, 600 * 48_000, join(dir, 'track.wav')));

const media = await startMediaServer({ '/v.mp4': mp4File(60_000) });
process.env.VOXPIPE_DUBBING_STEP_MS = '0';
process.env.VOXPIPE_ALLOW_INSECURE_SOURCES = '1';
const server = await startServer({ port: 0, dataDir: join(dir, 'data'), engine: 'builtin', apiKeys: ['dd-0123456789abcdef0123456789abcdef'] });
const client = new DubbingClient({ baseUrl: server.url, apiKey: 'dd-0123456789abcdef0123456789abcdef' });
const segments: DubbingSegment[] = Array.from({ length: 30 }, (_, i) => ({
  segmentId: `s${i}`,
  timestampStart: i * 2000,
  timestampEnd: i * 2000 + 1800,
  characterId: `c${i % 3}`,
  characterName: `C${i % 3}`,
  sourceDialogue: 'Where were you last night?',
  targetDialogue: '¿Dónde estuviste anoche?',
}));
let n = 0;
const jobMs = await time(async () => {
  const name = `j${n++}`;
  const { requestId } = await client.create({
    sourceLocale: 'en-US',
    targetLocale: 'es-ES',
    sourceVideoPath: `${media.url}/v.mp4`,
    exportPath: `s3://bench/${name}/ep.wav`,
    segments,
    additionalProducts: (['SRT', 'WEBVTT', 'TRANSCRIPT', 'SDH'] as const).map((product) => ({ product, assetPath: `s3://bench/${name}/ep.${product.toLowerCase()}` })),
  });
  await client.waitFor(requestId, { pollIntervalMs: 2 });
});
await server.close();
await media.close();
rmSync(dir, { recursive: true, force: true });

console.log(`engine: ${server.context.synthesizer.name}, rounds: ${rounds} (median after one warm-up)`);
console.log(`WSOLA 10 s → ×1.3 faster: ${stretchMs.toFixed(1)} ms (${(stretchMs / 10).toFixed(2)} ms per input second)`);
console.log(`mixer 600 s track, 120 segments: ${mixMs.toFixed(0)} ms (${((mixMs / 600) * 60).toFixed(1)} ms per audio minute)`);
console.log(`AUTOMATED job, 60 s video, 30 segments, 4 products, POST → DELIVERED: ${jobMs.toFixed(0)} ms`);
