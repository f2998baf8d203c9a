/**
 * Time to first audio under load through the Twilio bridge: an open-loop generator of `--calls` simulated
 * phone calls (a FakeTwilioCaller each, sending 20 ms caller frames continuously like Twilio does), arrivals
 * spread evenly over `--ramp` ms whatever happens to earlier calls. The bridge and the reference service
 * (built-in engine, realtime pacing) each run in their own process.
 *
 *   npx tsx bench/ttfa/run.ts [--calls 50] [--ramp 5000]
 *
 * Each call: greeting plays out → caller speaks 600 ms → bot reply → after 600 ms of reply audio the caller
 * barges in (600 ms) → bot answers again → hang up. Measured:
 * - TTFA (bridge): greeting start / caller speech-end (VAD) → first frame sent to Twilio (bridge events).
 * - TTFA (wire): `start` sent → first media received (greeting); last silence frame that completes the VAD's
 *   500 ms end-of-speech → first media received (replies). Includes both sockets and the generator's loop.
 * - Time to silence: bridge speech-start → clear sent; caller's first loud frame → clear received (includes
 *   the VAD's 60 ms start window: the 3rd loud frame goes out 40 ms after the first), and → last media frame
 *   received (frames already in flight when the caller started talking).
 * - Sessions per core: peak concurrent calls / CPU cores used by bridge + service over the run.
 */
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { FakeTwilioCaller, type ReceivedEvent } from '../../src/twilio/fake-caller.js';
import { spawnServer } from '../lib/spawn-server.js';
import { cpuSeconds, summary } from './stats.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '50' }, ramp: { type: 'string', default: '5000' } } });
const CALLS = Number(values.calls);
const RAMP_MS = Number(values.ramp);
const VAD_END_MS = 500;

const server = await spawnServer(['--engine', 'builtin']);
const bridgeProcess = spawn(process.execPath, ['--import', 'tsx', 'bench/ttfa/bridge-process.ts', server.url, server.apiKey, '1'], {
  cwd: new URL('../../', import.meta.url).pathname,
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const bridgeUrl = await new Promise<string>((resolve, reject) => {
  let out = '';
  bridgeProcess.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /bridge listening on (\S+)/.exec(out);
    if (m?.[1]) resolve(m[1]);
  });
  bridgeProcess.once('exit', (code) => reject(new Error(`bridge exited early (${code})`)));
});

const bridgeTtfa = { greeting: [] as number[], reply: [] as number[] };
const bridgeClear: number[] = [];
const serviceTtfa: number[] = [];
bridgeProcess.on('message', (m: { type: string; kind?: 'greeting' | 'reply'; ms?: number; clearMs?: number }) => {
  if (m.type === 'first-audio' && m.kind && m.ms !== undefined) bridgeTtfa[m.kind].push(m.ms);
  if (m.type === 'barge-in' && m.clearMs !== undefined) bridgeClear.push(m.clearMs);
  if (m.type === 'service-ttfa' && m.ms !== undefined) serviceTtfa.push(m.ms);
});

const wire = { greeting: [] as number[], reply: [] as number[], clear: [] as number[], lastFrame: [] as number[], staleAfterClear: 0, badFrames: 0, failed: 0 };
let active = 0;
let peak = 0;

/** Sends caller silence in 20 ms frames until `done()` or `maxMs`. */
async function silenceUntil(caller: FakeTwilioCaller, done: () => boolean, maxMs = 15_000): Promise<void> {
  const start = performance.now();
  while (!done()) {
    if (performance.now() - start > maxMs) throw new Error('timed out');
    await caller.silence(20);
  }
}

