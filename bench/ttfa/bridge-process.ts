/**
 * The Twilio bridge under test, in its own process (so the load generator does not share its event loop).
 * Prints `bridge listening on URL`, then posts every first-audio and barge-in figure to the parent over IPC.
 *
 *   node --import tsx bench/ttfa/bridge-process.ts SPEECH_URL API_KEY [realtime=1]
 */
import { subscribe } from 'node:diagnostics_channel';
import { TURN_CHANNEL, type TurnMetrics } from '../../src/client/speech/turn-metrics.js';
import { createTwilioBridgeServer } from '../../src/twilio/index.js';
import { scriptedTokens } from '../../examples/shared/llm.js';

const [speechUrl = '', apiKey = '', realtime = '1'] = process.argv.slice(2);
const paced = realtime === '1';
const REPLY = 'Sure, I can help with that. Let me check your booking for next week, it will only take a moment.';

const bridge = await createTwilioBridgeServer({
  port: 0,
  speech: { url: speechUrl, apiKey, config: { model: 'dd-etts-3.3', realtime: paced }, pingIntervalMs: 0 },
  greeting: 'Hello! Thanks for calling. How can I help you?',
  // An LLM that answers at once (first token after 0 ms, then a token every 10 ms): TTFA is the bridge + service share.
  llm: (_history, _turn, signal) => scriptedTokens(REPLY, { firstTokenMs: 0, tokenMs: 10, signal }),
  pacing: { realtime: paced },
  maxCalls: 5000,
});
const send = (message: object): void => void process.send?.(message);
bridge.on('call', (call) => {
  call.on('first-audio', (e) => send({ type: 'first-audio', kind: e.kind, ms: e.ttfaMs }));
  call.on('barge-in', (e) => send({ type: 'barge-in', clearMs: e.speechStartToClearMs, lastFrameMs: e.speechStartToLastFrameMs }));
});
// Every speech turn's metrics (cancelled ones too): the service's share of the time to first audio.
subscribe(TURN_CHANNEL, (metrics) => {
  const ms = (metrics as TurnMetrics).ttfaFromFirstTextMs;
  if (ms !== undefined) send({ type: 'service-ttfa', ms });
});
process.stdout.write(`bridge listening on ${bridge.url}\n`);
process.once('SIGTERM', () => {
  void bridge.close().then(() => process.exit(0));
});
