/**
 * Reference server benchmark: how many speech sessions it holds, and how much first-audio delay it adds
 * beyond `firstAudioTimeout` while holding them. The server runs in its own process (built-in engine,
 * realtime pacing on); this process is the load generator.
 *
 *   npx tsx bench/server/run.ts [--sessions 500] [--probes 200] [--active 50]
 *
 * Added delay = (first audio chunk received − last text sent) − firstAudioTimeout, measured on probe turns
 * whose text has no sentence end (so the server waits the full timeout), while `--active` other sessions
 * speak continuously and the rest sit idle.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { spawnServer } from '../lib/spawn-server.js';

const { values } = parseArgs({ options: { sessions: { type: 'string', default: '500' }, probes: { type: 'string', default: '200' }, active: { type: 'string', default: '50' } } });
const SESSIONS = Number(values.sessions);
const PROBES = Number(values.probes);
const ACTIVE = Number(values.active);
const FIRST_AUDIO_TIMEOUT = 50;
const MODEL = 'dd-etts-3.3';

const server = await spawnServer(['--engine', 'builtin']);
const wsUrl = `${server.url.replace('http', 'ws')}/ws?x-api-key=${server.apiKey}`;
const rssMb = (): number => {
  const status = readFileSync(`/proc/${server.process.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

interface Session {
  ws: WebSocket;
  onMessage: ((m: Record<string, unknown>) => void) | undefined;
}

async function openSession(): Promise<Session> {
  const ws = new WebSocket(wsUrl, { perMessageDeflate: false });
  const session: Session = { ws, onMessage: undefined };
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Record<string, unknown>;
      if (m.action === 'status' && m.message === 'connected') resolve();
      session.onMessage?.(m);
    });
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ action: 'stream-config', config: { model: MODEL, format: 'mulaw', realtime: true, firstAudioTimeout: FIRST_AUDIO_TIMEOUT } }));
  return session;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

try {
  const rssIdle = rssMb();
  const t0 = performance.now();
  const sessions: Session[] = [];
  for (let i = 0; i < SESSIONS; i += 50) sessions.push(...(await Promise.all(Array.from({ length: Math.min(50, SESSIONS - i) }, openSession))));
  const connectMs = performance.now() - t0;
  const rssHeld = rssMb();

  // Background load: ACTIVE sessions speak one sentence after another.
  let stop = false;
  let backgroundChunks = 0;
  const speakLoop = (s: Session): void => {
    s.onMessage = (m) => {
      if (m.data) backgroundChunks++;
      if (m.isFinal && !stop) {
        s.ws.send(JSON.stringify({ action: 'stream-text', text: 'Background speech keeps this session busy. ' }));
        s.ws.send(JSON.stringify({ action: 'end-stream' }));
      }
    };
    s.ws.send(JSON.stringify({ action: 'stream-text', text: 'Background speech keeps this session busy. ' }));
    s.ws.send(JSON.stringify({ action: 'end-stream' }));
  };
  sessions.slice(0, ACTIVE).forEach(speakLoop);
  await new Promise((r) => setTimeout(r, 1000));

  // Probes: idle sessions, one turn each, one after another; the first WARMUP are not counted (cold JIT).
  const added: number[] = [];
  const probeSessions = sessions.slice(ACTIVE);
  const WARMUP = 20;
  for (let i = 0; i < PROBES + WARMUP; i++) {
    const s = probeSessions[i % probeSessions.length] as Session;
    const delay = await new Promise<number>((resolve) => {
      let sentAt = 0;
      s.onMessage = (m) => {
        if (typeof m.data === 'string' && sentAt > 0) {
          const d = performance.now() - sentAt;
          sentAt = 0;
          s.ws.send(JSON.stringify({ action: 'cancel' }));
          resolve(d);
        }
      };
      s.ws.send(JSON.stringify({ action: 'stream-text', text: 'probe without a sentence end' }));
      sentAt = performance.now();
    });
    if (i >= WARMUP) added.push(delay - FIRST_AUDIO_TIMEOUT);
    await new Promise((r) => setTimeout(r, 20));
  }
  stop = true;
  const rssLoaded = rssMb();
  const sorted = [...added].sort((a, b) => a - b);
  const open = sessions.filter((s) => s.ws.readyState === WebSocket.OPEN).length;
  console.log(`sessions held: ${open}/${SESSIONS} (opened in ${connectMs.toFixed(0)} ms), ${ACTIVE} speaking continuously`);
  console.log(`server RSS: ${rssIdle.toFixed(0)} MB idle, ${rssHeld.toFixed(0)} MB with ${SESSIONS} sessions (${(((rssHeld - rssIdle) * 1024) / SESSIONS).toFixed(0)} kB/session), ${rssLoaded.toFixed(0)} MB under load`);
  console.log(`background chunks delivered: ${backgroundChunks}`);
  console.log(`added first-audio delay beyond firstAudioTimeout=${FIRST_AUDIO_TIMEOUT} ms over ${PROBES} probes: p50 ${percentile(sorted, 50).toFixed(2)} ms, p95 ${percentile(sorted, 95).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(2)} ms`);
  for (const s of sessions) s.ws.terminate();
} finally {
  await server.stop();
}
