/**
 * Twilio Media Streams ⇄ voxpipe: run this, expose the port (ngrok), point a TwiML `<Connect><Stream>` at
 * `wss://your-host/twilio`, and call your number. See README.md.
 *
 *   VOXPIPE_URL=ws://127.0.0.1:8080 VOXPIPE_API_KEY=dd-... PORT=5050 npx tsx examples/twilio-bridge/main.ts
 */
import { createLogger } from '../../src/logger.js';
import { createTwilioBridgeServer } from '../../src/twilio/index.js';
import { exampleLlm } from '../shared/llm.js';

const env = process.env;
const logger = createLogger({ name: 'twilio-bridge' });
const llm = exampleLlm(env);

const bridge = await createTwilioBridgeServer({
  port: Number(env.PORT ?? 5050),
  host: env.HOST ?? '127.0.0.1',
  speech: {
    url: env.VOXPIPE_URL ?? 'ws://127.0.0.1:8080',
    ...(env.VOXPIPE_API_KEY ? { apiKey: env.VOXPIPE_API_KEY } : {}),
    config: { model: env.VOXPIPE_MODEL ?? 'dd-etts-3.3', ...(env.VOXPIPE_VOICE ? { voicePromptId: env.VOXPIPE_VOICE } : {}) },
  },
  systemPrompt: 'You are a friendly phone assistant. Answer in one or two short sentences.',
  greeting: (start) => start.customParameters.greeting ?? 'Hi! Thanks for calling voxpipe. [happy] How can I help you today?',
  // The greeting is bot turn 1: the first reply uses scripted reply 1, and so on.
  llm: (history, turn, signal) => llm([...history], turn - 1, signal),
  vad: { endMs: Number(env.VAD_END_MS ?? 500), thresholdDb: Number(env.VAD_THRESHOLD_DB ?? 12) },
  pacing: { leadMs: Number(env.LEAD_MS ?? 100) },
  logger,
});

bridge.on('call', (call) => {
  call.on('first-audio', (e) => logger.info({ turn: e.turn, kind: e.kind, ttfaMs: Math.round(e.ttfaMs) }, 'first audio'));
  call.on('barge-in', (e) => logger.info({ turn: e.turn, toClearMs: e.speechStartToClearMs, heardMs: e.heardMs }, 'caller barged in'));
  call.on('turn-end', (e) => logger.info({ turn: e.turn, outcome: e.outcome, sentMs: e.sentMs, heardMs: e.heardMs }, 'bot turn ended'));
  call.on('dtmf', (digit) => logger.info({ digit }, 'dtmf'));
});

process.stdout.write(`twilio bridge listening on ${bridge.url}\n`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void bridge.close().then(() => process.exit(0));
  });
}
