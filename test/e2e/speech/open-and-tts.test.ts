import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWavHeader } from '../../../src/audio/wav.js';
import { OPEN_LIMITS } from '../../../src/protocol/open.js';
import type { RunningServer } from '../../../src/server/app.js';
import { startTestServer, TEST_API_KEY } from '../../helpers/server.js';
import { connect, MODEL, type RawClient } from './harness.js';

describe('/open socket', () => {
  let server: RunningServer;
  let c: RawClient;
  beforeAll(async () => {
    server = await startTestServer();
    c = await connect(server, { path: '/open', auth: 'header' });
  });
  afterAll(async () => {
    await c.close();
    await server.close();
  });

  it('acknowledges, then streams indexed chunks ending with isFinished; requests run side by side', async () => {
    const from = c.messages.length;
    for (const id of ['g1', 'g2']) c.send({ action: 'text-to-speech', generationId: id, targetText: `Request ${id} is complete text.`, model: MODEL, locale: 'en-US', format: 's16le', sampleRate: 16000 });
    for (const id of ['g1', 'g2']) {
      await c.next((m) => m.generationId === id && m.isFinished === true, from);
      const mine = c.messages.slice(from).filter((m) => m.generationId === id);
      expect(mine[0]).toEqual({ data: '', generationId: id, isFinished: false });
      const chunks = mine.slice(1);
      expect(chunks.map((m) => m.index)).toEqual(chunks.map((_, i) => i));
      expect(chunks.at(-1)?.isFinished).toBe(true);
      expect(Buffer.concat(chunks.map((m) => Buffer.from(m.data as string, 'base64'))).length).toBeGreaterThan(16_000);
    }
  });

  it('reports errors with errorType and generationId', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ action: 'text-to-speech', generationId: 'e1', targetText: 'x', model: 'nope' }, 'InvalidInput', 'queue route not found for model: nope'],
      [{ action: 'text-to-speech', generationId: 'e2', targetText: 'x'.repeat(OPEN_LIMITS.maxTextChars + 1), model: MODEL }, 'MaxExceeded', `targetText exceeds ${OPEN_LIMITS.maxTextChars} characters`],
      [{ action: 'text-to-speech', generationId: 'e3', model: MODEL }, 'InvalidInput', 'targetText: Invalid input: expected string, received undefined'],
      [{ action: 'text-to-speech', generationId: 'e4', targetText: 'x', model: MODEL, voicePromptId: 'ghost' }, 'InvalidInput', 'voice prompt not found: ghost'],
    ];
    for (const [request, errorType, error] of cases) {
      const from = c.messages.length;
      c.send(request);
      const id = (request as { generationId: string }).generationId;
      expect(await c.next((m) => m.generationId === id, from)).toEqual({ error, errorType, generationId: id });
    }
    const from = c.messages.length;
    c.send('garbage');
    expect(await c.next((m) => typeof m.error === 'string', from)).toEqual({ error: 'Invalid message format', errorType: 'InvalidInput' });
  });
});

describe('POST /api/v1/tts', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  const post = (body: unknown, headers: Record<string, string> = { 'x-api-key': TEST_API_KEY, 'content-type': 'application/json' }) =>
    fetch(`${server.url}/api/v1/tts`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

  it('returns one WAV file with one header by default', async () => {
    const res = await post({ model: MODEL, targetText: 'One file please.', locale: 'en-US' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const bytes = Buffer.from(await res.arrayBuffer());
    const h = parseWavHeader(bytes);
    expect(h.sampleRate).toBe(48000);
    expect(h.dataBytes).toBe(bytes.length - h.dataOffset);
    expect(bytes.indexOf('RIFF', 4)).toBe(-1);
  });

  it('accepts a JSON body sent as text/plain, and other formats', async () => {
    const res = await post(JSON.stringify({ model: MODEL, targetText: 'Plain text body.', format: 'mulaw' }), { 'x-api-key': TEST_API_KEY, 'content-type': 'text/plain' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/basic');
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(8000);
    const mp3 = await post({ model: MODEL, targetText: 'Compressed.', format: 'mp3' });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await mp3.arrayBuffer())[0]).toBe(0xff); // MPEG frame sync
  });

  it('refuses a missing key (401) and bad input (400) with a message', async () => {
    expect((await post({ model: MODEL, targetText: 'x' }, { 'content-type': 'application/json' })).status).toBe(401);
    const noText = await post({ model: MODEL });
    expect(noText.status).toBe(400);
    expect(await noText.json()).toEqual({ success: false, message: 'targetText: Invalid input: expected string, received undefined' });
    const badModel = await post({ model: 'nope', targetText: 'x' });
    expect(badModel.status).toBe(400);
    expect((await badModel.json()).message).toBe('queue route not found for model: nope');
  });
});
