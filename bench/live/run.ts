/**
 * Live captions latency: time from a segment appearing on a live HLS origin to its first new cue reaching a
 * CaptionsFollower, (a) through the captions socket following the origin directly, (b) through the built-in
 * pipeline (origin → service caption output → socket), at a given playlist reload interval; plus WebVTT and
 * playlist parse cost. Also the follower's own cue delay (`FollowedCue.delayMs`, against segment availability at the
 * server) and `programDelayMs` (against the origin's EXT-X-PROGRAM-DATE-TIME), medians. `npx tsx bench/live/run.ts [--segments 20] [--every 300]`
 */
import { parseArgs } from 'node:util';
import { CaptionsFollower } from '../../src/client/captions-follower.js';
import { LiveClient } from '../../src/client/live.js';
import { parsePlaylist } from '../../src/hls/playlist.js';
import { parseWebVtt } from '../../src/hls/webvtt.js';
import { startTestServer, TEST_API_KEY } from '../../test/helpers/server.js';
import { hlsConfig } from '../../test/e2e/live/fixtures.js';
import { expectedCues, startOrigin } from '../../test/e2e/live/hls-origin.js';

const { values } = parseArgs({ options: { segments: { type: 'string', default: '20' }, every: { type: 'string', default: '300' } } });
const SEGMENTS = Number(values.segments);
const EVERY_MS = Number(values.every);

const pct = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

interface Run {
  samples: number[];
  /** Medians of the follower-measured delays. */
  delayP50: number;
  programDelayP50: number;
}

async function latency(reloadMs: number, viaPipeline: boolean): Promise<Run> {
  const origin = await startOrigin();
  process.env.VOXPIPE_LIVE_RELOAD_MS = String(reloadMs);
  const server = await startTestServer();
  delete process.env.VOXPIPE_LIVE_RELOAD_MS;
  const live = new LiveClient({ baseUrl: server.url, apiKey: TEST_API_KEY });
  const { id } = await live.createService(hlsConfig(origin.masterUrl));
  if (viaPipeline) await live.start(id);
  origin.publish(1);
  const follower = new CaptionsFollower({ baseUrl: server.url, apiKey: TEST_API_KEY, serviceId: id, lang: viaPipeline ? 'en-US' : 'en', ...(viaPipeline ? {} : { playlistUrl: origin.masterUrl }) });
  const publishedAt = new Map<number, number>();
  const samples: number[] = [];
  let published = 1;
  const timer = setInterval(() => {
    if (published >= SEGMENTS) return;
    published++;
    publishedAt.set(expectedCues(published - 1).length, Date.now()); // index of the first cue the new segment adds
    origin.publish(published);
    if (published === SEGMENTS) origin.end();
  }, EVERY_MS);
  const programDelays: number[] = [];
  let count = 0;
  for await (const cue of follower) {
    const at = publishedAt.get(count);
    if (at !== undefined) samples.push(cue.receivedAt - at);
    if (cue.programDelayMs !== undefined) programDelays.push(cue.programDelayMs);
    count++;
  }
  clearInterval(timer);
  await server.close();
  await origin.close();
  return { samples, delayP50: follower.stats().delay.p50, programDelayP50: pct(programDelays, 0.5) };
}

function parseCost(): { vttUs: number; playlistUs: number } {
  const segment = `WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n${[0, 1, 2].map((k) => `\n${k}\n00:00:0${k}.500 --> 00:00:0${k + 1}.700 align:center\nline ${k} of the caption text\n`).join('')}`;
  const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:100\n${Array.from({ length: 10 }, (_, i) => `#EXTINF:2.000,\nseg${100 + i}.vtt\n`).join('')}`;
  const time = (fn: () => void, n: number): number => {
    for (let i = 0; i < 1000; i++) fn();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn();
    return ((performance.now() - t0) * 1000) / n;
  };
  return { vttUs: time(() => parseWebVtt(segment), 20_000), playlistUs: time(() => parsePlaylist(playlist, 'http://h/a/b.m3u8'), 20_000) };
}

const rows: string[] = [];
for (const [reloadMs, viaPipeline] of [
  [100, false],
  [500, false],
  [100, true],
] as const) {
  const { samples: s, delayP50, programDelayP50 } = await latency(reloadMs, viaPipeline);
  const path = viaPipeline ? 'origin → pipeline output → socket' : 'origin → socket';
  rows.push(`| ${path} | ${reloadMs} | ${s.length} | ${pct(s, 0.5)} | ${pct(s, 0.95)} | ${Math.max(...s)} | ${delayP50} | ${programDelayP50} |`);
}
console.log('| path | reload ms | samples | p50 ms | p95 ms | max ms | delayMs p50 | programDelayMs p50 |\n|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
const cost = parseCost();
console.log(`\nparseWebVtt (3-cue segment): ${cost.vttUs.toFixed(2)} µs; parsePlaylist (10 segments): ${cost.playlistUs.toFixed(2)} µs`);
