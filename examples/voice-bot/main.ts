/**
 * A terminal voice bot: type a line (or pass --script for a canned conversation), the LLM's reply streams
 * through the voxpipe pipeline into speech, each turn's audio is written to a WAV file (and played with
 * aplay/ffplay with --play), and per-turn latency is printed.
 *
 *   npx tsx examples/voice-bot/main.ts --script              # offline: in-process reference server + scripted LLM
 *   VOXPIPE_URL=ws://127.0.0.1:8080 VOXPIPE_API_KEY=dd-... OPENAI_API_KEY=sk-... npx tsx examples/voice-bot/main.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { planFormat } from '../../src/audio/planner.js';
import { encodeWavHeader } from '../../src/audio/wav.js';
import { SpeechSession } from '../../src/client/speech-session.js';
import { pipeTokens } from '../../src/pipeline/speak.js';
import { startServer, type RunningServer } from '../../src/server/app.js';
import { exampleLlm, type ChatMessage } from '../shared/llm.js';

const SCRIPT = ['Hi, is this the delivery hotline?', 'I would like to move my delivery.', 'Thursday morning works.', 'No, that is all. Thanks!'];
const SAMPLE_RATE = 24000;

const { values } = parseArgs({
  options: {
    script: { type: 'boolean', default: false },
    play: { type: 'boolean', default: false },
    out: { type: 'string', default: join(tmpdir(), 'voxpipe-voice-bot') },
    model: { type: 'string', default: process.env.VOXPIPE_MODEL ?? 'dd-etts-3.3' },
  },
});

/** Uses VOXPIPE_URL, or starts the reference service in this process (in-memory, any engine installed). */
async function speechService(): Promise<{ baseUrl: string; apiKey: string | undefined; local: RunningServer | undefined }> {
  if (process.env.VOXPIPE_URL) return { baseUrl: process.env.VOXPIPE_URL, apiKey: process.env.VOXPIPE_API_KEY, local: undefined };
  const apiKey = 'dd-00000000000000000000000000000b07';
  const local = await startServer({ port: 0, dataDir: ':memory:', apiKeys: [apiKey] });
  return { baseUrl: local.url, apiKey, local };
}

function player(): string[] | undefined {
  for (const candidate of [['aplay', '-q'], ['ffplay', '-nodisp', '-autoexit', '-loglevel', 'quiet']]) {
    if (spawnSync('which', [candidate[0] as string]).status === 0) return candidate;
  }
  return undefined;
}

async function* userLines(): AsyncIterable<string> {
  if (values.script) {
    for (const line of SCRIPT) {
      process.stdout.write(`you> ${line}\n`);
      yield line;
    }
    return;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: 'you> ' });
  rl.prompt();
  for await (const line of rl) {
    if (line.trim()) yield line.trim();
    rl.prompt();
  }
}

const service = await speechService();
const plan = planFormat({ kind: 'pcm', sampleRate: SAMPLE_RATE });
const session = await SpeechSession.connect({ baseUrl: service.baseUrl, ...(service.apiKey ? { apiKey: service.apiKey } : {}), config: { model: values.model, ...plan.request } });
const llm = exampleLlm();
const play = values.play ? player() : undefined;
const history: ChatMessage[] = [{ role: 'system', content: 'You are a friendly voice assistant. Answer in one or two short sentences.' }];
mkdirSync(values.out, { recursive: true });

let turnNo = 0;
try {
  for await (const line of userLines()) {
    history.push({ role: 'user', content: line });
    const signal = new AbortController().signal;
    const turn = session.turn();
    let reply = '';
    const tokens = (async function* () {
      for await (const token of llm(history, ++turnNo, signal)) {
        reply += token;
        yield token;
      }
    })();
    const writing = pipeTokens(turn, tokens, { config: session.config });
    const pcm: Buffer[] = [];
    for await (const chunk of turn.audio()) pcm.push(chunk.data);
    await writing;
    const metrics = await turn.done;
    history.push({ role: 'assistant', content: reply });
    const data = Buffer.concat(pcm);
    const file = join(values.out, `turn-${String(turnNo).padStart(2, '0')}.wav`);
    writeFileSync(file, Buffer.concat([encodeWavHeader(data.length, SAMPLE_RATE), data]));
    const ms = (v: number | undefined): string => (v === undefined ? '–' : `${Math.round(v)} ms`);
    process.stdout.write(`bot> ${reply}\n     ttfa from first token ${ms(metrics.ttfaFromFirstTokenMs)} · end→final ${ms(metrics.endToFinalMs)} · audio ${ms(metrics.audioMs)} · ${file}\n`);
    if (play) spawnSync(play[0] as string, [...play.slice(1), file], { stdio: 'ignore' });
  }
} finally {
  await session.close();
  await service.local?.close();
}
