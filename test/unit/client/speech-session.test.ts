import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { SpeechSession, type SpeechSessionOptions } from '../../../src/client/speech-session.js';
import type { AudioChunk } from '../../../src/client/speech/audio-chunk.js';
import { TURN_CHANNEL, type TurnMetrics } from '../../../src/client/speech/turn-metrics.js';
import { VoxpipeError } from '../../../src/errors.js';
import { collect, codeOf, sayAll } from './test-utils.js';
import { startFakeServer, type FakeServer, type FakeServerOptions } from './fake-speech-server.js';

const KEY = 'dd-0123456789abcdef0123456789abcdef';
let server: FakeServer | undefined;
const sessions: SpeechSession[] = [];

async function setup(serverOptions: FakeServerOptions = {}, options: Partial<SpeechSessionOptions> = {}): Promise<{ server: FakeServer; session: SpeechSession }> {
  server = await startFakeServer({ apiKey: KEY, ...serverOptions });
  const session = await SpeechSession.connect({ baseUrl: server.url, apiKey: KEY, config: { model: 'dd-etts-3.3', format: 's16le' }, ...options });
  sessions.push(session);
  return { server, session };
}



afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  await server?.close();
  server = undefined;
});

describe('SpeechSession connect', () => {
  it('authenticates by header or query, sends the config, and learns the connection id', async () => {
    const { server: s, session } = await setup();
    expect(session.connectionId).toBe('conn-1');
    expect(s.received[0]).toEqual({ action: 'stream-config', config: { model: 'dd-etts-3.3', format: 's16le' } });
    const q = await SpeechSession.connect({ url: `${s.url}/ws`, apiKey: KEY, auth: 'query', config: { model: 'm' } });
    sessions.push(q);
    expect(q.connectionId).toBe('conn-2');
    const eu = await SpeechSession.connect({ region: 'eu', hosts: { us: 'ws://127.0.0.1:1', eu: s.url.replace('ws:', 'http:') }, apiKey: KEY, config: { model: 'm' } });
    sessions.push(eu);
    expect(eu.url).toBe(`${s.url}/ws`);
    expect(eu.connectionId).toBe('conn-3');
  });

  it('refuses a bad key with unauthorized and does not retry it', async () => {
    server = await startFakeServer({ apiKey: KEY });
    expect(await codeOf(SpeechSession.connect({ baseUrl: server.url, apiKey: 'dd-wrong', config: { model: 'm' } }))).toBe('unauthorized');
    expect(server.connections).toBe(0);
  });

  it('tolerates a server without a welcome', async () => {
    const { session } = await setup({ welcome: false }, { welcomeTimeoutMs: 20 });
    expect(session.connectionId).toBeUndefined();
    expect(session.state).toBe('open');
  });

  it('rejects a refused config with the session error text', async () => {
    server = await startFakeServer();
    const error = await SpeechSession.connect({ baseUrl: server.url, config: { model: 'nope' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'session_error', message: 'queue route not found for model: nope' });
  });

  it('refuses to connect with an already aborted signal', async () => {
    server = await startFakeServer();
    expect(await codeOf(SpeechSession.connect({ baseUrl: server.url, config: { model: 'm' }, signal: AbortSignal.abort() }))).toBe('aborted');
    expect(server.connections).toBe(0);
  });

  it('needs an endpoint: no hidden default host', async () => {
    expect(await codeOf(SpeechSession.connect({ config: { model: 'm' } }))).toBe('invalid_argument');
    expect(await codeOf(SpeechSession.connect({ region: 'eu', hosts: { us: 'wss://x' }, config: { model: 'm' } }))).toBe('invalid_argument');
  });
});

describe('SpeechSession turns', () => {
  it('delivers every generation of a turn in order and resolves on isFinal, not on isFinished', async () => {
    const { session } = await setup({ chunksPerGeneration: 3, chunkBytes: 960 });
    const seen: TurnMetrics[] = [];
    const listener = (m: unknown): void => void seen.push(m as TurnMetrics);
    subscribe(TURN_CHANNEL, listener);
    const turn = session.turn();
    turn.write('Hello ');
    turn.write('world.');
    turn.end();
    const chunks = await collect(turn.audio());
    const metrics = await turn.done;
    unsubscribe(TURN_CHANNEL, listener);
    const audio = chunks.filter((c) => c.data.length > 0);
    expect(audio.map((c) => `${c.generationId}:${c.index}`)).toEqual(['gen-1:0', 'gen-1:1', 'gen-1:2', 'gen-2:0', 'gen-2:1', 'gen-2:2']);
    expect(chunks.filter((c) => c.isFinished).length).toBe(3);
    expect(chunks.at(-1)?.isFinal).toBe(true);
    expect(chunks.slice(0, -1).every((c) => !c.isFinal)).toBe(true);
    expect(metrics).toMatchObject({ outcome: 'final', chunkCount: 7, generationCount: 2, audioBytes: 6 * 960, audioMs: 60, staleChunksDropped: 0 });
    expect(metrics.ttfaFromFirstTextMs).toBeGreaterThan(0);
    expect(metrics.endToFinalMs).toBeGreaterThanOrEqual(0);
    expect(metrics.maxChunkGapMs).toBeGreaterThanOrEqual(metrics.avgChunkGapMs ?? Infinity);
    expect(seen).toEqual([metrics]);
  });

  it('refuses a second turn while one runs, and allows one after the first ended', async () => {
    const { session } = await setup();
    const first = session.turn();
    first.write('one');
    expect(() => session.turn()).toThrow(expect.objectContaining({ code: 'conflict' }));
    first.end();
    await collect(first.audio());
    expect((await sayAll(session, 'two')).length).toBeGreaterThan(0);
  });

  it('completes a turn with no text locally', async () => {
    const { server: s, session } = await setup();
    const turn = session.turn();
    turn.end();
    expect(await turn.done).toMatchObject({ outcome: 'final', chunkCount: 0 });
    expect(s.received.filter((m) => m.action === 'end-stream')).toHaveLength(0);
  });

  it('surfaces a worker error as a GenerationError and lets the turn finish', async () => {
    const { session } = await setup();
    const errors: VoxpipeError[] = [];
    session.on('generationError', (e) => errors.push(e));
    const turn = session.turn();
    turn.write('FAIL');
    turn.write('fine');
    turn.end();
    const chunks = await collect(turn.audio());
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'generation_error', generationId: 'gen-1', message: 'worker exploded' });
    expect(turn.generationErrors).toEqual(errors);
    expect(chunks.at(-1)?.isFinal).toBe(true);
    expect((await turn.done).generationErrorCount).toBe(1);
  });

  it('fails the turn on a session error, emits it, and stays usable', async () => {
    const { server: s, session } = await setup({ chunkIntervalMs: 5, chunksPerGeneration: 50 });
    const emitted: VoxpipeError[] = [];
    session.on('error', (e) => emitted.push(e));
    const turn = session.turn();
    turn.write('text');
    const reading = collect(turn.audio());
    await new Promise((r) => setTimeout(r, 10));
    s.broadcast(JSON.stringify({ action: 'error', message: 'voicePrompt exceeds maximum size of 1MB', time: 5 }));
    expect(await codeOf(reading)).toBe('session_error');
    expect(await codeOf(turn.done)).toBe('session_error');
    expect(emitted[0]).toMatchObject({ code: 'session_error', time: 5 });
    const chunks = await sayAll(session, 'again');
    expect(new Set(chunks.map((c) => c.generationId))).toEqual(new Set(['gen-2']));
  });

  it('rejects audio that is not valid base64 with protocol_error', async () => {
    const { session } = await setup();
    const turn = session.turn();
    turn.write('BADB64');
    expect(await codeOf(collect(turn.audio()))).toBe('protocol_error');
  });

  it('reports a malformed frame as a protocol error event without breaking the turn', async () => {
    const { server: s, session } = await setup();
    const emitted: VoxpipeError[] = [];
    session.on('error', (e) => emitted.push(e));
    const turn = session.turn();
    s.broadcast('not json');
    turn.write('hi');
    turn.end();
    await collect(turn.audio());
    expect(emitted.map((e) => e.code)).toEqual(['protocol_error']);
  });

  it('keeps every chunk in order for a slow consumer with a tiny buffer', async () => {
    const { session } = await setup({ chunksPerGeneration: 40, chunkIntervalMs: 0 }, { turn: { maxBufferedChunks: 2 } });
    const turn = session.turn();
    turn.write('slow');
    turn.end();
    const pause = vi.spyOn(WebSocket.prototype, 'pause');
    const resume = vi.spyOn(WebSocket.prototype, 'resume');
    const indexes: Array<number | undefined> = [];
    let paused = 0;
    let resumed = 0;
    try {
      for await (const chunk of turn.audio()) {
        indexes.push(chunk.index);
        await new Promise((r) => setTimeout(r, 4));
      }
      paused = pause.mock.calls.length;
      resumed = resume.mock.calls.length;
    } finally {
      pause.mockRestore();
      resume.mockRestore();
    }
    expect(indexes.slice(0, 40)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(paused).toBeGreaterThan(0);
    expect(resumed).toBeGreaterThanOrEqual(paused);
  });
});

