import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VoicesClient } from '../../../src/client/voices.js';
import { SPEECH_ERRORS } from '../../../src/protocol/speech.js';
import type { RunningServer } from '../../../src/server/app.js';
import { trackPitch } from '../../../src/server/audio-analysis/pitch-track.js';
import { startTestServer, TEST_API_KEY, wsBase } from '../../helpers/server.js';
import { openScriptedSocket } from './ws-session.js';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../unit/gender/fixtures/${name}`, import.meta.url)));

/** Speaks `text` with `voicePromptId` as 48 kHz s16le and returns the samples, or the session error message. */
async function speak(server: RunningServer, voicePromptId: string, text: string): Promise<Float32Array | string> {
  const ws = await openScriptedSocket(wsBase(server), TEST_API_KEY);
  try {
    await ws.waitFor((m) => m.action === 'status' && m.message === 'connected');
    ws.send({ action: 'stream-config', config: { model: 'dd-etts-3.0', voicePromptId, format: 's16le', sampleRate: 48_000, realtime: false } });
    ws.send({ action: 'stream-text', text });
    ws.send({ action: 'end-stream' });
    const end = await ws.waitFor((m) => m.isFinal === true || m.action === 'error', 20_000);
    if (end.action === 'error') return String(end.message);
    const pcm = Buffer.concat(ws.messages.filter((m) => typeof m.data === 'string').map((m) => Buffer.from(m.data as string, 'base64')));
    const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length >> 1);
    return Float32Array.from(samples, (s) => s / 32768);
  } finally {
    await ws.close();
  }
}

describe('an uploaded voice prompt on the speech socket', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('upload → speak with it at its measured pitch → delete → refused', async () => {
    const voices = new VoicesClient({ baseUrl: server.url, apiKey: TEST_API_KEY, maxRetries: 0 });
    const maleId = await voices.upload({ filename: 'low.wav', data: fixture('espeak-en-m3.wav') });
    const femaleId = await voices.upload({ filename: 'high.flac', data: fixture('espeak-en-f3.flac') });
    const male = await voices.get(maleId);
    const female = await voices.get(femaleId);
    const text = 'Hello there, this sentence is spoken with an uploaded voice prompt.';

    for (const prompt of [male, female]) {
      const audio = await speak(server, prompt.id, text);
      expect(typeof audio).not.toBe('string');
      const spoken = trackPitch(audio as Float32Array, 48_000);
      expect(spoken.voicedSeconds).toBeGreaterThan(0.5);
      expect(Math.abs((spoken.medianF0Hz ?? 0) - (prompt.pitchHz ?? 0)) / (prompt.pitchHz ?? 1)).toBeLessThan(0.15);
    }

    await voices.delete(maleId);
    await voices.delete(femaleId);
    expect(await speak(server, maleId, text)).toBe(SPEECH_ERRORS.voiceNotFound(maleId));
  });
});
