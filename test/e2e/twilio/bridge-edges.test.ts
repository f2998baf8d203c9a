/**
 * Bridge edge cases against the reference server: a pooled speech session (configured for mu-law 8 kHz
 * while borrowed, returned at hang-up), DTMF, barge-in while the bot is still thinking (no clear), an
 * unreachable speech service, and spoken text kept out of logs when the session disables logging.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionPool } from '../../../src/client/pool.js';
import type { RunningServer } from '../../../src/server/app.js';
import type { BargeInEvent, BotTurnEndEvent, CallEndReason } from '../../../src/twilio/events.js';
import type { TwilioCall } from '../../../src/twilio/call.js';
import { FakeTwilioCaller } from '../../../src/twilio/fake-caller.js';
import { createTwilioBridgeServer, type TwilioBridgeServerOptions } from '../../../src/twilio/server.js';
import { TEST_API_KEY, startTestServer, wsBase } from '../../helpers/server.js';

const GREETING = 'Good morning, caller.';

let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** Runs `fn` with a bridge of `options` and one connected fake caller, closing both afterwards. */
async function withCall(options: Partial<TwilioBridgeServerOptions>, fn: (call: TwilioCall, caller: FakeTwilioCaller) => Promise<void>): Promise<void> {
  const bridge = await createTwilioBridgeServer({
    port: 0,
    speech: { url: wsBase(server), apiKey: TEST_API_KEY, config: { model: 'dd-etts-3.3', realtime: false } },
    llm: () => 'Fine.',
    greeting: GREETING,
    pacing: { realtime: false },
    vad: { endMs: 200 },
    ...options,
  });
  const calling = new Promise<TwilioCall>((resolve) => bridge.once('call', resolve));
  const caller = await FakeTwilioCaller.connect(bridge.url, { playback: 'instant' });
  try {
    await fn(await calling, caller);
  } finally {
    await caller.close();
    await bridge.close();
  }
}

const once = <T>(call: TwilioCall, event: 'turn-end' | 'barge-in' | 'end' | 'dtmf' | 'error'): Promise<T> =>
  new Promise((resolve) => call.once(event, ((value: T) => resolve(value)) as never));

describe('Twilio bridge edge cases', () => {
  it('borrows a pooled session for the call, in the Twilio format, and returns it at hang-up', async () => {
    const pool = await SessionPool.create({ url: `${wsBase(server)}/ws`, apiKey: TEST_API_KEY, config: { model: 'dd-etts-3.3', realtime: false }, minSize: 1, maxSize: 1 });
    try {
      await withCall({ speech: pool }, async (call, caller) => {
        const greeting = await once<BotTurnEndEvent>(call, 'turn-end');
        expect(greeting).toMatchObject({ outcome: 'played', heardText: GREETING });
        expect(caller.badFrames).toBe(0);
        expect(pool.idleCount).toBe(0);
        const ended = once<CallEndReason>(call, 'end');
        await caller.stop();
        expect(await ended).toBe('stop');
      });
      expect(pool.idleCount).toBe(1);
      // The pooled session still speaks Twilio's format for the next call.
      await pool.withSession((session) => expect(session.config).toMatchObject({ format: 'mulaw', sampleRate: 8000 }));
    } finally {
      await pool.close();
    }
  });

  it('reports DTMF digits, and ends the call when the socket drops without a stop', async () => {
    await withCall({ greeting: undefined }, async (call, caller) => {
      const digit = once<string>(call, 'dtmf');
      caller.dtmf('7');
      expect(await digit).toBe('7');
      const ended = once<CallEndReason>(call, 'end');
      await caller.close();
      expect(await ended).toBe('socket-closed');
    });
  });

  it('caller speech while the bot is still thinking cancels the reply without a clear', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* slowLlm(signal: AbortSignal): AsyncIterable<string> {
      await Promise.race([gate, new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]);
      if (!signal.aborted) yield 'Too late.';
    }
    await withCall({ greeting: undefined, llm: (_h, _t, signal) => slowLlm(signal) }, async (call, caller) => {
      const firstEnd = once<BotTurnEndEvent>(call, 'turn-end');
      await caller.speak(100);
      await caller.silence(240);
      const bargeIn = once<BargeInEvent>(call, 'barge-in');
      await caller.speak(100);
      expect(await bargeIn).toMatchObject({ turn: 1, kind: 'reply', speechStartToClearMs: undefined, heardText: '', unheardText: '' });
      expect(await firstEnd).toMatchObject({ outcome: 'interrupted', sentMs: 0, ttfaMs: undefined });
      release();
      expect(caller.received.filter((e) => e.type === 'clear' || e.type === 'media')).toEqual([]);
    });
  });

  it('ends the call when the speech service is unreachable', async () => {
    await withCall({ speech: { url: 'ws://127.0.0.1:1/ws', apiKey: TEST_API_KEY, config: { model: 'dd-etts-3.3' }, reconnect: false } }, async (call) => {
      const error = once<Error>(call, 'error');
      const ended = once<CallEndReason>(call, 'end');
      expect(await error).toBeInstanceOf(Error);
      expect(await ended).toBe('speech-unavailable');
    });
  });

  it('logs heard text only when the session allows logging', async () => {
    for (const enableLogging of [true, false]) {
      const lines: string[] = [];
      const logger = pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _enc, done) {
            lines.push(chunk.toString());
            done();
          },
        }),
      );
      const greeting = 'Secret greeting words that go on for quite a while, long enough to interrupt them.';
      await withCall(
        { logger, greeting, pacing: { realtime: true }, speech: { url: wsBase(server), apiKey: TEST_API_KEY, config: { model: 'dd-etts-3.3', enableLogging } } },
        async (call, caller) => {
          while (caller.mediaCount < 60) await new Promise((r) => setTimeout(r, 20));
          const bargeIn = once<BargeInEvent>(call, 'barge-in');
          await caller.speak(100);
          expect((await bargeIn).heardText).toMatch(/^Secret/);
        },
      );
      expect(lines.some((line) => line.includes('"msg":"barge-in"'))).toBe(true);
      expect(lines.some((line) => line.includes('Secret'))).toBe(enableLogging);
    }
  });
});