describe('SpeechSession barge-in', () => {
  it('delivers nothing after cancel, waits for the acknowledgement, and is reusable', async () => {
    const { server: s, session } = await setup({ chunksPerGeneration: 200, chunkIntervalMs: 1 });
    const turn = session.turn();
    turn.write('a long answer');
    const delivered: AudioChunk[] = [];
    let cancelledAt = -1;
    let after = 0;
    const reading = (async () => {
      for await (const chunk of turn.audio()) {
        if (cancelledAt >= 0) after++;
        delivered.push(chunk);
        if (delivered.length === 5) {
          const pending = turn.cancel();
          cancelledAt = delivered.length;
          const result = await pending;
          expect(result.acknowledged).toBe(true);
          expect(result.metrics.outcome).toBe('cancelled');
          expect(result.metrics.cancelAckMs).toBeGreaterThanOrEqual(0);
          expect(result.metrics.timeToSilenceMs).toBeGreaterThanOrEqual(0);
        }
      }
    })();
    await reading;
    expect(after).toBe(0);
    expect(delivered).toHaveLength(5);
    expect(s.received.some((m) => m.action === 'cancel')).toBe(true);
    const chunks = await sayAll(session, 'next');
    expect(chunks.every((c) => c.generationId !== 'gen-1')).toBe(true);
    expect(chunks.at(-1)?.isFinal).toBe(true);
  });

  it('cancels when the consumer leaves the loop early, and when the signal aborts', async () => {
    const { server: s, session } = await setup({ chunksPerGeneration: 200 });
    const turn = session.turn();
    turn.write('x');
    for await (const chunk of turn.audio()) {
      expect(chunk.generationId).toBe('gen-1');
      break;
    }
    expect((await turn.done).outcome).toBe('cancelled');
    const controller = new AbortController();
    const aborted = session.turn({ signal: controller.signal });
    aborted.write('y');
    const reading = collect(aborted.audio());
    await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await reading;
    expect((await aborted.done).outcome).toBe('cancelled');
    expect(s.received.filter((m) => m.action === 'cancel')).toHaveLength(2);
  });

  it('lets a new turn start right after cancel() and holds its text until the acknowledgement', async () => {
    const { session } = await setup({ chunksPerGeneration: 100 });
    const old = session.turn();
    old.write('old');
    await new Promise((r) => setTimeout(r, 5));
    void old.cancel();
    const chunks = await sayAll(session, 'new');
    expect(new Set(chunks.map((c) => c.generationId))).toEqual(new Set(['gen-2']));
  });

  it('gives up waiting for an acknowledgement after the timeout', async () => {
    const { session } = await setup({ cancelAck: false, chunksPerGeneration: 1000 }, { turn: { cancelTimeoutMs: 30 } });
    const turn = session.turn();
    turn.write('x');
    await new Promise((r) => setTimeout(r, 5));
    const result = await turn.cancel();
    expect(result.acknowledged).toBe(false);
    expect(result.metrics.cancelAckMs).toBeUndefined();
    expect(result.metrics.staleChunksDropped).toBeGreaterThan(0);
  });
});

