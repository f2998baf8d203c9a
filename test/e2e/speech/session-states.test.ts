import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../../src/audio/wav.js';
import type { RunningServer } from '../../../src/server/app.js';
import { startTestServer, wsBase } from '../../helpers/server.js';
import { connect, MODEL, type RawClient } from './harness.js';

/** A mono 48 kHz WAV voice prompt of `seconds` of a 120 Hz buzz (valid for inline cloning). */
function promptWav(options: { rate?: number; channels?: number; seconds?: number } = {}): Buffer {
  const rate = options.rate ?? 48_000;
  const channels = options.channels ?? 1;
  const n = Math.round((options.seconds ?? 1) * rate) * channels;
  const pcm = new Int16Array(n);
  for (let i = 0; i < n; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 120 * Math.floor(i / channels)) / rate) ** 3);
  return encodeWav(pcm, rate, channels);
}

describe('speech socket: session states and errors', () => {
  let server: RunningServer;
  const open: RawClient[] = [];
  const client = async (options?: Parameters<typeof connect>[1]): Promise<RawClient> => {
    const c = await connect(server, options);
    open.push(c);
    return c;
  };
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await server.close();
  });

  it('sends the welcome status with a connectionId before the client says anything', async () => {
    const c = await client();
    const welcome = await c.next(() => true);
    expect(welcome).toEqual({ action: 'status', message: 'connected', connectionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('accepts the key in the header or the query and rejects a missing or bad key with 401', async () => {
    const header = await client({ auth: 'header' });
    expect(await header.next((m) => m.action === 'status')).toMatchObject({ message: 'connected' });
    for (const url of [`${wsBase(server)}/ws`, `${wsBase(server)}/ws?x-api-key=dd-ffffffffffffffffffffffffffffffff`]) {
      const ws = new WebSocket(url);
      const status = await new Promise<number>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
      expect(status).toBe(401);
    }
  });

  it('errors on stream-text before config and keeps the session open', async () => {
    const c = await client();
    c.send({ action: 'stream-text', text: 'Hello.' });
    const error = await c.next((m) => m.action === 'error');
    expect(error).toEqual({ action: 'error', message: "please send 'stream-config' action with model before streaming text", time: expect.any(Number) });
    expect(Math.abs((error.time as number) - Date.now() / 1000)).toBeLessThan(5);
    await c.roundTrip();
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('answers every configuration error with the exact spec text and no reply on success', async () => {
    const c = await client();
    await c.next((m) => m.action === 'status');
    const expectError = async (message: unknown, text: string): Promise<void> => {
      const from = c.messages.length;
      c.send(message);
      expect((await c.next((m) => m.action === 'error', from)).message).toBe(text);
    };
    await expectError('{not json', 'Invalid message format');
    await expectError({ action: 'stream-config', config: { format: 'mp3' } }, 'model is required in configuration');
    await expectError({ action: 'stream-config', config: { model: 'nope-1' } }, 'queue route not found for model: nope-1');
    await expectError({ action: 'stream-config', config: { model: MODEL, voicePrompt: 'A'.repeat(1_500_000) } }, 'voicePrompt exceeds maximum size of 1MB');
    await expectError({ action: 'stream-config', config: { model: MODEL, voicePrompt: 'not*base64!' } }, 'voicePrompt must be base64-encoded: invalid base64 character "*" at position 3');
    await expectError({ action: 'stream-config', config: { model: MODEL, voicePrompt: Buffer.from('hello world, not audio').toString('base64') } }, 'voicePrompt is not a WAV file: missing RIFF header');
    await expectError({ action: 'stream-config', config: { model: MODEL, voicePrompt: promptWav({ channels: 2 }).toString('base64') } }, 'voicePrompt must be mono (1 channel), got 2 channels');
    await expectError({ action: 'stream-config', config: { model: MODEL, voicePrompt: promptWav({ rate: 44_100 }).toString('base64') } }, 'voicePrompt must be 48000Hz sample rate, got 44100Hz');
    // success: no reply at all (the next message is the pong), config under `data`, unknown keys tolerated, binary frame
    const from = c.messages.length;
    c.ws.send(Buffer.from(JSON.stringify({ action: 'stream-config', data: { model: MODEL, someFutureKey: 1, voicePrompt: promptWav().toString('base64') } })), { binary: true });
    await c.roundTrip();
    expect(c.messages.slice(from).map((m) => m.action)).toEqual(['pong']);
    // and the session works after all those errors
    const turnFrom = c.messages.length;
    c.send({ action: 'stream-text', text: 'Cloned voice speaking.' });
    c.send({ action: 'end-stream' });
    expect(await c.next((m) => m.isFinal === true, turnFrom)).toMatchObject({ isFinished: true });
  });

  it('answers ping with pong', async () => {
    const c = await client();
    c.send({ action: 'ping' });
    expect(await c.next((m) => m.action !== 'status')).toEqual({ action: 'pong' });
  });

  it('accepts text top-level or under data and refuses an unknown action', async () => {
    const c = await client();
    c.send({ action: 'stream-config', config: { model: MODEL, format: 's16le', realtime: false } });
    const from = c.messages.length;
    c.send({ action: 'stream-text', data: { text: 'Under data. ' } });
    c.send({ action: 'dance' });
    expect((await c.next((m) => m.action === 'error', from)).message).toBe('unknown action: dance');
    c.send({ action: 'end-stream' });
    const final = await c.next((m) => m.isFinal === true, from);
    expect(c.messages.slice(from).some((m) => m.generationId === final.generationId || typeof m.data === 'string')).toBe(true);
  });
});