async function call(): Promise<void> {
  const startedAt = performance.now();
  const caller = await FakeTwilioCaller.connect(bridgeUrl, { record: false });
  active++;
  peak = Math.max(peak, active);
  let lastMedia: ReceivedEvent | undefined;
  let clear: ReceivedEvent | undefined;
  let lastMediaBeforeClearAt = 0;
  let mediaSince = 0;
  caller.onReceive((e) => {
    if (e.type === 'media') {
      if (clear && e.at - clear.at < 400) wire.staleAfterClear++;
      lastMedia = e;
      mediaSince++;
    } else if (e.type === 'clear') {
      clear = e;
      lastMediaBeforeClearAt = lastMedia?.at ?? 0;
    }
  });
  try {
    // Greeting.
    await silenceUntil(caller, () => lastMedia !== undefined);
    wire.greeting.push((lastMedia?.at ?? 0) - startedAt);
    await silenceUntil(caller, () => performance.now() - (lastMedia?.at ?? 0) > 250);
    for (let turn = 0; turn < 2; turn++) {
      // Caller speaks, then waits for the reply.
      await caller.speak(600);
      mediaSince = 0;
      const quietFrom = performance.now();
      await caller.silence(VAD_END_MS);
      // The frame completing the VAD's end window is the last one of this silence: sent 20 ms before its end.
      const vadEndAt = quietFrom + VAD_END_MS - 20;
      await silenceUntil(caller, () => mediaSince > 0);
      wire.reply.push((lastMedia?.at ?? 0) - vadEndAt);
      if (turn === 1) break;
      // Barge in after 600 ms of reply audio.
      await silenceUntil(caller, () => mediaSince >= 30);
      const bargeAt = performance.now();
      await caller.speak(600);
      if (!clear) throw new Error('no clear');
      wire.clear.push(clear.at - bargeAt);
      wire.lastFrame.push(Math.max(0, lastMediaBeforeClearAt - bargeAt));
    }
    await caller.silence(200);
    wire.badFrames += caller.badFrames;
  } catch {
    wire.failed++;
  } finally {
    active--;
    await caller.stop();
  }
}

const cpu0 = cpuSeconds(server.process.pid ?? 0) + cpuSeconds(bridgeProcess.pid ?? 0);
const genCpu0 = process.cpuUsage();
const t0 = performance.now();
const calls: Array<Promise<void>> = [];
for (let i = 0; i < CALLS; i++) {
  const due = t0 + (i * RAMP_MS) / CALLS;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  calls.push(call());
}
await Promise.all(calls);
const wallS = (performance.now() - t0) / 1000;
const genCpu = process.cpuUsage(genCpu0);
const genCores = (genCpu.user + genCpu.system) / 1e6 / wallS;
const cpuS = cpuSeconds(server.process.pid ?? 0) + cpuSeconds(bridgeProcess.pid ?? 0) - cpu0;
await new Promise((r) => setTimeout(r, 200));
bridgeProcess.kill('SIGTERM');
await new Promise((r) => bridgeProcess.once('exit', r));
await server.stop();

const coresUsed = cpuS / wallS;
process.stdout.write(
  [
    `calls ${CALLS} over ${RAMP_MS} ms ramp · peak concurrent ${peak} · failed ${wire.failed} · bad frames ${wire.badFrames} · media within 400 ms after a clear ${wire.staleAfterClear}`,
    `machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}) · wall ${wallS.toFixed(1)} s · bridge+service CPU ${cpuS.toFixed(1)} s = ${coresUsed.toFixed(2)} cores · sessions per core ≈ ${(peak / Math.max(coresUsed, 0.01)).toFixed(0)} · load generator ${genCores.toFixed(2)} cores (near 1 = the generator, not the bridge, is saturated)`,
    '| metric (ms) | p50 / p95 / p99 |',
    '|---|---|',
    `| TTFA greeting, bridge (start → first frame sent) | ${summary(bridgeTtfa.greeting)} |`,
    `| TTFA reply, bridge (VAD speech-end → first frame sent) | ${summary(bridgeTtfa.reply)} |`,
    `| … speech service share, all turns (first stream-text sent → first chunk received) | ${summary(serviceTtfa)} |`,
    `| TTFA greeting, wire (start sent → first media received) | ${summary(wire.greeting)} |`,
    `| TTFA reply, wire (VAD end-of-speech frame sent → first media received) | ${summary(wire.reply)} |`,
    `| silence, bridge (speech-start → clear sent) | ${summary(bridgeClear)} |`,
    `| silence, wire (first loud caller frame → clear received) | ${summary(wire.clear)} |`,
    `| silence, wire (first loud caller frame → last media received) | ${summary(wire.lastFrame)} |`,
    '',
  ].join('\n'),
);
