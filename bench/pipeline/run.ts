/**
 * Client pipeline overhead on time to first audio: the same text through (a) a bare `ws` client that sends
 * one `stream-text` + `end-stream` and waits for the first audio frame, and (b) voxpipe's pipeline
 * (`pipeTokens` → `SpeechSession` turn → `turn.audio()`), against one reference server in its own process.
 * Both clients hold one pre-configured connection; iterations interleave (a, b, a, b, …) so drift hits both.
 * Then barge-in: a real-time turn cancelled at its first audio chunk, reporting time to silence (cancel() →
 * delivery stopped) and cancel → acknowledgement from the turn metrics.
 *
 *   node --import tsx bench/pipeline/run.ts [iterations=400] [warmup=40]
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { SpeechSession } from '../../src/client/speech-session.js';
import { pipeTokens } from '../../src/pipeline/speak.js';
import { spawnServer } from '../lib/spawn-server.js';

const iterations = Number(process.argv[2] ?? 400);
const warmup = Number(process.argv[3] ?? 40);
const CONFIG = { model: 'dd-etts-3.3', format: 's16le', sampleRate: 16000, realtime: false, firstAudioTimeout: 2 } as const;
const TEXT = 'Sure, I can help with that. Your order shipped this morning.';

/** A bare ws client: the least a caller could do. */
async function bareClient(url: string, apiKey: string): Promise<{ ttfa(): Promise<number>; close(): void }> {
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { headers: { 'x-api-key': apiKey }, perMessageDeflate: false });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.send(JSON.stringify({ action: 'stream-config', config: CONFIG }));
  let onMessage: ((msg: { data?: string; isFinal?: boolean; action?: string }) => void) | undefined;
  ws.on('message', (data: Buffer) => onMessage?.(JSON.parse(data.toString())));
  return {
    ttfa() {
      return new Promise((resolve) => {
        let first: number | undefined;
        const t0 = performance.now();
        onMessage = (msg) => {
          if (first === undefined && msg.data) first = performance.now() - t0;
          if (msg.isFinal) {
            onMessage = undefined;
            resolve(first ?? NaN);
          }
        };
        ws.send(JSON.stringify({ action: 'stream-text', text: TEXT }));
        ws.send('{"action":"end-stream"}');
      });
    },
    close: () => ws.close(),
  };
}

async function pipelineTtfa(session: SpeechSession): Promise<number> {
  const t0 = performance.now();
  const turn = session.turn();
  const writing = pipeTokens(turn, TEXT, { config: session.config });
  let first: number | undefined;
  for await (const chunk of turn.audio()) if (first === undefined && chunk.data.length > 0) first = performance.now() - t0;
  await writing;
  return first ?? NaN;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

const server = await spawnServer(['--engine', 'builtin']);
try {
  const bare = await bareClient(server.url, server.apiKey);
  const session = await SpeechSession.connect({ baseUrl: server.url, apiKey: server.apiKey, config: { ...CONFIG }, pingIntervalMs: 0 });
  const results = { bare: [] as number[], pipeline: [] as number[] };
  for (let i = 0; i < warmup + iterations; i++) {
    const order = i % 2 === 0 ? (['bare', 'pipeline'] as const) : (['pipeline', 'bare'] as const);
    for (const which of order) {
      const ms = which === 'bare' ? await bare.ttfa() : await pipelineTtfa(session);
      if (i >= warmup) results[which].push(ms);
    }
  }
  bare.close();
  await session.configure({ ...CONFIG, realtime: true });
  const silence: number[] = [];
  const acks: number[] = [];
  for (let i = 0; i < Math.max(20, iterations / 4); i++) {
    const turn = session.turn();
    turn.write(`${TEXT} ${TEXT} ${TEXT}`);
    turn.end();
    for await (const chunk of turn.audio()) if (chunk.data.length > 0) await turn.cancel();
    const m = await turn.done;
    if (m.outcome === 'cancelled' && m.timeToSilenceMs !== undefined && m.cancelAckMs !== undefined) {
      silence.push(m.timeToSilenceMs);
      acks.push(m.cancelAckMs);
    }
  }
  await session.close();
  const summary = Object.fromEntries(
    Object.entries(results).map(([k, v]) => {
      const s = [...v].sort((a, b) => a - b);
      return [k, { p50: percentile(s, 50), p95: percentile(s, 95), n: s.length }];
    }),
  ) as Record<'bare' | 'pipeline', { p50: number; p95: number; n: number }>;
  const f = (n: number): string => n.toFixed(3);
  console.log(`iterations ${iterations} (+${warmup} warmup), firstAudioTimeout ${CONFIG.firstAudioTimeout} ms, realtime false, ${CONFIG.format} ${CONFIG.sampleRate} Hz`);
  console.log(`bare ws   ttfa p50 ${f(summary.bare.p50)} ms  p95 ${f(summary.bare.p95)} ms`);
  console.log(`pipeline  ttfa p50 ${f(summary.pipeline.p50)} ms  p95 ${f(summary.pipeline.p95)} ms`);
  const ps = (v: number[]): string => {
    const s = [...v].sort((a, b) => a - b);
    return `p50 ${f(percentile(s, 50))} ms  p95 ${f(percentile(s, 95))} ms  (n ${s.length})`;
  };
  console.log(`barge-in  time to silence ${ps(silence)}; cancel → ack ${ps(acks)}`);
  console.log(`added p50 ${f(summary.pipeline.p50 - summary.bare.p50)} ms  p95 ${f(summary.pipeline.p95 - summary.bare.p95)} ms  ratio p50 ${(summary.pipeline.p50 / summary.bare.p50).toFixed(3)}`);
} finally {
  await server.stop();
}
