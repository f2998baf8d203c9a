/**
 * REST load benchmark: autocannon against the reference service's REST endpoints, one after another, with
 * the server in its own process. Usage: `npx tsx bench/rest/run.ts [--seconds 5] [--connections 20]`.
 * Prints a markdown table (req/s, latency p50/p97.5/p99) to paste into bench/README.md.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { spawnServer } from '../lib/spawn-server.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '20' } } });
const duration = Number(values.seconds);
const connections = Number(values.connections);

// The live API's per-key rate limit (20/s by default) would turn this into a 429 benchmark: lift it.
const server = await spawnServer(['--engine', 'builtin'], { VOXPIPE_LIVE_RATE: '1000000', VOXPIPE_LIVE_BURST: '1000000' });
const headers = { 'x-api-key': server.apiKey, 'content-type': 'application/json' };
const today = new Date().toISOString().slice(0, 10);

const targets: Array<{ name: string; method: 'GET' | 'POST'; path: string; body?: string }> = [
  { name: 'console catalog', method: 'GET', path: '/console/catalog' },
  { name: 'usage by model', method: 'GET', path: `/api/v1/usage/concurrent/by-model?from=${today}&to=${today}` },
  { name: 'concurrent connections batch', method: 'GET', path: '/api/v1/concurrent_connections/batch?model_ids=dd-etts-3.3,dd-etts-2.5' },
  { name: 'live enums: input stream types', method: 'GET', path: '/live/enums/input-stream-types' },
  { name: 'live services list', method: 'GET', path: '/live/services' },
  { name: 'dubbing jobs list', method: 'GET', path: '/dubbing/jobs' },
  { name: 'voice prompts list', method: 'GET', path: '/api/v1/voice' },
  {
    name: 'tts (one sentence, s16le 16 kHz)',
    method: 'POST',
    path: '/api/v1/tts',
    body: JSON.stringify({ model: 'dd-etts-3.3', targetText: 'Hello there, this is a short sentence.', locale: 'en-US', format: 's16le', sampleRate: 16000 }),
  },
];

console.log(`| endpoint | req/s | p50 ms | p97.5 ms | p99 ms | non-2xx |`);
console.log(`|---|---|---|---|---|---|`);
try {
  for (const t of targets) {
    const result = await autocannon({
      url: server.url + t.path,
      method: t.method,
      headers,
      ...(t.body ? { body: t.body } : {}),
      connections,
      duration,
    });
    const l = result.latency;
    console.log(`| ${t.method} ${t.name} | ${Math.round(result.requests.average)} | ${l.p50} | ${l.p97_5} | ${l.p99} | ${result.non2xx} |`);
  }
} finally {
  await server.stop();
}
