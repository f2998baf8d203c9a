/**
 * Long-call soak: one simulated Twilio call of `--turns` caller utterances against the bridge (in this
 * process) and the reference service (its own process). Nothing is paced: service `realtime: false`, bridge
 * pacing off, caller frames back to back, marks echoed on receipt. Every other bot reply is interrupted (barge-in on
 * its first audio frame). After a warm-up, `heapUsed` is sampled after a full GC every `--every` turns and
 * a least-squares line is fitted: its slope (bytes per turn) should be ≈ 0.
 *
 *   npx tsx bench/soak/run.ts [--turns 600] [--every 20] [--warmup 20] [--json]
 *
 * Re-runs itself under `node --expose-gc` when `gc` is not available.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { scriptedTokens } from '../../examples/shared/llm.js';
import type { BotTurnEndEvent } from '../../src/twilio/events.js';
import type { TwilioCall } from '../../src/twilio/call.js';
import { FakeTwilioCaller } from '../../src/twilio/fake-caller.js';
import { createTwilioBridgeServer } from '../../src/twilio/server.js';
import { spawnServer } from '../lib/spawn-server.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

const { values } = parseArgs({ options: { turns: { type: 'string', default: '600' }, every: { type: 'string', default: '20' }, warmup: { type: 'string', default: '20' }, json: { type: 'boolean', default: false } } });
const TURNS = Number(values.turns);
const EVERY = Number(values.every);
const { warmup } = values;
const WARMUP = Number(warmup);
const REPLY = 'Sure, I can help with that. Which day works best?';

// The service runs in its own process: the heap measured here is the bridge's (call, speech client, pipeline).
const server = await spawnServer(['--engine', 'builtin']);
const bridge = await createTwilioBridgeServer({
  port: 0,
  speech: { url: server.url, apiKey: server.apiKey, config: { model: 'dd-etts-3.3', realtime: false } },
  llm: (_history, _turn, signal) => scriptedTokens(REPLY, { firstTokenMs: 0, tokenMs: 1, signal }),
  vad: { endMs: 200 },
  pacing: { realtime: false },
});
const calling = new Promise<TwilioCall>((resolve) => bridge.once('call', resolve));
const caller = await FakeTwilioCaller.connect(bridge.url, { realtime: false, playback: 'instant', record: false });
const call = await calling;

const samples: Array<{ turn: number; heapUsed: number }> = [];
const outcomes = { played: 0, interrupted: 0, failed: 0 };
let botTurn = 0;
const t0 = performance.now();

// Every bot reply ends exactly once: consume the turn-end events in order.
const ends: BotTurnEndEvent[] = [];
let wake: (() => void) | undefined;
call.on('turn-end', (e) => {
  ends.push(e);
  wake?.();
});
async function nextTurnEnd(): Promise<BotTurnEndEvent> {
  while (ends.length === 0) await new Promise<void>((resolve) => (wake = resolve));
  return ends.shift() as BotTurnEndEvent;
}

function sample(turn: number): void {
  gc?.();
  gc?.();
  samples.push({ turn, heapUsed: process.memoryUsage().heapUsed });
}

for (let turn = 1; turn <= TURNS; turn++) {
  const mediaBefore = caller.mediaCount;
  await caller.speak(100);
  await caller.silence(240);
  botTurn++;
  if (turn % 2 === 0) {
    // Barge in on the first frame of this reply; that utterance starts another reply, which plays out.
    while (caller.mediaCount === mediaBefore) await new Promise((r) => setTimeout(r, 1));
    await caller.speak(100);
    await caller.silence(240);
    botTurn++;
    outcomes[(await nextTurnEnd()).outcome]++;
  }
  outcomes[(await nextTurnEnd()).outcome]++;
  if (turn >= WARMUP && turn % EVERY === 0) sample(turn);
}
const elapsedS = (performance.now() - t0) / 1000;
await caller.stop();
await bridge.close();
await server.stop();

/** Least-squares slope of heapUsed over turns, in bytes per turn. */
function slopeOf(points: typeof samples): number {
  const mx = points.reduce((s, p) => s + p.turn, 0) / points.length;
  const my = points.reduce((s, p) => s + p.heapUsed, 0) / points.length;
  return points.reduce((s, p) => s + (p.turn - mx) * (p.heapUsed - my), 0) / points.reduce((s, p) => s + (p.turn - mx) ** 2, 0);
}
const n = samples.length;
const slope = slopeOf(samples);
// The second half: after the speech client's bounded caches (256 stale generation ids) have filled.
const lateSlope = slopeOf(samples.slice(Math.floor(n / 2)));
const result = {
  turns: TURNS,
  botTurns: botTurn,
  outcomes,
  elapsedS: Number(elapsedS.toFixed(1)),
  slopeBytesPerTurn: Math.round(slope),
  lateSlopeBytesPerTurn: Math.round(lateSlope),
  heapFirstMb: Number(((samples[0]?.heapUsed ?? 0) / 1048576).toFixed(2)),
  heapLastMb: Number(((samples.at(-1)?.heapUsed ?? 0) / 1048576).toFixed(2)),
  samples: samples.map((p) => [p.turn, Math.round(p.heapUsed / 1024)]),
};
if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  process.stdout.write(
    `caller turns ${result.turns} · bot turns ${result.botTurns} (played ${outcomes.played}, interrupted ${outcomes.interrupted}, failed ${outcomes.failed}) · ${result.elapsedS} s\n` +
      `heapUsed after GC: ${result.heapFirstMb} MB at turn ${samples[0]?.turn} → ${result.heapLastMb} MB at turn ${samples.at(-1)?.turn} · slope ${result.slopeBytesPerTurn} B/turn over ${n} samples, ${result.lateSlopeBytesPerTurn} B/turn over the second half\n`,
  );
}