describe('SpeechSession connection loss', () => {
  it('fails a running turn with connection_closed, then reconnects and re-sends the config', async () => {
    const { server: s, session } = await setup({ chunksPerGeneration: 500 }, { reconnect: { baseDelayMs: 5, maxDelayMs: 20 } });
    const turn = session.turn();
    turn.write('x');
    const reading = collect(turn.audio());
    await new Promise((r) => setTimeout(r, 10));
    const reconnected = new Promise((r) => session.once('connected', r));
    for (const ws of s.sockets) ws.terminate();
    expect(await codeOf(reading)).toBe('connection_closed');
    await reconnected;
    expect(session.connectionId).toBe('conn-2');
    expect(s.received.filter((m) => m.action === 'stream-config')).toHaveLength(2);
    expect((await sayAll(session, 'again')).at(-1)?.isFinal).toBe(true);
  });

  it('holds text written while reconnecting and sends it once connected', async () => {
    const { server: s, session } = await setup({}, { reconnect: { baseDelayMs: 20, maxDelayMs: 20 } });
    const dropped = new Promise((r) => session.once('disconnected', r));
    session.terminateSocket();
    await dropped;
    expect(session.state).toBe('reconnecting');
    expect((await sayAll(session, 'queued')).at(-1)?.isFinal).toBe(true);
    expect(s.connections).toBe(2);
  });

  it('treats a missing pong as a dead socket', async () => {
    const { session } = await setup({ pong: false }, { verifyConfig: false, pingIntervalMs: 10, pongTimeoutMs: 10, reconnect: false });
    const errors: VoxpipeError[] = [];
    session.on('error', (e) => errors.push(e));
    await new Promise<void>((r) => session.once('close', r));
    expect(session.state).toBe('closed');
    expect(() => session.turn()).toThrow(expect.objectContaining({ code: 'connection_closed' }));
  });

  it('answers ping with the round-trip time', async () => {
    const { session } = await setup();
    expect(await session.ping()).toBeGreaterThanOrEqual(0);
  });

  it('closes for good when every reconnect attempt fails, failing the running turn', async () => {
    const { server: s, session } = await setup({}, { reconnect: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    const errors: VoxpipeError[] = [];
    session.on('error', (e) => errors.push(e));
    const closed = new Promise<void>((r) => session.once('close', r));
    await s.close();
    await closed;
    expect(errors.at(-1)?.code).toBe('connection_failed');
    expect(() => session.turn()).toThrow(expect.objectContaining({ code: 'connection_closed' }));
  });
});

describe('SpeechSession API edges', () => {
  it('refuses writes after end and a second audio() reader', async () => {
    const { session } = await setup();
    const turn = session.turn();
    turn.write('x');
    turn.end();
    expect(() => turn.write('more')).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    const audio = turn.audio();
    expect(() => turn.audio()).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    await collect(audio);
  });

  it('closes the session when its signal aborts', async () => {
    const controller = new AbortController();
    const { session } = await setup({}, { signal: controller.signal });
    const closed = new Promise<void>((r) => session.once('close', r));
    controller.abort();
    await closed;
    expect(session.state).toBe('closed');
  });

  it('cancels a turn whose signal is already aborted without sending anything', async () => {
    const { server: s, session } = await setup();
    const turn = session.turn({ signal: AbortSignal.abort() });
    expect((await turn.done).outcome).toBe('cancelled');
    expect(s.received.filter((m) => m.action === 'stream-text' || m.action === 'cancel')).toHaveLength(0);
  });

  it('fails the running turn with connection_closed when the session is closed', async () => {
    const { session } = await setup({ chunksPerGeneration: 1000 });
    const turn = session.turn();
    turn.write('x');
    const reading = codeOf(collect(turn.audio()));
    await session.close();
    expect(await reading).toBe('connection_closed');
    expect(session.state).toBe('closed');
  });

  it('re-configures mid-session, verifies the new config, and keeps it for reconnects', async () => {
    const { server: s, session } = await setup({}, { reconnect: { baseDelayMs: 1, maxDelayMs: 5 } });
    await session.configure({ model: 'dd-etts-2.5', locale: 'fr-FR' });
    expect(await codeOf(session.configure({ model: 'nope' }))).toBe('session_error');
    await session.configure({ model: 'dd-etts-2.5', locale: 'fr-FR' });
    const reconnected = new Promise((r) => session.once('connected', r));
    session.terminateSocket();
    await reconnected;
    expect(s.received.filter((m) => m.action === 'stream-config').at(-1)).toEqual({ action: 'stream-config', config: { model: 'dd-etts-2.5', locale: 'fr-FR' } });
  });

  it('sends the held text of a turn started during a cancel in order, after the acknowledgement', async () => {
    const { server: s, session } = await setup({ chunksPerGeneration: 100 });
    const old = session.turn();
    old.write('old');
    await new Promise((r) => setTimeout(r, 3));
    const cancelling = old.cancel();
    const fresh = session.turn();
    fresh.write('a');
    fresh.write('b');
    fresh.end();
    expect(s.received.filter((m) => m.text === 'a')).toHaveLength(0);
    await cancelling;
    await collect(fresh.audio());
    const actions = s.received.map((m) => (m.action === 'stream-text' ? `text:${String(m.text)}` : String(m.action)));
    expect(actions.slice(actions.indexOf('cancel'))).toEqual(['cancel', 'text:a', 'text:b', 'end-stream']);
  });
});

describe('SpeechSession delivery epoch', () => {
  it('drops a chunk already handed to a pending read when cancel() runs before the reader resumes', async () => {
    const { session } = await setup({ chunksPerGeneration: 100 });
    const turn = session.turn();
    turn.write('x');
    const iterator = turn.audio()[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    const read = iterator.next(); // served from the buffer: the chunk is already chosen
    void turn.cancel();
    expect(await read).toEqual({ value: undefined, done: true });
  });
});

describe('SpeechSession drained', () => {
  it('is true when idle or once a cancelled turn is acknowledged, false for a turn still open', async () => {
    const { session } = await setup({ chunksPerGeneration: 100 });
    expect(await session.drained(100)).toBe(true);
    const cancelled = session.turn();
    cancelled.write('x');
    void cancelled.cancel();
    expect(await session.drained(1000)).toBe(true);
    expect(session.idle).toBe(true);
    const open = session.turn();
    open.write('still writing');
    expect(await session.drained(1000)).toBe(false);
    await open.cancel();
  });
});
