/**
 * The Twilio bridge against the reference server, driven by a scripted fake Twilio client: greeting frames,
 * pacing, mark reconciliation, barge-in (`clear`, no stale audio, dropped marks ignored), the reply after
 * the caller's speech, and teardown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeMulaw } from '../../../src/audio/mulaw.js';
import type { RunningServer } from '../../../src/server/app.js';
import type { BotTurnEndEvent, BargeInEvent, FirstAudioEvent } from '../../../src/twilio/events.js';
import type { TwilioCall } from '../../../src/twilio/call.js';
import { FakeTwilioCaller } from '../../../src/twilio/fake-caller.js';
import { createTwilioBridgeServer, type TwilioBridgeServer } from '../../../src/twilio/server.js';
import { levelDbfs } from '../../../src/twilio/vad.js';
import { TEST_API_KEY, startTestServer, wsBase } from '../../helpers/server.js';

const GREETING = 'Hello! Thanks for calling. [happy] How can I help you?';
const GREETING_SPOKEN = 'Hello! Thanks for calling. How can I help you?';
const LONG_GREETING = 'Welcome to the voxpipe test line. This greeting is long on purpose, so that the caller can interrupt it. It goes on for a while, sentence after sentence, until somebody speaks.';
const REPLY = 'Sure, I can help with that.';

let server: RunningServer;
let bridge: TwilioBridgeServer;

async function* replyTokens(signal: AbortSignal): AsyncIterable<string> {
  for (const token of REPLY.match(/\S+\s*/g) ?? []) {
    if (signal.aborted) return;
    await new Promise((r) => setTimeout(r, 5));
    yield token;
  }
}

beforeAll(async () => {
  server = await startTestServer();
  bridge = await createTwilioBridgeServer({
    port: 0,
    speech: { url: wsBase(server), apiKey: TEST_API_KEY, config: { model: 'dd-etts-3.3' } },
    llm: (_history, _turn, signal) => replyTokens(signal),
    greeting: (start) => start.customParameters.greeting ?? GREETING,
    vad: { endMs: 300 },
  });
});
afterAll(async () => {
  await bridge.close();
  await server.close();
});

/** Collects a call's events until it ends. */
function record(call: TwilioCall) {
  const log = { firstAudio: [] as FirstAudioEvent[], turnEnds: [] as BotTurnEndEvent[], bargeIns: [] as BargeInEvent[], speechEndAt: [] as number[] };
  call.on('first-audio', (e) => log.firstAudio.push(e));
  call.on('turn-end', (e) => log.turnEnds.push(e));
  call.on('barge-in', (e) => log.bargeIns.push(e));
  call.on('speech-end', () => log.speechEndAt.push(performance.now()));
  return log;
}

function nextCall(): Promise<TwilioCall> {
  return new Promise((resolve) => bridge.once('call', resolve));
}

function turnEnd(call: TwilioCall, turn: number): Promise<BotTurnEndEvent> {
  return new Promise((resolve) => {
    const on = (e: BotTurnEndEvent): void => {
      if (e.turn !== turn) return;
      call.off('turn-end', on);
      resolve(e);
    };
    call.on('turn-end', on);
  });
}

describe('Twilio bridge', () => {
  it('speaks the greeting as paced 160-byte mu-law frames and reconciles the echoed marks', async () => {
    const calling = nextCall();
    const caller = await FakeTwilioCaller.connect(bridge.url);
    const call = await calling;
    const log = record(call);
    const ended = await turnEnd(call, 1);
    try {
      const media = caller.received.filter((e) => e.type === 'media');
      expect(media.length).toBeGreaterThan(25);
      expect(caller.badFrames).toBe(0);
      for (const frame of media) expect(frame.payload.length).toBe(160);
      // Real speech, not silence: the loudest frame is well above the noise.
      expect(Math.max(...media.map((m) => levelDbfs(decodeMulaw(m.payload))))).toBeGreaterThan(-30);
      // Paced near real time: sending 1 s of audio takes most of a second (100 ms lead), not a burst.
      const audioMs = media.length * 20;
      const spanMs = (media.at(-1)?.at ?? 0) - (media[0]?.at ?? 0);
      expect(spanMs).toBeGreaterThan(audioMs * 0.6 - 150);
      // Every mark was echoed after its audio "played" and the whole greeting counts as heard.
      const marks = caller.received.filter((e) => e.type === 'mark');
      expect(marks.length).toBeGreaterThan(0);
      expect(caller.echoedMarks).toBe(marks.length);
      expect(ended).toMatchObject({ kind: 'greeting', outcome: 'played', heardText: GREETING_SPOKEN, unheardText: '' });
      expect(ended.heardMs).toBe(audioMs);
      expect(ended.metrics?.outcome).toBe('final');
      expect(log.firstAudio).toEqual([expect.objectContaining({ turn: 1, kind: 'greeting' })]);
      expect(call.history).toEqual([{ role: 'assistant', content: GREETING_SPOKEN }]);
      expect(call.ignoredMarks).toBe(0);
    } finally {
      const end = new Promise((resolve) => call.once('end', resolve));
      await caller.stop();
      expect(await end).toBe('stop');
    }
    expect(bridge.calls.size).toBe(0);
  });

  it('barge-in clears, sends no stale audio, ignores dropped marks, then answers after the caller stops', async () => {
    const calling = nextCall();
    // A 300 ms jitter buffer: marks of the last 300 ms of audio are always pending when the clear arrives.
    const caller = await FakeTwilioCaller.connect(bridge.url, { customParameters: { greeting: LONG_GREETING }, jitterBufferMs: 300 });
    const call = await calling;
    const log = record(call);
    try {
      // Let the caller hear a second or so of the greeting (marks echoed as played), then talk over it.
      while (caller.mediaCount < 60) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      expect(caller.echoedMarks).toBeGreaterThan(0);
      while (caller.pendingMarks === 0) await new Promise((r) => setTimeout(r, 5));
      const interrupted = turnEnd(call, 1);
      const talking = caller.speak(1200);
      const clear = await caller.waitFor((e) => e.type === 'clear');
      await talking;
      const talkEndAt = performance.now();
      const greetingEnd = await interrupted;

      // Nothing of the cancelled greeting after the clear, for the whole time the caller kept talking.
      const afterClear = caller.received.slice(caller.received.indexOf(clear) + 1);
      expect(afterClear.filter((e) => e.type === 'media' && e.at < talkEndAt)).toEqual([]);
      expect(greetingEnd.outcome).toBe('interrupted');
      const [bargeIn] = log.bargeIns;
      expect(bargeIn?.speechStartToClearMs).toBeGreaterThanOrEqual(0);
      expect(bargeIn?.speechStartToLastFrameMs).toBe(0);
      // Heard + unheard is the whole greeting, split at a word: heard is what played before the clear.
      const heard = bargeIn?.heardText ?? '';
      expect(heard.length).toBeGreaterThan(0);
      expect(bargeIn?.unheardText.length).toBeGreaterThan(0);
      expect(`${heard} ${greetingEnd.unheardText}`).toBe(LONG_GREETING);
      expect(bargeIn?.heardMs).toBeLessThan(greetingEnd.sentMs);
      // The marks Twilio echoes for the dropped audio do not count as heard.
      expect(caller.pendingMarks).toBe(0);
      expect(call.ignoredMarks).toBeGreaterThan(0);
      expect(call.history).toEqual([{ role: 'assistant', content: heard }]);

      // The caller goes quiet: the bot answers, and only after the end of the caller's speech.
      const replied = turnEnd(call, 2);
      await caller.silence(500);
      const reply = await replied;
      expect(reply).toMatchObject({ kind: 'reply', outcome: 'played', heardText: REPLY });
      const replyFirstFrame = caller.received.find((e) => e.type === 'media' && e.at > clear.at);
      expect(replyFirstFrame?.at).toBeGreaterThan(log.speechEndAt[0] ?? Infinity);
      expect(log.firstAudio.map((e) => e.kind)).toEqual(['greeting', 'reply']);
      expect(caller.badFrames).toBe(0);
      expect(call.history.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
      expect(call.history[2]?.content).toBe(REPLY);
    } finally {
      await caller.stop();
    }
  });
});
